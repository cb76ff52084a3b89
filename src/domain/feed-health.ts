/**
 * Feed health and bet stops: a LIVE event the feed has been silent about for `staleSeconds`
 * is stale, and its open markets are under a bet stop (FEED_STALE) until the next message about it;
 * after a score they are suspended for a few seconds (SCORE_CHANGE, per competition). Derived at read
 * time from stored times, so every node agrees without a timer. A price set before the event went LIVE
 * is suspended (EVENT_STARTED) by the batch that moves it to LIVE, until the feed prices it again.
 */

/** The default of FEED_STALE_SECONDS. */
export const DEFAULT_FEED_STALE_SECONDS = 30;

/**
 * Whether a LIVE event is stale at `now`: silent for at least `staleSeconds`, or never heard of (an
 * event loaded before the store kept track, or live on its own word only, is not trusted). A
 * `staleSeconds` of 0 turns the bet stop on silence off (a feed that sends no keep-alives).
 */
export function isFeedStale(lastMessageAt: string | null, now: Date, staleSeconds: number): boolean {
  if (staleSeconds <= 0) return false;
  if (lastMessageAt === null) return true;
  const last = Date.parse(lastMessageAt);
  if (Number.isNaN(last)) return true;
  return now.getTime() - last >= staleSeconds * 1000;
}

/** The bet stop settings: FEED_STALE_SECONDS, and SCORE_CHANGE_SUSPEND_SECONDS by competition key. */
export interface BetStopRules {
  feedStaleSeconds: number;
  /** Seconds a LIVE event's open markets stay suspended after a score; a competition not listed: none. */
  scoreChangeSeconds: Readonly<Record<string, number>>;
}

export const DEFAULT_BET_STOP_RULES: BetStopRules = {
  feedStaleSeconds: DEFAULT_FEED_STALE_SECONDS,
  scoreChangeSeconds: {},
};

/** What the store knows of the feed about a LIVE event (feed_activity). */
export interface LiveEventFeed {
  /** Server time of the last message about it; null when none since the store began keeping track. */
  lastMessageAt: string | null;
  /** Server time of the last batch that changed one of its scores while LIVE. */
  scoreChangedAt: string | null;
}

/** The bet stops derived for one event, for the status of each of its prices (domain/markets/market-status.ts). */
export interface EventBetStops {
  feedStale: boolean;
  scoreChange: boolean;
}

export const NO_BET_STOPS: EventBetStops = { feedStale: false, scoreChange: false };

/** The bet stops of a LIVE event at `now`; an event that is not LIVE has none. */
export function liveBetStops(feed: LiveEventFeed, competition: string, rules: BetStopRules, now: Date): EventBetStops {
  return {
    feedStale: isFeedStale(feed.lastMessageAt, now, rules.feedStaleSeconds),
    scoreChange: isScoreChangeSuspended(feed.scoreChangedAt, now, rules.scoreChangeSeconds[competition] ?? 0),
  };
}

/**
 * Seconds of a feed's clock in real seconds: the demo simulator's clock runs `speed` times real time,
 * and a suspension after a score is meant in the time of the game, not of the server.
 */
export function inSimulatedSeconds(seconds: Readonly<Record<string, number>>, speed: number): Record<string, number> {
  if (!(speed > 0)) throw new RangeError(`speed must be above 0, got ${speed}`);
  return Object.fromEntries(Object.entries(seconds).map(([key, n]) => [key, n / speed]));
}

/** Within `seconds` of the last score change (0: never suspended for a score). */
export function isScoreChangeSuspended(scoreChangedAt: string | null, now: Date, seconds: number): boolean {
  if (seconds <= 0 || scoreChangedAt === null) return false;
  const at = Date.parse(scoreChangedAt);
  return !Number.isNaN(at) && now.getTime() - at < seconds * 1000;
}

/**
 * The outcomes an event's going LIVE suspends (EVENT_STARTED): those open, priced before the event row
 * that moved it to LIVE (`liveSince`, the feed's clock), and not sent in that same batch (`pricedNow`:
 * a feed that sends its in-play prices with the status has priced them in play, even unchanged).
 */
export function preMatchOddIds(
  odds: ReadonlyArray<{ id: string; status: string; updatedAt: string }>,
  liveSince: string,
  pricedNow: ReadonlySet<string>,
): string[] {
  const since = Date.parse(liveSince);
  return odds
    .filter((o) => o.status === 'OPEN' && Date.parse(o.updatedAt) < since && !pricedNow.has(o.id))
    .map((o) => o.id);
}
