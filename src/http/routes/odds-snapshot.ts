import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getOddsSnapshot } from '../../read/odds-snapshot.ts';
import { Ref } from '../../shapes/common.ts';
import { OddsSnapshotQuery, SnapshotMarket } from '../../shapes/odds-snapshot.ts';
import { eventListTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';

export const oddsSnapshotRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/odds',
    {
      // Any odds change of a competition drops its lists, this one among them.
      config: { access: 'public', cacheTags: eventListTags, priced: true },
      schema: {
        tags: ['odds'],
        summary: 'Fetch every market in one call',
        description:
          "Every market of the matching events (by competition, one event, odd type), each with route 6's items for its odd type and eventId, oddType and marketId; outcomes filtered by status, markets left empty left out. " +
          'Ordered by event start, then market. With `limit`, a `Link: <...>; rel="next"` header gives the next page while more remain.',
        querystring: OddsSnapshotQuery,
        response: {
          200: Type.Array(Ref(SnapshotMarket)),
          ...errorResponses({ ...PUBLIC_ERRORS, 404: 'event not found' }),
        },
      },
    },
    async (request, reply) => {
      const page = await getOddsSnapshot(
        request.server.store,
        request.query,
        scopeOf(request),
        request.server.betStopRules,
      );
      if (page.nextCursor) {
        const url = new URL(request.url, 'http://localhost');
        url.searchParams.set('cursor', page.nextCursor);
        reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
      }
      return page.items;
    },
  );
};
