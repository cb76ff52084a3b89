import type { OddType, OverUnderSubMarketType, TeamMarketType } from '../enumerations.ts';

/**
 * What a priced outcome bets on, in one vocabulary that settlement (settlement.ts), the parlay's
 * predicates over simulated orders (pricing/parlay.ts) and the check for legs that cannot win
 * together (leg-conflicts.ts) all read. Built from a stored market and outcome by `selectionOf`.
 */

/** Where an outcome is decided: the event's final standing, one heat, or one statistic of the event. */
export type Scope =
  | { kind: 'event' }
  | { kind: 'heat'; heatId: string }
  /** fastestLap and holeShot: decided by lap records, in one heat or (no heat) the whole event. */
  | { kind: 'lapStatistic'; statistic: 'fastestLap' | 'holeShot'; heatId: string | null }
  /** A team match (roundId null) or one of its periods: teamMarkets settled from the match score. */
  | { kind: 'match'; roundId: string | null }
  /** propBets and untyped teamMarkets: settled by the operator, priced as independent of everything else. */
  | { kind: 'operator'; marketId: string };

export type Selection =
  /** Finishes exactly `place`-th (eventWinner 1, secondPlace 2, heatWinner 1, fastestLap/holeShot 1). */
  | { kind: 'place'; athleteId: string; place: number }
  /** Finishes in the top `places` (podiums and shows 3, raceTop3/5/10). */
  | { kind: 'top'; athleteId: string; places: number }
  /** The first places are exactly these athletes in this order (exacta 2, trifecta 3, superfecta 4). */
  | { kind: 'order'; athleteIds: readonly string[] }
  /** Finishes ahead of `otherId` (one side of a head-to-head). */
  | { kind: 'ahead'; athleteId: string; otherId: string }
  /**
   * The measure of these athletes (summed when several: multiOverUnder) is above (OVER) or below
   * (UNDER) the line; equal is a push.
   */
  | {
      kind: 'overUnder';
      athleteIds: readonly string[];
      measure: OverUnderSubMarketType;
      line: number;
      side: OverUnderSide;
    }
  /** dreamTeam: this group's summed finishing positions are the lowest of the market's groups. */
  | { kind: 'group'; athleteIds: readonly string[]; groups: readonly (readonly string[])[] }
  /**
   * A team market on a match or period score: the moneyline (HOME, AWAY or DRAW wins), the spread
   * (HOME covers when home - away + line > 0; AWAY when away - home - line > 0; line is the home
   * handicap) or the total (home + away against the line, OVER or UNDER). A level score pays DRAW
   * when the moneyline offers one (`drawOffered`), and pushes HOME and AWAY when it does not.
   */
  | { kind: 'matchScore'; bet: TeamMarketType; side: OutcomeSide; line: number; drawOffered?: boolean }
  /** propBets and untyped teamMarkets: a named outcome the operator settles. */
  | { kind: 'operator'; name: string };

export const OVER_UNDER_SIDES = ['OVER', 'UNDER'] as const;
export type OverUnderSide = (typeof OVER_UNDER_SIDES)[number];
/** Sides of a match's moneyline and spread. */
export const TEAM_SIDES = ['HOME', 'AWAY', 'DRAW'] as const;
export type TeamSide = (typeof TEAM_SIDES)[number];
/** Every side an outcome may take: over/under lines and team sides. */
export const OUTCOME_SIDES = [...OVER_UNDER_SIDES, ...TEAM_SIDES] as const;
export type OutcomeSide = (typeof OUTCOME_SIDES)[number];

/** Odd types whose markets the operator settles: the results carry nothing to decide them by. */
export const OPERATOR_SETTLED: readonly OddType[] = ['propBets', 'teamMarkets'];

/** Odd types decided within one heat: their markets name the heat. */
export const HEAT_ODD_TYPES: readonly OddType[] = ['heatWinner', 'heatExacta'];

/** Top places paid by each top-k odd type; shows take the market's own `places` (3 when absent). */
export const TOP_PLACES: Partial<Record<OddType, number>> = {
  podiums: 3,
  shows: 3,
  raceTop3: 3,
  raceTop5: 5,
  raceTop10: 10,
};
