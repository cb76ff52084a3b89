import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  fitFinishingOrder,
  modelWinProbabilities,
  plackettLuceHeadToHead,
  plackettLuceModel,
  plackettLuceSequence,
  positionProbabilities,
  simulateFinishingOrders,
  simulatePlaces,
  topProbability,
} from '../../../src/domain/pricing/finishing-order.ts';
import { Random } from '../../../src/domain/random.ts';
import { close } from '../../helpers/close.ts';

/** Win probabilities of a random field of 3 to 12 runners, none below 1%. */
const fields = fc.array(fc.double({ min: 0.2, max: 5, noNaN: true }), { minLength: 3, maxLength: 12 }).map((raw) => {
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => x / total);
});

describe('Plackett-Luce in closed form', () => {
  test('walks the textbook cases', () => {
    const p = [0.5, 0.3, 0.2];
    close(plackettLuceSequence(p, [0]), 0.5, 1e-12, 'win');
    close(plackettLuceSequence(p, [0, 1]), (0.5 * 0.3) / 0.5, 1e-12, 'exacta A-B');
    close(plackettLuceSequence(p, [1, 0]), (0.3 * 0.5) / 0.7, 1e-12, 'exacta B-A');
    close(plackettLuceSequence(p, [0, 1, 2]), 0.3, 1e-12, 'trifecta A-B-C');
    close(plackettLuceHeadToHead(p, 1, 2), 0.6, 1e-12, 'B ahead of C');
    assert.deepEqual(plackettLuceModel([2, 1, 1]).strengths, [0.5, 0.25, 0.25]);
  });

  test('exactas of a winner sum to its win probability; head-to-head sides complement', () => {
    fc.assert(
      fc.property(fields, (p) => {
        for (let a = 0; a < p.length; a++) {
          let sum = 0;
          for (let b = 0; b < p.length; b++) if (b !== a) sum += plackettLuceSequence(p, [a, b]);
          close(sum, p[a] as number, 1e-9, `exactas of ${a}`);
          for (let b = 0; b < p.length; b++)
            if (b !== a) close(plackettLuceHeadToHead(p, a, b) + plackettLuceHeadToHead(p, b, a), 1, 1e-12, 'sides');
        }
      }),
    );
  });

  test('refuses a field of one, or a runner without a chance', () => {
    assert.throws(() => plackettLuceModel([1]), /at least two/);
    assert.throws(() => plackettLuceModel([0.5, 0]), /positive/);
    assert.throws(() => fitFinishingOrder([0.5, 0.5], 0), /shape/);
    assert.throws(() => fitFinishingOrder([0.5, 0.5], 1.5), /shape/);
  });
});

describe('simulated finishing orders', () => {
  test('Plackett-Luce samples agree with the closed forms within 5 standard errors', () => {
    const rng = new Random(11);
    fc.assert(
      fc.property(fields, (p) => {
        const orders = simulateFinishingOrders(plackettLuceModel(p), 60_000, () => rng.next());
        const n = p.length;
        const positions = positionProbabilities(orders, n);
        let exacta = 0;
        for (let r = 0; r < orders.length / n; r++) if (orders[r * n] === 0 && orders[r * n + 1] === 1) exacta += 1;
        const samples = orders.length / n;
        // A sampled share's standard error is sqrt(q(1 - q) / samples); 5 of them fail by chance about once in 2 million checks.
        const within = (q: number) => 5 * Math.sqrt((q * (1 - q)) / samples) + 1e-12;
        const expected = plackettLuceSequence(p, [0, 1]);
        close(exacta / samples, expected, within(expected), 'exacta 0-1');
        for (let i = 0; i < n; i++)
          close(positions[i]?.[0] as number, p[i] as number, within(p[i] as number), `win ${i}`);
      }),
      { numRuns: 12, seed: 20261121 },
    );
  });

  test('every order is a permutation; position probabilities sum to 1 both ways; top 3 is at least the win', () => {
    const rng = new Random(5);
    const model = fitFinishingOrder([0.4, 0.25, 0.15, 0.1, 0.06, 0.04], 3);
    const orders = simulateFinishingOrders(model, 5_000, () => rng.next());
    for (let r = 0; r < 5_000; r++) assert.deepEqual([...orders.subarray(r * 6, r * 6 + 6)].sort(), [0, 1, 2, 3, 4, 5]);
    const positions = positionProbabilities(orders, 6);
    for (let i = 0; i < 6; i++) {
      close(positions[i]?.reduce((a, b) => a + b, 0) as number, 1, 1e-9, `runner ${i}`);
      close(
        positions.reduce((sum, row) => sum + (row[i] as number), 0),
        1,
        1e-9,
        `place ${i}`,
      );
      assert.ok(topProbability(positions, i, 3) >= topProbability(positions, i, 1));
    }
  });
});

