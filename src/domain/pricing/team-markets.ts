import type { ResultsFormat } from '../competitions.ts';
import type { TeamMarketType } from '../enumerations.ts';
import type { OverUnderSide, TeamSide } from '../markets/selection.ts';
import { JAI_ALAI_SETS_TO_WIN, TABLE_TENNIS_GAMES_TO_WIN } from '../results/match-score.ts';
import type { MarginMethod } from './margin.ts';
import { priceMarket } from './market-generator.ts';
import type { PricePolicy, PublishedPrice } from './published-price.ts';
import {
  fitTeamMatchModel,
  type JointScore,
  mainLines,
  matchDistribution,
  moneyline,
  periodDistribution,
  spreadLine,
  type TeamMatchModel,
  totalLine,
} from './team-match-model.ts';

/**
 * A match's moneyline, spread and total markets, for the whole match and for its periods, priced from
 * one score model's exact joint distributions: so that the three agree (a side's spread at -0.5 is
 * its moneyline when draws cannot happen; totals and spreads move with the same scores). Output is
 * teamMarkets feed items with a teamMarketType, settled from the match score like every market.
 */

export interface TeamMarketPeriod {
  roundId: string;
  /** 0-based index among the model's regular periods. */
  index: number;
}

export interface TeamMarketsInput {
  /** Stored event id (bare uuid); market and odd ids are made from it. */
  eventId: string;
  model: TeamMatchModel;
  /** Periods to price, and which markets each gets. */
  periods: readonly TeamMarketPeriod[];
  periodMarkets: readonly TeamMarketType[];
  overround: number;
  marginMethod: MarginMethod;
  /** The range and ladder prices are published on; the default policy when absent. */
  pricePolicy?: PricePolicy;
}

export interface GeneratedTeamMarket {
  id: string;
  eventId: string;
  oddType: 'teamMarkets';
  teamMarketType: TeamMarketType;
  roundId?: string;
  line?: number;
}

export interface GeneratedTeamOdd {
  id: string;
  marketId: string;
  side: TeamSide | OverUnderSide;
  position: number;
  odds: number;
  /** The model's probability in percent, margin included. */
  probability: number;
}

/** A draw is offered where the model gives it at least this chance (periods that can end level). */
const DRAW_OFFERED = 0.01;

function scopeMarkets(
  eventId: string,
  roundId: string | null,
  joint: readonly JointScore[],
  types: readonly TeamMarketType[],
  input: TeamMarketsInput,
) {
  const markets: GeneratedTeamMarket[] = [];
  const odds: GeneratedTeamOdd[] = [];
  const base = `${eventId}:${roundId ?? 'match'}`;
  const add = (
    type: TeamMarketType,
    line: number | undefined,
    sides: ReadonlyArray<[TeamSide | OverUnderSide, number]>,
  ) => {
    const id = `${base}:${type}`;
    markets.push({
      id,
      eventId,
      oddType: 'teamMarkets',
      teamMarketType: type,
      ...(roundId ? { roundId } : {}),
      ...(line !== undefined ? { line } : {}),
    });
    const prices = priceMarket(
      sides.map(([, fair]) => fair),
      input.overround,
      input.marginMethod,
      input.pricePolicy,
    );
    sides.forEach(([side], i) => {
      odds.push({
        id: `${id}:${side.toLowerCase()}`,
        marketId: id,
        side,
        position: i + 1,
        ...(prices[i] as PublishedPrice),
      });
    });
  };
  const lines = mainLines(joint);
  if (types.includes('moneyline')) {
    const ml = moneyline(joint);
    add(
      'moneyline',
      undefined,
      ml.draw >= DRAW_OFFERED
        ? [
            ['HOME', ml.home],
            ['DRAW', ml.draw],
            ['AWAY', ml.away],
          ]
        : [
            ['HOME', ml.home / (ml.home + ml.away)],
            ['AWAY', ml.away / (ml.home + ml.away)],
          ],
    );
  }
  if (types.includes('spread')) {
    const s = spreadLine(joint, lines.spread);
    add('spread', lines.spread, [
      ['HOME', s.home / (s.home + s.away)],
      ['AWAY', s.away / (s.home + s.away)],
    ]);
  }
  if (types.includes('total')) {
    const t = totalLine(joint, lines.total);
    add('total', lines.total, [
      ['OVER', t.over / (t.over + t.under)],
      ['UNDER', t.under / (t.over + t.under)],
    ]);
  }
  return { markets, odds };
}

