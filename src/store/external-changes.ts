import { CONNECT_TIMEOUT_MS, type PostgresConnection, type SqliteConnection } from './connection.ts';

/**
 * How this process learns that another process committed to the store: SQLite's data_version, read
 * without a query, or PostgreSQL LISTEN on the channel the ingest notifies. The change feed
 * (change-feed.ts) reads the change log when either moves.
 */
export interface ExternalChanges {
  /**
   * A token that moves when another process commits to the store, read without a query (SQLite's
   * data_version); null where other processes announce their writes themselves (PostgreSQL NOTIFY).
   */
  externalVersion(): string | null;
  /** The PostgreSQL channel that ingest notifies and every node listens on; null for SQLite. */
  changeChannel: string | null;
  /**
   * PostgreSQL only: opens a dedicated connection listening on `changeChannel`. `onNotify` runs for
   * every notification, `onLost` once if the connection fails; the returned function closes it.
   */
  listen?(onNotify: () => void, onLost: (error: Error) => void): Promise<() => Promise<void>>;
  /** Closes the listening connections still open, whoever opened them. */
  close(): Promise<void>;
}

export function sqliteExternalChanges({ sqlite }: SqliteConnection): ExternalChanges {
  // data_version moves when another connection (another process) commits, never for our own commits.
  // Prepared once: pragma() would prepare it on every request that consults the response cache.
  const dataVersion = sqlite.prepare('PRAGMA data_version');
  return {
    externalVersion: () => (sqlite.isOpen ? String(dataVersion.get()?.data_version) : null),
    changeChannel: null,
    close: async () => {},
  };
}

export function postgresExternalChanges({ url, schema }: PostgresConnection): ExternalChanges {
  // NOTIFY channels span the database: each schema (each test run) gets its own.
  const channel = `altsports_changes${schema ? `_${schema}` : ''}`;
  const listeners = new Set<() => Promise<void>>();
  return {
    externalVersion: () => null,
    changeChannel: channel,
    listen: (onNotify, onLost) => listenOn(url, channel, listeners, onNotify, onLost),
    close: async () => {
      await Promise.all([...listeners].map((stop) => stop()));
    },
  };
}

/**
 * A connection of its own that LISTENs on `channel`; resolves to the function that closes it, which
 * is in `listeners` while the connection is up.
 */
async function listenOn(
  url: string,
  channel: string,
  listeners: Set<() => Promise<void>>,
  onNotify: () => void,
  onLost: (error: Error) => void,
): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
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
}
