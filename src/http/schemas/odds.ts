import { Type } from 'typebox';
import { MAX_SGP_LEGS } from '../../config.ts';
import { ODD_TYPES } from '../../domain/enumerations.ts';
import { StringEnum } from '../../shapes/common.ts';
import { operation, PUBLIC_ERRORS } from './common.ts';

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

/** Route 6: one odd type's outcomes for an event. */
export const eventOddsOperation = operation({
  tags: ['odds'],
  summary: 'Fetch event odds',
  description:
    "One odd type's outcomes for the event, each priced as decimal odds, American odds and a probability in percent, with its status and its settlement (derived from the results once its heat or event is decided). " +
    'eventExacta and heatExacta list the likeliest combinations, each item with how many combinations exist (combinations) and how many are listed (combinationsShown); athleteIds (ordered, comma-separated) asks for one combination, priced from the event model even when not listed (onRequest). ' +
    'An odd type the competition does not offer is a 404. The literal segments gsoc, mltt, nll, 3ice, jaialai, heats and participants select other routes.',
  errors: { ...PUBLIC_ERRORS, 404: 'event not found, or odds of this type not offered for its competition' },
  codes: ['EVENT_NOT_FOUND', 'ODD_TYPE_NOT_OFFERED', 'EXACTA_ATHLETES_INVALID', 'EXACTA_ATHLETES_NOT_IN_FIELD'],
});

/** What the parlay routes' descriptions state of their legs and their simulations' share of the server. */
export interface ParlayTerms {
  /** SGP_MAX_LEGS: legs a parlay takes at most. */
  sgpMaxLegs: number;
  simulations: { cost: number; deadlineMs: number };
}

/** The codes both parlay routes raise: their event, their legs, their simulations. */
const PARLAY_CODES = [
  'EVENT_NOT_FOUND',
  'PARLAY_NOT_OFFERED',
  'PARLAY_BODY_INVALID',
  'PARLAY_LEGS_REFUSED',
  'TOO_MANY_SIMULATIONS',
  'SIMULATION_DEADLINE',
] as const;

/** The parlay routes' terms for simulations, in the rate-limit headers' words. */
function simulationTerms({ cost, deadlineMs }: ParlayTerms['simulations']): string {
  return (
    `A request that needs a simulation not yet drawn (a new event, or new winner prices; exact combinations need none) counts as ${cost} requests of the key's rate limit (SGP_SIMULATION_COST: X-RateLimit-Remaining drops by ${cost}); one priced from simulations already drawn, or under way for any key, counts as one. ` +
    // The per-key number is left out: its default follows the machine (the draw threads less one), and the document must not.
    `A key may have SGP_SIMULATIONS_PER_KEY simulations under way at once (by default the server's draw threads, SGP_WORKERS, less one, at least one): a request needing one more is a 429 with Retry-After; keys are served round-robin, so one key's flood does not delay another's. ` +
    `A request still waiting for its simulation after ${deadlineMs} ms (SGP_DEADLINE_MS) is a 503 with Retry-After; the simulation goes on and the retry finds it drawn. `
  );
}

/** Route 7: a same game parlay's price. */
export const parlayOperation = ({ sgpMaxLegs, simulations }: ParlayTerms) =>
  operation({
    tags: ['odds'],
    summary: 'Calculate a same game parlay',
    description:
      "Combines odds of one event into one price, from the model the event's markets came from (recorded by the generate route, else Plackett-Luce fitted to the winner market): a parlay that is one published bet gets that bet's price (win + second = the exacta); any other combination is priced exactly where its legs are places, top k or orders (simulated otherwise) and carries the winner market's overround once. independentProbability is the plain product of the legs for comparison. " +
      `A parlay takes 2 to ${sgpMaxLegs} legs (SGP_MAX_LEGS). A 422 names each bad leg with a code in metadata.legs: [{ oddId, code }], code one of UNKNOWN_ODD (no such odd), OTHER_EVENT (an odd of another event), NOT_OPEN (suspended, closed or settled), DUPLICATE (an odd named twice, by id or outcomeId), SAME_MARKET (outcomes of one single-winner market, as the bet builder says of them), CONTRADICTS (other legs that cannot all win together) and TOO_MANY_LEGS (each leg past the ${sgpMaxLegs}th); fewer than two legs is a 422 too. ` +
      simulationTerms(simulations) +
      'oddsFormat adds price to the parlay and to each leg.',
    errors: {
      ...PUBLIC_ERRORS,
      400: 'invalid body, or the competition offers no same game parlays',
      404: 'event not found',
      422: `legs that do not exist, belong to another event, are not open, are repeated, share a single-winner market, cannot all win together, or are more than ${sgpMaxLegs} (metadata.legs names each with its code); fewer than two legs`,
      503: 'the simulation the parlay needs is still being drawn past SGP_DEADLINE_MS: retry after Retry-After seconds',
    },
    codes: [...PARLAY_CODES, 'PARLAY_TOO_FEW_LEGS'],
  });

/** The bet builder: the legs' parlay, and what still combines with them. */
export const betBuilderOperation = ({ sgpMaxLegs, simulations }: ParlayTerms) =>
  operation({
    tags: ['odds'],
    summary: 'Build a same game parlay: what still combines with the legs',
    description:
      "The bet builder. Given zero or more legs (odd ids or outcomeIds of the event), answers the legs' parlay (probability and odds; one leg is its own price, none null) and every outcome of the event still offered (open or suspended): whether the legs and it make a parlay the parlay route prices (combinable) and, if so, that parlay's probability and odds, the same the parlay route gives those legs; if not, why (reason: DUPLICATE, NOT_OPEN, TOO_MANY_LEGS, SAME_MARKET, CONTRADICTS). " +
      `Legs that do not make a parlay are a 422 naming each with its code, as on the parlay route; at most ${sgpMaxLegs} legs (SGP_MAX_LEGS). oddsFormat adds price to the legs, the parlay and each combinable outcome. Rate-limited as the parlay route: ${simulationTerms(simulations)}`,
    errors: {
      ...PUBLIC_ERRORS,
      400: 'invalid body, or the competition offers no same game parlays',
      404: 'event not found',
      422: `legs that do not exist, belong to another event, are not open, are repeated, cannot all win together, or are more than ${sgpMaxLegs} (metadata.legs names each with its code)`,
      503: 'a simulation the answer needs is still being drawn past SGP_DEADLINE_MS: retry after Retry-After seconds',
    },
    codes: PARLAY_CODES,
  });
