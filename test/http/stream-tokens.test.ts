import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { revokeApiKey } from '../../src/access/api-keys.ts';
import { fixtureApp, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { freezeClock, NOON } from '../helpers/clock.ts';
import { SseStream } from '../helpers/sse.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';

describeEachStore('stream tokens for browsers (issue 28)', (open) => {
  test('a token opens GET /stream?token= without the key, bound to its competitions', async () => {
    const { app } = await fixtureApp(await open());
    try {
      const issued = await app.inject({
        method: 'POST',
        url: `${BASE}/stream/tokens`,
        headers: { 'x-api-key': TEST_KEY },
      });
      assert.equal(issued.statusCode, 201, issued.body);
      const { token, expiresAt } = JSON.parse(issued.body) as { token: string; expiresAt: string };
      assert.ok(!token.includes(TEST_KEY));
      const lifetime = Date.parse(expiresAt) - Date.now();
      assert.ok(lifetime > 590_000 && lifetime <= 600_000, `${lifetime} ms`);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const stream = await SseStream.open(`${base}${BASE}/stream?token=${encodeURIComponent(token)}`);
      try {
        assert.equal(stream.status, 200);
        assert.equal((await stream.nextEvent()).event, 'ready');
      } finally {
        await stream.close();
      }

      const wsl = JSON.parse(
        (await app.inject({ method: 'POST', url: `${BASE}/stream/tokens`, headers: { 'x-api-key': WSL_ONLY_KEY } }))
          .body,
      ).token as string;
      const outside = await app.inject({ method: 'GET', url: `${BASE}/stream?competition=masl&token=${wsl}` });
      assert.equal(outside.statusCode, 403, outside.body);
      // A token opens the stream only.
      assert.equal((await app.inject({ method: 'GET', url: `${BASE}/events?token=${token}` })).statusCode, 401);
      assert.equal((await app.inject({ method: 'POST', url: `${BASE}/stream/tokens` })).statusCode, 401);
      const withBody = await app.inject({
        method: 'POST',
        url: `${BASE}/stream/tokens`,
        headers: { 'x-api-key': TEST_KEY },
        payload: { ttl: 1e9 },
      });
      assert.equal(withBody.statusCode, 400);
      assert.match(JSON.parse(withBody.body).message, /takes no body/);
    } finally {
      await app.close();
    }
  });

  test('a forged, altered or expired token is a 401; a revoked key stops its tokens within 5 s', async (t) => {
    freezeClock(t);
    const store = await open();
    const { app } = await fixtureApp(store, { STREAM_TOKEN_SECONDS: '60' });
    try {
      const issue = async () =>
        JSON.parse(
          (await app.inject({ method: 'POST', url: `${BASE}/stream/tokens`, headers: { 'x-api-key': TEST_KEY } })).body,
        ) as { token: string; expiresAt: string };
      const status = async (token: string) =>
        (await app.inject({ method: 'GET', url: `${BASE}/stream?token=${encodeURIComponent(token)}&competition=nope` }))
          .statusCode;
      // competition=nope is a 400 after authentication: a 400 says the token was accepted, without opening a stream.
      const { token, expiresAt } = await issue();
      assert.equal(expiresAt, new Date(NOON - 30_000 + 90_000).toISOString().replace(/\.\d+Z$/, '.000Z'));
      assert.equal(await status(token), 400);
      const [payload, signature] = token.split('.') as [string, string];
      const widened = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), e: 9_999_999_999 }),
      ).toString('base64url');
      for (const forged of [`${widened}.${signature}`, `${payload}.${'A'.repeat(43)}`, 'not-a-token', `${token}.x`]) {
        const res = await app.inject({ method: 'GET', url: `${BASE}/stream?token=${encodeURIComponent(forged)}` });
        assert.equal(res.statusCode, 401, forged);
        assert.match(JSON.parse(res.body).message, /stream token/);
      }
      t.mock.timers.setTime(NOON + 61_000);
      assert.equal(await status(token), 401, 'expired');

      const fresh = (await issue()).token;
      assert.equal(await status(fresh), 400);
      const keys = await store.db.selectFrom('apiKeys').select(['id', 'name']).execute();
      await revokeApiKey(store, (keys.find((k) => k.name === 'full') as { id: string }).id);
      t.mock.timers.setTime(NOON + 61_000 + 5_001);
      assert.equal(await status(fresh), 401, 'revoked');
    } finally {
      await app.close();
    }
  });
});
