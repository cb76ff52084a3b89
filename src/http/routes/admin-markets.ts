import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ODD_TYPES } from '../../domain/enumerations.ts';
import { MAX_SHAPE } from '../../domain/pricing/finishing-order.ts';
import { MARGIN_METHODS } from '../../domain/pricing/margin.ts';
import { type GenerateMarketsRequest, generateMarketsForEvent } from '../../ingest/generate-markets.ts';
import { StringEnum } from '../../shapes/common.ts';
import { errorResponses } from '../schemas/common.ts';
import { EventIdParams } from '../schemas/events.ts';
import { Counts } from './admin-feed.ts';

/** What the generate route takes: an athlete event's field and model, or a team match's home win and total. */
const GenerateMarketsBody = Type.Object(
  {
    winProbabilities: Type.Optional(
      Type.Record(Type.String(), Type.Number({ exclusiveMinimum: 0 }), {
        description: 'athlete id to win probability (weights; normalised)',
      }),
    ),
    ratings: Type.Optional(Type.Record(Type.String(), Type.Number(), { description: 'athlete id to rating points' })),
    overround: Type.Optional(
      Type.Number({ minimum: 0, maximum: 0.5, description: 'margin per market; 0.05 when absent' }),
    ),
    marginMethod: Type.Optional(StringEnum(MARGIN_METHODS, { description: 'power when absent' })),
    shape: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_SHAPE,
        description: 'gamma shape of the race times; 1 (Plackett-Luce) when absent',
      }),
    ),
    oddTypes: Type.Optional(
      Type.Array(StringEnum(ODD_TYPES), { description: "the competition's markets when absent" }),
    ),
    homeWin: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        exclusiveMaximum: 1,
        description: "team matches: the home side's fair chance to win the match",
      }),
    ),
    expectedTotal: Type.Optional(
      Type.Number({
        exclusiveMinimum: 1,
        maximum: 200,
        description: 'lacrosse, 3ICE and curling: the expected match total (goals or points)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const adminMarketsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/events/:eventId/markets/generate',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "Generate an event's markets from win probabilities, ratings, or a match's home win chance",
        description:
          'The pricing engine fits one finishing-order model (Plackett-Luce, or a gamma race for shape above 1) to the given winProbabilities (or ratings: 400 points is ten times the odds) and derives every market the competition offers from it, exactly (multiOverUnder and dreamTeam from 100,000 simulated orders), ' +
          'records the model with the prices (the parlay route prices the event from it), ' +
          'event markets and the markets of each heat whose draw is stored, with the margin applied by the chosen method. Each price is published within MIN_DECIMAL_ODDS..MAX_DECIMAL_ODDS on PRICE_LADDER (two decimals by default), rounded towards the house, beside the model probability it came from. They are written through the feed ingest; running it again re-prices the same odd ids. ' +
          'Team matches (curling, table tennis, box lacrosse, 3ICE, Jai Alai) take homeWin (and expectedTotal for goals and points) instead: the score model is fitted to them and prices the moneyline, spread and total of the match and of its periods still to play.',
        security: [{ AdminKeyAuth: [] }],
        params: EventIdParams,
        body: GenerateMarketsBody,
        response: {
          200: Type.Object({
            marketsGenerated: Type.Integer(),
            oddsGenerated: Type.Integer(),
            collections: Type.Object({ markets: Counts, odds: Counts }),
          }),
          ...errorResponses({ 400: 'invalid request', 401: 'missing or invalid admin key', 404: 'event not found' }),
        },
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
