import { Type } from 'typebox';

export const HeatParams = Type.Object({
  eventId: Type.String({ maxLength: 200, description: '<sport_key>:<uuid> (a bare uuid is accepted too)' }),
  heatId: Type.String({ maxLength: 200, description: 'the heat id from the event document' }),
});
