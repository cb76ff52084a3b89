import type { OverUnderSubMarketType } from '../enumerations.ts';

/**
 * The results of one scope (the event, a heat, or a lap statistic), as settlement reads them.
 * Built by the read layer from stored results with the specification's rules (athleteRoundRank,
 * lap statistics); settlement itself never looks at raw rows.
 */
export interface ScopeResult {
  /**
   * pending: not decided yet (settles NOT_SET); decided: settle from `ranks`; void: called off
   * (cancelled, no contest): every outcome VOID; push: a draw that pays nobody (a drawn fight):
   * every outcome PUSH.
   */
  state: 'pending' | 'decided' | 'void' | 'push';
  /**
   * Final standing. A number is a rank (1 is best; athletes who tie share a rank and the next rank
   * skips, as 1, 1, 3). null: took part but was not classified (DNF, DSQ), which ranks behind every
   * classified athlete. An athlete absent from the map did not take part: bets on them are VOID.
   */
  ranks: ReadonlyMap<string, number | null>;
  /** Per-athlete measures for over/under on points and gap to the leader (seconds). */
  measures?: ReadonlyMap<string, Partial<Record<OverUnderSubMarketType, number>>>;
  /** Team matches: the score of the match (as matchScore counts it) or of the period. */
  score?: { home: number; away: number };
  /** The result was fed PROVISIONAL: settlements read from it are PROVISIONAL. */
  provisional?: boolean;
}