describe('simulatePlaces', () => {
  test("gives some runners' places in the orders simulateFinishingOrders draws from the same numbers", () => {
    fc.assert(
      fc.property(
        fields,
        fc.integer({ min: 1, max: 4 }),
        fc.integer(),
        fc.shuffledSubarray([0, 1, 2], { minLength: 1 }),
        (p, shape, seed, runners) => {
          const model = fitFinishingOrder(p, shape);
          const a = new Random(seed);
          const b = new Random(seed);
          const orders = simulateFinishingOrders(model, 200, () => a.next());
          const places = simulatePlaces(model, 200, () => b.next(), runners);
          const n = p.length;
          for (let r = 0; r < 200; r++) {
            const order = [...orders.subarray(r * n, r * n + n)];
            const expected = runners.map((i) => order.indexOf(i) + 1);
            assert.deepEqual([...places.subarray(r * runners.length, (r + 1) * runners.length)], expected);
          }
        },
      ),
      { numRuns: 40, seed: 20261126 },
    );
  });
});

describe('gamma races (Stern)', () => {
  test('shape 1 is Plackett-Luce; a fitted model gives back the win probabilities it was fitted to', () => {
    fc.assert(
      fc.property(fields, fc.integer({ min: 1, max: 6 }), (p, shape) => {
        const model = fitFinishingOrder(p, shape);
        const back = modelWinProbabilities(model);
        for (let i = 0; i < p.length; i++)
          close(back[i] as number, p[i] as number, 1e-7, `runner ${i}, shape ${shape}`);
        if (shape === 1) assert.deepEqual(model.strengths, plackettLuceModel(p).strengths);
      }),
      { numRuns: 20 },
    );
  });

  test('simulated winners match the fitted probabilities; a larger shape moves second places from the favourite to outsiders', () => {
    const rng = new Random(3);
    const p = [0.35, 0.25, 0.15, 0.1, 0.08, 0.07];
    const second = (shape: number) => {
      const positions = positionProbabilities(
        simulateFinishingOrders(fitFinishingOrder(p, shape), 80_000, () => rng.next()),
        p.length,
      );
      for (let i = 0; i < p.length; i++)
        close(
          positions[i]?.[0] as number,
          p[i] as number,
          5 * Math.sqrt(((p[i] as number) * (1 - (p[i] as number))) / 80_000),
          `shape ${shape} win ${i}`,
        );
      return positions.map((row) => row[1] as number);
    };
    const pl = second(1);
    const gamma = second(6);
    // Harville's (Plackett-Luce) places overrate favourites and underrate outsiders (Stern 1990;
    // Lo and Bacon-Shone 1994): gamma races with the same win probabilities move second places the
    // other way.
    assert.ok((gamma[0] as number) < (pl[0] as number), `favourite second: ${gamma[0]} vs ${pl[0]}`);
    assert.ok((gamma[5] as number) > (pl[5] as number), `outsider second: ${gamma[5]} vs ${pl[5]}`);
  });
});
