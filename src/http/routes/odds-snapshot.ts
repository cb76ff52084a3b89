import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getOddsSnapshot } from '../../read/odds-snapshot.ts';
import { Ref } from '../../shapes/common.ts';
import { OddsSnapshotQuery, SnapshotMarket } from '../../shapes/odds-snapshot.ts';
import { eventListTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { oddsSnapshotOperation } from '../schemas/odds-snapshot.ts';

export const oddsSnapshotRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/odds',
    {
      // Any odds change of a competition drops its lists, this one among them.
      config: { access: 'public', cacheTags: eventListTags, priced: true },
      schema: {
        ...oddsSnapshotOperation.docs,
        querystring: OddsSnapshotQuery,
        response: { 200: Type.Array(Ref(SnapshotMarket)), ...oddsSnapshotOperation.errors },
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
