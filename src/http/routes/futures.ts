import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getFutureOdds, listFutures } from '../../read/futures.ts';
import { OddsFormatQuery, Ref } from '../../shapes/common.ts';
import { FutureListingItem, FutureOddsItem } from '../../shapes/futures.ts';
import { futuresTags } from '../cache-tags.ts';
import { scopeOf } from '../plugins/auth.ts';
import { FutureOddsParams, futureOddsOperation, futuresOperation } from '../schemas/futures.ts';

export const futuresRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/futures',
    {
      config: { access: 'public', cacheTags: futuresTags },
      schema: {
        ...futuresOperation.docs,
        response: { 200: Type.Array(Ref(FutureListingItem)), ...futuresOperation.errors },
      },
    },
    async (request) => listFutures(request.server.store, scopeOf(request)),
  );

  app.get(
    '/futures/:sportType/tour/:tourId/odds/:futureType',
    {
      config: { access: 'public', cacheTags: futuresTags, priced: true },
      schema: {
        ...futureOddsOperation.docs,
        params: FutureOddsParams,
        querystring: OddsFormatQuery,
        response: { 200: Type.Array(Ref(FutureOddsItem)), ...futureOddsOperation.errors },
      },
    },
    async (request) => {
      const { sportType, tourId, futureType } = request.params;
      return getFutureOdds(request.server.store, sportType, tourId, futureType, scopeOf(request));
    },
  );
};
