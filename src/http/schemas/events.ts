import { Type } from 'typebox';

export const EventIdParams = Type.Object({
  eventId: Type.String({ maxLength: 200, description: '<sport_key>:<uuid> (a bare uuid is accepted too)' }),
});
