/**
 * Fair under cache misses: identical misses in flight are built once, one key's builds are
 * bounded (its other misses wait, another key's do not), and a document built afresh costs its key
 * DOCUMENT_BUILD_COST requests of its rate limit where a cached answer costs one. Counts and order,
 * never timings.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../src/access/api-keys.ts';
import { documentBuilds } from '../../src/http/document-builds.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { fixtureApp, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { cacheSettled, tallyBuilds } from '../helpers/build-tally.ts';
import { freezeClock } from '../helpers/clock.ts';
import { WSL_LIVE } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const LIMITED_KEY = 'builds-limited-0123456789';

describe('documentBuilds', () => {
  test("a key's builds wait for its own turns only; an ended build's waiters go on; ending twice does nothing", async () => {
    const builds = documentBuilds(2);
    const order: string[] = [];
    const started = async (key: string, doc: string) => {
      const build = builds.begin(key, doc);
      await build.turn();
      return build.end;
    };
    const endA1 = await started('A', 'doc-1');
    const endA2 = await started('A', 'doc-2');
    const a3 = builds.begin('A', 'doc-3');
    assert.ok(builds.inFlight('doc-3'), 'registered at once, before its turn');
    const third = a3.turn().then(() => order.push('A3 started'));
    const endB = await started('B', 'doc-4');
    order.push('B started');
    const doc1 = builds.inFlight('doc-1');
    assert.ok(doc1);
    endA1();
    endA1();
    await doc1;
    await third;
    assert.deepEqual(order, ['B started', 'A3 started']);
    assert.equal(builds.inFlight('doc-1'), undefined);
    for (const end of [endA2, a3.end, endB]) end();
    // A build refused before its turn gives nothing back, and every turn came back: A starts two at once.
    builds.begin('A', 'refused').end();
    await Promise.all([started('A', 'x'), started('A', 'y')]);
  });
});

/** The app on its fixture, with a tally of the handlers run (documents built) per key, and the most at once. */
async function countedApp(store: Parameters<typeof fixtureApp>[0], env: Record<string, string> = {}) {
  const { app } = await fixtureApp(store, env);
  const { built, most } = tallyBuilds(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const origin = `http://127.0.0.1:${address.port}`;
  const get = (path: string, key = TEST_KEY) => fetch(`${origin}${BASE}${path}`, { headers: { 'x-api-key': key } });
  return { app: app as FastifyInstance, origin, get, built, most };
}

/** The cache settled after the fixture's own load (cacheSettled). */
const settled = (served: Awaited<ReturnType<typeof countedApp>>) => cacheSettled(served, served.get, TEST_KEY);

describeEachStore('document builds', (open) => {
  test('ten identical misses at once build the document once; all ten get it', async (t) => {
    const served = await countedApp(await open());
    t.after(() => served.app.close());
    await settled(served);
    const before = served.built.get(TEST_KEY) ?? 0;
    const answers = await Promise.all(Array.from({ length: 10 }, () => served.get(`/events/${WSL_LIVE}`)));
    const bodies = await Promise.all(answers.map((a) => a.text()));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(10).fill(200),
    );
    assert.equal(new Set(bodies).size, 1);
    assert.equal((served.built.get(TEST_KEY) ?? 0) - before, 1);
  });

  test("one key's misses are built at most DOCUMENT_BUILDS_PER_KEY at once; another key's are not held back", async (t) => {
    const served = await countedApp(await open(), { DOCUMENT_BUILDS_PER_KEY: '1' });
    t.after(() => served.app.close());
    // Twelve different documents of one key (pages of the events list), and another key's among them.
    const mine = Array.from({ length: 12 }, (_, i) => served.get(`/events?limit=${i + 1}`));
    const other = served.get('/events?limit=1', WSL_ONLY_KEY);
    const answers = await Promise.all([...mine, other]);
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(13).fill(200),
    );
    assert.equal(served.built.get(TEST_KEY), 12);
    assert.equal(served.most.get(TEST_KEY), 1, 'never two of its builds at once');
    assert.equal(served.built.get(WSL_ONLY_KEY), 1);
  });

  test("a build whose client goes away gives its key's turn back, whether it held the turn or waited for it", async (t) => {
    const { app } = await fixtureApp(await open(), { DOCUMENT_BUILDS_PER_KEY: '1' });
    t.after(() => app.close());
    const holding = heldBuilds(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    // The first miss holds the key's one turn until its client goes; the second waits for that turn.
    const held = holding.next();
    const holder = abandonable(port, '/events?limit=11');
    await held;
    const waiter = abandonable(port, '/events?limit=12');
    await once(waiter, 'ready');
    // A moment for the second to reach its wait (not a timing checked: were it not there yet, only the
    // first's turn would be tested).
    await new Promise((resolve) => setTimeout(resolve, 50));
    waiter.destroy();
    holder.destroy();
    // Both turns came back: another miss of the key is built and answered. A turn kept would hold it
    // for ever: given up after 10 s, it fails the test rather than hang it.
    const answer = await fetch(`http://127.0.0.1:${port}${BASE}/events?limit=13`, {
      headers: { 'x-api-key': TEST_KEY },
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(answer.status, 200);
  });

  test("the bet builder's answers take turns of their key's builds too: one at a time, another key's not held back", async (t) => {
    const store = await open();
    const served = await countedApp(store, { DOCUMENT_BUILDS_PER_KEY: '1' });
    t.after(() => served.app.close());
    for (const feed of [resultsFeed(), oddsFeed()]) await ingestFeed(store, feed);
    const options = (key: string) =>
      fetch(`${served.origin}${BASE}/events/spr:${SPR_EVENT}/sgp/options`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ oddIds: [] }),
      });
    const answers = await Promise.all([...Array.from({ length: 6 }, () => options(TEST_KEY)), options(WSL_ONLY_KEY)]);
    assert.deepEqual(
      answers.map((a) => a.status),
      // The wsl-only key cannot see a Supercross event: 404, answered beside the queue, not after it.
      [200, 200, 200, 200, 200, 200, 404],
    );
    assert.equal(served.built.get(TEST_KEY), 6);
    assert.equal(served.most.get(TEST_KEY), 1, 'never two of its answers composed at once');
  });

  test('a document built afresh costs DOCUMENT_BUILD_COST requests; a cached answer and a 304 cost one', async (t) => {
    freezeClock(t);
    const store = await open();
    const served = await countedApp(store, { DOCUMENT_BUILD_COST: '5' });
    t.after(() => served.app.close());
    await createApiKey(store, { name: 'twenty a minute', key: LIMITED_KEY, ratePerMinute: 20 });
    await settled(served);
    const remaining: string[] = [];
    const first = await served.get(`/events/${WSL_LIVE}`, LIMITED_KEY);
    remaining.push(String(first.headers.get('x-ratelimit-remaining')));
    const etag = String(first.headers.get('etag'));
    remaining.push(String((await served.get(`/events/${WSL_LIVE}`, LIMITED_KEY)).headers.get('x-ratelimit-remaining')));
    const notModified = await fetch(first.url, { headers: { 'x-api-key': LIMITED_KEY, 'if-none-match': etag } });
    assert.equal(notModified.status, 304);
    remaining.push(String(notModified.headers.get('x-ratelimit-remaining')));
    assert.deepEqual(remaining, ['15', '14', '13']);
    // Two requests left: a build is refused with the reason, a cached answer still goes.
    for (let i = 0; i < 11; i++) await served.get(`/events/${WSL_LIVE}`, LIMITED_KEY);
    const refused = await served.get('/events?limit=3', LIMITED_KEY);
    assert.equal(refused.status, 429);
    assert.match((await refused.json()).message, /a document built afresh costs 5 requests/);
  });
});

/**
 * Holds each build whose request says `x-hold` until its client goes away, after the response
 * cache's preHandler has given it its turn; `next()` resolves once the next one is held. One whose
 * client has already gone goes on at once.
 */
function heldBuilds(app: FastifyInstance) {
  const holding: Array<() => void> = [];
  app.addHook('preHandler', async (request) => {
    if (request.headers['x-hold'] === undefined) return;
    holding.shift()?.();
    const socket = request.raw.socket;
    if (!socket.destroyed) await once(socket, 'close');
  });
  return { next: () => new Promise<void>((resolve) => holding.push(resolve)) };
}

/** A GET of TEST_KEY's, sent on a socket of its own that the test may destroy before the answer. */
function abandonable(port: number, path: string): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.write(`GET ${BASE}${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${TEST_KEY}\r\nX-Hold: 1\r\n\r\n`);
  socket.on('error', () => {});
  return socket;
}
