import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Selection } from '../../src/domain/markets/selection.ts';
import { MatchSamples } from '../../src/domain/pricing/match-samples.ts';
import { ScopeSamples } from '../../src/domain/pricing/parlay.ts';
import { fitMatchModel } from '../../src/domain/pricing/team-markets.ts';
import { hashSeed, Random } from '../../src/domain/random.ts';
import { drawMatches, drawScope, type ScopeDraw } from '../../src/read/parlay-draws.ts';

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