export function generateTeamMarkets(input: TeamMarketsInput): {
  markets: GeneratedTeamMarket[];
  odds: GeneratedTeamOdd[];
} {
  const match = scopeMarkets(
    input.eventId,
    null,
    matchDistribution(input.model),
    ['moneyline', 'spread', 'total'],
    input,
  );
  const periods = input.periodMarkets.length
    ? input.periods.map((p) =>
        scopeMarkets(input.eventId, p.roundId, periodDistribution(input.model, p.index), input.periodMarkets, input),
      )
    : [];
  return { markets: [match, ...periods].flatMap((s) => s.markets), odds: [match, ...periods].flatMap((s) => s.odds) };
}

type ModelKind = TeamMatchModel['kind'];

/**
 * How each match format is priced: its score model, its regular periods, and the markets each
 * period gets (the match always gets moneyline, spread and total). Curling ends and hockey periods
 * can end level, so their moneylines carry the draw (a blank end is a curling end's draw).
 */
export const MATCH_PRICING: Partial<
  Record<
    ResultsFormat,
    { kind: ModelKind; periods: number; periodMarkets: readonly TeamMarketType[]; typicalTotal?: number }
  >
> = {
  'box-lacrosse': { kind: 'goals', periods: 4, periodMarkets: [], typicalTotal: 21.5 },
  'three-ice': { kind: 'goals', periods: 2, periodMarkets: ['moneyline', 'total'], typicalTotal: 8.5 },
  curling: { kind: 'curling', periods: 8, periodMarkets: ['moneyline', 'total'], typicalTotal: 10.5 },
  'table-tennis': {
    kind: 'table-tennis',
    periods: 2 * TABLE_TENNIS_GAMES_TO_WIN - 1,
    periodMarkets: ['moneyline', 'spread', 'total'],
  },
  'jai-alai': {
    kind: 'jai-alai',
    periods: 2 * JAI_ALAI_SETS_TO_WIN - 1,
    periodMarkets: ['moneyline', 'spread', 'total'],
  },
};

/** A format's model fitted to a fair home win chance and (goals, curling) an expected match total. */
export function fitMatchModel(
  format: ResultsFormat,
  target: { homeWin: number; expectedTotal?: number },
  firstHammer?: 'home' | 'away',
): TeamMatchModel {
  const pricing = MATCH_PRICING[format];
  if (!pricing) throw new RangeError(`no score model for ${format} matches`);
  return fitTeamMatchModel(pricing.kind, target, {
    periods: pricing.periods,
    ends: pricing.periods,
    ...(firstHammer ? { firstHammer } : {}),
  });
}

/** Expected totals tried when a total market is fitted: this far either side of its line. */
const TOTAL_FIT_SPAN = 3;

/**
 * The model behind a match's published prices: fitted to the fair home win chance of its moneyline
 * and, for goals and curling, to the fair over chance of its total at that line (bisection on the
 * expected total, which moves the over chance one way). Without a total market the format's typical
 * total is taken.
 */
export function fitMatchModelToMarkets(
  format: ResultsFormat,
  market: { homeWin: number; total?: { line: number; over: number } },
  firstHammer?: 'home' | 'away',
): TeamMatchModel {
  const pricing = MATCH_PRICING[format];
  if (!pricing) throw new RangeError(`no score model for ${format} matches`);
  const homeWin = Math.min(0.995, Math.max(0.005, market.homeWin));
  if (pricing.kind !== 'goals' && pricing.kind !== 'curling') return fitMatchModel(format, { homeWin }, firstHammer);
  if (!market.total) return fitMatchModel(format, { homeWin, expectedTotal: pricing.typicalTotal ?? 10 }, firstHammer);
  const total = market.total;
  const overAt = (expected: number) =>
    totalLine(matchDistribution(fitMatchModel(format, { homeWin, expectedTotal: expected }, firstHammer)), total.line)
      .over;
  let lo = Math.max(pricing.kind === 'goals' ? 1.05 : 0.5, total.line / TOTAL_FIT_SPAN);
  let hi = Math.max(lo * 2, total.line * TOTAL_FIT_SPAN);
  const target = Math.min(0.99, Math.max(0.01, total.over));
  if (overAt(lo) >= target) return fitMatchModel(format, { homeWin, expectedTotal: lo }, firstHammer);
  if (overAt(hi) <= target) return fitMatchModel(format, { homeWin, expectedTotal: hi }, firstHammer);
  for (let i = 0; i < 24 && hi - lo > 1e-3; i++) {
    const mid = (lo + hi) / 2;
    if (overAt(mid) < target) lo = mid;
    else hi = mid;
  }
  return fitMatchModel(format, { homeWin, expectedTotal: (lo + hi) / 2 }, firstHammer);
}
