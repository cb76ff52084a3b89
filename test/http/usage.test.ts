import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { createApiKey } from '../../src/access/api-keys.ts';
import { loadConfig } from '../../src/config.ts';
import { buildTestApp, fixtureApp, TEST_KEY } from '../helpers/app.ts';
import { WSL_LIVE } from '../helpers/feed-fixture.ts';
import { startRedis } from '../helpers/redis.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const NOON = Date.parse('2026-03-10T12:00:30Z');
const LIMITED_KEY = 'limited-key-0123456789abcdef';
const freezeClock = (t: TestContext, now = NOON) => t.mock.timers.enable({ apis: ['Date'], now });

describeEachStore('GET /usage', (open) => {
  test("the key's windows and today's requests by route; answered over the limit and not counted", async (t) => {
    freezeClock(t);
    const store = await open();
    // Requests counted one by one: what a document built afresh costs is test/http/document-builds.test.ts's.
    const { app } = await fixtureApp(store, { DOCUMENT_BUILD_COST: '1' });
    try {
      const { info } = await createApiKey(store, { name: 'three a minute', key: LIMITED_KEY, ratePerMinute: 3 });
      const get = (url: string, key = LIMITED_KEY) =>
        app.inject({ method: 'GET', url: `${BASE}${url}`, headers: { 'x-api-key': key } });
      const statuses = [];
      for (const url of ['/events', `/events/${WSL_LIVE}`, `/events/wsl:${WSL_LIVE}`, '/sports'])
        statuses.push((await get(url)).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      for (let i = 0; i < 2; i++) {
        const res = await get('/usage');
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['x-ratelimit-limit'], undefined, 'the usage route is not limited');
        assert.deepEqual(JSON.parse(res.body), {
          key: { id: info.id, name: 'three a minute' },
          minute: { limit: 3, used: 3, remaining: 0, resetSeconds: 30 },
          day: { limit: null, used: 3, remaining: null, resetSeconds: 43_170 },
          today: { byRoute: { '/events': 1, '/events/{eventId}': 2 } },
        });
      }
      // A key without limits is counted too; keys do not see each other's counts.
      await get('/sports', TEST_KEY);
      const unlimited = JSON.parse((await get('/usage', TEST_KEY)).body);
      assert.deepEqual(
        [unlimited.minute, unlimited.today],
        [{ limit: null, used: 1, remaining: null, resetSeconds: 30 }, { byRoute: { '/sports': 1 } }],
      );
      const missing = await app.inject({ method: 'GET', url: `${BASE}/usage` });
      assert.equal(missing.statusCode, 401);
      // A new UTC day starts the counts again.
      t.mock.timers.setTime(NOON + 86_400_000);
      assert.deepEqual(JSON.parse((await get('/usage')).body).today, { byRoute: {} });
    } finally {
      await app.close();
    }
  });

  test('two API processes on one Redis count into one usage', async (t) => {
    freezeClock(t);
    const redis = await startRedis();
    try {
      const store = await open();
      // Requests counted one by one: what a document built afresh costs is test/http/document-builds.test.ts's.
      const a = await fixtureApp(store, { REDIS_URL: redis.url, DOCUMENT_BUILD_COST: '1' });
      const b = await buildTestApp({
        config: loadConfig({ DEMO_DATA: 'off', REDIS_URL: redis.url, DOCUMENT_BUILD_COST: '1' }),
        store,
      });
      await createApiKey(store, { name: 'shared', key: LIMITED_KEY, ratePerDay: 10 });
      const on = (app: typeof b, url: string) =>
        app.inject({ method: 'GET', url: `${BASE}${url}`, headers: { 'x-api-key': LIMITED_KEY } });
      await on(a.app, '/sports');
      await on(b, '/sports');
      await on(b, '/events');
      for (const app of [a.app, b]) {
        const usage = JSON.parse((await on(app, '/usage')).body);
        assert.deepEqual(usage.day, { limit: 10, used: 3, remaining: 7, resetSeconds: 43_170 });
        assert.deepEqual(usage.today.byRoute, { '/sports': 2, '/events': 1 });
      }
      await a.app.close();
      await b.close();
    } finally {
      await redis.stop();
    }
  });
});
