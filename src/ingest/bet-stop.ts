import type { Transaction } from 'kysely';
import { type ChangeRecord, MAX_ODDS_PER_RECORD, type StoredChange } from '../domain/changes.ts';
import type { BetStopRules } from '../domain/feed-health.ts';
import type { StatusReason } from '../domain/markets/market-status.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type { Store } from '../store/database.ts';
import { changesRepository } from '../store/repositories/changes-repository.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { feedActivityRepository } from '../store/repositories/feed-activity-repository.ts';
import { feedFactsRepository } from '../store/repositories/feed-facts-repository.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import type { Database, OddRow } from '../store/schema.ts';

type Writer = Parameters<typeof oddsRepository>[0];

/** A bet stop derived by the store (not the operator's): suspended with this reason, or reopened (null). */
export type DerivedStop = Extract<StatusReason, 'FEED_STALE' | 'SCORE_CHANGE' | 'EVENT_STARTED'> | null;

/**
 * The stream record of a derived bet stop or of its end: an `odds` change listing the event's outcomes
 * the operator has open (those `affected` picks), SUSPENDED with the stop's statusReason, or OPEN again.
 */
export async function betStopRecords(
  db: Writer,
  events: ReadonlyArray<{ eventId: string; competition: string }>,
  stop: DerivedStop,
  at: string,
  affected: (odd: OddRow) => boolean = () => true,
): Promise<ChangeRecord[]> {
  const records: ChangeRecord[] = [];
  for (const { eventId, competition } of events) {
    const open = (await oddsRepository(db).oddsOfEvent(eventId)).filter((o) => o.status === 'OPEN' && affected(o));
    if (open.length === 0) continue;
    const odds = open.map((o) => ({
      id: o.id,
      marketId: o.marketId,
      decimalOdds: o.decimalOdds,
      status: stop ? 'SUSPENDED' : 'OPEN',
    }));
    records.push({
      kind: 'odds',
      competition,
      eventId,
      data: {
        eventId: formatPublicId(competition, eventId),
        competition,
        marketIds: [...new Set(open.map((o) => o.marketId))].sort(),
        odds: odds.slice(0, MAX_ODDS_PER_RECORD),
        ...(odds.length > MAX_ODDS_PER_RECORD ? { truncated: true } : {}),
        ...(stop ? { statusReason: stop } : {}),
        updatedAt: at,
      },
    });
  }
  return records;
}

/**
 * Pushes the derived bet stops that start or end by `now` and no node has pushed yet: FEED_STALE for
 * LIVE events the feed has been silent about, SCORE_CHANGE suspensions after a score and their end.
 * Every node runs it every second; the ingest lock (PostgreSQL) or the write transaction (SQLite)
 * makes one node alone push each, and keeps change ids in commit order.
 */
export async function publishBetStops(store: Store, rules: BetStopRules, now = new Date()): Promise<StoredChange[]> {
  return [
    ...(await publishFeedStale(store, rules.feedStaleSeconds, now)),
    ...(await publishScoreChangeStops(store, rules.scoreChangeSeconds, now)),
  ];
}

/** Pushes the bet stop of every LIVE event the feed has been silent about for `staleSeconds`. */
export async function publishFeedStale(store: Store, staleSeconds: number, now = new Date()): Promise<StoredChange[]> {
  const at = now.toISOString();
  if (staleSeconds <= 0) return []; // FEED_STALE_SECONDS=0: no bet stop on silence
  const before = new Date(now.getTime() - staleSeconds * 1000).toISOString();
  // Almost always nothing is stale: a read, and no write transaction, every second on every node.
  if (!(await feedActivityRepository(store.db).anyStale(before))) return [];
  return pushed(store, at, async (trx) => {
    const stale = await feedActivityRepository(trx).claimStale(before, at);
    return stale.length === 0 ? [] : betStopRecords(trx, stale, 'FEED_STALE', at);
  });
}

/**
 * Pushes each SCORE_CHANGE suspension once it is due (a score of a LIVE event changed less than its
 * competition's seconds ago) and its end once those seconds have passed.
 */
export async function publishScoreChangeStops(
  store: Store,
  seconds: Readonly<Record<string, number>>,
  now = new Date(),
): Promise<StoredChange[]> {
  const longest = Math.max(0, ...Object.values(seconds));
  if (longest === 0) return [];
  const since = new Date(now.getTime() - longest * 1000).toISOString();
  if ((await feedActivityRepository(store.db).scoreStops(since)).length === 0) return [];
  const at = now.toISOString();
  return pushed(store, at, async (trx) => {
    const activity = feedActivityRepository(trx);
    const due = (await activity.scoreStops(since)).map((e) => ({
      ...e,
      within: now.getTime() - Date.parse(e.scoreChangedAt) < (seconds[e.competition] ?? 0) * 1000,
    }));
    const starting = due.filter((e) => e.within && e.scoreStopPublishedAt === null);
    const ending = due.filter((e) => !e.within && e.scoreStopPublishedAt !== null);
    await activity.setScoreStopPublished(
      starting.map((e) => e.eventId),
      at,
    );
    await activity.setScoreStopPublished(
      ending.map((e) => e.eventId),
      null,
    );
    return [
      ...(await betStopRecords(trx, starting, 'SCORE_CHANGE', at)),
      ...(await betStopRecords(trx, ending, null, at)),
    ];
  });
}

/** Appends the records `claim` makes, in one write transaction under the ingest lock; moves their events' lastChangedAt. */
async function pushed(
  store: Store,
  at: string,
  claim: (trx: Transaction<Database>) => Promise<ChangeRecord[]>,
): Promise<StoredChange[]> {
  const changes = await store.db.transaction().execute(async (trx) => {
    await feedFactsRepository(trx).takeIngestLock(store.dialect);
    const records = await claim(trx);
    if (records.length === 0) return [];
    // So that updatedSince polling sees the change of status.
    await eventsRepository(trx).touchLastChanged([...new Set(records.map((r) => r.eventId as string))], at);
    return changesRepository(trx).append(records, at, store.changeLogSize, store.changeChannel);
  });
  if (changes.length > 0) store.noteWrite(changes);
  return changes;
}
