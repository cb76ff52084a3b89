import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listSports } from '../../read/sports.ts';
import { Ref } from '../../shapes/common.ts';
import { SportListingItem } from '../../shapes/sports.ts';
import { staticTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { sportsOperation } from '../schemas/sports.ts';

export const sportsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/sports',
    {
      config: { access: 'public', cacheTags: staticTags },
      schema: {
        ...sportsOperation.docs,
        response: { 200: Type.Array(Ref(SportListingItem)), ...sportsOperation.errors },
      },
    },
    async (request) => listSports(scopeOf(request)),
  );
};
