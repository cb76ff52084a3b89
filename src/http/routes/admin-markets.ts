import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type GenerateMarketsRequest, generateMarketsForEvent } from '../../ingest/generate-markets.ts';
import { GeneratedMarkets, GenerateMarketsBody, generateMarketsOperation } from '../schemas/admin-markets.ts';
import { EventIdParams } from '../schemas/events.ts';

export const adminMarketsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/events/:eventId/markets/generate',
    {
      config: { access: 'admin' },
      schema: {
        ...generateMarketsOperation.docs,
        params: EventIdParams,
        body: GenerateMarketsBody,
        response: { 200: GeneratedMarkets, ...generateMarketsOperation.errors },
      },
    },
    async (request) => {
      const result = await generateMarketsForEvent(
        request.server.store,
        request.params.eventId,
        request.body as GenerateMarketsRequest,
        new Date(),
        request.server.pricePolicy,
      );
      request.log.info(
        { eventId: request.params.eventId, markets: result.marketsGenerated, odds: result.oddsGenerated },
        'markets generated',
      );
      return {
        marketsGenerated: result.marketsGenerated,
        oddsGenerated: result.oddsGenerated,
        collections: { markets: result.summary.markets, odds: result.summary.odds },
      };
    },
  );
};
