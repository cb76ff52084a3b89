import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getEventOdds } from '../../read/odds.ts';
import { priceParlay } from '../../read/parlay.ts';
import { parlayOptions } from '../../read/parlay-options.ts';
import { OddsFormatQuery, Ref } from '../../shapes/common.ts';
import { EventOdds, EventOddsQuery, SgpOptionsResponse, SgpResponse } from '../../shapes/odds.ts';
import { eventTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { expectBody } from '../plugins/errors.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';
import { EventIdParams } from '../schemas/events.ts';
import { EventOddsParams, SgpBody } from '../schemas/odds.ts';
import type { TypeBoxApp } from './typebox-app.ts';

export interface OddsRoutesOptions {
  /** SGP_MAX_LEGS: legs a parlay takes at most. */
  sgpMaxLegs: number;
  /** What the parlay routes' descriptions state of their simulations' share of the server. */
  simulations: { cost: number; deadlineMs: number };
}

/** The parlay routes' terms for simulations, in the rate-limit headers' words. */
function simulationTerms({ cost, deadlineMs }: OddsRoutesOptions['simulations']): string {
  return (
    `A request that needs a simulation not yet drawn (a new event, or new winner prices; exact combinations need none) counts as ${cost} requests of the key's rate limit (SGP_SIMULATION_COST: X-RateLimit-Remaining drops by ${cost}); one priced from simulations already drawn, or under way for any key, counts as one. ` +
    // The per-key number is left out: its default follows the machine (the draw threads less one), and the document must not.
    `A key may have SGP_SIMULATIONS_PER_KEY simulations under way at once (by default the server's draw threads, SGP_WORKERS, less one, at least one): a request needing one more is a 429 with Retry-After; keys are served round-robin, so one key's flood does not delay another's. ` +
    `A request still waiting for its simulation after ${deadlineMs} ms (SGP_DEADLINE_MS) is a 503 with Retry-After; the simulation goes on and the retry finds it drawn. `
  );
}

export const oddsRoutes: FastifyPluginAsyncTypebox<OddsRoutesOptions> = async (app, options) => {
  eventOdds(app);
  sameGameParlay(app, options);
  betBuilder(app, options);
};

/** Route 6: one odd type's outcomes for an event. */
function eventOdds(app: TypeBoxApp): void {
  app.get(
    '/events/:eventId/:oddType',
    {
      config: { access: 'public', cacheTags: eventTags('eventId'), priced: true },
      schema: {
        tags: ['odds'],
        summary: 'Fetch event odds',
        description:
          "One odd type's outcomes for the event, each priced as decimal odds, American odds and a probability in percent, with its status and its settlement (derived from the results once its heat or event is decided). " +
          'eventExacta and heatExacta list the likeliest combinations, each item with how many combinations exist (combinations) and how many are listed (combinationsShown); athleteIds (ordered, comma-separated) asks for one combination, priced from the event model even when not listed (onRequest). ' +
          'An odd type the competition does not offer is a 404. The literal segments gsoc, mltt, nll, 3ice, jaialai, heats and participants select other routes.',
        params: EventOddsParams,
        querystring: EventOddsQuery,
        response: {
          200: Ref(EventOdds),
          ...errorResponses({
            ...PUBLIC_ERRORS,
            404: 'event not found, or odds of this type not offered for its competition',
          }),
        },
      },
    },
    async (request) =>
      getEventOdds(
        request.server.store,
        request.params.eventId,
        request.params.oddType,
        request.query,
        scopeOf(request),
        request.server.betStopRules,
        new Date(),
        request.server.pricePolicy,
      ),
  );
}

/** Route 7: a same game parlay's price. */
function sameGameParlay(app: TypeBoxApp, { sgpMaxLegs, simulations }: OddsRoutesOptions): void {
  app.post(
    '/events/:eventId/sgp',
    {
      config: { access: 'public', priced: true },
      schema: {
        tags: ['odds'],
        summary: 'Calculate a same game parlay',
        description:
          "Combines odds of one event into one price, from the model the event's markets came from (recorded by the generate route, else Plackett-Luce fitted to the winner market): a parlay that is one published bet gets that bet's price (win + second = the exacta); any other combination is priced exactly where its legs are places, top k or orders (simulated otherwise) and carries the winner market's overround once. independentProbability is the plain product of the legs for comparison. " +
          `A parlay takes 2 to ${sgpMaxLegs} legs (SGP_MAX_LEGS). A 422 names each bad leg with a code in metadata.legs: [{ oddId, code }], code one of UNKNOWN_ODD (no such odd), OTHER_EVENT (an odd of another event), NOT_OPEN (suspended, closed or settled), DUPLICATE (an odd named twice, by id or outcomeId), SAME_MARKET (outcomes of one single-winner market, as the bet builder says of them), CONTRADICTS (other legs that cannot all win together) and TOO_MANY_LEGS (each leg past the ${sgpMaxLegs}th); fewer than two legs is a 422 too. ` +
          simulationTerms(simulations) +
          'oddsFormat adds price to the parlay and to each leg.',
        params: EventIdParams,
        querystring: OddsFormatQuery,
        body: SgpBody,
        response: {
          201: Ref(SgpResponse),
          ...errorResponses({
            ...PUBLIC_ERRORS,
            400: 'invalid body, or the competition offers no same game parlays',
            404: 'event not found',
            422: `legs that do not exist, belong to another event, are not open, are repeated, share a single-winner market, cannot all win together, or are more than ${sgpMaxLegs} (metadata.legs names each with its code); fewer than two legs`,
            503: 'the simulation the parlay needs is still being drawn past SGP_DEADLINE_MS: retry after Retry-After seconds',
          }),
        },
      },
      schemaErrorFormatter: expectBody('a JSON array of odd ids, or { "oddIds": [...] }'),
    },
    async (request, reply) => {
      reply.code(201);
      return priceParlay(
        request.server.store,
        request.params.eventId,
        request.body,
        scopeOf(request),
        sgpMaxLegs,
        request.server.betStopRules,
        request.server.simulationDemand(request, reply),
        request.server.pricePolicy,
      );
    },
  );
}

/** The bet builder: the legs' parlay, and what still combines with them. */
function betBuilder(app: TypeBoxApp, { sgpMaxLegs, simulations }: OddsRoutesOptions): void {
  app.post(
    '/events/:eventId/sgp/options',
    {
      config: { access: 'public', priced: true, builds: true },
      schema: {
        tags: ['odds'],
        summary: 'Build a same game parlay: what still combines with the legs',
        description:
          "The bet builder. Given zero or more legs (odd ids or outcomeIds of the event), answers the legs' parlay (probability and odds; one leg is its own price, none null) and every outcome of the event still offered (open or suspended): whether the legs and it make a parlay the parlay route prices (combinable) and, if so, that parlay's probability and odds, the same the parlay route gives those legs; if not, why (reason: DUPLICATE, NOT_OPEN, TOO_MANY_LEGS, SAME_MARKET, CONTRADICTS). " +
          `Legs that do not make a parlay are a 422 naming each with its code, as on the parlay route; at most ${sgpMaxLegs} legs (SGP_MAX_LEGS). oddsFormat adds price to the legs, the parlay and each combinable outcome. Rate-limited as the parlay route: ${simulationTerms(simulations)}`,
        params: EventIdParams,
        querystring: OddsFormatQuery,
        body: SgpBody,
        response: {
          200: Ref(SgpOptionsResponse),
          ...errorResponses({
            ...PUBLIC_ERRORS,
            400: 'invalid body, or the competition offers no same game parlays',
            404: 'event not found',
            422: `legs that do not exist, belong to another event, are not open, are repeated, cannot all win together, or are more than ${sgpMaxLegs} (metadata.legs names each with its code)`,
            503: 'a simulation the answer needs is still being drawn past SGP_DEADLINE_MS: retry after Retry-After seconds',
          }),
        },
      },
      schemaErrorFormatter: expectBody('a JSON array of odd ids, or { "oddIds": [...] }'),
    },
    async (request, reply) =>
      parlayOptions(
        request.server.store,
        request.params.eventId,
        request.body,
        scopeOf(request),
        sgpMaxLegs,
        request.server.betStopRules,
        request.server.simulationDemand(request, reply),
        request.server.pricePolicy,
      ),
  );
}
