import { after, before } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/access/api-keys.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureFeed } from './feed-fixture.ts';
import { openTestStore, type StoreKind, type TestStore } from './stores.ts';

export const ADMIN_KEY = 'admin-key-for-tests-0123456789';
export const TEST_KEY = 'test-key-0123456789abcdef';
export const WSL_ONLY_KEY = 'wsl-only-key-0123456789abcdef';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  /** app.inject with the full-access test key. */
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

/** Builds the app over a fresh store holding the fixture feed and two keys (full and wsl-only). */
export async function fixtureApp(store: Store, env: Record<string, string> = {}): Promise<TestApp> {
  // No server-wide rate limit unless a test sets one: suites send hundreds of requests with one key.
  const config: Config = loadConfig({
    ADMIN_API_KEY: ADMIN_KEY,
    DEMO_DATA: 'off',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_DAY: '0',
    ...env,
  });
  await ingestFeed(store, fixtureFeed());
  await createApiKey(store, { name: 'full', key: TEST_KEY });
  await createApiKey(store, { name: 'wsl only', key: WSL_ONLY_KEY, competitions: ['wsl'] });
  const app = await buildApp({ config, store, logger: false });
  return {
    app,
    store,
    get: (url, headers = {}) => app.inject({ method: 'GET', url, headers: { 'x-api-key': TEST_KEY, ...headers } }),
  };
}

/**
 * One fixture app for the tests of the enclosing describe block, built in `before` and closed with its
 * store in `after`: for tests that only read, which would otherwise each pay for a store and an app
 * build. Tests that write, or that look at what earlier requests leave behind (caches, counters,
 * limits), build their own with fixtureApp.
 */
export function sharedFixtureApp(kind: StoreKind, env: Record<string, string> = {}): TestApp {
  let testStore: TestStore | undefined;
  let fixture: TestApp | undefined;
  before(async () => {
    testStore = await openTestStore(kind);
    fixture = await fixtureApp(testStore.store, env);
  });
  after(async () => {
    await fixture?.app.close();
    await testStore?.cleanup();
  });
  const built = (): TestApp => {
    if (!fixture) throw new Error('sharedFixtureApp: used outside the tests of its describe block');
    return fixture;
  };
  return {
    get app() {
      return built().app;
    },
    get store() {
      return built().store;
    },
    get: (url, headers) => built().get(url, headers),
  };
}
