import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { StoredChange } from '../domain/changes.ts';
import type { WriteCounts } from './feed-writer.ts';
import { migrationProvider } from './migrations.ts';
import type { Database } from './schema.ts';

export type StoreDialect = 'sqlite' | 'postgres';

export interface StoreOptions {
  /** `postgres://...` selects PostgreSQL; otherwise the embedded SQLite store is used. */
  databaseUrl?: string | undefined;
  /** Directory of the SQLite file (`altsports.db`); `:memory:` keeps it in memory. */
  dataDir?: string | undefined;
  /** PostgreSQL schema to use (created when missing); tests give each run its own. */
  pgSchema?: string | undefined;
  pgPoolSize?: number | undefined;
  /** Entries the change log keeps (the reach of a stream client's resume); default 10000. */
  changeLogSize?: number | undefined;
}

export interface Store {
  db: Kysely<Database>;
  dialect: StoreDialect;
  /**
   * The SQLite connection under `db` (SQLite stores only), for the ingest's prepared statements;
   * statements run on it inside a Kysely transaction belong to that transaction.
   */
  sqlite?: BetterSqlite3.Database;
  /** Where the data lives, for start-up messages (never includes a password). */
  location: string;
  /**
   * A token that moves when another process commits to the store, read without a query (SQLite's
   * data_version); null where other processes announce their writes themselves (PostgreSQL NOTIFY).
   */
  externalVersion(): string | null;
  /** The PostgreSQL channel that ingest notifies and every node listens on; null for SQLite. */
  changeChannel: string | null;
  /** How many entries the change log keeps. */
  changeLogSize: number;
  /** Called by this process after it commits a write, with the change log entries it appended. */
  noteWrite(changes: StoredChange[]): void;
  /** Subscribes to this process's own writes, as they commit; returns the unsubscribe function. */
  onWrite(listener: (changes: StoredChange[]) => void): () => void;
  /** Called by this process after each committed feed batch, with its rows per collection and outcome (metrics). */
  noteIngest(rows: Record<string, WriteCounts>): void;
  onIngest(listener: (rows: Record<string, WriteCounts>) => void): () => void;
  /**
   * PostgreSQL only: opens a dedicated connection listening on `changeChannel`. `onNotify` runs for
   * every notification, `onLost` once if the connection fails; the returned function closes it.
   */
  listen?(onNotify: () => void, onLost: (error: Error) => void): Promise<() => Promise<void>>;
  /** Throws when the store cannot answer a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const plugins = [new CamelCasePlugin()];

export const DEFAULT_CHANGE_LOG_SIZE = 10_000;

/** How long opening a PostgreSQL connection (or waiting for a free one in the pool) may take. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Listeners of one kind of notification, run synchronously in subscription order. */
function signal<T>() {
  const listeners = new Set<(value: T) => void>();
  return {
    note: (value: T) => {
      for (const listener of listeners) listener(value);
    },
    on: (listener: (value: T) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** A store's own-write notifications: listeners run synchronously after each commit. */
function writeSignal() {
  const writes = signal<StoredChange[]>();
  const ingests = signal<Record<string, WriteCounts>>();
  return { noteWrite: writes.note, onWrite: writes.on, noteIngest: ingests.note, onIngest: ingests.on };
}

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl))
    return openPostgres(options.databaseUrl, options);
  return openSqlite(options.dataDir ?? './data', options.changeLogSize ?? DEFAULT_CHANGE_LOG_SIZE);
}

function openSqlite(dataDir: string, changeLogSize: number): Store {
  const inMemory = dataDir === ':memory:';
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const file = inMemory ? ':memory:' : join(dataDir, 'altsports.db');
  const connection = new BetterSqlite3(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // 64 MiB of page cache (the default is 2 MiB): large ingests and the event list stay in memory.
  connection.pragma('cache_size = -65536');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }), plugins });
  // data_version moves when another connection (another process) commits, never for our own commits.
  // Prepared once: pragma() would prepare it on every request that consults the response cache.
  const dataVersion = connection.prepare('PRAGMA data_version').pluck();
  return {
    db,
    dialect: 'sqlite',
    sqlite: connection,
    location: file,
    externalVersion: () => (connection.open ? String(dataVersion.get()) : null),
    changeChannel: null,
    changeLogSize,
    ...writeSignal(),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

function openPostgres(url: string, options: StoreOptions): Store {
  const schema = options.pgSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.pgPoolSize ?? 10,
    // A server that does not answer (network down, host gone) fails the request (503) rather than
    // holding it, and a dead peer is noticed on idle connections too.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A connection losing its server (PostgreSQL stopped or restarted: 57P01, a reset) emits `error`,
  // which would crash the process without a listener: the pool listens on idle connections, nobody on
  // checked-out ones (pg-pool removes its listener while a query or transaction holds the client).
  // The query in flight fails on its own (503), and the pool discards the broken connection.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
  const safe = new URL(url);
  safe.password = '';
  // NOTIFY channels span the database: each schema (each test run) gets its own.
  const channel = `altsports_changes${schema ? `_${schema}` : ''}`;
  // Listening connections end with the store, whoever opened them.
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    dialect: 'postgres',
    externalVersion: () => null,
    changeChannel: channel,
    changeLogSize: options.changeLogSize ?? DEFAULT_CHANGE_LOG_SIZE,
    ...writeSignal(),
    listen: async (onNotify, onLost) => {
      const client = new pg.Client({
        connectionString: url,
        keepAlive: true,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      });
      let lost = false;
      const stop = async () => {
        lost = true;
        listeners.delete(stop);
        await client.end().catch(() => {});
      };
      const fail = (error: Error) => {
        if (lost) return;
        // The caller reconnects with a new client; this one is done (its socket mostly already is).
        void stop();
        onLost(error);
      };
      client.on('error', fail);
      client.on('end', () => fail(new Error('the listening connection closed')));
      client.on('notification', () => onNotify());
      try {
        await client.connect();
        await client.query(`LISTEN "${channel}"`);
      } catch (error) {
        await stop();
        throw error;
      }
      listeners.add(stop);
      return stop;
    },
    location: `${safe.host}${safe.pathname}${schema ? ` (schema ${schema})` : ''}`,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      await db.destroy();
    },
  };
}

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(store: Store, pgSchema?: string): Promise<string[]> {
  if (store.dialect === 'postgres' && pgSchema)
    await sql`create schema if not exists ${sql.id(pgSchema)}`.execute(store.db);
  // Kysely's own bookkeeping tables live in the same schema, so that each schema migrates on its own.
  const migrator = new Migrator({
    db: store.db,
    provider: migrationProvider,
    ...(store.dialect === 'postgres' && pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
