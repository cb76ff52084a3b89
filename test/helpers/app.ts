import { after, before } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/access/api-keys.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type AppOptions, buildApp } from '../../src/http/app.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { watchDocumentedCodes } from './documented-codes.ts';
import { fixtureFeed } from './feed-fixture.ts';
import { sharedCompilers } from './schema-compilers.ts';
import { openTestStore, type StoreKind, type TestStore } from './stores.ts';

/**
 * An app as tests build it: no log unless asked, schema compilers shared with the process's other apps,
 * and every error code it answers held against its OpenAPI document (documented-codes.ts).
 */
export async function buildTestApp(options: AppOptions): Promise<FastifyInstance> {
  const app = await buildApp({ logger: false, schemaController: sharedCompilers, ...options });
  watchDocumentedCodes(app);
  return app;
}

export const ADMIN_KEY = 'admin-key-for-tests-0123456789';
export const TEST_KEY = 'test-key-0123456789abcdef';
export const WSL_ONLY_KEY = 'wsl-only-key-0123456789abcdef';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  /** app.inject with the full-access test key. */
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** When fixtureApp loads the fixture: its events' lastChangedAt (every row of the fixture is older). */
export const FIXTURE_LOADED_AT = '2026-04-05T00:00:00.000Z';

/** Builds the app over a fresh store holding the fixture feed and two keys (full and wsl-only). */
export async function fixtureApp(
  store: Store,
  env: Record<string, string> = {},
  schemaController?: AppOptions['schemaController'],
): Promise<TestApp> {
  // No server-wide rate limit unless a test sets one: suites send hundreds of requests with one key.
  const config: Config = loadConfig({
    ADMIN_API_KEY: ADMIN_KEY,
    DEMO_DATA: 'off',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_DAY: '0',
    // The fixture is loaded at a fixed time, long past: no bet stop on silence unless a test asks for one.
    FEED_STALE_SECONDS: '0',
    // Parlays wait for their simulations however long a busy test machine takes (and the pool's first
    // thread its start), unless a test sets a deadline.
    SGP_DEADLINE_MS: '600000',
    ...env,
  });
  await ingestFeed(store, fixtureFeed(), { now: new Date(FIXTURE_LOADED_AT) });
  await createApiKey(store, { name: 'full', key: TEST_KEY });
  await createApiKey(store, { name: 'wsl only', key: WSL_ONLY_KEY, competitions: ['wsl'] });
  const app = await buildTestApp({ config, store, ...(schemaController ? { schemaController } : {}) });
  return {
    app,
    store,
    get: (url, headers = {}) => app.inject({ method: 'GET', url, headers: { 'x-api-key': TEST_KEY, ...headers } }),
  };
}

/**
 * A fixture built once for the tests of the enclosing describe block: `build` runs over a fresh store in
 * `before`, and its app is closed and its store cleaned up in `after`. For tests that only read, which
 * would otherwise each pay for a store and an app build (the first request compiles every route).
 * Tests that write, or that look at what earlier requests leave behind (caches, counters, limits),
 * build their own. The returned function gives the fixture to the tests.
 */
export function sharedFixture<T extends { app: FastifyInstance }>(
  kind: StoreKind,
  build: (store: Store) => Promise<T>,
): () => T {
  let testStore: TestStore | undefined;
  let fixture: T | undefined;
  before(async () => {
    testStore = await openTestStore(kind);
    fixture = await build(testStore.store);
  });
  after(async () => {
    await fixture?.app.close();
    await testStore?.cleanup();
  });
  return () => {
    if (!fixture) throw new Error('sharedFixture: used outside the tests of its describe block');
    return fixture;
  };
}

/** sharedFixture of the plain fixture app, its `get` ready to use from the tests. */
export function sharedFixtureApp(kind: StoreKind, env: Record<string, string> = {}): Pick<TestApp, 'get'> {
  const fixture = sharedFixture(kind, (store) => fixtureApp(store, env));
  return { get: (url, headers) => fixture().get(url, headers) };
}
