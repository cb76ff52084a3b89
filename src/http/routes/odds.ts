import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getEventOdds } from '../../read/odds.ts';
import { priceParlay } from '../../read/parlay.ts';
import { Ref } from '../../shapes/common.ts';
import { EventOdds, EventOddsQuery, SgpResponse } from '../../shapes/odds.ts';
import { eventTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { expectBody } from '../plugins/errors.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';
import { EventIdParams } from '../schemas/events.ts';
import { EventOddsParams, SgpBody } from '../schemas/odds.ts';

export const oddsRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
        request.server.feedStaleSeconds,
      ),
  );

  app.post(
    '/events/:eventId/sgp',
    {
      config: { access: 'public' },
      schema: {
        tags: ['odds'],
        summary: 'Calculate a same game parlay',
        description:
          "Combines odds of one event into one price, from the model the event's markets came from (recorded by the generate route, else Plackett-Luce fitted to the winner market): a parlay that is one published bet gets that bet's price (win + second = the exacta); any other combination is priced exactly where its legs are places, top k or orders (simulated otherwise) and carries the winner market's overround once. independentProbability is the plain product of the legs for comparison. " +
          'Legs that cannot all win together, odds that do not exist, are not open or belong to another event, and fewer than two legs are a 422 naming the legs.',
        params: EventIdParams,
        body: SgpBody,
        response: {
          201: Ref(SgpResponse),
          ...errorResponses({
            ...PUBLIC_ERRORS,
            400: 'invalid body, or the competition offers no same game parlays',
            404: 'event not found',
            422: 'odds that do not exist, are not open, belong to another event or cannot all win together; fewer than two legs',
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
        request.server.feedStaleSeconds,
      );
    },
  );
};
