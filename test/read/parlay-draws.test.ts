import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CodedError } from '../../src/domain/errors.ts';
import type { Selection } from '../../src/domain/markets/selection.ts';
import { MatchSamples } from '../../src/domain/pricing/match-samples.ts';
import { ScopeSamples } from '../../src/domain/pricing/parlay.ts';
import { fitMatchModel } from '../../src/domain/pricing/team-markets.ts';
import { hashSeed, Random } from '../../src/domain/random.ts';
import {
  type DrawAs,
  type DrawRequest,
  drawMatches,
  drawScope,
  ParlayPool,
  type ScopeDraw,
  SIMULATION_RETRY_AFTER_SECONDS,
} from '../../src/read/parlay-draws.ts';

const runners = (n: number) => Array.from({ length: n }, (_, i) => `rider-${i + 1}`);
const drawOf = (n: number, samples: number, seed: number): ScopeDraw => {
  const strengths = runners(n).map((_, i) => 1 / (i + 2));
  const total = strengths.reduce((sum, s) => sum + s, 0);
  return { runners: runners(n), win: strengths.map((s) => s / total), shape: 1, samples, seed };
};

test('drawScope draws on a worker thread exactly the samples the event loop would draw', async () => {
  for (const [n, samples] of [
    [2, 1_000],
    [8, 20_000],
    [30, 5_000],
  ] as const) {
    const draw = drawOf(n, samples, hashSeed('event', `scope-${n}`));
    const rng = new Random(draw.seed);
    const here = ScopeSamples.fitted(draw.runners, draw.win, draw.shape, draw.samples, () => rng.next());
    const there = await drawScope(draw);
    assert.deepEqual(there.runners, draw.runners);
    assert.equal(there.samples, samples);
    assert.deepEqual(there.placesOf(), here.placesOf(), `${n} runners`);
    const leg: Selection = { kind: 'top', athleteId: 'rider-1', places: Math.min(3, n) };
    assert.deepEqual(there.legBits(leg), here.legBits(leg), `${n} runners: a leg's wins`);
  }
});

test('drawMatches draws on the worker thread exactly the matches the event loop would draw', async () => {
  const cases = [
    ['box-lacrosse', fitMatchModel('box-lacrosse', { homeWin: 0.68, expectedTotal: 21.5 })],
    ['curling', fitMatchModel('curling', { homeWin: 0.62, expectedTotal: 10.5 })],
    ['table-tennis', fitMatchModel('table-tennis', { homeWin: 0.6 })],
  ] as const;
  for (const [format, model] of cases) {
    const seed = hashSeed('event', format);
    const rng = new Random(seed);
    const here = MatchSamples.simulate(format, model, 3_000, () => rng.next());
    const there = await drawMatches({ format, model, samples: 3_000, seed });
    assert.deepEqual(there.scoresOf(), here.scoresOf(), format);
    const over = { kind: 'matchScore', bet: 'total', side: 'OVER', line: 0.5 } as const;
    assert.deepEqual(there.legBits(null, over), here.legBits(null, over), `${format}: a leg's wins`);
  }
});

test('drawScope leaves the event loop free while it draws', async () => {
  let turns = 0;
  const counting = setInterval(() => {
    turns += 1;
  }, 0);
  try {
    // Were the draw made on this thread, the await would resume before any timer ran.
    await drawScope(drawOf(30, 50_000, 7));
  } finally {
    clearInterval(counting);
  }
  assert.ok(turns > 0, 'timers ran while the scope was drawn');
});

test('a failed draw rejects with its reason, and the worker draws on', async () => {
  const bad = { ...drawOf(3, 100, 1), win: [0.5, 0.5] };
  await assert.rejects(drawScope(bad), /Drawing a parlay simulation failed: .+/);
  const [a, b] = await Promise.all([drawScope(drawOf(4, 1_000, 2)), drawScope(drawOf(5, 1_000, 3))]);
  assert.equal(a.runners.length, 4);
  assert.equal(b.runners.length, 5);
});

/** Each draw's name in the order the draws finished, once all have (or failed). */
async function finishingOrder(draws: Array<[string, Promise<unknown>]>): Promise<string[]> {
  const order: string[] = [];
  await Promise.allSettled(draws.map(([name, drawing]) => drawing.then(() => order.push(name))));
  return order;
}

const request = (seed: number): DrawRequest => ({ kind: 'scope', ...drawOf(6, 2_000, seed) });
const client = (owner: string, share: string): DrawAs => ({ owner, share, priority: 'client' });
const warm = (share: string): DrawAs => ({ owner: 'warm', share, priority: 'warm' });

