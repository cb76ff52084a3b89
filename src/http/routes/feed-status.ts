import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { feedStatus } from '../../read/feed-status.ts';
import { Ref } from '../../shapes/common.ts';
import { FeedStatusItem } from '../../shapes/feed-status.ts';
import { scopeOf } from '../plugins/auth.ts';
import { feedStatusOperation } from '../schemas/feed-status.ts';

export const feedStatusRoutes: FastifyPluginAsyncTypebox<{ feedStaleSeconds: number }> = async (app, options) => {
  app.addSchema(FeedStatusItem);
  app.get(
    '/feed-status',
    {
      config: { access: 'public' },
      schema: {
        ...feedStatusOperation.docs,
        response: { 200: Type.Array(Ref(FeedStatusItem)), ...feedStatusOperation.errors },
      },
    },
    async (request) => feedStatus(app.store, scopeOf(request), options.feedStaleSeconds),
  );
};
