import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN_KEY, fixtureApp, TEST_KEY, type TestApp } from '../helpers/app.ts';
import { freezeClock } from '../helpers/clock.ts';
import { WSL_LIVE } from '../helpers/feed-fixture.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const ORIGIN = 'https://app.example';

function assertSecurityHeaders(response: LightMyRequestResponse, what: string, api = true): void {
  assert.equal(response.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(response.headers['x-frame-options'], 'DENY', what);
  assert.equal(response.headers['referrer-policy'], 'no-referrer', what);
  if (api) assert.equal(response.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'", what);
  else {
    // A page (the docs, the board) runs its own scripts and styles, from this origin only: nothing inline.
    const policy = String(response.headers['content-security-policy']);
    assert.match(policy, /default-src 'none'/, what);
    assert.match(policy, /script-src 'self';/, `${what}: scripts from this origin only`);
    assert.match(policy, /connect-src 'self';/, `${what}: API calls to this origin only`);
    assert.match(policy, /frame-ancestors 'none'/, what);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/, what);
  }
}

async function withApp(env: Record<string, string>): Promise<{ test: TestApp; close(): Promise<void> }> {
  const store: TestStore = await openTestStore('sqlite');
  const app = await fixtureApp(store.store, env);
  return {
    test: app,
    close: async () => {
      await app.app.close();
      await store.cleanup();
    },
  };
}

describe('security headers', () => {
  let t: Awaited<ReturnType<typeof withApp>>;
  before(async () => {
    // Every request as one: what a document built afresh costs is test/http/document-builds.test.ts's.
    t = await withApp({ RATE_LIMIT_PER_MINUTE: '3', DOCUMENT_BUILD_COST: '1' });
  });
  after(() => t.close());

  test('every kind of answer carries them: documents (cached or not), errors, admin, health, 429', async (context) => {
    // Rate limits count by clock minute: the four requests must fall in one.
    freezeClock(context);
    const { app, get } = t.test;
    const answers: Array<[string, LightMyRequestResponse]> = [
      ['a document', await get(`${BASE}/events/${WSL_LIVE}`)],
      ['a cached document', await get(`${BASE}/events/${WSL_LIVE}`)],
      ['a 304', await get(`${BASE}/sports`, { 'if-none-match': '*' })],
      ['a 429', await get(`${BASE}/sports`)],
      ['a 401', await app.inject({ url: `${BASE}/sports` })],
      ['a 404', await app.inject({ url: '/nowhere' })],
      [
        'the admin API',
        await app.inject({
          method: 'POST',
          url: '/api/v1/admin/feed',
          headers: { 'x-api-key': ADMIN_KEY },
          payload: {},
        }),
      ],
      ['health', await app.inject({ url: '/healthz' })],
      [
        'a URL the router refuses',
        await app.inject({ url: `${BASE}/events/%ED%A0%80`, headers: { 'x-api-key': TEST_KEY } }),
      ],
    ];
    assert.deepEqual(
      answers.map(([what, response]) => [what, response.statusCode]),
      [
        ['a document', 200],
        ['a cached document', 200],
        ['a 304', 304],
        ['a 429', 429],
        ['a 401', 401],
        ['a 404', 404],
        ['the admin API', 200],
        ['health', 200],
        ['a URL the router refuses', 400],
      ],
    );
    for (const [what, response] of answers) assertSecurityHeaders(response, what);
    assertSecurityHeaders(await app.inject({ url: '/docs/' }), 'the docs page', false);
    assertSecurityHeaders(await app.inject({ url: '/docs/json' }), "the docs page's document", false);
    assertSecurityHeaders(await app.inject({ url: '/board' }), 'the board', false);
    assertSecurityHeaders(await app.inject({ url: '/board/board.js' }), "the board's script", false);
    assertSecurityHeaders(await app.inject({ url: '/board?competition=wsl' }), 'the board, with a query', false);
    // Only those paths: a look-alike prefix is the API's.
    assertSecurityHeaders(await app.inject({ url: '/boards' }), 'a path that only starts like the board');
    assertSecurityHeaders(await app.inject({ url: '/docsx?a=/docs/' }), 'a path that only starts like the docs');
  });

  test('only cacheable documents may be kept by a cache; keys and feed results never', async () => {
    const { test: fresh, close } = await withApp({});
    try {
      const { app, get } = fresh;
      assert.equal((await get(`${BASE}/events/${WSL_LIVE}`)).headers['cache-control'], 'private, no-cache');
      assert.equal((await get(`${BASE}/events/not-an-event`)).headers['cache-control'], 'no-store');
      assert.equal(
        (await app.inject({ url: `${BASE}/sports`, headers: { 'x-api-key': 'wrong-key-0123456789abcdef' } })).headers[
          'cache-control'
        ],
        'no-store',
      );
      assert.equal(
        (
          await app.inject({
            method: 'POST',
            url: '/api/v1/admin/feed',
            headers: { 'x-api-key': ADMIN_KEY },
            payload: {},
          })
        ).headers['cache-control'],
        'no-store',
      );
    } finally {
      await close();
    }
  });
});

describe('CORS', () => {
  test('off by default: no browser origin is allowed', async () => {
    const { test: app, close } = await withApp({});
    try {
      const response = await app.get(`${BASE}/sports`, { origin: ORIGIN });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['access-control-allow-origin'], undefined);
    } finally {
      await close();
    }
  });

  test('CORS_ORIGINS lists the origins allowed: preflight, simple requests and errors', async () => {
    const { test: app, close } = await withApp({ CORS_ORIGINS: `${ORIGIN}, https://other.example` });
    try {
      const preflight = await app.app.inject({
        method: 'OPTIONS',
        url: `${BASE}/events/${WSL_LIVE}`,
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key, if-none-match',
        },
      });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], ORIGIN);
      assert.match(String(preflight.headers['access-control-allow-headers']), /X-API-KEY/);
      assert.match(String(preflight.headers['access-control-allow-headers']), /If-None-Match/);

      const document = await app.get(`${BASE}/events/${WSL_LIVE}`, { origin: ORIGIN });
      assert.equal(document.headers['access-control-allow-origin'], ORIGIN);
      assert.match(String(document.headers['access-control-expose-headers']), /ETag/);
      assert.match(String(document.headers.vary), /Origin/);
      const cached = await app.get(`${BASE}/events/${WSL_LIVE}`, { origin: ORIGIN });
      assert.equal(cached.headers['access-control-allow-origin'], ORIGIN, 'a cached answer too');

      const unauthorized = await app.app.inject({ url: `${BASE}/sports`, headers: { origin: ORIGIN } });
      assert.equal(unauthorized.statusCode, 401);
      assert.equal(
        unauthorized.headers['access-control-allow-origin'],
        ORIGIN,
        'a browser client can read why it was refused',
      );

      const stranger = await app.get(`${BASE}/sports`, { origin: 'https://evil.example' });
      assert.equal(stranger.headers['access-control-allow-origin'], undefined);

      // Not a preflight (no Origin): refused as any bad request is, in the error body.
      const noOrigin = await app.app.inject({
        method: 'OPTIONS',
        url: `${BASE}/sports`,
        headers: { 'access-control-request-method': 'GET' },
      });
      assert.equal(noOrigin.statusCode, 400);
      assert.match(String(noOrigin.headers['content-type']), /^application\/json/);
      assert.equal(JSON.parse(noOrigin.body).statusCode, 400);
      assert.match(JSON.parse(noOrigin.body).message, /preflight/i);
      assert.equal(noOrigin.headers['x-content-type-options'], 'nosniff');
      assert.ok(noOrigin.headers['x-request-id']);
    } finally {
      await close();
    }
  });

  test('CORS_ORIGINS=* allows any origin', async () => {
    const { test: app, close } = await withApp({ CORS_ORIGINS: '*' });
    try {
      const response = await app.get(`${BASE}/sports`, { origin: 'https://anyone.example', 'x-api-key': TEST_KEY });
      assert.equal(response.headers['access-control-allow-origin'], '*');
    } finally {
      await close();
    }
  });
});
