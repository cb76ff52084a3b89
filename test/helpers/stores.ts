/**
 * Opens throwaway stores so that the same tests run against SQLite and PostgreSQL.
 * PostgreSQL comes from TEST_DATABASE_URL (`npm test` starts one via scripts/with-postgres.ts);
 * each store gets its own schema, so tests never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, openStore, type Store, type StoreDialect } from '../../src/store/database.ts';

export type StoreKind = StoreDialect;
export const STORE_KINDS: readonly StoreKind[] = ['sqlite', 'postgres'];

export interface TestStore {
  store: Store;
  /**
   * Opens another store on the same data (the same SQLite file, the same PostgreSQL schema), as a
   * second process would; closed by cleanup. SQLite needs a file store (`dataDir`).
   */
  openTwin(): Store;
  cleanup(): Promise<void>;
}

export interface OpenOptions {
  /** false: an empty store (for PostgreSQL an empty schema already on the search_path). Default true. */
  migrate?: boolean;
  /** Entries the change log keeps (StoreOptions.changeLogSize); the store's default when absent. */
  changeLogSize?: number;
  /** SQLite only: a file store in this directory rather than one in memory (the test removes the directory). */
  dataDir?: string;
}

let counter = 0;

export async function openTestStore(kind: StoreKind, options: OpenOptions = {}): Promise<TestStore> {
  const migrate = options.migrate ?? true;
  const changeLogSize = options.changeLogSize;
  const twins: Store[] = [];
  const closeTwins = async (): Promise<void> => {
    for (const twin of twins.splice(0)) await twin.close();
  };
  if (kind === 'sqlite') {
    const dataDir = options.dataDir ?? ':memory:';
    const store = openStore({ dataDir, changeLogSize });
    if (migrate) await migrateToLatest(store);
    const openTwin = (): Store => {
      if (dataDir === ':memory:') throw new Error('openTwin: an in-memory SQLite store cannot be shared; pass dataDir');
      const twin = openStore({ dataDir, changeLogSize });
      twins.push(twin);
      return twin;
    };
    return {
      store,
      openTwin,
      cleanup: async () => {
        await closeTwins();
        await store.close();
      },
    };
  }

  const databaseUrl = process.env.TEST_DATABASE_URL;
  // Failing, not skipping: a green run must mean both stores were tested.
  if (!databaseUrl) {
    throw new Error(
      'TEST_DATABASE_URL is not set: the store tests run on PostgreSQL too. Use `npm test` (it starts a ' +
        'throwaway server), or `node --import tsx scripts/with-postgres.ts -- <command>`.',
    );
  }
  counter += 1;
  const pgSchema = `t_${process.pid}_${counter}_${randomBytes(4).toString('hex')}`;
  const store = openStore({ databaseUrl, pgSchema, pgPoolSize: 4, changeLogSize });
  const openTwin = (): Store => {
    const twin = openStore({ databaseUrl, pgSchema, pgPoolSize: 2, changeLogSize });
    twins.push(twin);
    return twin;
  };
  const cleanup = async (): Promise<void> => {
    await closeTwins();
    await store.close(); // idempotent, so tests may close their store themselves
    // Dropped over a connection of its own because the test's store may be closed by now.
    const admin = openStore({ databaseUrl, pgPoolSize: 1 });
    try {
      await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(admin.db);
    } finally {
      await admin.close();
    }
  };
  try {
    if (migrate) await migrateToLatest(store, pgSchema);
    else await sql`create schema ${sql.id(pgSchema)}`.execute(store.db);
  } catch (error) {
    await cleanup().catch(() => {});
    throw error;
  }
  return { store, openTwin, cleanup };
}

/**
 * Declares the tests in `fn` once per store kind. `open()` returns a fresh store (migrated unless told
 * otherwise) that is cleaned up after the test that opened it.
 */
export function describeEachStore(
  name: string,
  fn: (open: (options?: OpenOptions) => Promise<Store>, kind: StoreKind) => void,
): void {
  for (const kind of STORE_KINDS) {
    describe(`${name} [${kind}]`, () => {
      let cleanups: Array<() => Promise<void>> = [];
      afterEach(async () => {
        const pending = cleanups.reverse();
        cleanups = [];
        for (const cleanup of pending) await cleanup();
      });
      fn(async (options) => {
        const { store, cleanup } = await openTestStore(kind, options);
        cleanups.push(cleanup);
        return store;
      }, kind);
    });
  }
}
