import { COMPETITION_KEYS } from '../domain/competitions.ts';
import {
  type BetStopRules,
  type EventBetStops,
  isFeedStale,
  liveBetStops,
  NO_BET_STOPS,
} from '../domain/feed-health.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type { FeedStatusItem } from '../shapes/feed-status.ts';
import type { Store } from '../store/database.ts';
import { feedActivityRepository } from '../store/repositories/feed-activity-repository.ts';
import { type AccessScope, canRead } from './access-scope.ts';

/**
 * Feed health per competition the key may read: the last message, the LIVE events, and those of them
 * the feed has been silent about for `staleSeconds` (under a FEED_STALE bet stop).
 */
export async function feedStatus(
  store: Store,
  scope: AccessScope,
  staleSeconds: number,
  now = new Date(),
): Promise<FeedStatusItem[]> {
  const repository = feedActivityRepository(store.db);
  const [last, live] = await Promise.all([repository.lastByCompetition(), repository.liveEvents()]);
  return COMPETITION_KEYS.filter((competition) => canRead(scope, competition)).map((competition) => {
    const events = live.filter((e) => e.competition === competition);
    return {
      competition,
      lastMessageAt: last.get(competition) ?? null,
      liveEvents: events.length,
      staleEventIds: events
        .filter((e) => isFeedStale(e.lastMessageAt, now, staleSeconds))
        .map((e) => formatPublicId(competition, e.eventId)),
    };
  });
}

/** The bet stops of one event at `now`, as every node derives them from the store (none unless LIVE). */
export async function eventBetStops(
  store: Store,
  event: { id: string; competition: string; eventStatus: string },
  rules: BetStopRules,
  now = new Date(),
): Promise<EventBetStops> {
  if (event.eventStatus !== 'LIVE') return NO_BET_STOPS;
  const [feed] = await feedActivityRepository(store.db).liveEvents([event.id]);
  return feed ? liveBetStops(feed, event.competition, rules, now) : NO_BET_STOPS;
}

/** The bare ids of the given LIVE events that are stale at `now` (the others, and events not LIVE, are not). */
export async function staleEventIds(
  store: Store,
  eventIds: readonly string[],
  staleSeconds: number,
  now = new Date(),
): Promise<Set<string>> {
  const live = await feedActivityRepository(store.db).liveEvents(eventIds);
  return new Set(live.filter((e) => isFeedStale(e.lastMessageAt, now, staleSeconds)).map((e) => e.eventId));
}
