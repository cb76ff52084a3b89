import assert from 'node:assert/strict';
import { test } from 'node:test';
import { revokeApiKey } from '../../src/access/api-keys.ts';
import { ADMIN_KEY, buildTestApp, fixtureApp, sharedFixture, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { MASL_GAME, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';

describeEachStore('auth', (open, kind) => {
  // Tests that only read share one app; those that write or build their own app do so apart.
  const shared = sharedFixture(kind, fixtureApp);

  test('every public route needs a key: missing or unknown is a 401 with the error body', async () => {
    const { app } = shared();
    for (const url of [
      `${BASE}/sports`,
      `${BASE}/events`,
      `${BASE}/events/${WSL_LIVE}`,
      `${BASE}/futures`,
      `${BASE}/futures/wsl/tour/wsl-ct-men/odds/winner`,
    ]) {
      for (const headers of [
        {},
        { 'x-api-key': 'not-a-real-key-at-all' },
        { authorization: 'Bearer nope' },
        { authorization: `Basic ${TEST_KEY}` },
      ]) {
        const res = await app.inject({ method: 'GET', url, headers });
        assert.equal(res.statusCode, 401, `${url} ${JSON.stringify(headers)}`);
        const body = JSON.parse(res.body);
        assert.equal(body.statusCode, 401);
        assert.match(body.message, /API key/);
        assert.equal(res.headers['www-authenticate'], 'Bearer realm="altsports"');
      }
    }
  });

  test('the key is accepted in X-API-KEY in any case, and as a bearer token', async () => {
    const { app } = shared();
    for (const headers of [
      { 'X-API-KEY': TEST_KEY },
      { 'X-Api-Key': TEST_KEY },
      { 'x-api-key': TEST_KEY },
      { Authorization: `Bearer ${TEST_KEY}` },
      { authorization: `bearer ${TEST_KEY}` },
    ]) {
      const res = await app.inject({ method: 'GET', url: `${BASE}/sports`, headers });
      assert.equal(res.statusCode, 200, JSON.stringify(headers));
    }
  });

  test('a key limited to some competitions sees only those, and gets 403 naming another', async () => {
    const { get } = shared();
    const as = { 'x-api-key': WSL_ONLY_KEY };
    assert.deepEqual(
      JSON.parse((await get(`${BASE}/sports`, as)).body).map((s: { key: string }) => s.key),
      ['wsl'],
    );
    assert.deepEqual(
      [
        ...new Set(
          JSON.parse((await get(`${BASE}/events`, as)).body).map((e: { competition: string }) => e.competition),
        ),
      ],
      ['wsl'],
    );
    assert.equal((await get(`${BASE}/events/${WSL_LIVE}`, as)).statusCode, 200);
    // A filter naming another competition is a 403; an id of its events a 404 (below).
    for (const url of [`${BASE}/events?competition=masl`, `${BASE}/futures/masl/tour/masl-league/odds/winner`]) {
      const res = await get(url, as);
      assert.equal(res.statusCode, 403, url);
      assert.match(JSON.parse(res.body).message, /"masl"/);
    }
  });

  test("an id outside the key's competitions answers exactly as an unknown id", async () => {
    const { app } = shared();
    const unknown = 'b2b2b2b2-0000-4000-8000-00000000ffff';
    const answer = async (id: string, [method, path, payload]: readonly [string, string, unknown?]) => {
      const res = await app.inject({
        method: method as 'GET' | 'POST',
        url: `${BASE}${path.replaceAll('ID', id)}`,
        headers: { 'x-api-key': WSL_ONLY_KEY },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      const { statusCode, message, metadata } = JSON.parse(res.body.replaceAll(id, 'ID'));
      return { status: res.statusCode, statusCode, message, metadata };
    };
    for (const route of [
      ['GET', '/events/ID'],
      ['GET', '/events/masl:ID'],
      ['GET', '/events/ID/participants'],
      ['GET', '/events/ID/heats/h-1'],
      ['GET', '/events/ID/eventWinner'],
      ['GET', '/events/ID/odds-history'],
      ['POST', '/events/ID/sgp', { oddIds: ['a', 'b'] }],
      ['POST', '/events/ID/sgp/options', { oddIds: ['a'] }],
    ] as const) {
      const outside = await answer(MASL_GAME, route);
      assert.deepEqual(outside, await answer(unknown, route), route.join(' '));
      assert.equal(outside.status, 404, route.join(' '));
    }
  });

  test('a revoked key stops working', async () => {
    const { app, store } = await fixtureApp(await open());
    await revokeApiKey(store, 'wsl-only-key');
    // A fresh app: the verifier remembers answers for a few seconds by design.
    const { loadConfig } = await import('../../src/config.ts');
    const fresh = await buildTestApp({ config: loadConfig({ DEMO_DATA: 'off' }), store, logger: false });
    assert.equal(
      (await fresh.inject({ method: 'GET', url: `${BASE}/sports`, headers: { 'x-api-key': WSL_ONLY_KEY } })).statusCode,
      401,
    );
    assert.equal(
      (await fresh.inject({ method: 'GET', url: `${BASE}/sports`, headers: { 'x-api-key': TEST_KEY } })).statusCode,
      200,
    );
    await app.close();
  });

  test('a public key never opens the admin API, and the admin key never opens the public API', async () => {
    const { app } = await fixtureApp(await open());
    const admin = (key: string) =>
      app.inject({ method: 'POST', url: '/api/v1/admin/feed', headers: { 'x-api-key': key }, payload: {} });
    assert.equal((await admin(TEST_KEY)).statusCode, 401);
    assert.equal((await admin(ADMIN_KEY)).statusCode, 200);
    assert.equal(
      (await app.inject({ method: 'GET', url: `${BASE}/sports`, headers: { 'x-api-key': ADMIN_KEY } })).statusCode,
      401,
    );
  });

  test('without ADMIN_API_KEY the admin API is closed', async () => {
    const store = await open();
    const { loadConfig } = await import('../../src/config.ts');
    const app = await buildTestApp({ config: loadConfig({ DEMO_DATA: 'off' }), store, logger: false });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/feed',
      headers: { 'x-api-key': 'anything-long-enough' },
      payload: {},
    });
    assert.equal(res.statusCode, 401);
    assert.match(JSON.parse(res.body).message, /ADMIN_API_KEY/);
  });

  test('health, the OpenAPI document and the docs page need no key', async () => {
    const { app } = shared();
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: `${BASE}/openapi.json` })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/docs' })).statusCode < 400, true);
  });
});
