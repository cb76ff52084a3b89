import { Type } from 'typebox';

export const SportEventParams = Type.Object({
  eventId: Type.String({ maxLength: 200, description: '`<sport_key>:<uuid>`; a bare uuid is accepted too' }),
});
export const SportOddsParams = Type.Object({
  id: Type.String({ maxLength: 200, description: '`<sport_key>:<uuid>` or the bare uuid' }),
});
export const JaiAlaiCardParams = Type.Object({
  id: Type.String({
    maxLength: 200,
    description:
      'a Jai Alai card id `<prefix>:<YYYY-MM-DD>_<text>` (prefix without a colon), as `cardId` in the event list and the event document',
  }),
});
export const BracketParams = Type.Object({
  tourYearId: Type.String({ maxLength: 200, description: 'the season id, `tourYearId` in the 3ICE event detail' }),
});
