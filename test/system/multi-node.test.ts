/**
 * Two API processes on one PostgreSQL store and one Redis, as an operator scales out: a write through
 * node A drops node B's cached documents and reaches node B's stream clients (LISTEN/NOTIFY), and a
 * key's rate limit is shared by both nodes (Redis). Real processes (`altsports serve`), a real
 * PostgreSQL (TEST_DATABASE_URL, from `npm test`) and Debian's redis-server.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../scripts/free-port.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../scripts/throwaway-database.ts';
import { createApiKey } from '../../src/access/api-keys.ts';
import { migrateToLatest, openStore } from '../../src/store/database.ts';
import { ADMIN_KEY, TEST_KEY } from '../helpers/app.ts';
import { runCli, spawnCli } from '../helpers/cli.ts';
import { fixtureFeed, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { type RunningRedis, startRedis } from '../helpers/redis.ts';
import { waitForHealth } from '../helpers/serve.ts';
import { SseStream } from '../helpers/sse.ts';

const LIMITED_KEY = 'limited-key-0123456789abcdef';
const REVOCABLE_KEY = 'revocable-key-0123456789abcdef';
const LIMIT = 4;

interface Node {
  name: string;
  base: string;
  child: ChildProcess;
  output: () => string;
}

async function startNode(name: string, env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const child = spawnCli(['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, child, () => `node ${name}: ${output}`);
  return { name, base, child, output: () => output };
}

async function stopNode(node: Node): Promise<void> {
  if (node.child.exitCode !== null) return;
  node.child.kill('SIGTERM');
  await new Promise((resolve) => node.child.once('exit', resolve));
}

describe('two API nodes on one PostgreSQL store and one Redis', () => {
  let database: ThrowawayDatabase;
  let redis: RunningRedis;
  let a: Node;
  let b: Node;
  let databaseUrl: string;

  before(async () => {
    const testUrl = process.env.TEST_DATABASE_URL;
    if (!testUrl) throw new Error('TEST_DATABASE_URL is not set: run through `npm test`, which starts PostgreSQL');
    database = await createThrowawayDatabase(testUrl, 'multinode');
    databaseUrl = database.url;
    const store = openStore({ databaseUrl, pgPoolSize: 2 });
    await migrateToLatest(store);
    await createApiKey(store, { name: 'full', key: TEST_KEY, ratePerMinute: 0, ratePerDay: 0 });
    await createApiKey(store, { name: 'limited', key: LIMITED_KEY, ratePerMinute: LIMIT, ratePerDay: 0 });
    await createApiKey(store, { name: 'revocable', key: REVOCABLE_KEY });
    await store.close();
    redis = await startRedis();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      ADMIN_API_KEY: ADMIN_KEY,
      DEMO_API_KEY: 'off',
      // Requests counted one by one: what a document built afresh costs is test/http/document-builds.test.ts's.
      DOCUMENT_BUILD_COST: '1',
    };
    a = await startNode('A', env);
    b = await startNode('B', env);
  });

  after(async () => {
    await Promise.all([a, b].filter(Boolean).map(stopNode));
    await redis?.stop();
    await database?.drop();
  });

  const get = (node: Node, path: string, key = TEST_KEY, headers: Record<string, string> = {}) =>
    fetch(`${node.base}/api/v1/public${path}`, { headers: { 'x-api-key': key, ...headers } });
  const write = async (node: Node, feed: unknown) => {
    const response = await fetch(`${node.base}/api/v1/admin/feed`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(feed),
    });
    assert.equal(response.status, 200, await response.text());
  };
  const liveHeat = (status: string, at: string) => {
    const heat = (fixtureFeed().heats ?? []).find((h) => h.id === 'h-3');
    assert.ok(heat);
    return { heats: [{ ...heat, heatStatus: status, updatedAt: at }] };
  };

  test('a write through node A is read, and streamed, from node B', async () => {
    await write(a, fixtureFeed());
    const events = (await (await get(b, '/events')).json()) as Array<{ id: string }>;
    assert.equal(events.length, 3, 'node B reads what node A wrote');

    // Node B caches the live event's document...
    const first = await get(b, `/events/${WSL_LIVE}`);
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    assert.equal((await get(b, `/events/${WSL_LIVE}`, TEST_KEY, { 'if-none-match': etag })).status, 304);

    // ...and streams; a heat completed through node A reaches it, and drops its cached document.
    const stream = await SseStream.open(`${b.base}/api/v1/public/stream?competition=wsl`, { 'x-api-key': TEST_KEY });
    assert.equal(stream.status, 200);
    assert.equal((await stream.nextEvent()).event, 'ready');
    await write(a, liveHeat('COMPLETED', new Date().toISOString()));
    const [change, settled] = await stream.events(2, 10_000);
    assert.equal(change?.event, 'heatScore');
    assert.deepEqual(change?.json, {
      eventId: `wsl:${WSL_LIVE}`,
      competition: 'wsl',
      heatIds: ['h-3'],
      roundIds: [],
      updatedAt: (change?.json as { updatedAt: string } | undefined)?.updatedAt,
      publishedAt: (change?.json as { publishedAt: string } | undefined)?.publishedAt,
    });
    // The server time of the commit, by which a client measures its lag: after the feed's time.
    const times = (change?.json ?? {}) as { updatedAt: string; publishedAt: string };
    assert.ok(times.publishedAt >= times.updatedAt, JSON.stringify(times));
    assert.equal(settled?.event, 'settlement');
    const after = await get(b, `/events/${WSL_LIVE}`, TEST_KEY, { 'if-none-match': etag });
    assert.equal(after.status, 200, "node B no longer answers 304 with the old document's ETag");
    const heats = JSON.stringify(await after.json());
    assert.match(heats, /"COMPLETED"/);
    await stream.close();
  });

  test("a key's rate limit is shared by both nodes through Redis", async () => {
    // Stay inside one clock minute: the limit counts per minute.
    const secondsLeft = 60 - new Date().getUTCSeconds();
    if (secondsLeft < 10) await sleep(secondsLeft * 1000 + 200);
    const remaining: number[] = [];
    for (const node of [a, b, a, b]) {
      const response = await get(node, '/sports', LIMITED_KEY);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-limit'), String(LIMIT));
      remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
    }
    assert.deepEqual(remaining, [3, 2, 1, 0], 'each node sees the requests made through the other');
    for (const node of [a, b]) {
      const refused = await get(node, '/sports', LIMITED_KEY);
      assert.equal(refused.status, 429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      const body = (await refused.json()) as Record<string, unknown>;
      assert.equal(body.statusCode, 429);
      assert.equal(typeof body.message, 'string');
    }
  });

  test("a key revoked by the CLI ends its streams on both nodes, a token from node A's streams on node B included", async () => {
    const issued = await fetch(`${a.base}/api/v1/public/stream/tokens`, {
      method: 'POST',
      headers: { 'x-api-key': REVOCABLE_KEY },
    });
    assert.equal(issued.status, 201);
    const { token } = (await issued.json()) as { token: string };
    const streams = await Promise.all([
      SseStream.open(`${a.base}/api/v1/public/stream`, { 'x-api-key': REVOCABLE_KEY }),
      SseStream.open(`${b.base}/api/v1/public/stream`, { 'x-api-key': REVOCABLE_KEY }),
      SseStream.open(`${b.base}/api/v1/public/stream?token=${encodeURIComponent(token)}`),
    ]);
    try {
      for (const stream of streams) {
        assert.equal(stream.status, 200, 'node B takes the token node A signed: the secret is in the store');
        assert.equal((await stream.nextEvent()).event, 'ready');
      }
      const revoked = await runCli(['keys', 'revoke', 'revocable-k'], { DATABASE_URL: databaseUrl });
      assert.equal(revoked.code, 0, revoked.stderr);
      for (const stream of streams) {
        const events = await stream.eventsUntil((event) => event.event === 'close', 15_000);
        assert.deepEqual(events.at(-1)?.json, {
          reason: 'keyRevoked',
          message: 'The API key of this stream was revoked.',
        });
        await stream.ended;
      }
    } finally {
      await Promise.all(streams.map((stream) => stream.close()));
    }
  });
});
