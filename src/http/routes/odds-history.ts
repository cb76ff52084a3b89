import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getOddsHistory } from '../../read/odds-history.ts';
import { Ref } from '../../shapes/common.ts';
import { ODDS_HISTORY_SCHEMAS, OddsHistoryQuery, OutcomePriceHistory } from '../../shapes/odds-history.ts';
import { eventTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';
import { EventIdParams } from '../schemas/events.ts';

export const oddsHistoryRoutes: FastifyPluginAsyncTypebox<{ oddsHistoryDays: number }> = async (app, options) => {
  for (const schema of ODDS_HISTORY_SCHEMAS) app.addSchema(schema);
  app.get(
    '/events/:eventId/odds-history',
    {
      config: { access: 'public', cacheTags: eventTags('eventId') },
      schema: {
        tags: ['odds'],
        summary: 'Fetch price history',
        description:
          "Each priced outcome of the event (of one odd type with oddType, one outcome with outcomeId: its odd id or outcomeId) with its opening price, its closing price (the last price it was open at, once its market has left OPEN for good: closed by the operator, its result or its event's end; null while it may still open) and every change of its price or status as fed, in time order, within since and until. " +
          `Changes are kept ODDS_HISTORY_DAYS days (${options.oddsHistoryDays} here), except each outcome's latest and its last while OPEN (its closing): past that, opening is the oldest price retained and openingRetained is false (as it is for prices held before the history began). ` +
          "Derived statuses (FEED_STALE, RESULTED, an event's start) are not changes of the outcome's own: route 6 shows them. " +
          'Outcomes are in reference-id order; with `limit`, a `Link: <...>; rel="next"` header gives the next page while more remain. An unknown event or outcome is a 404.',
        params: EventIdParams,
        querystring: OddsHistoryQuery,
        response: {
          200: Type.Array(Ref(OutcomePriceHistory)),
          ...errorResponses({
            ...PUBLIC_ERRORS,
            404: 'event or outcome not found, or odds of this type not offered for its competition',
          }),
        },
      },
    },
    async (request, reply) => {
      const page = await getOddsHistory(request.server.store, request.params.eventId, request.query, scopeOf(request));
      if (page.nextCursor) {
        const url = new URL(request.url, 'http://localhost');
        url.searchParams.set('cursor', page.nextCursor);
        reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
      }
      return page.items;
    },
  );
};
