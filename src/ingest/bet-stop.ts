import { sql } from 'kysely';
import { type ChangeRecord, MAX_ODDS_PER_RECORD, type StoredChange } from '../domain/changes.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type { Store } from '../store/database.ts';
import { touchLastChanged } from '../store/feed-writer.ts';
import { changesRepository } from '../store/repositories/changes-repository.ts';
import { feedActivityRepository } from '../store/repositories/feed-activity-repository.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import { INGEST_LOCK } from './ingest-feed.ts';

type Writer = Parameters<typeof oddsRepository>[0];

/**
 * The stream record of a bet stop on silence (FEED_STALE) or of its end: an `odds` change listing the
 * event's outcomes the operator has open, SUSPENDED with statusReason FEED_STALE, or OPEN again.
 */
export async function betStopRecords(
  db: Writer,
  events: ReadonlyArray<{ eventId: string; competition: string }>,
  stopped: boolean,
  at: string,
): Promise<ChangeRecord[]> {
  const records: ChangeRecord[] = [];
  for (const { eventId, competition } of events) {
    const open = (await oddsRepository(db).oddsOfEvent(eventId)).filter((o) => o.status === 'OPEN');
    const odds = open.map((o) => ({
      id: o.id,
      marketId: o.marketId,
      decimalOdds: o.decimalOdds,
      status: stopped ? 'SUSPENDED' : 'OPEN',
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
        ...(stopped ? { statusReason: 'FEED_STALE' } : {}),
        updatedAt: at,
      },
    });
  }
  return records;
}

/**
 * Pushes the bet stop of every LIVE event the feed has been silent about for `staleSeconds` and that
 * no node has pushed yet. Every node runs it every second; the ingest lock (PostgreSQL) or the write
 * transaction (SQLite) makes one node alone push each, and keeps change ids in commit order.
 */
export async function publishFeedStale(store: Store, staleSeconds: number, now = new Date()): Promise<StoredChange[]> {
  const at = now.toISOString();
  if (staleSeconds <= 0) return []; // FEED_STALE_SECONDS=0: no bet stop on silence
  const before = new Date(now.getTime() - staleSeconds * 1000).toISOString();
  // Almost always nothing is stale: a read, and no write transaction, every second on every node.
  if (!(await feedActivityRepository(store.db).anyStale(before))) return [];
  const changes = await store.db.transaction().execute(async (trx) => {
    if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${INGEST_LOCK})`.execute(trx);
    const stale = await feedActivityRepository(trx).claimStale(before, at);
    if (stale.length === 0) return [];
    const records = await betStopRecords(trx, stale, true, at);
    await touchLastChanged(
      trx,
      stale.map((e) => e.eventId),
      at,
    ); // so that updatedSince polling sees it
    return changesRepository(trx).append(records, at, store.changeLogSize, store.changeChannel);
  });
  if (changes.length > 0) store.noteWrite(changes);
  return changes;
}
