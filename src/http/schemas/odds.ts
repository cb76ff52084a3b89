import { Type } from 'typebox';
import { ODD_TYPES } from '../../domain/enumerations.ts';
import { StringEnum } from '../../shapes/common.ts';

export const EventOddsParams = Type.Object({
  eventId: Type.String({ maxLength: 200, description: '<sport_key>:<uuid> (a bare uuid is accepted too)' }),
  oddType: StringEnum(ODD_TYPES, { description: 'odd type' }),
});

export const SgpBody = Type.Union(
  [
    Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 20 }),
    Type.Object(
      { oddIds: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 20 }) },
      { additionalProperties: true },
    ),
  ],
  { description: 'odd ids (or outcomeIds) of one event: an array, or { "oddIds": [...] }; at most 20' },
);
