import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getBracket } from '../../read/bracket.ts';
import { getJaiAlaiCard } from '../../read/jai-alai.ts';
import { getSportEventDocument } from '../../read/sport-events.ts';
import { getJaiAlaiOdds, getSportOdds } from '../../read/team-odds.ts';
import { OddsFormatQuery, Ref } from '../../shapes/common.ts';
import { JaiAlaiMatch, JaiAlaiOdds, KnockoutBracket } from '../../shapes/sport-events.ts';
import { allTags, competitionTags, eventTags, seasonFuturesTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import {
  BracketParams,
  bracketOperation,
  JaiAlaiCardParams,
  jaiAlaiCardOperation,
  jaiAlaiOddsOperation,
  SportEventParams,
  SportOddsParams,
  teamEventDetails,
  teamEventOdds,
} from '../schemas/sport-events.ts';
import type { TypeBoxApp } from './typebox-app.ts';

/**
 * Routes 8 to 17: the sport-specific detail and odds routes. Their literal segments (gsoc, mltt,
 * nll, 3ice, jaialai) are static path parts, which the router matches before route 6's parameters
 * (rule 1 of section 4).
 */
export const sportEventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  teamEventDetailRoutes(app);
  teamEventOddsRoutes(app);
  threeIceBracket(app);
  jaiAlaiRoutes(app);
};

/** Curling, table tennis, box lacrosse and 3ICE: one event's detail. */
function teamEventDetailRoutes(app: TypeBoxApp): void {
  for (const route of teamEventDetails) {
    app.get(
      `/events/${route.sport}/:eventId`,
      {
        config: { access: 'public', cacheTags: eventTags('eventId') },
        schema: {
          ...route.docs,
          params: SportEventParams,
          response: { 200: Ref(route.schema), ...route.errors },
        },
      },
      async (request) =>
        getSportEventDocument(request.server.store, route.sport, request.params.eventId, scopeOf(request)),
    );
  }
}

/** Curling, table tennis and box lacrosse: one event's odds from its score model. */
function teamEventOddsRoutes(app: TypeBoxApp): void {
  for (const route of teamEventOdds) {
    app.get(
      `/events/${route.sport}/:id/odds`,
      {
        config: { access: 'public', cacheTags: eventTags('id'), priced: true },
        schema: {
          ...route.docs,
          params: SportOddsParams,
          querystring: OddsFormatQuery,
          response: { 200: Ref(route.schema), ...route.errors },
        },
      },
      async (request) =>
        getSportOdds(
          request.server.store,
          route.sport,
          request.params.id,
          scopeOf(request),
          request.server.betStopRules,
        ),
    );
  }
}

function threeIceBracket(app: TypeBoxApp): void {
  app.get(
    '/events/3ice/bracket/:tourYearId',
    {
      config: { access: 'public', cacheTags: competitionTags('3ice') },
      schema: {
        ...bracketOperation.docs,
        params: BracketParams,
        response: { 200: Ref(KnockoutBracket), ...bracketOperation.errors },
      },
    },
    async (request) => getBracket(request.server.store, request.params.tourYearId, scopeOf(request)),
  );
}

/** A Jai Alai card (a night's matches at one venue), and one match's odds. */
function jaiAlaiRoutes(app: TypeBoxApp): void {
  app.get(
    '/events/jaialai/:id',
    {
      config: { access: 'public', cacheTags: competitionTags('jaialai') },
      schema: {
        ...jaiAlaiCardOperation.docs,
        params: JaiAlaiCardParams,
        response: { 200: Type.Array(Ref(JaiAlaiMatch)), ...jaiAlaiCardOperation.errors },
      },
    },
    async (request) => getJaiAlaiCard(request.server.store, request.params.id, scopeOf(request)),
  );

  app.get(
    '/events/jaialai/:id/odds',
    {
      // The match's odds carry its season's outright, a future.
      config: { access: 'public', cacheTags: allTags(eventTags('id'), seasonFuturesTags('jaialai')), priced: true },
      schema: {
        ...jaiAlaiOddsOperation.docs,
        params: SportOddsParams,
        querystring: OddsFormatQuery,
        response: { 200: Ref(JaiAlaiOdds), ...jaiAlaiOddsOperation.errors },
      },
    },
    async (request) =>
      getJaiAlaiOdds(request.server.store, request.params.id, scopeOf(request), request.server.betStopRules),
  );
}
