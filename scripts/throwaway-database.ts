/**
 * A database of its own on a running PostgreSQL server, for a system test or a bench that starts
 * `altsports serve` processes on it, dropped (connections and all) when done.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openStore, type Store } from '../src/store/database.ts';

export interface ThrowawayDatabase {
  name: string;
  /** `serverUrl` with the new database as its path. */
  url: string;
  /** A connection to the server's own database, which may ask about this one (pg_locks, pg_stat_activity). */
  admin: Store;
  /** Drops the database, even with connections still open, and closes `admin`. */
  drop(): Promise<void>;
}

export async function createThrowawayDatabase(serverUrl: string, prefix: string): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = openStore({ databaseUrl: serverUrl, pgPoolSize: 1 });
  await sql`create database ${sql.id(name)}`.execute(admin.db);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    drop: async () => {
      try {
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
      } finally {
        await admin.close();
      }
    },
  };
}
