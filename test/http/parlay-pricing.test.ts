import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/access/api-keys.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, TEST_KEY } from '../helpers/app.ts';
import { freezeClock } from '../helpers/clock.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

/**
 * Parlay pricing under a hostile load: one key flooding parlays whose simulations are not
 * drawn yet, on a pool of one thread. Fairness is checked by counts and order, never by timings.
 */

const BASE = '/api/v1/public';
const SECOND_KEY = 'second-key-0123456789abcdef';
const uuid = (n: number) => `55555555-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Twenty riders: 400,000 simulated orders a scope, long enough to queue the next draws behind. */
const WIN = Array.from({ length: 20 }, (_, i) => (20 - i) / 210);

/**
 * Events `first` to `first + count - 1`. Simulations are held by the process, not the app: each test
 * and store prices events of its own, so that none finds another's drawn.
 */
async function floodApp(store: Store, env: Record<string, string>, first: number, count: number) {
  const app = await fixtureApp(store, { SGP_WORKERS: '1', SGP_SIMULATIONS_PER_KEY: '2', ...env });
  for (let n = first; n < first + count; n++) await ingestFeed(store, fieldFeed(`f${n}`, uuid(n), WIN));
  await createApiKey(store, { name: 'second', key: SECOND_KEY });
  return app;
}

/**
 * A parlay the pool must simulate: the head-to-head of the two favourites and the third favourite to
 * win (a head-to-head leg has no exact joint).
 */
function simulatedParlay(n: number): string[] {
  const headToHead = fieldFeed(`f${n}`, uuid(n), WIN).odds?.find(
    (o) => o.id.includes(':headToHead:') && o.id.endsWith(`:f${n}-0`),
  );
  return [`${uuid(n)}:eventWinner:f${n}-2`, headToHead?.id ?? 'no head-to-head'];
}

const post = (app: Awaited<ReturnType<typeof floodApp>>, n: number, key = TEST_KEY) =>
  app.app.inject({
    method: 'POST',
    url: `${BASE}/events/spr:${uuid(n)}/sgp`,
    headers: { 'x-api-key': key },
    payload: { oddIds: simulatedParlay(n) },
  });

/** Waits, a turn of the event loop at a time, until `ready` holds (no clock involved; callers make sure it comes). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setImmediate(resolve));
}

function assertRefusal(res: LightMyRequestResponse, status: number) {
  assert.equal(res.statusCode, status, res.body);
  const body = JSON.parse(res.body) as { statusCode: number; error: string; message: string };
  assert.equal(body.statusCode, status);
  assert.equal(typeof body.message, 'string');
  assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
  assert.equal(res.headers['cache-control'], 'no-store');
}

/** Event n's winner market priced anew (the favourites reversed), an hour after its first prices. */
function repriced(n: number) {
  const later = '2026-06-01T01:00:00.000Z';
  const feed = fieldFeed(`f${n}`, uuid(n), [...WIN].reverse());
  return {
    ...feed,
    markets: feed.markets?.map((m) => ({ ...m, updatedAt: later })),
    odds: feed.odds?.map((o) => ({ ...o, updatedAt: later })),
  };
}

describeEachStore('parlay pricing under load', (open, kind) => {
  // Each store's tests price events of their own (simulations are held by the process).
  const base = kind === 'sqlite' ? 0 : 100;
  test('a flooding key is held to its simulations in flight; a second key is served before the flood drains; nothing is lost', async () => {
    // No deadline here (fixtureApp's): this test counts refusals for being over the limit, not late.
    const app = await floodApp(await open(), {}, base, 7);
    try {
      const pool = app.app.parlayPool;
      // The flood: six parlays on six events, and the first one three times more.
      const flood = [0, 1, 2, 3, 4, 5, 0, 0, 0].map((n) => ({ n, answer: post(app, base + n) }));
      const finished: string[] = [];
      for (const { n, answer } of flood) void answer.then((res) => finished.push(`A${n}:${res.statusCode}`));
      // The second key asks once the flood's first draw runs and its second waits.
      await until(() => (pool.running === 1 && pool.queued === 1) || finished.length === flood.length);
      assert.equal(pool.queued, 1, `the flood's second draw waits: ${finished}`);
      // Whether the second key's draw ever waited beside the flood's (the flood's first draw may end
      // before the second key's request reaches the pool, on a loaded machine).
      let waitedTogether = false;
      const watch = setInterval(() => {
        if (pool.running === 1 && pool.queued === 2) waitedTogether = true;
      }, 1);
      const second = post(app, base + 6, SECOND_KEY).then((res) => {
        finished.push(`B:${res.statusCode}`);
        return res;
      });
      const answers = await Promise.all(flood.map((f) => f.answer));
      const b = await second;
      clearInterval(watch);

      assert.equal(finished.length, flood.length + 1, 'every request answered');
      assert.equal(b.statusCode, 201, b.body);
      const statuses = answers.map((res) => res.statusCode);
      assert.ok(
        statuses.every((s) => s === 201 || s === 429 || s === 503),
        `only priced, refused or past the deadline: ${statuses}`,
      );
      const tooMany = answers.filter((res) => res.statusCode === 429);
      assert.ok(tooMany.length >= 1, `the flood past two simulations in flight is refused: ${statuses}`);
      for (const res of tooMany) {
        assertRefusal(res, 429);
        assert.match(JSON.parse(res.body).message, /SGP_SIMULATIONS_PER_KEY/);
      }
      for (const res of answers.filter((r) => r.statusCode === 503)) assertRefusal(res, 503);
      // One draw per simulation: one for each event whose parlay was let in (how many were let in
      // depends on when the flood's first draw ends), and the second key's; the repeats draw nothing more.
      const admitted = new Set(flood.filter((_, i) => answers[i]?.statusCode !== 429).map((f) => f.n));
      assert.ok(pool.started <= admitted.size + 1, `${pool.started} draws for ${admitted.size} events let in and B`);
      // The repeated parlay is one simulation: answered as the first, with the same price.
      const repeats = [0, 6, 7, 8].map((i) => answers[i] as LightMyRequestResponse);
      assert.ok(repeats.every((res) => res.statusCode === repeats[0]?.statusCode));
      if (repeats[0]?.statusCode === 201)
        assert.ok(repeats.every((res) => JSON.parse(res.body).odds === JSON.parse(repeats[0]?.body ?? '').odds));
      // Waiting beside the flood's draw, the second key's was taken first (round-robin).
      const lastFlood = Math.max(...finished.map((f, i) => (f.startsWith('A') && f.endsWith(':201') ? i : -1)));
      if (waitedTogether) assert.ok(finished.indexOf('B:201') < lastFlood, `order of answers: ${finished}`);
    } finally {
      await app.app.close();
    }
  });

  test('a parlay that starts a new simulation costs SGP_SIMULATION_COST requests; a cached one costs one', async (t) => {
    // Rate limits count by clock minute: the requests counted here must fall in one.
    freezeClock(t);
    const app = await floodApp(await open(), { RATE_LIMIT_PER_MINUTE: '25' }, base + 10, 3);
    const [e0, e1, e2] = [base + 10, base + 11, base + 12];
    try {
      const remaining = (res: LightMyRequestResponse) => Number(res.headers['x-ratelimit-remaining']);
      const first = await post(app, e0);
      assert.equal(first.statusCode, 201, first.body);
      const cached = await post(app, e0);
      assert.equal(cached.statusCode, 201);
      assert.equal(remaining(first) - remaining(cached), 1, 'the same parlay again: one request');
      const second = await post(app, e1);
      assert.equal(second.statusCode, 201);
      assert.equal(remaining(cached) - remaining(second), 10, 'a new simulation: ten requests');
      // 10 + 1 + 10 used: a parlay on a third event (10) does not fit in the 25, a cached parlay does.
      const refused = await post(app, e2);
      assertRefusal(refused, 429);
      assert.match(JSON.parse(refused.body).message, /counts as 10 requests/);
      assert.equal(app.app.parlayPool.started, 2, 'refused before drawing');
      assert.equal((await post(app, e1)).statusCode, 201, 'a cached parlay still fits');
    } finally {
      await app.app.close();
    }
  });

  test('past SGP_DEADLINE_MS the client gets 503 with Retry-After; the simulation is kept for the retry', async () => {
    const app = await floodApp(await open(), { SGP_DEADLINE_MS: '50' }, base + 20, 1);
    try {
      const pool = app.app.parlayPool;
      const late = await post(app, base + 20);
      assertRefusal(late, 503);
      assert.match(JSON.parse(late.body).message, /SGP_DEADLINE_MS/);
      await until(() => pool.running === 0 && pool.queued === 0);
      const retry = await post(app, base + 20);
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(pool.started, 1, 'the retry found the simulation drawn');
    } finally {
      await app.app.close();
    }
  });

  test("an event's new winner prices are simulated ahead of its next parlay (warming)", async () => {
    const app = await floodApp(await open(), {}, base + 30, 2);
    const [e0, e1] = [base + 30, base + 31];
    try {
      const pool = app.app.parlayPool;
      assert.equal((await post(app, e0)).statusCode, 201);
      assert.equal(pool.started, 1);
      // Event e1 had no parlay asked for: its new prices are not warmed.
      await ingestFeed(app.store, repriced(e1));
      await ingestFeed(app.store, repriced(e0));
      await until(() => app.app.parlayWarming.warmed >= 1);
      await app.app.parlayWarming.idle();
      await until(() => pool.running === 0 && pool.queued === 0);
      assert.equal(pool.started, 2, 'one warming draw, for event e0');
      const after = await post(app, e0);
      assert.equal(after.statusCode, 201, after.body);
      assert.equal(pool.started, 2, 'the parlay found its simulation drawn');
    } finally {
      await app.app.close();
    }
  });
});
