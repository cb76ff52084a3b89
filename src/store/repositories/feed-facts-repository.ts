import { CompiledQuery, type Kysely, sql } from 'kysely';
import { pace } from '../../base/event-loop-turns.ts';
import { compileOnly } from '../compile-only.ts';
import type { StoreDialect } from '../connection.ts';
import type { Database, FactTable } from '../schema.ts';
import { chunks, readById } from './chunked.ts';

/**
 * The feed's facts, every table the feed writes, as the ingest writes them: raw facts with "newer
 * wins, same is a no-op" semantics, the same statements on both stores (built below). Stored
 * rows are looked up first (inside the ingest's transaction, whose writers are serialised): stale rows
 * are counted and never sent, new rows go in as a plain INSERT, known ones as INSERT ... ON CONFLICT
 * (id) DO UPDATE ... WHERE the incoming row is newer AND differs, which returns the ids it changed.
 * Reference ids are kept for known rows and assigned (max + 1) to new ones that arrive without one.
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

/** Thrown when an explicit referenceId is already used by another item of the same collection. */
export class ReferenceIdConflict extends Error {
  readonly collection: FactTable;
  readonly id: string;
  readonly referenceId: number;
  readonly heldBy: string;

  constructor(collection: FactTable, id: string, referenceId: number, heldBy: string) {
    super(`referenceId ${referenceId} of ${collection} "${id}" is already used by "${heldBy}"`);
    this.collection = collection;
    this.id = id;
    this.referenceId = referenceId;
    this.heldBy = heldBy;
  }
}

export interface UpsertOptions {
  /** Whose SQL to write (the statements are built once per store kind and shape). */
  dialect: StoreDialect;
  /** events: contentUpdatedAt starts at the row's updatedAt on insert, and only moves forward. */
  contentUpdatedAt?: boolean;
  /** futures: createdAt is the row's updatedAt on insert. */
  createdAt?: boolean;
  /** false for tables without numeric ids (laps, heat results, team games). */
  referenceIds?: boolean;
}

/** A stored row as the writer compares it: its reference id (numbered tables) and updatedAt. */
interface StoredRow {
  referenceId: number | undefined;
  updatedAt: string;
}

/** Ids read per lookup statement. */
const LOOKUP_CHUNK = 500;

/** The PostgreSQL advisory lock that serialises ingest across API nodes (takeIngestLock). */
export const INGEST_LOCK = 0x616c7473;

/**
 * Rows written per statement: SQLite runs in this process, where 64-row statements did best;
 * PostgreSQL pays a round trip per statement (BENCHMARKS.md, "Feed ingestion: one write path").
 */
const WRITE_CHUNK: Record<StoreDialect, number> = { sqlite: 64, postgres: 400 };

