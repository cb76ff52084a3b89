import { type Kysely, type Transaction, sql } from 'kysely';
import type { FeedCollection } from '../ingest/feed-schema.ts';
import type { Database } from './schema.ts';

/**
 * Writes raw facts with "newer wins, same is a no-op" semantics, in one statement per chunk:
 * INSERT ... ON CONFLICT (id) DO UPDATE ... WHERE the incoming row is newer AND differs. Stale rows
 * are counted and never sent. Reference ids are kept for known rows and assigned (max + 1) to new
 * ones that arrive without one.
 */

export interface WriteCounts {
  received: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Older than the stored row's updatedAt, so ignored. */
  stale: number;
}

export interface WriteResult {
  counts: WriteCounts;
  /** Ids of rows inserted or updated. */
  changed: string[];
}

type Row = { id: string; referenceId?: number | undefined; updatedAt: string } & Record<string, unknown>;

const CHUNK = 400;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Thrown when an explicit referenceId is already used by another item of the same collection. */
export class ReferenceIdConflict extends Error {
  constructor(
    readonly collection: FeedCollection,
    readonly id: string,
    readonly referenceId: number,
    readonly heldBy: string,
  ) {
    super(`referenceId ${referenceId} of ${collection} "${id}" is already used by "${heldBy}"`);
  }
}

export async function upsertNewer(
  trx: Transaction<Database> | Kysely<Database>,
  collection: FeedCollection,
  incoming: Row[],
  /**
   * contentUpdatedAt (events) and createdAt (futures) start at the row's updatedAt on insert;
   * `referenceIds: false` for tables without numeric ids (laps, heat results, team games).
   */
  options: { contentUpdatedAt?: boolean; createdAt?: boolean; referenceIds?: boolean } = {},
): Promise<WriteResult> {
  const counts: WriteCounts = { received: incoming.length, inserted: 0, updated: 0, unchanged: 0, stale: 0 };
  if (incoming.length === 0) return { counts, changed: [] };
  const db = trx as Kysely<any>;
  const table = collection;

  const numbered = options.referenceIds !== false;
  const stored = new Map<string, { referenceId: number; updatedAt: string }>();
  for (const part of chunks(incoming.map((r) => r.id))) {
    const rows = await db
      .selectFrom(table)
      .select(numbered ? ['id', 'referenceId', 'updatedAt'] : ['id', 'updatedAt'])
      .where('id', 'in', part)
      .execute();
    for (const row of rows) stored.set(row.id, { referenceId: Number(row.referenceId), updatedAt: row.updatedAt });
  }

  const explicit = numbered ? incoming.filter((r) => r.referenceId !== undefined) : [];
  for (const part of chunks(explicit)) {
    const holders = await db
      .selectFrom(table)
      .select(['id', 'referenceId'])
      .where('referenceId', 'in', part.map((r) => r.referenceId))
      .execute();
    const holderOf = new Map(holders.map((h) => [Number(h.referenceId), h.id as string]));
    for (const row of part) {
      const holder = holderOf.get(row.referenceId as number);
      if (holder !== undefined && holder !== row.id) throw new ReferenceIdConflict(collection, row.id, row.referenceId as number, holder);
    }
  }

  let next = 1;
  if (numbered) {
    const max = await db.selectFrom(table).select(sql<number>`coalesce(max(reference_id), 0)`.as('max')).executeTakeFirstOrThrow();
    next = Number(max.max) + 1;
  }
  const fresh: Row[] = [];
  for (const row of incoming) {
    const before = stored.get(row.id);
    if (before && before.updatedAt > row.updatedAt) {
      counts.stale += 1;
      continue;
    }
    fresh.push({
      ...row,
      ...(numbered ? { referenceId: row.referenceId ?? before?.referenceId ?? next++ } : {}),
      ...(options.contentUpdatedAt ? { contentUpdatedAt: row.updatedAt } : {}),
      ...(options.createdAt ? { createdAt: row.updatedAt } : {}),
    });
  }

  const changed: string[] = [];
  if (fresh.length > 0) {
    const columns = Object.keys(fresh[0] as Row).filter((c) => c !== 'id' && c !== 'contentUpdatedAt' && c !== 'createdAt');
    const content = columns.filter((c) => c !== 'updatedAt');
    for (const part of chunks(fresh)) {
      const returned = await db
        .insertInto(table)
        .values(part)
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet((eb) => {
              const set: Record<string, unknown> = {};
              for (const column of columns) set[column] = eb.ref(`excluded.${column}`);
              if (options.contentUpdatedAt) {
                set.contentUpdatedAt = sql`case when ${sql.ref(`${table}.content_updated_at`)} > excluded.updated_at then ${sql.ref(`${table}.content_updated_at`)} else excluded.updated_at end`;
              }
              return set;
            })
            .where(({ and, or }) =>
              and([
                sql<boolean>`${sql.ref(`${snake(table)}.updated_at`)} <= excluded.updated_at`,
                or(content.map((c) => sql<boolean>`${sql.ref(`${snake(table)}.${snake(c)}`)} is distinct from ${sql.ref(`excluded.${snake(c)}`)}`)),
              ]),
            ),
        )
        .returning('id')
        .execute();
      for (const r of returned) changed.push(r.id as string);
    }
  }
  for (const id of changed) {
    if (stored.has(id)) counts.updated += 1;
    else counts.inserted += 1;
  }
  counts.unchanged = counts.received - counts.stale - counts.inserted - counts.updated;
  return { counts, changed };
}

