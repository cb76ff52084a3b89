import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createApiKey, setApiKeyLimits } from '../../src/access/api-keys.ts';
import { loadConfig } from '../../src/config.ts';
import { ADMIN_KEY, buildTestApp, fixtureApp, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { freezeClock, NOON } from '../helpers/clock.ts';
import { WSL_LIVE } from '../helpers/feed-fixture.ts';
import { startRedis } from '../helpers/redis.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
// 30 s before the minute ends: requests of a test never straddle two minutes.
const LIMITED_KEY = 'limited-key-0123456789abcdef';

/** Freezes Date (only Date: timers still run) for the test. */

const limitHeaders = (res: LightMyRequestResponse) =>
  [res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining'], res.headers['x-ratelimit-reset']].map((v) =>
    v === undefined ? undefined : String(v),
  );
const NONE = [undefined, undefined, undefined];

describeEachStore('rate limits', (open, kind) => {
  test('every public response carries the headers, a response-cache hit too', async (t) => {
    freezeClock(t);
    const { app, get } = await fixtureApp(await open(), { RATE_LIMIT_PER_MINUTE: '100' });
    let built = 0;
    app.addHook('preHandler', async () => {
      built += 1;
    });
    const first = await get(`${BASE}/events/${WSL_LIVE}`);
    const again = await get(`${BASE}/events/${WSL_LIVE}`);
    assert.equal(first.statusCode, 200);
    assert.equal(again.body, first.body);
    if (kind === 'sqlite') assert.equal(built, 1, 'the second GET is a cache hit');
    // The first builds the document (DOCUMENT_BUILD_COST, 5 by default), the second is a cached answer.
    assert.deepEqual(limitHeaders(first), ['100', '95', '30']);
    assert.deepEqual(limitHeaders(again), ['100', '94', '30']);
    for (const url of [
      `${BASE}/sports`,
      `${BASE}/events?limit=1`,
      `${BASE}/futures`,
      `${BASE}/events/not-an-event`,
      `${BASE}/events?eventStatus=NOPE`,
    ]) {
      const res = await get(url);
      assert.equal(res.headers['x-ratelimit-limit'], '100', `${url} (${res.statusCode})`);
    }
  });

  test('over the limit: 429 with Retry-After, the headers and the error body; the next minute opens again', async (t) => {
    freezeClock(t);
    const store = await open();
    // Every request as one: what a build costs is test/http/document-builds.test.ts's.
    const { app } = await fixtureApp(store, { DOCUMENT_BUILD_COST: '1' });
    await createApiKey(store, { name: 'three a minute', key: LIMITED_KEY, ratePerMinute: 3 });
    const get = () => app.inject({ method: 'GET', url: `${BASE}/sports`, headers: { 'x-api-key': LIMITED_KEY } });
    const allowed = [await get(), await get(), await get()];
    assert.deepEqual(
      allowed.map((r) => r.statusCode),
      [200, 200, 200],
    );
    assert.deepEqual(
      allowed.map((r) => r.headers['x-ratelimit-remaining']),
      ['2', '1', '0'],
    );

    const rejected = await get();
    assert.equal(rejected.statusCode, 429);
    assert.equal(rejected.headers['retry-after'], '30');
    assert.deepEqual(limitHeaders(rejected), ['3', '0', '30']);
    const body = JSON.parse(rejected.body);
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'metadata', 'stack', 'statusCode', 'timestamp']);
    assert.equal(body.statusCode, 429);
    assert.match(body.message, /Rate limit exceeded: this API key may make 3 requests per minute; retry in 30 s/);
    assert.deepEqual(body.metadata, { window: 'minute', limit: 3, retryAfter: 30 });
    assert.equal(body.stack, '');
    assert.ok(!Number.isNaN(Date.parse(body.timestamp)));

    t.mock.timers.setTime(Date.parse('2026-03-10T12:01:00Z'));
    const next = await get();
    assert.equal(next.statusCode, 200);
    assert.deepEqual(limitHeaders(next), ['3', '2', '60']);
  });

  test("a key's own limits override the server's defaults; 0 means no limit, without headers", async (t) => {
    freezeClock(t);
    const store = await open();
    const { app, get } = await fixtureApp(store, {
      RATE_LIMIT_PER_MINUTE: '5',
      RATE_LIMIT_PER_DAY: '1000',
      // Every request as one: what a build costs is test/http/document-builds.test.ts's.
      DOCUMENT_BUILD_COST: '1',
    });
    const keys = {
      'fifty-a-minute-key-0123456789': { ratePerMinute: 50 },
      'two-a-day-key-0123456789abcd': { ratePerDay: 2 },
      'unlimited-key-0123456789abcd': { ratePerMinute: 0, ratePerDay: 0 },
      'no-minute-limit-key-01234567': { ratePerMinute: 0 },
    };
    for (const [key, limits] of Object.entries(keys)) await createApiKey(store, { name: key, key, ...limits });
    const as = async (key: string) => limitHeaders(await get(`${BASE}/sports`, { 'x-api-key': key }));
    assert.deepEqual(await as(TEST_KEY), ['5', '4', '30']);
    assert.deepEqual(await as('fifty-a-minute-key-0123456789'), ['50', '49', '30']);
    // 11 h 59 min 30 s to midnight UTC.
    assert.deepEqual(await as('two-a-day-key-0123456789abcd'), ['2', '1', '43170']);
    assert.deepEqual(await as('no-minute-limit-key-01234567'), ['1000', '999', '43170']);
    for (let i = 0; i < 8; i++) {
      const res = await get(`${BASE}/sports`, { 'x-api-key': 'unlimited-key-0123456789abcd' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(limitHeaders(res), NONE);
    }

    // A change applies once the key verifier's memory (5 s) has passed.
    await setApiKeyLimits(store, TEST_KEY.slice(0, 12), { ratePerMinute: 0, ratePerDay: 0 });
    t.mock.timers.setTime(NOON + 6_000);
    assert.deepEqual(await as(TEST_KEY), NONE);
    await setApiKeyLimits(store, TEST_KEY.slice(0, 12), { ratePerMinute: null, ratePerDay: null });
    t.mock.timers.setTime(NOON + 12_000);
    assert.deepEqual(await as(TEST_KEY), ['5', '3', '18']);
    await app.close();
  });

  test('admin and open routes are not limited and carry no limit headers', async (t) => {
    freezeClock(t);
    const { app } = await fixtureApp(await open(), { RATE_LIMIT_PER_MINUTE: '1' });
    const requests = [
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: `${BASE}/openapi.json` },
      { method: 'GET', url: '/docs' },
      { method: 'POST', url: '/api/v1/admin/feed', headers: { 'x-api-key': ADMIN_KEY }, payload: {} },
      { method: 'GET', url: `${BASE}/no-such-route`, headers: { 'x-api-key': TEST_KEY } },
    ] as const;
    for (const request of requests) {
      for (let i = 0; i < 3; i++) {
        const res = await app.inject(request);
        assert.notEqual(res.statusCode, 429, request.url);
        assert.deepEqual(limitHeaders(res), NONE, request.url);
      }
    }
  });

  test('keys count separately, and a 401 counts against no one', async (t) => {
    freezeClock(t);
    const { app, get } = await fixtureApp(await open(), { RATE_LIMIT_PER_MINUTE: '2', DOCUMENT_BUILD_COST: '1' });
    for (const headers of [{}, { 'x-api-key': 'not-a-real-key-at-all' }, { authorization: 'Bearer nope' }, {}, {}]) {
      const res = await app.inject({ method: 'GET', url: `${BASE}/sports`, headers });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(limitHeaders(res), NONE);
    }
    assert.deepEqual(
      (await Promise.all([1, 2, 3].map(() => get(`${BASE}/sports`, { 'x-api-key': WSL_ONLY_KEY }))))
        .map((r) => r.statusCode)
        .sort(),
      [200, 200, 429],
    );
    const full = await get(`${BASE}/sports`);
    assert.equal(full.statusCode, 200);
    assert.deepEqual(limitHeaders(full), ['2', '1', '30']);
  });
});

describeEachStore('rate limits shared through Redis', (open) => {
  test('two API processes on one Redis share the counts of a key', async (t) => {
    freezeClock(t);
    const redis = await startRedis();
    try {
      const store = await open();
      const a = await fixtureApp(store, { REDIS_URL: redis.url });
      const b = await buildTestApp({
        config: loadConfig({ DEMO_DATA: 'off', REDIS_URL: redis.url }),
        store,
        logger: false,
      });
      await createApiKey(store, { name: 'three a minute', key: LIMITED_KEY, ratePerMinute: 3 });
      const on = (app: typeof b) =>
        app.inject({ method: 'GET', url: `${BASE}/sports`, headers: { 'x-api-key': LIMITED_KEY } });
      assert.deepEqual(
        [await on(a.app), await on(b), await on(a.app)].map((r) => r.headers['x-ratelimit-remaining']),
        ['2', '1', '0'],
      );
      const rejected = await on(b);
      assert.equal(rejected.statusCode, 429);
      assert.equal(rejected.headers['retry-after'], '30');
      await a.app.close();
      await b.close();
    } finally {
      await redis.stop();
    }
  });
});