/** `db`: the ingest's transaction when writing (the whole batch is one). */
export function feedFactsRepository(db: Kysely<Database>) {
  return {
    /**
     * Takes the ingest lock for the rest of the transaction: every writer of feed facts and of the
     * changes derived from them (the bet stops) takes it first, so that API nodes sharing one
     * PostgreSQL store assign reference ids and change ids in commit order. SQLite has one writer already.
     */
    async takeIngestLock(dialect: StoreDialect): Promise<void> {
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${INGEST_LOCK})`.execute(db);
    },

    /** Writes the rows of one collection, newer wins: what was inserted, updated, unchanged or stale. */
    upsertNewer: (collection: FactTable, incoming: Row[], options: UpsertOptions) =>
      upsertNewer(db, collection, incoming, options),

    /**
     * Ids that the store already holds, each with its competition: the row's own, or its event's for
     * rounds, heats, heat entries and markets; null for tables outside any competition.
     */
    findExisting(collection: FactTable, ids: string[]): Promise<Map<string, string | null>> {
      return readById(
        ids,
        (part) => existingRows(db, collection, part),
        (row) => row.competition ?? null,
      );
    },
  };
}

async function upsertNewer(
  db: Kysely<Database>,
  collection: FactTable,
  incoming: Row[],
  options: UpsertOptions,
): Promise<WriteResult> {
  const counts: WriteCounts = { received: incoming.length, inserted: 0, updated: 0, unchanged: 0, stale: 0 };
  if (incoming.length === 0) return { counts, changed: [] };
  const { dialect } = options;
  const numbered = options.referenceIds !== false;
  const ids = incoming.map((r) => r.id);
  const stored = await storedRows(db, dialect, collection, ids, numbered);
  const referenceIdOf = numbered ? await referenceIds(db, dialect, collection, incoming, stored) : () => undefined;
  const { shape, columns, stamps } = writeShape(collection, incoming[0] as Row, options, numbered);
  // Rows not stored go in as plain INSERTs, stored ones as the conditional upsert; each batch's values
  // are one flat list, row after row in the shape's column order.
  const fresh = batch(db, shape, false);
  const known = batch(db, shape, true);
  for (const row of incoming) {
    const before = stored.get(row.id);
    if (before && before.updatedAt > row.updatedAt) {
      counts.stale += 1;
      continue;
    }
    const referenceId = referenceIdOf(row, before);
    const target = before ? known : fresh;
    for (const column of columns) target.values.push(column === 'referenceId' ? referenceId : (row[column] ?? null));
    for (let i = 0; i < stamps; i++) target.values.push(row.updatedAt);
    target.ids.push(row.id);
    if (target.ids.length === WRITE_CHUNK[dialect]) await target.flush();
  }
  await fresh.flush();
  await known.flush();
  counts.inserted = fresh.changed.length;
  counts.updated = known.changed.length;
  counts.unchanged = counts.received - counts.stale - counts.inserted - counts.updated;
  return { counts, changed: [...fresh.changed, ...known.changed] };
}

/** The stored reference id and updatedAt of each of these ids that the table holds. */
async function storedRows(
  db: Kysely<Database>,
  dialect: StoreDialect,
  table: FactTable,
  ids: string[],
  numbered: boolean,
): Promise<Map<string, StoredRow>> {
  const stored = new Map<string, StoredRow>();
  const columns = numbered ? (['id', 'referenceId', 'updatedAt'] as const) : (['id', 'updatedAt'] as const);
  for (const part of chunks(ids, LOOKUP_CHUNK)) {
    const text = storedRowsStatement(dialect, table, columns, part);
    const { rows } = await db.executeQuery<{ id: string; referenceId?: unknown; updatedAt: string }>(
      CompiledQuery.raw(text, part),
    );
    for (const row of rows)
      stored.set(row.id, {
        referenceId: numbered ? Number(row.referenceId) : undefined,
        updatedAt: row.updatedAt,
      });
    await pace();
  }
  return stored;
}

/** Which stored rows hold these reference ids. */
async function referenceHolders(
  db: Kysely<Database>,
  dialect: StoreDialect,
  table: FactTable,
  referenceIds: number[],
): Promise<Map<number, string>> {
  const holders = new Map<number, string>();
  for (const part of chunks(referenceIds, LOOKUP_CHUNK)) {
    const text = holdersStatement(dialect, table, part);
    const { rows } = await db.executeQuery<{ id: string; referenceId: unknown }>(CompiledQuery.raw(text, part));
    for (const row of rows) holders.set(Number(row.referenceId), row.id);
  }
  return holders;
}

async function nextReferenceId(db: Kysely<Database>, dialect: StoreDialect, table: FactTable): Promise<number> {
  const { rows } = await db.executeQuery(maxReferenceIdQuery(dialect, table));
  return Number(rows[0]?.max ?? 0) + 1;
}

/** A row that arrives without a reference id and has none stored gets the next free one. */
function needsReferenceId(row: Row, stored: Map<string, StoredRow>): boolean {
  return row.referenceId === undefined && stored.get(row.id)?.referenceId === undefined;
}

/**
 * Each written row's reference id: its own, else the stored one, else the next free one. An explicit
 * reference id held by another row (stored before this batch, or given out earlier in it) is refused.
 */
async function referenceIds(
  db: Kysely<Database>,
  dialect: StoreDialect,
  table: FactTable,
  incoming: Row[],
  stored: Map<string, StoredRow>,
): Promise<(row: Row, before: StoredRow | undefined) => number> {
  const explicit = incoming.flatMap((r) => (r.referenceId === undefined ? [] : [r.referenceId]));
  const held = explicit.length > 0 ? await referenceHolders(db, dialect, table, explicit) : new Map<number, string>();
  let next = incoming.some((row) => needsReferenceId(row, stored)) ? await nextReferenceId(db, dialect, table) : 1;
  return (row, before) => {
    const referenceId = row.referenceId ?? before?.referenceId ?? next++;
    const holder = held.get(referenceId);
    if (row.referenceId !== undefined && holder !== undefined && holder !== row.id)
      throw new ReferenceIdConflict(table, row.id, referenceId, holder);
    held.set(referenceId, row.id);
    return referenceId;
  };
}

/**
 * The statements' shape for rows like `first`: its columns (id and reference id first), then the
 * timestamps the store sets from updatedAt (`stamps` of them: contentUpdatedAt, createdAt).
 */
function writeShape(table: FactTable, first: Row, options: UpsertOptions, numbered: boolean) {
  const columns = [
    'id',
    ...(numbered ? ['referenceId'] : []),
    ...Object.keys(first).filter((c) => c !== 'id' && c !== 'referenceId'),
  ];
  const stamped = [
    ...(options.contentUpdatedAt ? ['contentUpdatedAt'] : []),
    ...(options.createdAt ? ['createdAt'] : []),
  ];
  const shape: Shape = {
    dialect: options.dialect,
    table,
    columns: [...columns, ...stamped],
    contentUpdatedAt: options.contentUpdatedAt === true,
  };
  return { shape, columns, stamps: stamped.length };
}

/** Rows waiting to be written with one statement, and the ids of those written so far. */
function batch(db: Kysely<Database>, shape: Shape, upsert: boolean) {
  const pending = { values: [] as unknown[], ids: [] as string[], changed: [] as string[], flush };
  async function flush(): Promise<void> {
    if (pending.ids.length === 0) return;
    const text = writeStatement(shape, pending.ids.length, upsert);
    const { rows } = await db.executeQuery<{ id: string }>(CompiledQuery.raw(text, pending.values));
    // SQLite's statements run in this thread: a large batch lets the event loop answer others between
    // them. Its transaction stays open meanwhile; reads outside it see the data as last committed.
    await pace();
    // A plain INSERT writes every row (or fails); the upsert returns the rows it changed.
    if (upsert) for (const row of rows) pending.changed.push(row.id);
    else pending.changed.push(...pending.ids);
    pending.values = [];
    pending.ids = [];
  }
  return pending;
}

function existingRows(
  db: Kysely<Database>,
  collection: FactTable,
  ids: string[],
): Promise<Array<{ id: string; competition?: string | null }>> {
  switch (collection) {
    case 'tours':
    case 'teams':
    case 'events':
    case 'futures':
      return db.selectFrom(collection).select(['id', 'competition']).where('id', 'in', ids).execute();
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
      return db.selectFrom(collection).select(['id']).where('id', 'in', ids).execute();
  }
}

/**
 * The feed facts writer's statements (feed-facts-repository.ts), built with Kysely's builder on
 * compile-only instances once per store kind and shape (table, columns, row count) and run with each
 * chunk's values on the store's own connection, whose SQLite statements stay prepared.
 */

/**
 * The fact tables as the writer sees them: any table, by column name. Statements are built on
 * compile-only Kysely instances of this shape.
 */
type FactColumns = Record<FactTable, { id: string; updatedAt: string } & Record<string, unknown>>;

const COMPILERS: Record<StoreDialect, Kysely<FactColumns>> = {
  sqlite: compileOnly<FactColumns>('sqlite'),
  postgres: compileOnly<FactColumns>('postgres'),
};

/** A statement's text, built once per store kind and shape, run with each chunk's values. */
const statements = new Map<string, string>();

function statementText(key: string, build: () => CompiledQuery, parameters: number): string {
  let text = statements.get(key);
  if (text === undefined) {
    const compiled = build();
    // The values are the only parameters, row after row in column order: each chunk supplies its own.
    if (compiled.parameters.length !== parameters) throw new Error(`feed writer: ${key} has unexpected parameters`);
    text = compiled.sql;
    statements.set(key, text);
  }
  return text;
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

interface Shape {
  dialect: StoreDialect;
  table: FactTable;
  /** Columns written, in parameter order. */
  columns: string[];
  contentUpdatedAt: boolean;
}

/** INSERT of `rows` rows; `upsert`: ON CONFLICT (id) DO UPDATE of newer, different rows, returning their ids. */
function writeStatement(shape: Shape, rows: number, upsert: boolean): string {
  const { dialect, table, columns } = shape;
  const key = `${dialect} ${table} ${columns.join(',')} ${rows} ${upsert ? 'upsert' : 'insert'}`;
  return statementText(
    key,
    () => {
      const placeholder = Object.fromEntries(columns.map((c) => [c, null]));
      const insert = COMPILERS[dialect].insertInto(table).values(Array.from({ length: rows }, () => placeholder));
      return upsert
        ? insert
            .onConflict((oc) => conditionalUpdate(oc, shape))
            .returning('id')
            .compile()
        : insert.compile();
    },
    rows * columns.length,
  );
}

type OnConflict = Parameters<Parameters<ReturnType<Kysely<FactColumns>['insertInto']>['onConflict']>[0]>[0];

/** Updates a stored row only when the incoming one is not older and differs in some column. */
function conditionalUpdate(oc: OnConflict, { table, columns, contentUpdatedAt }: Shape) {
  const updatable = columns.filter((c) => c !== 'id' && c !== 'contentUpdatedAt' && c !== 'createdAt');
  const content = updatable.filter((c) => c !== 'updatedAt');
  const stored = (column: string) => sql.ref(`${table}.${snake(column)}`);
  return oc
    .column('id')
    .doUpdateSet((eb) => {
      const set: Record<string, unknown> = {};
      for (const column of updatable) set[column] = eb.ref(`excluded.${column}`);
      if (contentUpdatedAt) {
        const before = stored('contentUpdatedAt');
        set.contentUpdatedAt = sql`case when ${before} > excluded.updated_at then ${before} else excluded.updated_at end`;
      }
      return set;
    })
    .where(({ and, or }) =>
      and([
        sql<boolean>`${stored('updatedAt')} <= excluded.updated_at`,
        or(content.map((c) => sql<boolean>`${stored(c)} is distinct from ${sql.ref(`excluded.${snake(c)}`)}`)),
      ]),
    );
}

/** SELECT of these columns of `ids` ids' rows: its parameters are the ids. */
function storedRowsStatement(
  dialect: StoreDialect,
  table: FactTable,
  columns: readonly ('id' | 'referenceId' | 'updatedAt')[],
  ids: string[],
): string {
  return statementText(
    `${dialect} ${table} ${columns.join(',')} by id ${ids.length}`,
    () => COMPILERS[dialect].selectFrom(table).select(columns).where('id', 'in', ids).compile(),
    ids.length,
  );
}

/** SELECT of the rows holding these reference ids: its parameters are the reference ids. */
function holdersStatement(dialect: StoreDialect, table: FactTable, referenceIds: number[]): string {
  return statementText(
    `${dialect} ${table} holders ${referenceIds.length}`,
    () =>
      COMPILERS[dialect]
        .selectFrom(table)
        .select(['id', 'referenceId'])
        .where('referenceId', 'in', referenceIds)
        .compile(),
    referenceIds.length,
  );
}

/** The table's largest reference id (0 when it has none), as `max`. */
function maxReferenceIdQuery(dialect: StoreDialect, table: FactTable): CompiledQuery<{ max: unknown }> {
  return COMPILERS[dialect]
    .selectFrom(table)
    .select(sql<number>`coalesce(max(reference_id), 0)`.as('max'))
    .compile() as CompiledQuery<{ max: unknown }>;
}
