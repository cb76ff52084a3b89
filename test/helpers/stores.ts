/**
 * Opens throwaway stores so that the same tests run against SQLite and PostgreSQL.
 * PostgreSQL comes from TEST_DATABASE_URL (`npm test` starts one via scripts/with-postgres.ts). A
 * migrated store is a database of its own, cloned from a template (test/helpers/pg-template.ts); an
 * unmigrated one is a schema of its own in the TEST_DATABASE_URL database. Either way tests never see
 * each other's rows, also when test files run in parallel.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, openStore, type Store, type StoreDialect } from '../../src/store/database.ts';
import { cloneTemplate, TEMPLATE_SCHEMA } from './pg-template.ts';

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
  if (kind === 'sqlite') return openSqliteStore(migrate, options);
  const databaseUrl = process.env.TEST_DATABASE_URL;
  // Failing, not skipping: a green run must mean both stores were tested.
  if (!databaseUrl) {
    throw new Error(
      'TEST_DATABASE_URL is not set: the store tests run on PostgreSQL too. Use `npm test` (it starts a ' +
        'throwaway server), or `node scripts/with-postgres.ts -- <command>`.',
    );
  }
  return migrate
    ? openClonedStore(databaseUrl, options.changeLogSize)
    : openEmptySchema(databaseUrl, options.changeLogSize);
}

async function openSqliteStore(
  migrate: boolean,
  { dataDir = ':memory:', changeLogSize }: OpenOptions,
): Promise<TestStore> {
  const twins: Store[] = [];
  const store = openStore({ dataDir, changeLogSize });
  if (migrate) await migrateToLatest(store);
  const openTwin = (): Store => {
    if (dataDir === ':memory:') throw new Error('openTwin: an in-memory SQLite store cannot be shared; pass dataDir');
    const twin = openStore({ dataDir, changeLogSize });
    twins.push(twin);
    return twin;
  };
  const cleanup = async (): Promise<void> => {
    for (const twin of twins.splice(0)) await twin.close();
    await store.close();
  };
  return { store, openTwin, cleanup };
}

/** A PostgreSQL store and its twins on one database and schema; cleanup closes them all, then `drop`s. */
function postgresTestStore(
  databaseUrl: string,
  pgSchema: string,
  changeLogSize: number | undefined,
  drop: () => Promise<void>,
): TestStore {
  const twins: Store[] = [];
  const store = openStore({ databaseUrl, pgSchema, pgPoolSize: 4, changeLogSize });
  const openTwin = (): Store => {
    const twin = openStore({ databaseUrl, pgSchema, pgPoolSize: 2, changeLogSize });
    twins.push(twin);
    return twin;
  };
  const cleanup = async (): Promise<void> => {
    for (const twin of twins.splice(0)) await twin.close();
    await store.close(); // idempotent, so tests may close their store themselves
    await drop();
  };
  return { store, openTwin, cleanup };
}

async function openClonedStore(serverUrl: string, changeLogSize: number | undefined): Promise<TestStore> {
  const database = await cloneTemplate(serverUrl);
  return postgresTestStore(database.url, TEMPLATE_SCHEMA, changeLogSize, database.drop);
}

/** An empty schema in the server's database, already on the store's search_path (`migrate: false`). */
async function openEmptySchema(databaseUrl: string, changeLogSize: number | undefined): Promise<TestStore> {
  counter += 1;
  const pgSchema = `t_${process.pid}_${counter}_${randomBytes(4).toString('hex')}`;
  // Dropped over a connection of its own because the test's store may be closed by now.
  const drop = async (): Promise<void> => {
    const admin = openStore({ databaseUrl, pgPoolSize: 1 });
    try {
      await sql`drop schema if exists ${sql.id(pgSchema)} cascade`.execute(admin.db);
    } finally {
      await admin.close();
    }
  };
  const testStore = postgresTestStore(databaseUrl, pgSchema, changeLogSize, drop);
  try {
    await sql`create schema ${sql.id(pgSchema)}`.execute(testStore.store.db);
  } catch (error) {
    await testStore.cleanup().catch(() => {});
    throw error;
  }
  return testStore;
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
