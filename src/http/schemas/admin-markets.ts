import { Type } from 'typebox';
import { ODD_TYPES } from '../../domain/enumerations.ts';
import { MAX_SHAPE } from '../../domain/pricing/finishing-order.ts';
import { MARGIN_METHODS } from '../../domain/pricing/margin.ts';
import { StringEnum } from '../../shapes/common.ts';
import { Counts } from '../routes/admin-feed.ts';
import { operation } from './common.ts';

/** What the generate route takes: an athlete event's field and model, or a team match's home win and total. */
export const GenerateMarketsBody = Type.Object(
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

export const GeneratedMarkets = Type.Object({
  marketsGenerated: Type.Integer(),
  oddsGenerated: Type.Integer(),
  collections: Type.Object({ markets: Counts, odds: Counts }),
});

/** POST /events/:eventId/markets/generate: an event's markets priced by the pricing engine. */
export const generateMarketsOperation = operation({
  tags: ['admin'],
  summary: "Generate an event's markets from win probabilities, ratings, or a match's home win chance",
  description:
    'The pricing engine fits one finishing-order model (Plackett-Luce, or a gamma race for shape above 1) to the given winProbabilities (or ratings: 400 points is ten times the odds) and derives every market the competition offers from it, exactly (multiOverUnder and dreamTeam from 100,000 simulated orders), ' +
    'records the model with the prices (the parlay route prices the event from it), ' +
    'event markets and the markets of each heat whose draw is stored, with the margin applied by the chosen method. Each price is published within MIN_DECIMAL_ODDS..MAX_DECIMAL_ODDS on PRICE_LADDER (two decimals by default), rounded towards the house, beside the model probability it came from. They are written through the feed ingest; running it again re-prices the same odd ids. ' +
    'Team matches (curling, table tennis, box lacrosse, 3ICE, Jai Alai) take homeWin (and expectedTotal for goals and points) instead: the score model is fitted to them and prices the moneyline, spread and total of the match and of its periods still to play.',
  security: [{ AdminKeyAuth: [] }],
  errors: { 400: 'invalid request', 401: 'missing or invalid admin key', 404: 'event not found' },
  codes: [
    'EVENT_NOT_FOUND',
    'MARKETS_OVERROUND_INVALID',
    'MARKETS_MARGIN_METHOD_INVALID',
    'MARKETS_RATINGS_TOO_FAR_APART',
    'MARKETS_MATCH_INPUT_FOR_FIELD',
    'MARKETS_FIELD_INPUT_REQUIRED',
    'MARKETS_WIN_PROBABILITIES_INVALID',
    'MARKETS_SHAPE_INVALID',
    'MARKETS_ODD_TYPES_NOT_OFFERED',
    'MARKETS_FIELD_TOO_LARGE',
    'MARKETS_UNKNOWN_ATHLETES',
    'MARKETS_FIELD_INPUT_FOR_MATCH',
    'MARKETS_HOME_WIN_INVALID',
    'MARKETS_EXPECTED_TOTAL_REQUIRED',
    'MARKETS_TARGETS_UNREACHABLE',
  ],
});
