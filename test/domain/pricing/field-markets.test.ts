import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  fitFinishingOrder,
  plackettLuceHeadToHead,
  plackettLuceSequence,
  simulateFinishingOrders,
} from '../../../src/domain/pricing/finishing-order.ts';
import { Random } from '../../../src/domain/random.ts';
import { close } from '../../helpers/close.ts';
import { FieldMarkets } from '../../helpers/field-markets.ts';

describe('field markets from one set of finishing orders', () => {
  test('walks a hand-made set of orders', () => {
    // Three samples of runners 0, 1, 2.
    const markets = new FieldMarkets(Int32Array.from([0, 1, 2, 1, 0, 2, 0, 2, 1]), 3);
    close(markets.win(0), 2 / 3, 1e-12, 'win 0');
    close(markets.place(2, 2), 1 / 3, 1e-12, 'runner 2 second');
    close(markets.top(1, 2), 2 / 3, 1e-12, 'runner 1 top 2');
    close(markets.headToHead(1, 2), 2 / 3, 1e-12, '1 ahead of 2');
    close(markets.sequence([0, 1]), 1 / 3, 1e-12, 'exacta 0-1');
    close(markets.sequence([0, 2, 1]), 1 / 3, 1e-12, 'trifecta 0-2-1');
    assert.equal(markets.sequence([0, 0]), 0);
    assert.deepEqual(markets.finishingPosition(2, 1.5), { over: 1, under: 0 });
    close(markets.finishingPosition(2, 2.5).under, 1 / 3, 1e-12, 'runner 2 under 2.5');
    assert.throws(() => markets.finishingPosition(2, 2), /half/);
    assert.throws(() => markets.headToHead(1, 1), /two runners/);
    assert.throws(() => new FieldMarkets(Int32Array.from([0, 1, 2]), 2), /whole finishing orders/);
  });

  test('markets are coherent: winners sum to 1, top k to k, head-to-head sides to 1, top 3 at least the win', () => {
    const rng = new Random(17);
    const fields = fc.array(fc.double({ min: 0.2, max: 5, noNaN: true }), { minLength: 3, maxLength: 10 });
    fc.assert(
      fc.property(fields, fc.integer({ min: 1, max: 4 }), (raw, shape) => {
        const n = raw.length;
        const markets = new FieldMarkets(
          simulateFinishingOrders(fitFinishingOrder(raw, shape), 2_000, () => rng.next()),
          n,
        );
        for (const k of [1, 3, 5]) {
          let total = 0;
          for (let i = 0; i < n; i++) total += markets.top(i, k);
          close(total, Math.min(k, n), 1e-9, `top ${k}`);
        }
        for (let i = 0; i < n; i++) {
          assert.ok(markets.top(i, 3) >= markets.win(i));
          const line = markets.finishingPosition(i, 2.5);
          close(line.over + line.under, 1, 1e-12, 'over/under');
          for (let j = 0; j < n; j++)
            if (j !== i) close(markets.headToHead(i, j) + markets.headToHead(j, i), 1, 1e-12, 'sides');
        }
      }),
      { numRuns: 30, seed: 7 },
    );
  });

  test('under Plackett-Luce, sampled exactas, trifectas and head-to-heads match the closed forms', () => {
    const rng = new Random(23);
    const p = [0.3, 0.22, 0.16, 0.12, 0.08, 0.06, 0.04, 0.02];
    const samples = 100_000;
    const markets = new FieldMarkets(
      simulateFinishingOrders(fitFinishingOrder(p, 1), samples, () => rng.next()),
      p.length,
    );
    const within = (q: number) => 5 * Math.sqrt((q * (1 - q)) / samples);
    for (const sequence of [
      [0, 1],
      [1, 0],
      [2, 5],
      [0, 1, 2],
      [3, 0, 7],
      [0, 1, 2, 3],
    ]) {
      const expected = plackettLuceSequence(p, sequence);
      close(markets.sequence(sequence), expected, within(expected), `sequence ${sequence.join('-')}`);
    }
    for (const [a, b] of [
      [0, 1],
      [2, 7],
      [5, 6],
    ] as const) {
      const expected = plackettLuceHeadToHead(p, a, b);
      close(markets.headToHead(a, b), expected, within(expected), `${a} ahead of ${b}`);
    }
  });
});
