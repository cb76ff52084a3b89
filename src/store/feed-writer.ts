import type BetterSqlite3 from 'better-sqlite3';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { MarketShape } from '../domain/markets/market-shape.ts';
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

export interface UpsertOptions {
  /** events: contentUpdatedAt starts at the row's updatedAt on insert, and only moves forward. */
  contentUpdatedAt?: boolean;
  /** futures: createdAt is the row's updatedAt on insert. */
  createdAt?: boolean;
  /** false for tables without numeric ids (laps, heat results, team games). */
  referenceIds?: boolean;
  /**
   * The SQLite connection of the transaction `trx` runs on: rows then go through cached prepared
   * statements, one at a time, which is several times faster than multi-row statements built per
   * chunk (BENCHMARKS.md, "Feed ingestion").
   */
  sqlite?: BetterSqlite3.Database | undefined;
}

/** A row that arrives without a reference id and has none stored gets the next free one. */
function needsReferenceId(row: Row, stored: Map<string, { referenceId?: number }>): boolean {
  return row.referenceId === undefined && stored.get(row.id)?.referenceId === undefined;
}

export async function upsertNewer(
  trx: Transaction<Database> | Kysely<Database>,
  collection: FeedCollection,
  incoming: Row[],
  options: UpsertOptions = {},
): Promise<WriteResult> {
  const counts: WriteCounts = { received: incoming.length, inserted: 0, updated: 0, unchanged: 0, stale: 0 };
  if (incoming.length === 0) return { counts, changed: [] };
  if (options.sqlite) return upsertNewerSqlite(options.sqlite, collection, incoming, options, counts);
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
      .where(
        'referenceId',
        'in',
        part.map((r) => r.referenceId),
      )
      .execute();
    const holderOf = new Map(holders.map((h) => [Number(h.referenceId), h.id as string]));
    for (const row of part) {
      const holder = holderOf.get(row.referenceId as number);
      if (holder !== undefined && holder !== row.id)
        throw new ReferenceIdConflict(collection, row.id, row.referenceId as number, holder);
    }
  }

  let next = 1;
  // The next free reference id is read only when a new row needs one (not for updates of known rows).
  if (numbered && incoming.some((row) => needsReferenceId(row, stored))) {
    const max = await db
      .selectFrom(table)
      .select(sql<number>`coalesce(max(reference_id), 0)`.as('max'))
      .executeTakeFirstOrThrow();
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
    const columns = Object.keys(fresh[0] as Row).filter(
      (c) => c !== 'id' && c !== 'contentUpdatedAt' && c !== 'createdAt',
    );
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
                or(
                  content.map(
                    (c) =>
                      sql<boolean>`${sql.ref(`${snake(table)}.${snake(c)}`)} is distinct from ${sql.ref(`excluded.${snake(c)}`)}`,
                  ),
                ),
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

const statementCache = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

function prepare(connection: BetterSqlite3.Database, text: string): BetterSqlite3.Statement {
  let cache = statementCache.get(connection);
  if (!cache) {
    cache = new Map();
    statementCache.set(connection, cache);
  }
  let statement = cache.get(text);
  if (!statement) {
    statement = connection.prepare(text);
    cache.set(text, statement);
  }
  return statement;
}

const LOOKUP_BATCH = 500;
const UPSERT_BATCH = 16;

/**
 * The same semantics as the Kysely path above, through cached prepared statements: stored rows are
 * looked up `LOOKUP_BATCH` ids at a time, and rows are written `UPSERT_BATCH` to a statement.
 */
function upsertNewerSqlite(
  connection: BetterSqlite3.Database,
  collection: FeedCollection,
  incoming: Row[],
  options: UpsertOptions,
  counts: WriteCounts,
): WriteResult {
  const table = snake(collection);
  const numbered = options.referenceIds !== false;

  const stored = new Map<string, { referenceId?: number; updatedAt: string }>();
  const selected = `select id, ${numbered ? 'reference_id as referenceId, ' : ''}updated_at as updatedAt from ${table} where id in `;
  for (let from = 0; from < incoming.length; from += LOOKUP_BATCH) {
    const ids = incoming.slice(from, from + LOOKUP_BATCH).map((r) => r.id);
    const rows = prepare(connection, `${selected}(${placeholders(ids.length)})`).all(ids) as Array<{
      id: string;
      referenceId?: number;
      updatedAt: string;
    }>;
    for (const row of rows) stored.set(row.id, row);
  }
  let next =
    numbered && incoming.some((row) => needsReferenceId(row, stored))
      ? Number(
          (prepare(connection, `select coalesce(max(reference_id), 0) as max from ${table}`).get() as { max: number })
            .max,
        ) + 1
      : 1;
  const findHolder = numbered ? prepare(connection, `select id from ${table} where reference_id = ?`) : undefined;

  const first = incoming[0] as Row;
  const columns = Object.keys(first).filter((c) => c !== 'referenceId');
  if (numbered) columns.splice(1, 0, 'referenceId');
  const extra = [
    ...(options.contentUpdatedAt ? ['contentUpdatedAt'] : []),
    ...(options.createdAt ? ['createdAt'] : []),
  ];
  const width = columns.length + extra.length;
  const updatable = columns.filter((c) => c !== 'id');
  const content = updatable.filter((c) => c !== 'updatedAt');
  const set = updatable.map((c) => `${snake(c)} = excluded.${snake(c)}`);
  if (options.contentUpdatedAt) set.push(`content_updated_at = max(${table}.content_updated_at, excluded.updated_at)`);
  const statements = new Map<string, BetterSqlite3.Statement>();
  const head = `insert into ${table} (${[...columns, ...extra].map(snake).join(', ')}) values `;
  const onConflict =
    ` on conflict (id) do update set ${set.join(', ')} ` +
    `where ${table}.updated_at <= excluded.updated_at and (${content.map((c) => `${table}.${snake(c)} is not excluded.${snake(c)}`).join(' or ')}) returning id`;
  /** `rows` rows to a statement: new rows as a plain insert, stored ones as the conditional upsert. */
  const statementOf = (rows: number, upsert: boolean) => {
    const key = `${upsert ? 'u' : 'i'}${rows}`;
    let statement = statements.get(key);
    if (!statement) {
      const tuples = Array.from({ length: rows }, () => `(${placeholders(width)})`).join(', ');
      statement = prepare(connection, `${head}${tuples}${upsert ? onConflict : ''}`);
      statements.set(key, statement);
    }
    return statement;
  };

  const changed: string[] = [];
  // The lookup above ran inside this transaction, and SQLite has one writer: a row not found is new,
  // so it takes a plain insert, which skips the conflict check and RETURNING.
  const fresh = { values: [] as unknown[], ids: [] as string[] };
  const known = { values: [] as unknown[], ids: [] as string[] };
  const flush = (batch: typeof fresh, upsert: boolean) => {
    if (batch.ids.length === 0) return;
    const statement = statementOf(batch.ids.length, upsert);
    if (upsert) {
      for (const row of statement.all(batch.values) as Array<{ id: string }>) {
        changed.push(row.id);
        counts.updated += 1;
      }
    } else {
      statement.run(batch.values);
      for (const id of batch.ids) changed.push(id);
      counts.inserted += batch.ids.length;
    }
    batch.values = [];
    batch.ids = [];
  };
  for (const row of incoming) {
    const before = stored.get(row.id);
    if (before && before.updatedAt > row.updatedAt) {
      counts.stale += 1;
      continue;
    }
    if (numbered && row.referenceId !== undefined) {
      const holder = findHolder?.get(row.referenceId) as { id: string } | undefined;
      if (holder && holder.id !== row.id) throw new ReferenceIdConflict(collection, row.id, row.referenceId, holder.id);
    }
    const batch = before ? known : fresh;
    for (const column of columns)
      batch.values.push(
        column === 'referenceId' ? (row.referenceId ?? before?.referenceId ?? next++) : (row[column] ?? null),
      );
    for (let i = 0; i < extra.length; i++) batch.values.push(row.updatedAt);
    batch.ids.push(row.id);
    if (batch.ids.length === UPSERT_BATCH) flush(batch, batch === known);
  }
  flush(fresh, false);
  flush(known, true);
  counts.unchanged = counts.received - counts.stale - counts.inserted - counts.updated;
  return { counts, changed };
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** Moves each event's contentUpdatedAt forward to the latest change made inside its document. */
export async function touchEvents(trx: Transaction<Database>, latestByEvent: Map<string, string>): Promise<void> {
  for (const [eventId, at] of latestByEvent) {
    await trx
      .updateTable('events')
      .set({ contentUpdatedAt: at })
      .where('id', '=', eventId)
      .where('contentUpdatedAt', '<', at)
      .execute();
  }
}

/** Rows read by id, a chunk of ids per query, kept by id as `value` makes them. */
async function byId<R extends { id: string }, V>(
  ids: readonly string[],
  read: (part: string[]) => Promise<R[]>,
  value: (row: R) => V,
): Promise<Map<string, V>> {
  const found = new Map<string, V>();
  for (const part of chunks([...ids])) for (const row of await read(part)) found.set(row.id, value(row));
  return found;
}

type Reader = Kysely<Database> | Transaction<Database>;

/**
 * Ids that the store already holds, each with its competition: the row's own, or its event's for
 * rounds, heats, heat entries and team games; null for tables outside any competition.
 */
export function findExisting(
  db: Kysely<Database>,
  collection: FeedCollection,
  ids: string[],
): Promise<Map<string, string | null>> {
  return byId(
    ids,
    (part) => existingRows(db, collection, part),
    (row) => row.competition ?? null,
  );
}

function existingRows(
  db: Kysely<Database>,
  collection: FeedCollection,
  ids: string[],
): Promise<Array<{ id: string; competition?: string | null }>> {
  switch (collection) {
    case 'tours':
    case 'teams':
    case 'events':
    case 'futures':
      return (db as Kysely<any>).selectFrom(collection).select(['id', 'competition']).where('id', 'in', ids).execute();
    case 'rounds':
      return db
        .selectFrom('rounds')
        .innerJoin('events', 'events.id', 'rounds.eventId')
        .select(['rounds.id', 'events.competition'])
        .where('rounds.id', 'in', ids)
        .execute();
    case 'heats':
      return db
        .selectFrom('heats')
        .innerJoin('events', 'events.id', 'heats.eventId')
        .select(['heats.id', 'events.competition'])
        .where('heats.id', 'in', ids)
        .execute();
    case 'heatEntries':
      return db
        .selectFrom('heatEntries')
        .innerJoin('heats', 'heats.id', 'heatEntries.heatId')
        .innerJoin('events', 'events.id', 'heats.eventId')
        .select(['heatEntries.id', 'events.competition'])
        .where('heatEntries.id', 'in', ids)
        .execute();
    case 'markets':
      return db
        .selectFrom('markets')
        .innerJoin('events', 'events.id', 'markets.eventId')
        .select(['markets.id', 'events.competition'])
        .where('markets.id', 'in', ids)
        .execute();
    default:
      return (db as Kysely<any>).selectFrom(collection).select(['id']).where('id', 'in', ids).execute();
  }
}

/** Stored heat entries of these heats, or participants of these events: (id, owner, athlete). */
export async function findEntrants(
  db: Kysely<Database>,
  collection: 'heatEntries' | 'eventParticipants',
  ownerIds: string[],
): Promise<Array<{ id: string; ownerId: string; athleteId: string }>> {
  const out: Array<{ id: string; ownerId: string; athleteId: string }> = [];
  for (const part of chunks(ownerIds)) {
    const rows =
      collection === 'heatEntries'
        ? await db
            .selectFrom('heatEntries')
            .select(['id', 'heatId as ownerId', 'athleteId'])
            .where('heatId', 'in', part)
            .execute()
        : await db
            .selectFrom('eventParticipants')
            .select(['id', 'eventId as ownerId', 'athleteId'])
            .where('eventId', 'in', part)
            .execute();
    out.push(...rows);
  }
  return out;
}

/** Maps heat entry ids to their heat ids, from the store. */
export function heatIdsOfEntries(db: Reader, entryIds: string[]): Promise<Map<string, string>> {
  return byId(
    entryIds,
    (part) => db.selectFrom('heatEntries').select(['id', 'heatId']).where('id', 'in', part).execute(),
    (row) => row.heatId,
  );
}

/** Maps round ids to their event ids, from the store. */
export function eventIdsOfRounds(db: Reader, roundIds: string[]): Promise<Map<string, string>> {
  return byId(
    roundIds,
    (part) => db.selectFrom('rounds').select(['id', 'eventId']).where('id', 'in', part).execute(),
    (row) => row.eventId,
  );
}

/** Stored markets by id, with what their odds are checked against and the event they belong to. */
export function findMarkets(db: Reader, ids: string[]): Promise<Map<string, MarketShape & { eventId: string }>> {
  return byId(
    ids,
    (part) =>
      db
        .selectFrom('markets')
        .select([
          'id',
          'eventId',
          'oddType',
          'heatId',
          'exactasType',
          'overUnderSubMarketType',
          'line',
          'athleteIds',
          'places',
          'proposition',
          'teamMarketType',
          'roundId',
        ])
        .where('id', 'in', part)
        .execute(),
    (row) => ({ ...row, athleteIds: row.athleteIds ? (JSON.parse(row.athleteIds) as string[]) : null }),
  );
}

/** The event and status of each heat, from the store. */
export function heatStates(
  db: Reader,
  heatIds: string[],
): Promise<Map<string, { eventId: string; heatStatus: string }>> {
  return byId(
    heatIds,
    (part) => db.selectFrom('heats').select(['id', 'eventId', 'heatStatus']).where('id', 'in', part).execute(),
    (row) => row,
  );
}

/** The competition and status of each event, from the store. */
export function eventStates(
  db: Reader,
  eventIds: string[],
): Promise<Map<string, { competition: string; eventStatus: string }>> {
  return byId(
    eventIds,
    (part) => db.selectFrom('events').select(['id', 'competition', 'eventStatus']).where('id', 'in', part).execute(),
    (row) => row,
  );
}

/** The competition of each future, from the store. */
export function futureCompetitions(db: Reader, futureIds: string[]): Promise<Map<string, string>> {
  return byId(
    futureIds,
    (part) => db.selectFrom('futures').select(['id', 'competition']).where('id', 'in', part).execute(),
    (row) => row.competition,
  );
}
