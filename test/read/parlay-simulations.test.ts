import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LRUCache } from 'lru-cache';
import { CodedError, fail } from '../../src/domain/errors.ts';
import type { ScopeSamples } from '../../src/domain/pricing/parlay.ts';
import { drawScope, ParlayPool, type ScopeDraw } from '../../src/read/parlay-draws.ts';
import { SharedSimulations, type SimulationDemand } from '../../src/read/parlay-simulations.ts';

const runners = ['a', 'b', 'c', 'd'];
const draw: ScopeDraw = { runners, win: [0.4, 0.3, 0.2, 0.1], shape: 1, samples: 20_000, seed: 11 };

/** A demand of `owner` on `pool` that counts what it pays; `refuse` makes paying a 429. */
function demandOf(pool: ParlayPool, owner: string, { deadline = Number.POSITIVE_INFINITY, refuse = false } = {}) {
  const paid = { count: 0 };
  const demand: SimulationDemand = {
    pool,
    owner,
    priority: 'client',
    deadline,
    pay: async () => {
      if (refuse) throw fail('RATE_LIMITED', { limit: 1, window: 'minute', retryAfter: 7 }, { retryAfter: 7 });
      paid.count += 1;
    },
  };
  return { demand, paid };
}

function simulations() {
  return new SharedSimulations(new LRUCache<string, ScopeSamples>({ max: 10 }));
}

test('one simulation for many requests: paid once, by the request that started it, then held', async () => {
  const pool = new ParlayPool({ threads: 1, perKeyInFlight: 2 });
  try {
    const shared = simulations();
    const a = demandOf(pool, 'A');
    const b = demandOf(pool, 'B');
    const start = (as: Parameters<typeof drawScope>[2]) => drawScope(draw, pool, as);
    const got = await Promise.all([
      shared.get('k', a.demand, start),
      shared.get('k', a.demand, start),
      shared.get('k', b.demand, start),
    ]);
    assert.equal(pool.started, 1);
    assert.equal(a.paid.count, 1);
    assert.equal(b.paid.count, 0, 'joining a simulation under way is free');
    assert.ok(got.every((samples) => samples === got[0]));
    assert.equal(shared.held('k'), got[0]);
    await shared.get('k', b.demand, start);
    assert.equal(b.paid.count, 0, 'a held simulation is free');
    assert.equal(pool.started, 1);
  } finally {
    await pool.close();
  }
});

test('past its deadline a request gets a 503 with Retry-After; the simulation is still drawn and held for the retry', async () => {
  const pool = new ParlayPool({ threads: 1, perKeyInFlight: 2 });
  try {
    const shared = simulations();
    const start = (as: Parameters<typeof drawScope>[2]) => drawScope(draw, pool, as);
    const late = demandOf(pool, 'A', { deadline: Date.now() - 1 });
    await assert.rejects(
      shared.get('k', late.demand, start),
      (error: unknown) =>
        error instanceof CodedError && error.code === 'SIMULATION_DEADLINE' && error.metadata.retryAfter === 1,
    );
    const retry = await shared.get('k', demandOf(pool, 'A').demand, start);
    assert.equal(pool.started, 1, 'the retry joined the draw the late request started');
    assert.equal(shared.held('k'), retry);
  } finally {
    await pool.close();
  }
});

test('a request that cannot pay, or whose key is at its limit, starts nothing', async () => {
  const pool = new ParlayPool({ threads: 1, perKeyInFlight: 1 });
  try {
    const shared = simulations();
    const start = (as: Parameters<typeof drawScope>[2]) => drawScope(draw, pool, as);
    await assert.rejects(
      shared.get('k', demandOf(pool, 'A', { refuse: true }).demand, start),
      (error: unknown) =>
        error instanceof CodedError && error.code === 'RATE_LIMITED' && error.metadata.retryAfter === 7,
    );
    assert.equal(pool.started, 0);
    const first = shared.get('k', demandOf(pool, 'A').demand, start);
    const over = demandOf(pool, 'A');
    await assert.rejects(
      shared.get('other', over.demand, (as) => drawScope({ ...draw, seed: 12 }, pool, as)),
      (error: unknown) => error instanceof CodedError && error.code === 'TOO_MANY_SIMULATIONS',
    );
    assert.equal(over.paid.count, 0, 'refused before paying');
    await first;
    assert.equal(pool.started, 1);
  } finally {
    await pool.close();
  }
});
