import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { applyMargin, MARGIN_METHODS, MAX_PRICED, removePowerMargin } from '../../../src/domain/pricing/margin.ts';

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

describe('margin', () => {
  test('walks each method on a known market', () => {
    assert.deepEqual(applyMargin([0.5, 0.3, 0.2], 0, 'power'), [0.5, 0.3, 0.2]);
    const multiplied = applyMargin([0.5, 0.3, 0.2], 0.1, 'multiplicative');
    multiplied.forEach((q, i) => {
      assert.ok(Math.abs(q - [0.55, 0.33, 0.22][i]!) < 1e-12);
    });
    const powered = applyMargin([0.5, 0.3, 0.2], 0.1, 'power');
    assert.ok(Math.abs(sum(powered) - 1.1) < 1e-9);
    // The long shot carries more of the margin than the favourite.
    assert.ok(powered[2]! / 0.2 > powered[0]! / 0.5);
    assert.equal(applyMargin([0.9, 0.1], 0.2, 'multiplicative')[0], MAX_PRICED);
    assert.throws(() => applyMargin([0.5, 0.5], -0.1, 'power'), /overround/);
    assert.throws(() => applyMargin([1, 0], 0.1, 'power'), /strictly between/);
    assert.throws(() => applyMargin([0.64, 0.9], 0.3, 'power'), /too large/);
  });

  test('a market keeps its order and reaches its total raised by the overround (several winners too)', () => {
    const market = fc.array(fc.double({ min: 0.01, max: 0.9, noNaN: true }), { minLength: 2, maxLength: 20 });
    fc.assert(
      fc.property(
        market,
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        fc.constantFrom(...MARGIN_METHODS),
        (fair, overround, method) => {
          // A book can be raised at most to one per outcome; past that applyMargin refuses (see above).
          fc.pre(sum(fair) * (1 + overround) < fair.length - 1e-9);
          const priced = applyMargin(fair, overround, method);
          for (let i = 0; i < fair.length; i++) {
            assert.ok(priced[i]! >= fair[i]! - 1e-12 && priced[i]! < 1);
            for (let j = 0; j < fair.length; j++) if (fair[i]! < fair[j]!) assert.ok(priced[i]! <= priced[j]! + 1e-12);
          }
          if (method === 'power' || priced.every((q) => q < MAX_PRICED))
            assert.ok(Math.abs(sum(priced) - sum(fair) * (1 + overround)) < 1e-6);
        },
      ),
    );
  });

  test('removePowerMargin undoes the power method exactly, and leaves a fair book as it is', () => {
    const close = (a: readonly number[], b: readonly number[], tolerance: number) =>
      a.forEach((x, i) => {
        assert.ok(Math.abs(x - (b[i] as number)) < tolerance, `${x} vs ${b[i]}`);
      });
    close(removePowerMargin([0.3, 0.7]), [0.3, 0.7], 1e-12);
    close(removePowerMargin([0.25, 0.25]), [0.5, 0.5], 1e-12);
    assert.throws(() => removePowerMargin([0, 0.9]), /strictly between/);
    const single = fc
      .array(fc.double({ min: 0.02, max: 0.9, noNaN: true }), { minLength: 2, maxLength: 12 })
      .map((ws) => ws.map((w) => w / sum(ws)));
    fc.assert(
      fc.property(single, fc.double({ min: 0, max: 0.25, noNaN: true }), (fair, overround) => {
        fc.pre(fair.every((p) => p > 0.005 && p < 0.99));
        close(removePowerMargin(applyMargin(fair, overround, 'power')), fair, 1e-7);
      }),
    );
  });
});
