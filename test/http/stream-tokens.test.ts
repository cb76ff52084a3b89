import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { hashKey, revokeApiKey } from '../../src/access/api-keys.ts';
import { rotateStreamSecret } from '../../src/access/stream-tokens.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { freezeClock, NOON } from '../helpers/clock.ts';
import { SseStream } from '../helpers/sse.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';

describeEachStore('stream tokens for browsers', (open) => {
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

  test('only the server can sign a token: no key-derived signature, no long expiry, one encoding', async (t) => {
    freezeClock(t);
    const store = await open();
    const { app } = await fixtureApp(store, { STREAM_TOKEN_SECONDS: '60' });
    try {
      const token = await issueToken(app);
      assert.equal(await tokenStatus(app, token), 400, 'accepted');
      const [payload, signature] = token.split('.') as [string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      const keyId = claims.k as string;
      const tenYears = Math.floor(NOON / 1000) + 10 * 365 * 86_400;
      // What a key holder can compute: an HMAC under the key's SHA-256, the stored hash.
      const byKeyHash = encode({ k: keyId, c: null, e: tenYears });
      const keyHashSignature = sign(hashKey(TEST_KEY), byKeyHash);
      // The server's own secret, over a payload whose expiry is past STREAM_TOKEN_SECONDS from its issue.
      const secrets = await store.db.selectFrom('streamTokenSecrets').selectAll().execute();
      const current = secrets.find((s) => s.id === claims.s) as { secret: string };
      const tooLong = encode({ ...claims, e: (claims.i as number) + 61 });
      for (const [forged, why] of [
        [`${byKeyHash}.${keyHashSignature}`, 'signed with the key hash'],
        [`${tooLong}.${sign(current.secret, tooLong)}`, 'expiry past STREAM_TOKEN_SECONDS'],
        [`${token}=`, 'padded signature'],
        [`${payload}=.${signature}`, 'padded payload'],
        [`${payload}.${signature.slice(0, -1)}${nonCanonicalLast(signature)}`, 'non-canonical last character'],
      ] as const)
        assert.equal(await tokenStatus(app, forged), 401, why);
    } finally {
      await app.close();
    }
  });

  test("a rotated secret's tokens work until they expire; new tokens use the new secret", async (t) => {
    freezeClock(t);
    const store = await open();
    const { app } = await fixtureApp(store, { STREAM_TOKEN_SECONDS: '60' });
    try {
      const before = await issueToken(app);
      await rotateStreamSecret(store, { tokenSeconds: 60 });
      t.mock.timers.setTime(NOON + 5_001);
      const after = await issueToken(app);
      assert.notEqual(secretOf(before), secretOf(after));
      assert.equal(await tokenStatus(app, before), 400, "the previous secret's token, before its expiry");
      assert.equal(await tokenStatus(app, after), 400);
      t.mock.timers.setTime(NOON + 61_000);
      assert.equal(await tokenStatus(app, after), 400, 'issued after the rotation, still within its lifetime');
      assert.equal(await tokenStatus(app, before), 401, 'expired');
      assert.equal((await secretRows(store)).length, 2);
      await rotateStreamSecret(store, { tokenSeconds: 60 });
      assert.equal((await secretRows(store)).length, 2, 'secrets retired longer ago than any lifetime are deleted');
    } finally {
      await app.close();
    }
  });
});

type App = Awaited<ReturnType<typeof fixtureApp>>['app'];

async function issueToken(app: App): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `${BASE}/stream/tokens`, headers: { 'x-api-key': TEST_KEY } });
  assert.equal(res.statusCode, 201, res.body);
  return (JSON.parse(res.body) as { token: string }).token;
}

/** competition=nope is a 400 after authentication: a 400 says the token was accepted. */
async function tokenStatus(app: App, token: string): Promise<number> {
  return (
    await app.inject({ method: 'GET', url: `${BASE}/stream?token=${encodeURIComponent(token)}&competition=nope` })
  ).statusCode;
}

const encode = (claims: unknown) => Buffer.from(JSON.stringify(claims)).toString('base64url');
const sign = (secret: string, payload: string) =>
  createHmac('sha256', secret).update(`altsports-stream-token:${payload}`).digest('base64url');
const secretOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()) as { s: string }).s;
const secretRows = (store: Store) => store.db.selectFrom('streamTokenSecrets').selectAll().execute();

/** A 32-byte signature's last base64url character carries 2 unused bits: another character decodes to the same bytes. */
function nonCanonicalLast(signature: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const index = alphabet.indexOf(signature.at(-1) as string);
  return alphabet[index ^ 1] as string;
}
