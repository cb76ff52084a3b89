import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readChanges, streamFilter } from '../../read/change-stream.ts';
import { scopeOf } from '../plugins/auth.ts';
import { CHANGES_DESCRIPTION, ChangesPage, ChangesQuery } from '../schemas/changes.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';

export const changesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/changes',
    {
      config: { access: 'public' },
      schema: {
        tags: ['stream'],
        summary: 'Read the changes after a change id (recovery without the stream)',
        description: CHANGES_DESCRIPTION,
        querystring: ChangesQuery,
        response: {
          200: ChangesPage,
          ...errorResponses({
            ...PUBLIC_ERRORS,
            400: 'invalid parameter, or an `after` ahead of the change log (past its last change id)',
            410: 'the change log no longer reaches back to `after`',
          }),
        },
      },
    },
    async (request) => {
      const { after, limit, competition, eventId, kind } = request.query;
      const filter = streamFilter({ competitions: competition, eventIds: eventId, kinds: kind }, scopeOf(request));
      return readChanges(app.store, after, limit ?? 500, filter);
    },
  );
};
