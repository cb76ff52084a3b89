import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listSports } from '../../read/sports.ts';
import { Ref } from '../../shapes/common.ts';
import { SportListingItem } from '../../shapes/sports.ts';
import { staticTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';

export const sportsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/sports',
    {
      config: { access: 'public', cacheTags: staticTags },
      schema: {
        tags: ['sports'],
        summary: 'Fetch all sports',
        description: "The competition catalogue with each competition's supported markets.",
        response: { 200: Type.Array(Ref(SportListingItem)), ...errorResponses(PUBLIC_ERRORS) },
      },
    },
    async (request) => listSports(scopeOf(request)),
  );
};
