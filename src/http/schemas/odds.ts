import { Type } from 'typebox';
import { MAX_SGP_LEGS } from '../../config.ts';
import { ODD_TYPES } from '../../domain/enumerations.ts';
import { StringEnum } from '../../shapes/common.ts';

export const EventOddsParams = Type.Object({
  eventId: Type.String({ maxLength: 200, description: '<sport_key>:<uuid> (a bare uuid is accepted too)' }),
  oddType: StringEnum(ODD_TYPES, { description: 'odd type' }),
});

/** Ids a parlay body may hold: past SGP_MAX_LEGS they are a 422 naming the legs too many, past this a 400. */
export const MAX_BODY_IDS = 2 * MAX_SGP_LEGS;
const OddIds = Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: MAX_BODY_IDS });

export const SgpBody = Type.Union([OddIds, Type.Object({ oddIds: OddIds }, { additionalProperties: true })], {
  description: `odd ids (or outcomeIds) of one event: an array, or { "oddIds": [...] }; legs past SGP_MAX_LEGS are a 422 (TOO_MANY_LEGS), more than ${MAX_BODY_IDS} ids a 400`,
});