/** Moves each event's contentUpdatedAt forward to the latest change made inside its document. */
export async function touchEvents(trx: Transaction<Database>, latestByEvent: Map<string, string>): Promise<void> {
  for (const [eventId, at] of latestByEvent) {
    await trx.updateTable('events').set({ contentUpdatedAt: at }).where('id', '=', eventId).where('contentUpdatedAt', '<', at).execute();
  }
}

/**
 * Ids that the store already holds, each with its competition: the row's own, or its event's for
 * rounds, heats, heat entries and team games; null for tables outside any competition.
 */
export async function findExisting(db: Kysely<Database>, collection: FeedCollection, ids: string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  for (const part of chunks(ids)) {
    for (const row of await existingRows(db, collection, part)) found.set(row.id, row.competition ?? null);
  }
  return found;
}

function existingRows(db: Kysely<Database>, collection: FeedCollection, ids: string[]): Promise<Array<{ id: string; competition?: string | null }>> {
  switch (collection) {
    case 'tours':
    case 'teams':
    case 'events':
    case 'futures':
      return (db as Kysely<any>).selectFrom(collection).select(['id', 'competition']).where('id', 'in', ids).execute();
    case 'rounds':
      return db.selectFrom('rounds').innerJoin('events', 'events.id', 'rounds.eventId').select(['rounds.id', 'events.competition']).where('rounds.id', 'in', ids).execute();
    case 'heats':
      return db.selectFrom('heats').innerJoin('events', 'events.id', 'heats.eventId').select(['heats.id', 'events.competition']).where('heats.id', 'in', ids).execute();
    case 'heatEntries':
      return db
        .selectFrom('heatEntries')
        .innerJoin('heats', 'heats.id', 'heatEntries.heatId')
        .innerJoin('events', 'events.id', 'heats.eventId')
        .select(['heatEntries.id', 'events.competition'])
        .where('heatEntries.id', 'in', ids)
        .execute();
    default:
      return (db as Kysely<any>).selectFrom(collection).select(['id']).where('id', 'in', ids).execute();
  }
}

/** Maps heat entry ids to their heat ids, from the store. */
export async function heatIdsOfEntries(db: Kysely<Database> | Transaction<Database>, entryIds: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const part of chunks(entryIds)) {
    const rows = await db.selectFrom('heatEntries').select(['id', 'heatId']).where('id', 'in', part).execute();
    for (const row of rows) found.set(row.id, row.heatId);
  }
  return found;
}

/** Maps round ids to their event ids, from the store. */
export async function eventIdsOfRounds(db: Kysely<Database> | Transaction<Database>, roundIds: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const part of chunks(roundIds)) {
    const rows = await db.selectFrom('rounds').select(['id', 'eventId']).where('id', 'in', part).execute();
    for (const row of rows) found.set(row.id, row.eventId);
  }
  return found;
}
