import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  americanToDecimal,
  decimalToAmerican,
  decimalToProbability,
  exactPrice,
  formatPrice,
  MAX_DECIMAL_ODDS,
  ODDS_FORMATS,
  type OddsFormat,
  probabilityToDecimal,
} from '../../src/domain/odds-format.ts';
import { PRICE_LADDERS, publishedPrice } from '../../src/domain/pricing/published-price.ts';

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

describe('odds formats on request (oddsFormat)', () => {
  test('each format as a table', () => {
    const table: Array<[number, Record<OddsFormat, number | string>]> = [
      [2, { decimal: 2, american: 100, fractional: '1/1', hongkong: 1, malay: 1, indonesian: 1, probability: 50 }],
      [
        3.5,
        {
          decimal: 3.5,
          american: 250,
          fractional: '5/2',
          hongkong: 2.5,
          malay: -0.4,
          indonesian: 2.5,
          probability: 28.5714,
        },
      ],
      [
        1.5,
        {
          decimal: 1.5,
          american: -200,
          fractional: '1/2',
          hongkong: 0.5,
          malay: 0.5,
          indonesian: -2,
          probability: 66.6667,
        },
      ],
      [
        1.9091,
        {
          decimal: 1.9091,
          american: -110,
          fractional: '10/11',
          // Rounded down: 0.91 would pay more than 1.9091.
          hongkong: 0.9,
          malay: 0.9,
          indonesian: -1.1,
          probability: 52.3807,
        },
      ],
      [
        1.8333,
        {
          decimal: 1.8333,
          // Towards the house: -120 and 5/6 (1.83333) would pay more than 1.8333.
          american: -121,
          fractional: '8333/10000',
          hongkong: 0.83,
          malay: 0.83,
          indonesian: -1.21,
          probability: 54.5464,
        },
      ],
      [
        11,
        {
          decimal: 11,
          american: 1000,
          fractional: '10/1',
          hongkong: 10,
          malay: -0.1,
          indonesian: 10,
          probability: 9.0909,
        },
      ],
      [
        1.001,
        {
          decimal: 1.001,
          american: -100000,
          fractional: '1/1000',
          // Never 0: as many places as the figure needs.
          hongkong: 0.001,
          malay: 0.001,
          indonesian: -1000,
          probability: 99.9001,
        },
      ],
    ];
    for (const [decimal, expected] of table)
      for (const format of ODDS_FORMATS)
        assert.equal(formatPrice(decimal, format), expected[format], `${decimal} ${format}`);
    for (const format of ODDS_FORMATS) {
      assert.equal(formatPrice(1, format), null);
      assert.equal(formatPrice(0, format), null);
    }
  });

  const decimals = fc.double({ min: 1.0001, max: MAX_DECIMAL_ODDS, noNaN: true });

  test("fractional odds are reduced (but the ladder's 4/6 and 6/4, printed as read), and within half a percent of the profit (or exact to four places)", () => {
    fc.assert(
      fc.property(decimals, (decimal) => {
        const fraction = formatPrice(decimal, 'fractional') as string;
        const [p, q] = fraction.split('/').map(Number) as [number, number];
        assert.ok(Number.isInteger(p) && Number.isInteger(q) && p >= 1 && q >= 1);
        const divisor = (a: number, b: number): number => (b === 0 ? a : divisor(b, a % b));
        if (fraction !== '4/6' && fraction !== '6/4') assert.equal(divisor(p, q), 1, fraction);
        const profit = decimal - 1;
        assert.ok(Math.abs(p / q - profit) <= Math.max(0.005 * profit, 0.00005 + 1e-12), `${decimal} -> ${p}/${q}`);
      }),
      // Evens and the two rungs printed unreduced, which a random double rarely lands on.
      { examples: [[5 / 3], [2.5], [2]] },
    );
  });

  test('Hong Kong, Malay and Indonesian agree with each other and with the decimal price', () => {
    fc.assert(
      fc.property(decimals, (decimal) => {
        const hk = formatPrice(decimal, 'hongkong') as number;
        const malay = formatPrice(decimal, 'malay') as number;
        const indonesian = formatPrice(decimal, 'indonesian') as number;
        // Rounded down: never above the profit, less than a cent under it.
        assert.ok(hk <= (decimal - 1) * (1 + 1e-9) && decimal - 1 - hk < 0.01, `hongkong ${hk}`);
        assert.ok(malay >= -1 && malay <= 1, `malay ${malay}`);
        // Positive Malay and Indonesian odds are the Hong Kong odds; the negative ones are the other side of evens.
        if (malay > 0) assert.equal(malay, hk);
        if (indonesian >= 1) assert.equal(indonesian, hk);
        assert.ok(indonesian >= 1 || indonesian <= -1, `indonesian ${indonesian}`);
      }),
    );
  });

  test('every format orders prices as decimal odds do (a longer price is never shown shorter)', () => {
    const value = (format: OddsFormat, decimal: number) => {
      const price = formatPrice(decimal, format) as number | string;
      if (format === 'fractional') {
        const [p, q] = (price as string).split('/').map(Number) as [number, number];
        return p / q;
      }
      // Each back to the profit per unit staked.
      const n = price as number;
      if (format === 'malay') return n >= 0 ? n : -1 / n;
      if (format === 'indonesian') return n >= 1 ? n : -1 / n;
      if (format === 'american') return n > 0 ? n / 100 : 100 / -n;
      if (format === 'probability') return -(price as number);
      return price as number;
    };
    fc.assert(
      fc.property(decimals, decimals, (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        // Malay 0 (to two places) is either end of the range: it orders nothing.
        for (const format of ODDS_FORMATS)
          if (
            format !== 'fractional' &&
            !(format === 'malay' && (formatPrice(low, format) === 0 || formatPrice(high, format) === 0))
          )
            assert.ok(value(format, low) <= value(format, high) + 1e-9, `${format} ${low} ${high}`);
      }),
    );
  });
});

