import type { OddType, OverUnderSubMarketType, TeamMarketType } from '../enumerations.ts';
import {
  HEAT_ODD_TYPES,
  type OutcomeSide,
  OVER_UNDER_SIDES,
  type OverUnderSide,
  type Scope,
  type Selection,
  TOP_PLACES,
} from './selection.ts';

/**
 * What each odd type means, declared once: which fields a market and its outcomes must carry (checked
 * on ingest), where the market is decided (its scope) and what each outcome bets on (its selection).
 */

/** The fields of a market that decide what its outcomes mean. */
export interface MarketShape {
  id?: string;
  oddType: string;
  heatId?: string | null;
  exactasType?: number | null;
  overUnderSubMarketType?: string | null;
  line?: number | null;
  athleteIds?: readonly string[] | null;
  places?: number | null;
  proposition?: string | null;
  teamMarketType?: string | null;
  roundId?: string | null;
}

/** The fields of a priced outcome that say what it backs. */
export interface OutcomeShape {
  athleteId?: string | null;
  athleteIds?: readonly string[] | null;
  teamId?: string | null;
  side?: string | null;
  name?: string | null;
}

export interface ShapeProblem {
  field: string;
  message: string;
}

/** Outcomes that back one athlete. */
const ATHLETE_OUTCOMES: readonly OddType[] = [
  'eventWinner',
  'secondPlace',
  'heatWinner',
  'headToHead',
  'fastestLap',
  'holeShot',
  'shows',
  'podiums',
  'raceTop3',
  'raceTop5',
  'raceTop10',
];
const EXACTAS: readonly OddType[] = ['eventExacta', 'heatExacta'];
const OVER_UNDERS: readonly OddType[] = ['overUnder', 'multiOverUnder'];

/** The sides each typed team market's outcomes take. */
const TEAM_MARKET_SIDES: Record<TeamMarketType, readonly OutcomeSide[]> = {
  moneyline: ['HOME', 'AWAY', 'DRAW'],
  spread: ['HOME', 'AWAY'],
  total: OVER_UNDER_SIDES,
};

/** A teamMarkets market settled from the match score (it names moneyline, spread or total). */
export function isMatchScoreMarket(market: Pick<MarketShape, 'oddType' | 'teamMarketType'>): boolean {
  return market.oddType === 'teamMarkets' && market.teamMarketType != null;
}

/**
 * Single-winner markets: at most one outcome can win (a dead heat aside), so two legs of one of them
 * never combine. Over/under markets are one line with two sides, exclusive too.
 */
export function isExclusiveMarket(oddType: string): boolean {
  return !['shows', 'podiums', 'raceTop3', 'raceTop5', 'raceTop10'].includes(oddType);
}

const is = (list: readonly OddType[], oddType: string) => (list as readonly string[]).includes(oddType);

export function marketProblems(market: MarketShape): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  const { oddType } = market;
  if (is(HEAT_ODD_TYPES, oddType) && !market.heatId)
    problems.push({ field: 'heatId', message: `is required for ${oddType} markets` });
  if (oddType === 'holeShot' && !market.heatId)
    problems.push({ field: 'heatId', message: 'is required for holeShot markets: the hole shot is won in one race' });
  if (market.exactasType != null && !is(EXACTAS, oddType))
    problems.push({ field: 'exactasType', message: 'applies to eventExacta and heatExacta markets' });
  if (is(OVER_UNDERS, oddType)) {
    if (market.line == null) problems.push({ field: 'line', message: `is required for ${oddType} markets` });
    const subjects = market.athleteIds?.length ?? 0;
    if (oddType === 'overUnder' && subjects !== 1)
      problems.push({ field: 'athleteIds', message: 'must name the one athlete measured' });
    if (oddType === 'multiOverUnder' && subjects < 2)
      problems.push({ field: 'athleteIds', message: 'must name at least two athletes, whose measures are summed' });
    if (market.overUnderSubMarketType !== 'finishingPosition' && !market.heatId) {
      problems.push({
        field: 'heatId',
        message: `is required when overUnderSubMarketType is ${market.overUnderSubMarketType}: points and gaps are measured in one heat`,
      });
    }
  } else {
    if (market.overUnderSubMarketType != null)
      problems.push({ field: 'overUnderSubMarketType', message: 'applies to overUnder and multiOverUnder markets' });
    const lined = market.teamMarketType === 'spread' || market.teamMarketType === 'total';
    if (isMatchScoreMarket(market) && lined && market.line == null)
      problems.push({ field: 'line', message: `is required for a teamMarkets ${market.teamMarketType} market` });
    if (market.line != null && !lined)
      problems.push({
        field: 'line',
        message: 'applies to overUnder and multiOverUnder markets, and to teamMarkets spread and total markets',
      });
  }
  if (market.teamMarketType != null && oddType !== 'teamMarkets')
    problems.push({ field: 'teamMarketType', message: 'applies to teamMarkets markets' });
  if (market.roundId != null && !isMatchScoreMarket(market))
    problems.push({ field: 'roundId', message: 'applies to teamMarkets markets that name a teamMarketType' });
  if (market.places != null && oddType !== 'shows')
    problems.push({ field: 'places', message: 'applies to shows markets' });
  if (oddType === 'propBets' && !market.proposition)
    problems.push({ field: 'proposition', message: 'is required for propBets markets' });
  return problems;
}

