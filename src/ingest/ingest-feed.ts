import { sql } from 'kysely';
import { changeRecords, type StoredChange } from '../domain/changes.ts';
import type { Store } from '../store/database.ts';
import {
  eventIdsOfRounds,
  findEntrants,
  findExisting,
  findMarkets,
  heatIdsOfEntries,
  ReferenceIdConflict,
  touchEvents,
  upsertNewer,
  type WriteCounts,
} from '../store/feed-writer.ts';
import { changesRepository } from '../store/repositories/changes-repository.ts';
import { batchChangesCollector } from './batch-changes.ts';
import { FeedValidationError } from './feed-errors.ts';
import { FEED_COLLECTIONS, type FeedCollection } from './feed-schema.ts';
import { type NormalizedFeed, validateFeed } from './validate-feed.ts';

export type IngestSummary = Record<FeedCollection, WriteCounts> & {
  changedEventIds: string[];
  /** The change log entries this batch appended (what the push stream delivers). */
  changes: StoredChange[];
};

export interface IngestOptions {
  now?: Date;
  /** Called after each collection is written, for progress output. */
  onCollection?: (collection: FeedCollection, counts: WriteCounts) => void;
}

/** Serialises ingest across API nodes sharing one PostgreSQL store (reference-id assignment). */
export const INGEST_LOCK = 0x616c7473;

/**
 * Validates a feed batch whole, then writes it in one transaction: all of it or none of it.
 * Returns per-collection counts and the ids of events whose documents changed.
 */
export async function ingestFeed(store: Store, input: unknown, options: IngestOptions = {}): Promise<IngestSummary> {
  const feed = await validateFeed(
    input,
    (collection, ids) => findExisting(store.db, collection, ids),
    options.now,
    (collection, ownerIds) => findEntrants(store.db, collection, ownerIds),
    (ids) => findMarkets(store.db, ids),
    (roundIds) => eventIdsOfRounds(store.db, roundIds),
  );
  try {
    const summary = await store.db.transaction().execute(async (trx) => {
      if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${INGEST_LOCK})`.execute(trx);
      const summary = {} as IngestSummary;
      const changes = batchChangesCollector();
      const latestByEvent = new Map<string, string>();
      const touch = (eventId: string, at: string) => {
        const before = latestByEvent.get(eventId);
        if (!before || before < at) latestByEvent.set(eventId, at);
      };
      const eventOfRound = await roundEvents(trx, feed);
      const heatOfEntry = await entryHeats(trx, feed);
      const eventOfMarket = await marketEvents(trx, feed);

      for (const collection of FEED_COLLECTIONS) {
        let rows = feed[collection] as Array<{ id: string; updatedAt: string } & Record<string, unknown>>;
        if (collection === 'heats' || collection === 'roundScores') {
          rows = rows.map((row) => ({ ...row, eventId: eventOfRound.get(row.roundId as string) as string }));
        } else if (collection === 'laps') {
          rows = rows.map((row) => ({ ...row, heatId: heatOfEntry.get(row.heatEntryId as string) as string }));
        } else if (collection === 'odds') {
          rows = rows.map((row) => ({ ...row, eventId: eventOfMarket.get(row.marketId as string) as string }));
        }
        const result = await upsertNewer(trx, collection, rows, {
          contentUpdatedAt: collection === 'events',
          createdAt: collection === 'futures',
          referenceIds: !UNNUMBERED.has(collection),
          dialect: store.dialect,
        });
        summary[collection] = result.counts;
        changes.written(collection, rows, result.changed);
        if (
          collection === 'events' ||
          collection === 'rounds' ||
          collection === 'heats' ||
          collection === 'roundScores'
        ) {
          const byId = new Map(rows.map((row) => [row.id, row]));
          for (const id of result.changed) {
            const row = byId.get(id) as { eventId?: string; updatedAt: string };
            touch(collection === 'events' ? id : (row.eventId as string), row.updatedAt);
          }
        }
        options.onCollection?.(collection, result.counts);
      }
      await touchEvents(trx, latestByEvent);
      summary.changedEventIds = [...latestByEvent.keys()];
      const records = changeRecords(await changes.resolve(trx));
      summary.changes =
        records.length === 0
          ? []
          : await changesRepository(trx).append(
              records,
              (options.now ?? new Date()).toISOString(),
              store.changeLogSize,
              store.changeChannel,
            );
      return summary;
    });
    if (summary.changes.length > 0) store.noteWrite(summary.changes);
    const { changedEventIds: _events, changes: _changes, ...rows } = summary;
    store.noteIngest(rows);
    return summary;
  } catch (error) {
    if (error instanceof ReferenceIdConflict) {
      const index = (feed[error.collection] as Array<{ id: string }>).findIndex((r) => r.id === error.id);
      throw new FeedValidationError([
        {
          item: `${error.collection}[${index}]`,
          id: error.id,
          field: 'referenceId',
          message: `${error.referenceId} is already used by "${error.heldBy}"`,
        },
      ]);
    }
    throw error;
  }
}

/** Collections without numeric reference ids: keyed by their heat (or heat entry and lap number). */
const UNNUMBERED = new Set<FeedCollection>(['laps', 'heatResults', 'teamGames']);

/** Heat id of every heat entry a batch's laps name, from the batch or the store. */
async function entryHeats(
  trx: Parameters<typeof heatIdsOfEntries>[0],
  feed: NormalizedFeed,
): Promise<Map<string, string>> {
  const map = new Map(feed.heatEntries.map((e) => [e.id, e.heatId]));
  const missing = [...new Set(feed.laps.map((l) => l.heatEntryId).filter((id) => !map.has(id)))];
  if (missing.length > 0) for (const [id, heatId] of await heatIdsOfEntries(trx, missing)) map.set(id, heatId);
  return map;
}

/** Event id of every round a batch's heats and round scores name, from the batch or the store. */
async function roundEvents(
  trx: Parameters<typeof eventIdsOfRounds>[0],
  feed: NormalizedFeed,
): Promise<Map<string, string>> {
  const map = new Map(feed.rounds.map((r) => [r.id, r.eventId]));
  const missing = [...new Set([...feed.heats, ...feed.roundScores].map((r) => r.roundId).filter((id) => !map.has(id)))];
  if (missing.length > 0) for (const [id, eventId] of await eventIdsOfRounds(trx, missing)) map.set(id, eventId);
  return map;
}

/** Event id of every market a batch's odds name, from the batch or the store. */
async function marketEvents(
  trx: Parameters<typeof findMarkets>[0],
  feed: NormalizedFeed,
): Promise<Map<string, string>> {
  const map = new Map(feed.markets.map((m) => [m.id, m.eventId]));
  const missing = [...new Set(feed.odds.map((o) => o.marketId).filter((id) => !map.has(id)))];
  if (missing.length > 0) for (const [id, market] of await findMarkets(trx, missing)) map.set(id, market.eventId);
  return map;
}
