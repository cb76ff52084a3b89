import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { plackettLuceModel } from '../../../src/domain/pricing/finishing-order.ts';
import {
  countAll,
  type OrderLeg,
  parlayProbability,
  ScopeSamples,
  walkSize,
} from '../../../src/domain/pricing/parlay.ts';
import { Random } from '../../../src/domain/random.ts';

const runners = (n: number) => Array.from({ length: n }, (_, i) => `r${i}`);
const normalise = (xs: number[]) => {
  const total = xs.reduce((a, b) => a + b, 0);
  return xs.map((x) => x / total);
};

/** The parlay of these legs on a Plackett-Luce field, each leg published at its model probability. */
function parlay(samples: ScopeSamples, legs: Parameters<ScopeSamples['legBits']>[0][]) {
  const bits = legs.map((leg) => samples.legBits(leg) as Uint32Array);
  const published = bits.map((b) => countAll([b]) / samples.samples);
  return parlayProbability([
    { samples: samples.samples, legs: bits.map((b, i) => ({ bits: b, published: published[i] as number })) },
  ]);
}

describe('same game parlay over simulated finishing orders', () => {
  test('countAll counts the samples where every bitset is set', () => {
    assert.equal(countAll([Uint32Array.from([0b1011, 0xffffffff]), Uint32Array.from([0b0011, 0x0000ffff])]), 2 + 16);
    assert.equal(countAll([]), 0);
  });

  test('place, top, ahead, order and finishing-position bitsets set exactly the samples whose ranks win', () => {
    const rng = new Random(5);
    const n = 5;
    const samples = ScopeSamples.simulate(runners(n), plackettLuceModel([0.3, 0.25, 0.2, 0.15, 0.1]), 1_000, () =>
      rng.next(),
    );
    const ranks = samples.placesOf();
    const expect = (wins: (rank: (runner: number) => number) => boolean) => {
      const bits = new Uint32Array(samples.words);
      for (let s = 0; s < samples.samples; s++)
        if (wins((runner) => ranks[s * n + runner] as number))
          bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
      return bits;
    };
    for (let a = 0; a < n; a++) {
      for (let k = 1; k <= n; k++) {
        assert.deepEqual(
          samples.legBits({ kind: 'place', athleteId: `r${a}`, place: k }),
          expect((r) => r(a) === k),
        );
        assert.deepEqual(
          samples.legBits({ kind: 'top', athleteId: `r${a}`, places: k }),
          expect((r) => r(a) <= k),
        );
      }
      for (let b = 0; b < n; b++)
        if (b !== a)
          assert.deepEqual(
            samples.legBits({ kind: 'ahead', athleteId: `r${a}`, otherId: `r${b}` }),
            expect((r) => r(a) < r(b)),
          );
    }
    for (const line of [1.5, 2.5, 4.5])
      for (const side of ['OVER', 'UNDER'] as const)
        assert.deepEqual(
          samples.legBits({ kind: 'overUnder', athleteIds: ['r2'], measure: 'finishingPosition', line, side }),
          expect((r) => (side === 'OVER' ? r(2) > line : r(2) < line)),
        );
    assert.deepEqual(
      samples.legBits({ kind: 'order', athleteIds: ['r1', 'r0', 'r3'] }),
      expect((r) => r(1) === 1 && r(0) === 2 && r(3) === 3),
    );
    assert.deepEqual(
      samples.legBits({
        kind: 'overUnder',
        athleteIds: ['r0', 'r3'],
        measure: 'finishingPosition',
        line: 5.5,
        side: 'UNDER',
      }),
      expect((r) => r(0) + r(3) < 5.5),
    );
    const teams = [['r0', 'r4'], ['r1', 'r3'], ['r2']];
    const sum = (r: (runner: number) => number, team: readonly string[]) =>
      team.reduce((total, id) => total + r(Number(id.slice(1))), 0);
    teams.forEach((team, mine) => {
      // The lowest total wins; a tie goes to the team listed first.
      const wins = (r: (runner: number) => number) =>
        teams.every(
          (other, k) => k === mine || (k < mine ? sum(r, other) > sum(r, team) : sum(r, other) >= sum(r, team)),
        );
      assert.deepEqual(samples.legBits({ kind: 'group', athleteIds: team, groups: teams }), expect(wins));
    });
    assert.equal(samples.legBits({ kind: 'top', athleteId: 'nobody', places: 2 }), null);
    assert.equal(samples.legBits({ kind: 'order', athleteIds: ['r0', 'nobody'] }), null);
  });

  test('legs read the sampled ranks: hand-made field', () => {
    const rng = new Random(3);
    const samples = ScopeSamples.simulate(runners(3), plackettLuceModel([0.5, 0.3, 0.2]), 4_000, () => rng.next());
    const win = samples.legBits({ kind: 'place', athleteId: 'r0', place: 1 }) as Uint32Array;
    const notLast = samples.legBits({ kind: 'top', athleteId: 'r0', places: 2 }) as Uint32Array;
    assert.ok(countAll([notLast]) >= countAll([win]), 'top 2 includes every win');
    assert.equal(countAll([win, notLast]), countAll([win]));
    const exacta = samples.legBits({ kind: 'order', athleteIds: ['r0', 'r1'] }) as Uint32Array;
    const ahead = samples.legBits({ kind: 'ahead', athleteId: 'r0', otherId: 'r1' }) as Uint32Array;
    assert.equal(countAll([exacta, ahead]), countAll([exacta]));
    const under = samples.legBits({
      kind: 'overUnder',
      athleteIds: ['r2'],
      measure: 'finishingPosition',
      line: 2.5,
      side: 'UNDER',
    }) as Uint32Array;
    const over = samples.legBits({
      kind: 'overUnder',
      athleteIds: ['r2'],
      measure: 'finishingPosition',
      line: 2.5,
      side: 'OVER',
    }) as Uint32Array;
    assert.equal(countAll([under]) + countAll([over]), 4_000);
    assert.equal(
      samples.legBits({ kind: 'place', athleteId: 'nobody', place: 1 }),
      null,
      'an athlete outside the field',
    );
    assert.equal(
      samples.legBits({ kind: 'overUnder', athleteIds: ['r0'], measure: 'points', line: 10, side: 'OVER' }),
      null,
      'points are not finishing orders',
    );
    assert.equal(samples.legBits({ kind: 'operator', name: 'Yes' }), null);
  });

  test('a leg keeps its published probability; legs priced alone multiply', () => {
    const one = parlayProbability([{ samples: 10, legs: [{ bits: Uint32Array.from([0b1111]), published: 0.3 }] }]);
    assert.ok(Math.abs(one.probability - 0.3) < 1e-12);
    const two = parlayProbability([
      { samples: 1, legs: [{ bits: null, published: 0.5 }] },
      { samples: 1, legs: [{ bits: null, published: 0.4 }] },
    ]);
    assert.ok(Math.abs(two.probability - 0.2) < 1e-12);
    assert.ok(Math.abs(two.correlationFactor - 1) < 1e-12);
  });

  test('margins carry through: published probabilities above the model scale the joint by their ratio', () => {
    const bits = Uint32Array.from([0b0011]);
    const fair = parlayProbability([
      {
        samples: 4,
        legs: [
          { bits, published: 0.5 },
          { bits, published: 0.5 },
        ],
      },
    ]);
    assert.ok(Math.abs(fair.probability - 0.5) < 1e-12, 'the same event twice is the event once');
    const priced = parlayProbability([
      {
        samples: 4,
        legs: [
          { bits, published: 0.55 },
          { bits, published: 0.55 },
        ],
      },
    ]);
    assert.ok(Math.abs(priced.probability - 0.55) < 1e-12, 'capped at the smaller leg');
  });

  test('within 0.25 percentage points of the Plackett-Luce closed forms on many random fields', () => {
    let fields = 0;
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.3, max: 6, noNaN: true }), { minLength: 4, maxLength: 12 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (raw, seed) => {
          fields += 1;
          const p = normalise(raw);
          const n = p.length;
          const rng = new Random(seed);
          const samples = ScopeSamples.simulate(
            runners(n),
            plackettLuceModel(p),
            Math.min(1_000_000, Math.max(250_000, Math.round(8_000_000 / n))),
            () => rng.next(),
          );
          const [a, b, c] = [0, 1, 2].map((k) => (seed + k) % n) as [number, number, number];
          // P(A wins and B second) = pA pB / (1 - pA).
          const exacta = parlay(samples, [
            { kind: 'place', athleteId: `r${a}`, place: 1 },
            { kind: 'place', athleteId: `r${b}`, place: 2 },
          ]);
          const expected = ((p[a] as number) * (p[b] as number)) / (1 - (p[a] as number));
          assert.ok(
            Math.abs(exacta.probability - expected) < 0.0025,
            `winner + second: ${exacta.probability} vs ${expected}`,
          );
          // P(A wins and B ahead of C) = pA pB / (pB + pC): the rest of the race is Plackett-Luce again.
          const ahead = parlay(samples, [
            { kind: 'place', athleteId: `r${a}`, place: 1 },
            { kind: 'ahead', athleteId: `r${b}`, otherId: `r${c}` },
          ]);
          const expectedAhead = ((p[a] as number) * (p[b] as number)) / ((p[b] as number) + (p[c] as number));
          assert.ok(
            Math.abs(ahead.probability - expectedAhead) < 0.0025,
            `winner + head-to-head: ${ahead.probability} vs ${expectedAhead}`,
          );
        },
      ),
      { seed: 424242, numRuns: 12 },
    );
    assert.equal(fields, 12);
  });
});

