import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getEventOdds } from '../../read/odds.ts';
import { priceParlay } from '../../read/parlay.ts';
import { parlayOptions } from '../../read/parlay-options.ts';
import { OddsFormatQuery, Ref } from '../../shapes/common.ts';
import { EventOdds, EventOddsQuery, SgpOptionsResponse, SgpResponse } from '../../shapes/odds.ts';
import { eventTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { expectBody } from '../plugins/errors.ts';
import { EventIdParams } from '../schemas/events.ts';
import {
  betBuilderOperation,
  EventOddsParams,
  eventOddsOperation,
  type ParlayTerms,
  parlayOperation,
  SgpBody,
} from '../schemas/odds.ts';
import type { TypeBoxApp } from './typebox-app.ts';

/** SGP_MAX_LEGS, and the simulations' terms the parlay routes' descriptions state. */
export type OddsRoutesOptions = ParlayTerms;

const parlayBodyErrors = expectBody('a JSON array of odd ids, or { "oddIds": [...] }');

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
        ...eventOddsOperation.docs,
        params: EventOddsParams,
        querystring: EventOddsQuery,
        response: { 200: Ref(EventOdds), ...eventOddsOperation.errors },
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
function sameGameParlay(app: TypeBoxApp, terms: OddsRoutesOptions): void {
  const parlay = parlayOperation(terms);
  app.post(
    '/events/:eventId/sgp',
    {
      config: { access: 'public', priced: true },
      schema: {
        ...parlay.docs,
        params: EventIdParams,
        querystring: OddsFormatQuery,
        body: SgpBody,
        response: { 201: Ref(SgpResponse), ...parlay.errors },
      },
      schemaErrorFormatter: parlayBodyErrors,
    },
    async (request, reply) => {
      reply.code(201);
      return priceParlay(
        request.server.store,
        request.params.eventId,
        request.body,
        scopeOf(request),
        terms.sgpMaxLegs,
        request.server.betStopRules,
        request.server.simulationDemand(request, reply),
        request.server.pricePolicy,
      );
    },
  );
}

/** The bet builder: the legs' parlay, and what still combines with them. */
function betBuilder(app: TypeBoxApp, terms: OddsRoutesOptions): void {
  const builder = betBuilderOperation(terms);
  app.post(
    '/events/:eventId/sgp/options',
    {
      config: { access: 'public', priced: true, builds: true },
      schema: {
        ...builder.docs,
        params: EventIdParams,
        querystring: OddsFormatQuery,
        body: SgpBody,
        response: { 200: Ref(SgpOptionsResponse), ...builder.errors },
      },
      schemaErrorFormatter: parlayBodyErrors,
    },
    async (request, reply) =>
      parlayOptions(
        request.server.store,
        request.params.eventId,
        request.body,
        scopeOf(request),
        terms.sgpMaxLegs,
        request.server.betStopRules,
        request.server.simulationDemand(request, reply),
        request.server.pricePolicy,
      ),
  );
}
