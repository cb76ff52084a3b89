import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readChanges, streamFilter } from '../../read/change-stream.ts';
import { scopeOf } from '../plugins/auth.ts';
import { ChangesPage, ChangesQuery, changesOperation } from '../schemas/changes.ts';

export const changesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/changes',
    {
      config: { access: 'public' },
      schema: {
        ...changesOperation.docs,
        querystring: ChangesQuery,
        response: { 200: ChangesPage, ...changesOperation.errors },
      },
    },
    async (request) => {
      const { after, limit, competition, eventId, kind } = request.query;
      const filter = streamFilter({ competitions: competition, eventIds: eventId, kinds: kind }, scopeOf(request));
      return readChanges(app.store, after, limit ?? 500, filter);
    },
  );
};
