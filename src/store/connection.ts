import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  CamelCasePlugin,
  Kysely,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
  sql,
} from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Pool } from 'pg';
import type { Database } from './schema.ts';
import { readWriteSqliteDialect } from './sqlite-read-write.ts';
import { StoreOpenError } from './store-open-error.ts';
import { walCheckpointer } from './wal-checkpointer.ts';

/**
 * The store's connection: a Kysely instance over an embedded SQLite file or a PostgreSQL pool, with
 * what start-up messages and health checks need. Change notifications and write signals are built on
 * top of it (external-changes.ts, write-signals.ts; database.ts puts the three together).
 */

export type StoreDialect = 'sqlite' | 'postgres';

/** Every Kysely instance of the store maps camelCase names to snake_case columns. */
export const STORE_PLUGINS = [new CamelCasePlugin()];

/** How long opening a PostgreSQL connection (or waiting for a free one in the pool) may take. */
export const CONNECT_TIMEOUT_MS = 10_000;

export interface Connection {
  db: Kysely<Database>;
  dialect: StoreDialect;
  /** Where the data lives, for start-up messages (never includes a password). */
  location: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface SqliteConnection extends Connection {
  dialect: 'sqlite';
  /** The connection under `db`: data_version is read from it (external-changes.ts). */
  sqlite: DatabaseSync;
}

export interface PostgresConnection extends Connection {
  dialect: 'postgres';
  /** The server's URL and the schema in use, for a listening connection of its own. */
  url: string;
  schema: string | undefined;
}

/** Statements kept prepared per SQLite connection; the feed writer's shapes and every route's queries fit. */
const PREPARED_STATEMENTS = 500;

/**
 * A node:sqlite statement as Kysely's SQLite driver calls it (the shape of better-sqlite3's, for which
 * it was written): parameters as one array rather than spread, and `reader` for a statement that
 * returns rows (a SELECT, or a write with RETURNING), whose rows it then reads with all().
 */
function kyselyStatement(statement: StatementSync): SqliteStatement {
  const bind = (parameters: readonly unknown[]) => parameters as SQLInputValue[];
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...bind(parameters)),
    run: (parameters) => statement.run(...bind(parameters)),
    iterate: (parameters) => statement.iterate(...bind(parameters)),
  };
}

/**
 * The SQLite connection as Kysely's driver sees it, with its statements prepared once and reused:
 * Kysely's driver prepares every query it runs, which costs more than running it for the small
 * statements of a route and for each chunk of a feed batch (BENCHMARKS.md, "Feed ingestion"). The
 * least recently used statement is dropped past PREPARED_STATEMENTS.
 */
function preparedOnce(connection: DatabaseSync): SqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max: PREPARED_STATEMENTS });
  return {
    // node:sqlite throws on closing a closed connection: a store whose connection closed under it still closes.
    close: () => {
      if (connection.isOpen) connection.close();
    },
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = kyselyStatement(connection.prepare(text));
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * Creates `dir` and its missing parents one level at a time, as `mkdir -p` does: mkdirSync's own
 * recursive option never returns for a directory under /proc on Node 20.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const path of missing) mkdirSync(path);
}

/** The SQLite file opened and set up; a file or directory that cannot be used is a StoreOpenError naming it. */
function openSqliteFile(file: string, dataDir: string | null): DatabaseSync {
  try {
    if (dataDir !== null) makeDirectory(dataDir);
    const connection = new DatabaseSync(file, { timeout: 5000 });
    // 64 MiB of page cache (the default is 2 MiB): large ingests and the event list stay in memory.
    connection.exec(`PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA foreign_keys = ON;
      PRAGMA cache_size = -65536;`);
    return connection;
  } catch (error) {
    throw new StoreOpenError(file, (error as Error).message);
  }
}

/** The reader connection of a file store: it only reads, and sees what the writer last committed. */
function openSqliteReader(file: string): DatabaseSync {
  const reader = new DatabaseSync(file, { readOnly: true, timeout: 5000 });
  reader.exec('PRAGMA cache_size = -65536');
  return reader;
}

/** The page cache of a file store's writer connection, in KiB. */
const WRITER_CACHE_KIB = 2048;

export function openSqliteConnection(dataDir: string): SqliteConnection {
  const inMemory = dataDir === ':memory:';
  const file = inMemory ? ':memory:' : join(dataDir, 'altsports.db');
  const connection = openSqliteFile(file, inMemory ? null : dataDir);
  // A file store reads through a connection of its own, so that a feed batch being written does not hold
  // up the reads (sqlite-read-write.ts); an in-memory store has one connection only.
  // A file store's WAL is checkpointed on a thread of its own, not inside a large batch's commit; and
  // its writer keeps a small page cache (SQLite's default), so that a large batch's pages go to the WAL
  // as its statements run (a cache spill, between which others are answered) rather than all in its
  // commit, with every request waiting (docs/decisions.md, "Writes never stall reads").
  // Reads have the reader connection's cache.
  if (!inMemory) {
    connection.exec(`PRAGMA wal_autocheckpoint = 0; PRAGMA cache_size = -${WRITER_CACHE_KIB};`);
  }
  const dialect = inMemory
    ? new SqliteDialect({ database: preparedOnce(connection) })
    : readWriteSqliteDialect(preparedOnce(connection), preparedOnce(openSqliteReader(file)), walCheckpointer(file));
  const db = new Kysely<Database>({ dialect, plugins: STORE_PLUGINS });
  return {
    db,
    dialect: 'sqlite',
    sqlite: connection,
    location: file,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

export function openPostgresConnection(url: string, schema: string | undefined, poolSize = 10): PostgresConnection {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  // pg is loaded with the store's first query: a process on SQLite (most commands) never loads it.
  const pool = async (): Promise<Pool> => {
    const { default: pg } = await import('pg');
    const made = new pg.Pool({
      connectionString: url,
      max: poolSize,
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
    made.on('error', () => {});
    made.on('connect', (client) => client.on('error', () => {}));
    return made;
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: STORE_PLUGINS });
  const safe = new URL(url);
  safe.password = '';
  return {
    db,
    dialect: 'postgres',
    url,
    schema,
    location: `${safe.host}${safe.pathname}${schema ? ` (schema ${schema})` : ''}`,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
