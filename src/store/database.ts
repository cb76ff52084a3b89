import type { DatabaseSync } from 'node:sqlite';
import { type Connection, openPostgresConnection, openSqliteConnection } from './connection.ts';
import { type ExternalChanges, postgresExternalChanges, sqliteExternalChanges } from './external-changes.ts';
import { type WriteSignals, writeSignals } from './write-signals.ts';

export type { StoreDialect } from './connection.ts';
export { migrateToLatest } from './migrations.ts';

/**
 * The store as the rest of the application holds it: its connection (connection.ts), how other
 * processes' commits are noticed (external-changes.ts) and this process's own write signals
 * (write-signals.ts), put together by openStore.
 */

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

export interface Store extends Connection, Omit<ExternalChanges, 'close'>, WriteSignals {
  /**
   * The SQLite connection under `db` (SQLite stores only). Nothing writes through it: it is here for
   * tests that break the store under a running app.
   */
  sqlite?: DatabaseSync;
  /** How many entries the change log keeps. */
  changeLogSize: number;
}

export const DEFAULT_CHANGE_LOG_SIZE = 10_000;

export function openStore(options: StoreOptions): Store {
  const changeLogSize = options.changeLogSize ?? DEFAULT_CHANGE_LOG_SIZE;
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    const connection = openPostgresConnection(options.databaseUrl, options.pgSchema, options.pgPoolSize);
    return assemble(connection, postgresExternalChanges(connection), changeLogSize);
  }
  const connection = openSqliteConnection(options.dataDir ?? './data');
  return { ...assemble(connection, sqliteExternalChanges(connection), changeLogSize), sqlite: connection.sqlite };
}

function assemble(connection: Connection, external: ExternalChanges, changeLogSize: number): Store {
  const { close: closeListeners, ...notices } = external;
  return {
    db: connection.db,
    dialect: connection.dialect,
    location: connection.location,
    ping: connection.ping,
    ...notices,
    ...writeSignals(),
    changeLogSize,
    // Listening connections end with the store, whoever opened them.
    close: async () => {
      await closeListeners();
      await connection.close();
    },
  };
}
