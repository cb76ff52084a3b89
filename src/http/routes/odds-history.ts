import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getOddsHistory } from '../../read/odds-history.ts';
import { Ref } from '../../shapes/common.ts';
import { ODDS_HISTORY_SCHEMAS, OddsHistoryQuery, OutcomePriceHistory } from '../../shapes/odds-history.ts';
import { eventTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { EventIdParams } from '../schemas/events.ts';
import { oddsHistoryOperation } from '../schemas/odds-history.ts';

export const oddsHistoryRoutes: FastifyPluginAsyncTypebox<{ oddsHistoryDays: number }> = async (app, options) => {
  for (const schema of ODDS_HISTORY_SCHEMAS) app.addSchema(schema);
  const history = oddsHistoryOperation(options.oddsHistoryDays);
  app.get(
    '/events/:eventId/odds-history',
    {
      config: { access: 'public', cacheTags: eventTags('eventId') },
      schema: {
        ...history.docs,
        params: EventIdParams,
        querystring: OddsHistoryQuery,
        response: { 200: Type.Array(Ref(OutcomePriceHistory)), ...history.errors },
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