export function oddProblems(market: MarketShape, odd: OutcomeShape): ShapeProblem[] {
  const { oddType } = market;
  const problems: ShapeProblem[] = [];
  if (is(ATHLETE_OUTCOMES, oddType) && !odd.athleteId)
    problems.push({ field: 'athleteId', message: `is required for an outcome of a ${oddType} market` });
  if (is(EXACTAS, oddType)) {
    const ids = odd.athleteIds ?? [];
    const wanted = market.exactasType ?? 2;
    if (ids.length !== wanted || new Set(ids).size !== ids.length)
      problems.push({
        field: 'athleteIds',
        message: `must name ${wanted} different athletes in finishing order (exactasType ${wanted})`,
      });
  }
  if (oddType === 'dreamTeam' && !(odd.athleteIds && odd.athleteIds.length > 0))
    problems.push({ field: 'athleteIds', message: "must name the team's athletes" });
  const sides: readonly string[] | undefined = is(OVER_UNDERS, oddType)
    ? OVER_UNDER_SIDES
    : isMatchScoreMarket(market)
      ? TEAM_MARKET_SIDES[market.teamMarketType as TeamMarketType]
      : undefined;
  if (sides && !(odd.side && sides.includes(odd.side))) {
    const what = isMatchScoreMarket(market) ? `a teamMarkets ${market.teamMarketType}` : `a ${oddType}`;
    const choices = `${sides.slice(0, -1).join(', ')} or ${sides.at(-1)}`;
    problems.push({ field: 'side', message: `is required for an outcome of ${what} market (${choices})` });
  }
  if (!sides && odd.side)
    problems.push({
      field: 'side',
      message: 'applies to outcomes of overUnder and multiOverUnder markets and of typed teamMarkets markets',
    });
  if (oddType === 'teamMarkets' && !isMatchScoreMarket(market) && !odd.teamId && !odd.name)
    problems.push({ field: 'teamId', message: 'or a name is required for an outcome of a teamMarkets market' });
  if (oddType === 'propBets' && !odd.name)
    problems.push({ field: 'name', message: 'is required for an outcome of a propBets market (for example "Yes")' });
  return problems;
}

/** Where a market is decided. */
export function scopeOf(market: MarketShape & { id: string }): Scope {
  const { oddType } = market;
  if (isMatchScoreMarket(market)) return { kind: 'match', roundId: market.roundId ?? null };
  if (oddType === 'propBets' || oddType === 'teamMarkets') return { kind: 'operator', marketId: market.id };
  if (oddType === 'fastestLap' || oddType === 'holeShot')
    return { kind: 'lapStatistic', statistic: oddType, heatId: market.heatId ?? null };
  return market.heatId ? { kind: 'heat', heatId: market.heatId } : { kind: 'event' };
}

export function scopeKey(scope: Scope): string {
  switch (scope.kind) {
    case 'event':
      return 'event';
    case 'heat':
      return `heat:${scope.heatId}`;
    case 'lapStatistic':
      return `${scope.statistic}:${scope.heatId ?? 'event'}`;
    case 'match':
      return scope.roundId === null ? 'match' : `match:${scope.roundId}`;
    case 'operator':
      return `operator:${scope.marketId}`;
  }
}

/**
 * What an outcome bets on. A head-to-head side backs its athlete ahead of the market's other side
 * (`otherAthleteId`); a dream team's rivals are the market's other teams (`groups`); a moneyline with
 * a DRAW outcome (`drawOffered`) pays it on a level score.
 */
export function selectionOf(
  market: MarketShape,
  odd: OutcomeShape,
  context: { otherAthleteId?: string | null; groups?: readonly (readonly string[])[]; drawOffered?: boolean } = {},
): Selection {
  const oddType = market.oddType as OddType;
  const athleteId = odd.athleteId ?? '';
  switch (oddType) {
    case 'eventWinner':
    case 'heatWinner':
    case 'fastestLap':
    case 'holeShot':
      return { kind: 'place', athleteId, place: 1 };
    case 'secondPlace':
      return { kind: 'place', athleteId, place: 2 };
    case 'shows':
      return { kind: 'top', athleteId, places: market.places ?? 3 };
    case 'podiums':
    case 'raceTop3':
    case 'raceTop5':
    case 'raceTop10':
      return { kind: 'top', athleteId, places: TOP_PLACES[oddType] as number };
    case 'eventExacta':
    case 'heatExacta':
      return { kind: 'order', athleteIds: odd.athleteIds ?? [] };
    case 'headToHead':
      return { kind: 'ahead', athleteId, otherId: context.otherAthleteId ?? '' };
    case 'overUnder':
    case 'multiOverUnder':
      return {
        kind: 'overUnder',
        athleteIds: market.athleteIds ?? [],
        measure: (market.overUnderSubMarketType ?? 'finishingPosition') as OverUnderSubMarketType,
        line: market.line ?? 0,
        side: odd.side as OverUnderSide,
      };
    case 'dreamTeam':
      return { kind: 'group', athleteIds: odd.athleteIds ?? [], groups: context.groups ?? [odd.athleteIds ?? []] };
    case 'teamMarkets':
      if (isMatchScoreMarket(market)) {
        return {
          kind: 'matchScore',
          bet: market.teamMarketType as TeamMarketType,
          side: odd.side as OutcomeSide,
          line: market.line ?? 0,
          drawOffered: context.drawOffered ?? false,
        };
      }
      return { kind: 'operator', name: odd.name ?? odd.teamId ?? '' };
    case 'propBets':
      return { kind: 'operator', name: odd.name ?? odd.teamId ?? '' };
  }
}
