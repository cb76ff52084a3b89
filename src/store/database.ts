import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
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
   * A token that changes whenever any process commits to the store, read without a query; null
   * where the store cannot tell cheaply (PostgreSQL, until change notifications are in).
   */
  changeVersion(): string | null;
  /** Called by this process after it commits a write. */
  noteWrite(): void;
  /** Throws when the store cannot answer a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const plugins = [new CamelCasePlugin()];

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) return openPostgres(options.databaseUrl, options);
  return openSqlite(options.dataDir ?? './data');
}

function openSqlite(dataDir: string): Store {
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
  // data_version moves when another connection (another process) commits; our own commits are counted here.
  let localWrites = 0;
  // Prepared once: pragma() would prepare it on every request that consults the response cache.
  const dataVersion = connection.prepare('PRAGMA data_version').pluck();
  return {
    db,
    dialect: 'sqlite',
    sqlite: connection,
    location: file,
    changeVersion: () => (connection.open ? `${dataVersion.get()}.${localWrites}` : null),
    noteWrite: () => {
      localWrites += 1;
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

function openPostgres(url: string, options: StoreOptions): Store {
  const schema = options.pgSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.pgPoolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins });
  const safe = new URL(url);
  safe.password = '';
  return {
    db,
    dialect: 'postgres',
    changeVersion: () => null,
    noteWrite: () => {},
    location: `${safe.host}${safe.pathname}${schema ? ` (schema ${schema})` : ''}`,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(store: Store, pgSchema?: string): Promise<string[]> {
  if (store.dialect === 'postgres' && pgSchema) await sql`create schema if not exists ${sql.id(pgSchema)}`.execute(store.db);
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