test('the pool takes keys round-robin: a second key draws before the flooding key is through', async () => {
  const pool = new ParlayPool({ threads: 1, perKeyInFlight: 3 });
  try {
    // A1 starts at once on the only thread; A2, A3 and B1 wait, and B1 is next.
    const order = await finishingOrder([
      ['A1', pool.draw(request(1), client('A', 'a1'))],
      ['A2', pool.draw(request(2), client('A', 'a2'))],
      ['A3', pool.draw(request(3), client('A', 'a3'))],
      ['B1', pool.draw(request(4), client('B', 'b1'))],
    ]);
    assert.deepEqual(order, ['A1', 'B1', 'A2', 'A3']);
    assert.equal(pool.started, 4);
    assert.equal(pool.inFlight('A'), 0, 'nothing counted once drawn');
  } finally {
    await pool.close();
  }
});

test('a key past its in-flight limit gets a 429 with Retry-After; a draw under way is shared, not counted again', async () => {
  const pool = new ParlayPool({ threads: 1, perKeyInFlight: 2 });
  try {
    const first = pool.draw(request(1), client('A', 'same'));
    const second = pool.draw(request(2), client('A', 'other'));
    assert.throws(
      () => pool.draw(request(3), client('A', 'third')),
      (error: unknown) =>
        error instanceof CodedError &&
        error.code === 'TOO_MANY_SIMULATIONS' &&
        error.metadata.retryAfter === SIMULATION_RETRY_AFTER_SECONDS &&
        /SGP_SIMULATIONS_PER_KEY/.test(error.message),
    );
    // The same draw asked for again, by this key or another, joins the one under way.
    assert.equal(pool.draw(request(1), client('A', 'same')), first);
    assert.equal(pool.draw(request(1), client('B', 'same')), first);
    assert.equal(pool.inFlight('A'), 2);
    assert.equal(pool.inFlight('B'), 0);
    await Promise.all([first, second]);
    assert.equal(pool.started, 2, 'two draws for five asks');
    await pool.draw(request(3), client('A', 'third'));
    assert.equal(pool.started, 3, 'room again once the draws are done');
  } finally {
    await pool.close();
  }
});

test('warming draws wait for every client draw, and a client asking for one moves it up', async () => {
  const pool = new ParlayPool({ threads: 1, perKeyInFlight: 5 });
  try {
    const order = await finishingOrder([
      ['C1', pool.draw(request(1), client('A', 'c1'))],
      ['W1', pool.draw(request(2), warm('w1'))],
      ['W2', pool.draw(request(3), warm('w2'))],
      ['C2', pool.draw(request(4), client('B', 'c2'))],
      ['W2 asked for', pool.draw(request(3), client('B', 'w2'))],
    ]);
    assert.deepEqual(order, ['C1', 'C2', 'W2', 'W2 asked for', 'W1']);
    assert.equal(pool.started, 4);
  } finally {
    await pool.close();
  }
});

test('a warming draw leaves a thread free for the next client draw, which starts at once', async () => {
  const pool = new ParlayPool({ threads: 2, perKeyInFlight: 1 });
  try {
    const drawing = [pool.draw(request(1), client('A', 'a1')), pool.draw(request(2), warm('w1'))];
    assert.deepEqual([pool.running, pool.queued], [1, 1], 'the warming draw waits beside a client draw');
    drawing.push(pool.draw(request(3), client('B', 'b1')));
    assert.deepEqual([pool.running, pool.queued], [2, 1], "another key's draw takes the free thread");
    await Promise.all(drawing);
    assert.equal(pool.started, 3);
  } finally {
    await pool.close();
  }
});

test('warmUp loads every thread before the first draw', async () => {
  const pool = new ParlayPool({ threads: 2, perKeyInFlight: 1 });
  try {
    assert.equal(pool.threadsLoaded, 0);
    await pool.warmUp();
    assert.equal(pool.threadsLoaded, 2);
  } finally {
    await pool.close();
  }
});

test('closing the pool refuses the draws still queued', async () => {
  const pool = new ParlayPool({ threads: 1, perKeyInFlight: 5 });
  const running = pool.draw(request(1), client('A', 'r'));
  const queued = pool.draw(request(2), client('A', 'q'));
  running.catch(() => {});
  const closing = pool.close();
  await assert.rejects(queued, /closed/);
  await closing;
  await assert.rejects(pool.draw(request(3), client('A', 'x')), /closed/);
});

test('a pool closed while its thread is still starting (warmUp) waits for it, then closes', async () => {
  const pool = new ParlayPool({ threads: 1, perKeyInFlight: 1 });
  const warm = pool.warmUp();
  await pool.close();
  await warm;
  assert.equal(pool.running, 0);
});