/** The prefixes a place-by-place walk visits, counted one by one: what walkSize counts without walking. */
function walkedPrefixes(runners: number, legs: readonly OrderLeg[]): number {
  const state = (leg: OrderLeg, prefix: readonly number[]): 'won' | 'lost' | 'open' => {
    const at = (runner: number) => prefix.indexOf(runner);
    if (leg.kind === 'order') {
      if (leg.runners.some((r, k) => (at(r) >= 0 && at(r) !== k) || (k < prefix.length && prefix[k] !== r)))
        return 'lost';
      return prefix.length >= leg.runners.length ? 'won' : 'open';
    }
    const where = at(leg.runner);
    const last = leg.kind === 'place' ? leg.place : leg.places;
    if (where >= 0) return (leg.kind === 'place' ? where === leg.place - 1 : where < leg.places) ? 'won' : 'lost';
    return prefix.length >= last ? 'lost' : 'open';
  };
  const walk = (prefix: number[]): number => {
    const states = legs.map((leg) => state(leg, prefix));
    if (states.includes('lost') || states.every((s) => s === 'won')) return 1;
    let nodes = 1;
    for (let r = 0; r < runners; r++) if (!prefix.includes(r)) nodes += walk([...prefix, r]);
    return nodes;
  };
  return walk([]);
}

describe('walkSize', () => {
  test('counts the prefixes the walk visits, stopping past its cap', () => {
    const leg = fc.oneof(
      fc.record({ kind: fc.constant('place' as const), runner: fc.nat(5), place: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant('top' as const), runner: fc.nat(5), places: fc.integer({ min: 1, max: 4 }) }),
      fc.record({
        kind: fc.constant('order' as const),
        runners: fc.uniqueArray(fc.nat(5), { minLength: 2, maxLength: 3 }),
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 6, max: 7 }), fc.array(leg, { minLength: 1, maxLength: 3 }), (runners, legs) => {
        const walked = walkedPrefixes(runners, legs);
        assert.equal(walkSize(runners, legs, 1e9), walked);
        assert.equal(walkSize(runners, legs, walked) <= walked, true);
        assert.equal(walkSize(runners, legs, walked - 1) > walked - 1, true);
      }),
      { numRuns: 150 },
    );
    const top10 = walkSize(30, [{ kind: 'top', runner: 0, places: 10 }], 50_000);
    assert.ok(top10 > 50_000, 'a top-10 leg of a 30-runner field is past the budget');
  });
});
