/**
 * The specification's enumerations (section 2.1), declared once. Schemas, parsers, the demo generator
 * and the tests all import these lists; nothing else spells them out.
 */

export const EVENT_STATUSES = ['LIVE', 'UPCOMING', 'NEXT', 'IN_WINDOW', 'COMPLETED', 'CANCELLED', 'POSTPONED'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** Rounds and heats use the event-status words (section 3). */
export const ROUND_STATUSES = EVENT_STATUSES;
export type RoundStatus = EventStatus;
export const HEAT_STATUSES = EVENT_STATUSES;
export type HeatStatus = EventStatus;

/** Curling-style ends publish only these three. */
export const END_STATUSES = ['UPCOMING', 'LIVE', 'COMPLETED'] as const;
export type EndStatus = (typeof END_STATUSES)[number];

export const ODD_TYPES = [
  'fastestLap',
  'eventWinner',
  'secondPlace',
  'holeShot',
  'heatWinner',
  'overUnder',
  'multiOverUnder',
  'headToHead',
  'shows',
  'podiums',
  'propBets',
  'dreamTeam',
  'eventExacta',
  'heatExacta',
  'raceTop10',
  'raceTop5',
  'raceTop3',
  'teamMarkets',
] as const;
export type OddType = (typeof ODD_TYPES)[number];

export const EXACTAS_TYPES = [2, 3, 4] as const;
export type ExactasType = (typeof EXACTAS_TYPES)[number];

export const OVER_UNDER_SUB_MARKET_TYPES = ['finishingPosition', 'points', 'gapToLeaders'] as const;
export type OverUnderSubMarketType = (typeof OVER_UNDER_SUB_MARKET_TYPES)[number];

/** A priced outcome's status (DESIGN decision 7): CLOSED takes no more bets, nor parlay legs. */
export const OUTCOME_STATUSES = ['OPEN', 'SUSPENDED', 'CLOSED'] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

/** Whether a heat's or an event's result is final; a provisional one settles PROVISIONAL. */
export const RESULT_STATUSES = ['PROVISIONAL', 'OFFICIAL'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** How a priced outcome settled; NOT_SET until its heat or event is decided. */
export const SETTLEMENTS = ['NOT_SET', 'WIN', 'LOSE', 'VOID', 'PUSH'] as const;
export type Settlement = (typeof SETTLEMENTS)[number];

/** `marketStatus` of heatWinner and heatExacta items (DESIGN decision 7). */
export const HEAT_MARKET_STATUSES = ['OPEN', 'CLOSE', 'VOID'] as const;
export type HeatMarketStatus = (typeof HEAT_MARKET_STATUSES)[number];

export const FUTURE_TYPES = ['winner', 'top2', 'top3', 'top5', 'top10', 'makeCut', 'makePlayOdds'] as const;
export type FutureType = (typeof FUTURE_TYPES)[number];

export const LAP_STATUSES = ['ACT', 'DNF', 'DNS', 'BYE', 'DSQ'] as const;
export type LapStatus = (typeof LAP_STATUSES)[number];

/**
 * How a fight was decided, in the spellings the specification publishes (section 2.5, `winBy`).
 * Draws rank both fighters 1; a no contest ranks neither.
 */
export const WIN_METHODS = [
  'KO',
  'TKO',
  'Submission',
  'Technical Submission',
  'Medical Stoppage',
  'Decision',
  'Unanimous Decision',
  'Split Decision',
  'Majority Decision',
  'Technical Decision',
  'Referee Technical Decision',
  'Disqualification',
  'Forfeit',
  'No Contest',
  'Draw',
  'Unanimous Draw',
  'Split Draw',
  'Majority Draw',
  'Technical Draw',
] as const;
export type WinMethod = (typeof WIN_METHODS)[number];
export const DRAW_METHODS = [
  'Draw',
  'Unanimous Draw',
  'Split Draw',
  'Majority Draw',
  'Technical Draw',
] as const satisfies readonly WinMethod[];
export const NO_RESULT_METHODS = ['No Contest'] as const satisfies readonly WinMethod[];

/** An event participant's standing (route 4; DESIGN decision 6). */
export const PARTICIPANT_STATUSES = ['ACTIVE', 'ELIMINATED', 'WITHDRAWN', 'INJURED', 'ALTERNATE'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

export const SORT_ORDERS = ['ASC', 'DESC'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const GENDERS = ['men', 'women', 'mixed'] as const;
export type Gender = (typeof GENDERS)[number];

export function isOneOf<T extends string | number>(values: readonly T[], value: unknown): value is T {
  return (values as readonly unknown[]).includes(value);
}

/** teamMarkets settled from the match score: who wins, a handicap, the total. */
export const TEAM_MARKET_TYPES = ['moneyline', 'spread', 'total'] as const;
export type TeamMarketType = (typeof TEAM_MARKET_TYPES)[number];

/** The two sides of a match between teams. */
export const MATCH_SIDES = ['home', 'away'] as const;
export type MatchSide = (typeof MATCH_SIDES)[number];

/** Table tennis game types. */
export const GAME_TYPES = ['singles', 'doubles'] as const;
export type GameType = (typeof GAME_TYPES)[number];

/** Market status on the sport-specific odds routes (section 2.8 shows ACTIVE; the others close the set). */
export const MARKET_STATUSES = ['ACTIVE', 'SUSPENDED', 'CLOSED'] as const;
export type MarketStatus = (typeof MARKET_STATUSES)[number];
