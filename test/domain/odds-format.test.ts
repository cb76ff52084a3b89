import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  americanToDecimal,
  decimalToAmerican,
  decimalToProbability,
  probabilityToDecimal,
} from '../../src/domain/odds-format.ts';

describe('odds formats', () => {
  test('convert as sportsbooks do', () => {
    const table: Array<[number, number]> = [
      [2, 100],
      [3.5, 250],
      [1.5, -200],
      [1.9091, -110],
      [11, 1000],
    ];
    for (const [decimal, american] of table) {
      assert.equal(decimalToAmerican(decimal), american, String(decimal));
      assert.ok(Math.abs(americanToDecimal(american) - decimal) < 0.0001, String(american));
    }
    assert.equal(decimalToProbability(4), 25);
    assert.equal(probabilityToDecimal(25), 4);
    assert.throws(() => decimalToAmerican(1));
    assert.throws(() => americanToDecimal(50));
    assert.throws(() => probabilityToDecimal(0));
  });

  test('American and decimal odds round-trip within rounding', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.01, max: 1000, noNaN: true }), (decimal) => {
        const back = americanToDecimal(decimalToAmerican(decimal));
        // American odds are whole numbers: the round trip is exact to within one American point.
        const slack = decimal >= 2 ? 0.01 : (decimal - 1) ** 2 / 100 + 0.0001;
        assert.ok(Math.abs(back - decimal) <= slack + 1e-9, `${decimal} -> ${back}`);
      }),
    );
  });
});
