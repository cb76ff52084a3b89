/**
 * Feed health (issue 27): a LIVE event the feed has been silent about for `staleSeconds` is stale,
 * and its open markets are under a bet stop (FEED_STALE) until the next message about it. Derived
 * at read time from the stored time of the last message, so every node agrees without a timer.
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
