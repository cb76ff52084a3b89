import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getBracket } from '../../read/bracket.ts';
import { getJaiAlaiCard } from '../../read/jai-alai.ts';
import { getSportEventDocument } from '../../read/sport-events.ts';
import { getJaiAlaiOdds, getSportOdds } from '../../read/team-odds.ts';
import { OddsFormatQuery, Ref } from '../../shapes/common.ts';
import {
  CurlingEvent,
  CurlingOdds,
  JaiAlaiMatch,
  JaiAlaiOdds,
  KnockoutBracket,
  LacrosseEvent,
  LacrosseOdds,
  TableTennisEvent,
  TableTennisOdds,
  ThreeIceEvent,
} from '../../shapes/sport-events.ts';
import { allTags, competitionTags, eventTags, seasonFuturesTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';
import { BracketParams, JaiAlaiCardParams, SportEventParams, SportOddsParams } from '../schemas/sport-events.ts';
import { SPORT_TAG } from '../tags.ts';
import type { TypeBoxApp } from './typebox-app.ts';

/**
 * Routes 8 to 17: the sport-specific detail and odds routes. Their literal segments (gsoc, mltt,
 * nll, 3ice, jaialai) are static path parts, which the router matches before route 6's parameters
 * (rule 1 of section 4).
 */

const DETAIL = { ...PUBLIC_ERRORS, 404: 'event not found, or an event of another sport' };
const ODDS = { ...PUBLIC_ERRORS, 400: 'the id belongs to an event of another sport', 404: 'event not found' };

const detail = [
  {
    sport: 'gsoc',
    schema: CurlingEvent,
    summary: 'Fetch curling event',
    what: 'a curling match: teams with hammer and stone colour, ends with their scores',
  },
  {
    sport: 'mltt',
    schema: TableTennisEvent,
    summary: 'Fetch table tennis event',
    what: 'a table tennis team match: teams, games (singles and doubles, with lineups) and points per game; the match score counts games won',
  },
  {
    sport: 'nll',
    schema: LacrosseEvent,
    summary: 'Fetch box lacrosse event',
    what: 'a box lacrosse game: teams and goals per quarter',
  },
  {
    sport: '3ice',
    schema: ThreeIceEvent,
    summary: 'Fetch 3ICE event',
    what: "a 3-on-3 hockey game: teams, goals per period, and its season's bracket",
  },
] as const;

const odds = [
  {
    sport: 'gsoc',
    schema: CurlingOdds,
    summary: 'Fetch curling odds',
    what: 'moneyline, spread and total for the match and for each end priced',
  },
  {
    sport: 'mltt',
    schema: TableTennisOdds,
    summary: 'Fetch table tennis odds',
    what: 'moneyline, spread and total in games for the match, and in points for each game priced',
  },
  {
    sport: 'nll',
    schema: LacrosseOdds,
    summary: 'Fetch box lacrosse odds',
    what: 'moneyline, spread and total for the game (overtime included)',
  },
] as const;

export const sportEventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  teamEventDetails(app);
  teamEventOdds(app);
  threeIceBracket(app);
  jaiAlaiRoutes(app);
};

/** Curling, table tennis, box lacrosse and 3ICE: one event's detail. */
function teamEventDetails(app: TypeBoxApp): void {
  for (const route of detail) {
    app.get(
      `/events/${route.sport}/:eventId`,
      {
        config: { access: 'public', cacheTags: eventTags('eventId') },
        schema: {
          tags: [SPORT_TAG[route.sport]],
          summary: route.summary,
          description: `One event: ${route.what}.`,
          params: SportEventParams,
          response: { 200: Ref(route.schema), ...errorResponses(DETAIL) },
        },
      },
      async (request) =>
        getSportEventDocument(request.server.store, route.sport, request.params.eventId, scopeOf(request)),
    );
  }
}

/** Curling, table tennis and box lacrosse: one event's odds from its score model. */
function teamEventOdds(app: TypeBoxApp): void {
  for (const route of odds) {
    app.get(
      `/events/${route.sport}/:id/odds`,
      {
        config: { access: 'public', cacheTags: eventTags('id'), priced: true },
        schema: {
          tags: [SPORT_TAG[route.sport]],
          summary: route.summary,
          description: `${route.what}, priced by the same score model, each outcome an odd id the parlay route accepts. The id may be prefixed or bare; an event of another sport is a 400 that names its sport.`,
          params: SportOddsParams,
          querystring: OddsFormatQuery,
          response: { 200: Ref(route.schema), ...errorResponses(ODDS) },
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
        tags: [SPORT_TAG['3ice']],
        summary: 'Fetch 3ICE bracket',
        description: "A season's knockout bracket: every round and slot, filled in as winners advance.",
        params: BracketParams,
        response: {
          200: Ref(KnockoutBracket),
          ...errorResponses({ ...PUBLIC_ERRORS, 404: 'tour year not found' }),
        },
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
        tags: [SPORT_TAG.jaialai],
        summary: 'Fetch Jai Alai card',
        description:
          'The matches of a Jai Alai card (a night at one venue), as section 2.7 items. The id has the form <prefix>:<YYYY-MM-DD>_<text>; any other form is a 400.',
        params: JaiAlaiCardParams,
        response: {
          200: Type.Array(Ref(JaiAlaiMatch)),
          ...errorResponses({
            ...PUBLIC_ERRORS,
            400: 'the id is not of the form <prefix>:<YYYY-MM-DD>_<text>',
            404: 'card not found',
          }),
        },
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
        tags: [SPORT_TAG.jaialai],
        summary: 'Fetch Jai Alai odds',
        description:
          "A match's odds as section 2.8: event winner, match winner (moneyline, set spread, total sets), each set's moneyline, spread and total in points, and the season's outright.",
        params: SportOddsParams,
        querystring: OddsFormatQuery,
        response: { 200: Ref(JaiAlaiOdds), ...errorResponses(ODDS) },
      },
    },
    async (request) =>
      getJaiAlaiOdds(request.server.store, request.params.id, scopeOf(request), request.server.betStopRules),
  );
}
