import type { ResultsFormat } from '../competitions.ts';
import type { EndStatus, MatchSide } from '../enumerations.ts';

/**
 * The score of a match between two teams (home and away), from the scores of its periods: quarters,
 * periods, ends, games or sets. Goal formats add the periods up (overtime and extra ends included);
 * table tennis and Jai Alai count the games or sets each side has won, so that a match's score reads
 * "4-2 in games" or "2-1 in sets". Settlement, the detail routes and the pricing models all read the
 * match score through this one rule.
 */

export type { MatchSide };

export interface PeriodScore {
  home: number;
  away: number;
  /** COMPLETED once the period is over. Periods-won formats count only completed periods. */
  status?: string;
}

export interface MatchScore {
  home: number;
  away: number;
}

/** Formats whose match score is the number of periods (games, sets) won. */
export const PERIODS_WON_FORMATS = ['table-tennis', 'jai-alai'] as const satisfies readonly ResultsFormat[];
/** Formats played as a match between two teams, scored by period. */
export const MATCH_FORMATS = [
  'team-match',
  'curling',
  'table-tennis',
  'box-lacrosse',
  'three-ice',
  'jai-alai',
] as const satisfies readonly ResultsFormat[];
export type MatchFormat = (typeof MATCH_FORMATS)[number];

export function isMatchFormat(format: ResultsFormat): format is MatchFormat {
  return (MATCH_FORMATS as readonly ResultsFormat[]).includes(format);
}

export function countsPeriodsWon(format: ResultsFormat): boolean {
  return (PERIODS_WON_FORMATS as readonly ResultsFormat[]).includes(format);
}

/** The side that won a period (or a match), or null for a tie. */
export function sideAhead(score: { home: number; away: number }): MatchSide | null {
  if (score.home > score.away) return 'home';
  if (score.away > score.home) return 'away';
  return null;
}

export function matchScore(format: ResultsFormat, periods: readonly PeriodScore[]): MatchScore {
  let home = 0;
  let away = 0;
  if (countsPeriodsWon(format)) {
    for (const period of periods) {
      if (period.status !== undefined && period.status !== 'COMPLETED') continue;
      const won = sideAhead(period);
      if (won === 'home') home++;
      else if (won === 'away') away++;
    }
  } else {
    for (const period of periods) {
      home += period.home;
      away += period.away;
    }
  }
  return { home, away };
}

/**
 * The match's winner once it is over: the side ahead on the match score; null while it is not
 * completed, and for a completed match that ended level (a draw, where the format allows one).
 */
export function matchWinner(
  format: ResultsFormat,
  eventStatus: string,
  periods: readonly PeriodScore[],
): MatchSide | null {
  if (eventStatus !== 'COMPLETED') return null;
  return sideAhead(matchScore(format, periods));
}

/**
 * Curling's hammer (last-stone advantage) in each end: the team that scores in an end gives the
 * hammer to the other team; after a blank end (nobody scores) the team with the hammer keeps it.
 * Returns the side holding the hammer in ends 1..n+1 (the last one is the end still to play).
 */
export function hammerByEnd(firstHammer: MatchSide, ends: ReadonlyArray<{ home: number; away: number }>): MatchSide[] {
  const hammers: MatchSide[] = [firstHammer];
  let hammer = firstHammer;
  for (const end of ends) {
    const scored = sideAhead(end);
    if (scored !== null) hammer = scored === 'home' ? 'away' : 'home';
    hammers.push(hammer);
  }
  return hammers;
}

/**
 * `hasHammer` (section 2.6): the side with the hammer now, in the first end not yet completed (after
 * the last end once all are completed). Ends are in play order; only completed ends pass the hammer.
 */
export function hammerNow(firstHammer: MatchSide, ends: readonly PeriodScore[]): MatchSide {
  const completed: PeriodScore[] = [];
  for (const end of ends) {
    if (end.status !== 'COMPLETED') break;
    completed.push(end);
  }
  return hammerByEnd(firstHammer, completed).at(-1) as MatchSide;
}

/**
 * A curling end's `roundStatus` (section 2.6 allows UPCOMING, LIVE, COMPLETED): an end called off
 * once the match is decided counts as completed, anything not yet begun as upcoming.
 */
export function endStatus(roundStatus: string): EndStatus {
  if (roundStatus === 'LIVE') return 'LIVE';
  if (roundStatus === 'COMPLETED' || roundStatus === 'CANCELLED') return 'COMPLETED';
  return 'UPCOMING';
}

/**
 * Jai Alai's `matchStatus`: how far play has gone, from the sets, in the status words. COMPLETED once
 * a side has won the sets it needs (or the event is completed), LIVE once a set has begun, else the
 * event's own status (UPCOMING, NEXT, CANCELLED, POSTPONED).
 */
export function matchStatus(eventStatus: string, sets: readonly PeriodScore[], setsToWin: number): string {
  const score = matchScore('jai-alai', sets);
  if (eventStatus === 'COMPLETED' || Math.max(score.home, score.away) >= setsToWin) return 'COMPLETED';
  if (eventStatus === 'CANCELLED' || eventStatus === 'POSTPONED') return eventStatus;
  if (eventStatus === 'LIVE' || sets.some((s) => s.status === 'LIVE' || s.status === 'COMPLETED')) return 'LIVE';
  return eventStatus;
}

/** Match lengths of the formats that count periods won: best of three sets, best of seven games. */
export const JAI_ALAI_SETS_TO_WIN = 2;
export const TABLE_TENNIS_GAMES_TO_WIN = 4;
