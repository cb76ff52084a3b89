import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getFutureOdds, listFutures } from '../../read/futures.ts';
import { OddsFormatQuery, Ref } from '../../shapes/common.ts';
import { FutureListingItem, FutureOddsItem } from '../../shapes/futures.ts';
import { futuresTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { errorResponses, PUBLIC_ERRORS } from '../schemas/common.ts';
import { FutureOddsParams } from '../schemas/futures.ts';

export const futuresRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/futures',
    {
      config: { access: 'public', cacheTags: futuresTags },
      schema: {
        tags: ['futures'],
        summary: 'Fetch all futures',
        description: 'Futures discovery: every future market with its tour and season.',
        response: { 200: Type.Array(Ref(FutureListingItem)), ...errorResponses(PUBLIC_ERRORS) },
      },
    },
    async (request) => listFutures(request.server.store, scopeOf(request)),
  );

  app.get(
    '/futures/:sportType/tour/:tourId/odds/:futureType',
    {
      config: { access: 'public', cacheTags: futuresTags, priced: true },
      schema: {
        tags: ['futures'],
        summary: 'Fetch future odds',
        description: "Odds of a tour's futures of one type, newest season first.",
        params: FutureOddsParams,
        querystring: OddsFormatQuery,
        response: {
          200: Type.Array(Ref(FutureOddsItem)),
          ...errorResponses({ ...PUBLIC_ERRORS, 404: 'future or odds not found' }),
        },
      },
    },
    async (request) => {
      const { sportType, tourId, futureType } = request.params;
      return getFutureOdds(request.server.store, sportType, tourId, futureType, scopeOf(request));
    },
  );
};
