import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { applyMargin, MARGIN_METHODS, maxPriced } from '../../../src/domain/pricing/margin.ts';
import { priceMarket } from '../../../src/domain/pricing/market-generator.ts';
import {
  DEFAULT_PRICE_POLICY,
  PRICE_LADDERS,
  type PriceLadder,
  type PricePolicy,
  publishedPrice,
} from '../../../src/domain/pricing/published-price.ts';

const policy = (ladder: PriceLadder, minDecimalOdds = 1.01, maxDecimalOdds = 1000): PricePolicy => ({
  minDecimalOdds,
  maxDecimalOdds,
  ladder,
});

/** Whether `odds` pays at most what `probability` (percent, four places) implies, in whole numbers where they are. */
function withinProbability(odds: number, probability: number): boolean {
  const cents = Math.round(odds * 100);
  const units = Math.round(probability * 10_000);
  return Math.abs(cents - odds * 100) < 1e-6 ? cents * units <= 100_000_000 : odds <= 100 / probability;
}

describe('the published price', () => {
  test('as a table: two decimals, the exchange ladder, full precision; the bounds at their own probability', () => {
    const table: Array<[number, PriceLadder, { odds: number; probability: number }]> = [
      // 1/p = 6.82410...: down to the cent (the measured 6.8241 is published 6.82).
      [1 / 6.8241, 'decimal2', { odds: 6.82, probability: 14.654 }],
      [1 / 6.8241, 'exchange', { odds: 6.8, probability: 14.654 }],
      [1 / 6.8241, 'off', { odds: 100 / 14.654, probability: 14.654 }],
      // 1/p = 7.0537: decimal 7.05, the exchange's 7.0.
      [1 / 7.0537, 'decimal2', { odds: 7.05, probability: 14.177 }],
      [1 / 7.0537, 'exchange', { odds: 7, probability: 14.177 }],
      // Exactly on a step: stays there.
      [0.125, 'decimal2', { odds: 8, probability: 12.5 }],
      [0.125, 'exchange', { odds: 8, probability: 12.5 }],
      [0.5, 'exchange', { odds: 2, probability: 50 }],
      // 1/p = 1.567: the exchange steps by 0.01 below 2.
      [1 / 1.567, 'decimal2', { odds: 1.56, probability: 63.8163 }],
      [1 / 1.567, 'exchange', { odds: 1.56, probability: 63.8163 }],
      // 1/p = 3497.15, the measured outsider: at the cap, at the cap's probability.
      [1 / 3497.15, 'decimal2', { odds: 1000, probability: 0.1 }],
      [1 / 3497.15, 'exchange', { odds: 1000, probability: 0.1 }],
      [1 / 3497.15, 'off', { odds: 1000, probability: 0.1 }],
      // 1/p = 4,829,156 (the measured parlay): the cap, never probability 0.
      [1 / 4_829_156, 'decimal2', { odds: 1000, probability: 0.1 }],
      // 1/p = 201.08: the probability up to four places (0.4973... to 0.4974) shortens it to 201.04.
      [1 / 201.08, 'decimal2', { odds: 201.04, probability: 0.4974 }],
      [1 / 201.08, 'exchange', { odds: 200, probability: 0.4974 }],
      // Likelier than the shortest odds: the shortest, at their probability.
      [0.995, 'decimal2', { odds: 1.01, probability: 99.0099 }],
      [1 / 1.0001, 'exchange', { odds: 1.01, probability: 99.0099 }],
    ];
    for (const [p, ladder, expected] of table)
      assert.deepEqual(publishedPrice(p, policy(ladder)), expected, `${1 / p} on ${ladder}`);
    assert.deepEqual(publishedPrice(1 / 250, policy('decimal2', 1.05, 200)), { odds: 200, probability: 0.5 });
    assert.deepEqual(publishedPrice(0.97, policy('decimal2', 1.05, 200)), { odds: 1.05, probability: 95.238 });
    assert.throws(() => publishedPrice(0, DEFAULT_PRICE_POLICY), RangeError);
    assert.throws(() => publishedPrice(1, DEFAULT_PRICE_POLICY), RangeError);
  });

  const probabilities = fc.double({ min: 1e-9, max: 1 - 1e-9, noNaN: true });
  const policies = fc
    .record({
      ladder: fc.constantFrom(...PRICE_LADDERS),
      min: fc.double({ min: 1.001, max: 2, noNaN: true }),
      span: fc.double({ min: 1.01, max: 1000, noNaN: true }),
    })
    .map(({ ladder, min, span }) => policy(ladder, min, Math.min(100_000, min * span)));

  test('within the range, the probability never 0, the odds never paying more than it implies', () => {
    fc.assert(
      fc.property(probabilities, policies, (p, pricing) => {
        const { odds, probability } = publishedPrice(p, pricing);
        assert.ok(odds >= pricing.minDecimalOdds && odds <= pricing.maxDecimalOdds, `${odds}`);
        assert.ok(probability > 0 && probability < 100, `${probability}`);
        assert.ok(withinProbability(odds, probability), `${odds} at ${probability}%`);
        // Inside the range the probability is the model's, rounded up (towards the house) to four places.
        if (1 / p < pricing.maxDecimalOdds * 0.999 && 1 / p > pricing.minDecimalOdds * 1.001) {
          assert.ok(probability >= p * 100 - 1e-9 && probability - p * 100 < 1e-4 + 1e-9, `${p} -> ${probability}`);
          assert.ok(odds <= 1 / p + 1e-9, `${odds} pays more than the model's ${1 / p}`);
        }
      }),
    );
  });

  test('a longer chance is never published shorter (the price is monotone)', () => {
    fc.assert(
      fc.property(probabilities, probabilities, fc.constantFrom(...PRICE_LADDERS), (a, b, ladder) => {
        const [likely, unlikely] = a >= b ? [a, b] : [b, a];
        const pricing = policy(ladder);
        assert.ok(publishedPrice(likely, pricing).odds <= publishedPrice(unlikely, pricing).odds);
      }),
    );
  });

  test('two decimals and the exchange ladder: on their steps', () => {
    fc.assert(
      fc.property(probabilities, (p) => {
        const cents = publishedPrice(p, policy('decimal2')).odds * 100;
        assert.ok(Math.abs(cents - Math.round(cents)) < 1e-6, `${cents}`);
        const exchange = publishedPrice(p, policy('exchange')).odds;
        const step =
          exchange < 2 ? 1 : exchange < 3 ? 2 : exchange < 4 ? 5 : exchange < 6 ? 10 : exchange < 10 ? 20 : 0;
        if (step > 0) assert.ok(Math.abs((Math.round(exchange * 100) % step) - 0) < 1e-9, `${exchange}`);
      }),
    );
  });

  test("a generated market's book stays at or above its margin after rounding", () => {
    const fields = fc
      .array(fc.double({ min: 0.05, max: 1, noNaN: true }), { minLength: 2, maxLength: 30 })
      .map((w) => w.map((x) => x / w.reduce((a, b) => a + b, 0)));
    fc.assert(
      fc.property(
        fields,
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        fc.constantFrom(...MARGIN_METHODS),
        fc.constantFrom(...PRICE_LADDERS),
        (fair, overround, method, ladder) => {
          const pricing = policy(ladder);
          // An outcome likelier than the shortest odds allow is published at them, below its model
          // probability: the property is of the markets whose margined prices all lie in the range.
          const margined = applyMargin(fair, overround, method, 1);
          fc.pre(margined.every((q) => q < 1 / pricing.minDecimalOdds && 1 / q <= pricing.maxDecimalOdds));
          const prices = priceMarket(fair, overround, method, pricing);
          const book = prices.reduce((sum, price) => sum + price.probability, 0);
          const implied = prices.reduce((sum, price) => sum + 100 / price.odds, 0);
          const target = 100 * fair.reduce((a, b) => a + b, 0) * (1 + overround);
          assert.ok(book >= target - 1e-9, `book ${book} under ${target}`);
          assert.ok(implied >= book - 1e-9, `odds imply ${implied} under ${book}`);
          for (const price of prices)
            assert.ok(withinProbability(price.odds, price.probability), JSON.stringify(price));
        },
      ),
    );
  });

  test("the margin's cap is the shortest odds' probability", () => {
    assert.equal(maxPriced(DEFAULT_PRICE_POLICY.minDecimalOdds), 1 / 1.01);
    assert.equal(applyMargin([0.98, 0.02], 0.05, 'multiplicative', maxPriced(1.01))[0], 1 / 1.01);
  });
});
