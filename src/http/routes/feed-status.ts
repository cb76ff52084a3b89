import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { feedStatus } from '../../read/feed-status.ts';
import { Ref } from '../../shapes/common.ts';
import { FeedStatusItem } from '../../shapes/feed-status.ts';
import { scopeOf } from '../plugins/auth.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';

export const feedStatusRoutes: FastifyPluginAsyncTypebox<{ feedStaleSeconds: number }> = async (app, options) => {
  app.addSchema(FeedStatusItem);
  app.get(
    '/feed-status',
    {
      config: { access: 'public' },
      schema: {
        tags: ['stream'],
        summary: 'Feed health per competition',
        description:
          'One item per competition the key may read: the server time of the last feed message about it, its LIVE ' +
          'events, and those the feed has been silent about for FEED_STALE_SECONDS (their open markets are ' +
          'suspended with statusReason FEED_STALE until the next message). Derived from stored times at read ' +
          'time: every node answers the same.',
        response: { 200: Type.Array(Ref(FeedStatusItem)), ...errorResponses(PUBLIC_ERRORS) },
      },
    },
    async (request) => feedStatus(app.store, scopeOf(request), options.feedStaleSeconds),
  );
};