/** The profit per unit staked a format's price shows; NaN for a Malay 0, which shows none. */
function shownProfit(format: Exclude<OddsFormat, 'probability'>, price: number | string): number {
  const n = Number(price);
  if (format === 'fractional') {
    const [p, q] = String(price).split('/').map(Number) as [number, number];
    return p / q;
  }
  if (format === 'american') return n > 0 ? n / 100 : 100 / -n;
  if (format === 'malay') return n > 0 ? n : n < 0 ? 1 / -n : Number.NaN;
  if (format === 'indonesian') return n >= 1 ? n : 1 / -n;
  return format === 'decimal' ? n - 1 : n;
}

describe('rounding towards the house (measured)', () => {
  const PAYING = ['decimal', 'american', 'fractional', 'hongkong', 'malay', 'indonesian'] as const;

  test('the measured prices: no format pays more than the decimal, Malay is never 0', () => {
    const table: Array<[number, Exclude<OddsFormat, 'probability'>]> = [
      [7.0537, 'fractional'],
      [201.08, 'malay'],
      [1.001, 'malay'],
      [68.505, 'malay'],
      [2.07, 'american'],
      [1.9091, 'american'],
      [3.4567, 'hongkong'],
      [1.4567, 'indonesian'],
    ];
    for (const [decimal, format] of table) {
      const profit = shownProfit(format, formatPrice(decimal, format) as number | string);
      assert.ok(profit > 0 && profit <= decimal - 1 + 1e-9, `${decimal} ${format}: ${formatPrice(decimal, format)}`);
    }
  });

  test('for random prices, every format pays at most the decimal and shows a payout', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.0001, max: 1000, noNaN: true }), (decimal) => {
        for (const format of PAYING) {
          const price = formatPrice(decimal, format) as number | string;
          const profit = shownProfit(format, price);
          assert.ok(profit > 0 && profit <= decimal - 1 + 1e-9, `${decimal} ${format}: ${price}`);
        }
      }),
    );
  });
});

describe('formats of a published price, from its exact price', () => {
  test('as a table: a published decimal with the exact price its probability implies', () => {
    const table: Array<[number, number, Partial<Record<OddsFormat, number | string>>]> = [
      // 4/7 is 1.5714...: shown as 1.57 and paying no more than the exact 1.5715.
      [1.57, 1.5715, { fractional: '4/7', american: -175, hongkong: 0.57, malay: 0.57, indonesian: -1.75 }],
      // 4/7 would pay more than an exact 1.5714: the decimal's own fraction.
      [1.57, 1.5714, { fractional: '57/100' }],
      [1.91, 1.9123, { fractional: '10/11', american: -110, hongkong: 0.91 }],
      [1.56, 1.567, { fractional: '14/25', american: -177 }],
      [2.5, 2.5049, { fractional: '6/4', american: 150, malay: -0.67, indonesian: 1.5 }],
      [6.82, 6.8241, { fractional: '291/50', american: 582, hongkong: 5.82, malay: -0.18 }],
      [1000, 1000, { fractional: '999/1', american: 99900, malay: -0.00101, probability: 0.1 }],
      [201.04, 100 / 0.4974, { american: 20004, hongkong: 200.04, malay: -0.005 }],
      [67.11, 100 / 1.49, { american: 6611, malay: -0.0152 }],
      [1.01, 100 / 99.0099, { fractional: '1/100', american: -10000, hongkong: 0.01, malay: 0.01 }],
    ];
    for (const [decimal, exact, expected] of table)
      for (const [format, value] of Object.entries(expected))
        assert.equal(formatPrice(decimal, format as OddsFormat, exact), value, `${decimal} (${exact}) ${format}`);
  });

  test('for random model probabilities on every ladder, no format pays more than the exact price', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-7, max: 1 - 1e-7, noNaN: true }),
        fc.constantFrom(...PRICE_LADDERS),
        (p, ladder) => {
          const { odds, probability } = publishedPrice(p, { minDecimalOdds: 1.01, maxDecimalOdds: 1000, ladder });
          const exact = exactPrice(odds, probability);
          for (const format of ['decimal', 'american', 'fractional', 'hongkong', 'malay', 'indonesian'] as const) {
            const price = formatPrice(odds, format, exact) as number | string;
            const profit = shownProfit(format, price);
            assert.ok(profit > 0 && profit <= (exact - 1) * (1 + 1e-9), `${odds} (${exact}) ${format}: ${price}`);
          }
          assert.equal(formatPrice(odds, 'probability', exact), probability);
        },
      ),
    );
  });
});
