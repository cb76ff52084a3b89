/**
 * Price conversions. The store keeps decimal odds; American odds and implied probability are derived.
 * Probabilities are published as percentages (49.4 means 49.4%), per DESIGN decision 7.
 */

/**
 * The longest decimal odds a feed may carry: a bound against absurd input. The engine's own prices stay
 * within MIN_DECIMAL_ODDS..MAX_DECIMAL_ODDS (domain/pricing/published-price.ts).
 */
export const MAX_DECIMAL_ODDS = 100_000;

/**
 * American odds of a price, rounded towards the house: a positive figure down, a negative
 * one up in magnitude, so that it never pays more than the decimal odds.
 */
export function decimalToAmerican(decimal: number): number {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  return decimal >= 2 ? floorTo((decimal - 1) * 100, 0) : -ceilTo(100 / (decimal - 1), 0);
}

export function americanToDecimal(american: number): number {
  if (!Number.isFinite(american) || Math.abs(american) < 100) {
    throw new RangeError(`American odds must be at most -100 or at least +100, got ${american}`);
  }
  const decimal = american > 0 ? 1 + american / 100 : 1 + 100 / -american;
  return roundTo(decimal, 4);
}

export function probabilityToDecimal(percent: number): number {
  if (!(percent > 0 && percent < 100))
    throw new RangeError(`probability must be between 0 and 100 percent, got ${percent}`);
  return roundTo(100 / percent, 4);
}

export function decimalToProbability(decimal: number): number {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  return roundTo(100 / decimal, 4);
}

export function roundTo(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

/**
 * The formats a price is published in on request (`oddsFormat`): what sportsbooks, media
 * sites and models of various regions read. `probability` is in percent, as the `probability` field.
 */
export const ODDS_FORMATS = [
  'decimal',
  'american',
  'fractional',
  'hongkong',
  'malay',
  'indonesian',
  'probability',
] as const;
export type OddsFormat = (typeof ODDS_FORMATS)[number];

/**
 * The exact price behind an item's decimal odds: the one its probability (percent) implies when it
 * carries one, never below the decimal shown (a fed price's probability is the decimal's, rounded).
 */
export function exactPrice(decimal: number, probability?: number | null): number {
  return probability ? Math.max(decimal, 100 / probability) : decimal;
}

/**
 * Decimal odds in `format`, each computed from the exact price and rounded so that the
 * payout it shows is at most the exact price's: American whole numbers, fractional from the
 * traditional ladder, Hong Kong, Malay and Indonesian to two places or as many as a small value needs,
 * probability as the `probability` field. Null for a value that is no price (decimal odds of 1 or less).
 */
export function formatPrice(decimal: number, format: OddsFormat, exact = decimal): number | string | null {
  if (!(decimal > 1) || !Number.isFinite(decimal)) return null;
  const price = Math.max(decimal, exact);
  switch (format) {
    case 'decimal':
      return decimal;
    case 'american':
      return decimalToAmerican(price);
    case 'fractional':
      return decimalToFractional(decimal, price);
    case 'hongkong':
      return decimalToHongKong(price);
    case 'malay':
      return decimalToMalay(price);
    case 'indonesian':
      return decimalToIndonesian(price);
    case 'probability':
      return roundTo(100 / price, 4);
  }
}

/**
 * The traditional fractional ladder, as British bookmakers print it (4/6 and 6/4 unreduced, as read).
 * Each is [numerator, denominator].
 */
// biome-ignore format: a ladder reads as a table
const FRACTION_LADDER: ReadonlyArray<readonly [number, number]> = [
  [1, 100], [1, 66], [1, 50], [1, 40], [1, 33], [1, 25], [1, 20], [1, 16], [1, 14], [1, 12], [1, 10], [1, 9],
  [1, 8], [1, 7], [2, 13], [1, 6], [2, 11], [1, 5], [2, 9], [1, 4], [2, 7], [3, 10], [1, 3], [4, 11], [2, 5],
  [4, 9], [1, 2], [8, 15], [4, 7], [8, 13], [4, 6], [8, 11], [4, 5], [5, 6], [10, 11], [1, 1], [11, 10], [6, 5],
  [5, 4], [11, 8], [6, 4], [13, 8], [7, 4], [15, 8], [2, 1], [9, 4], [5, 2], [11, 4], [3, 1], [10, 3], [7, 2],
  [4, 1], [9, 2], [5, 1], [11, 2], [6, 1], [13, 2], [7, 1], [15, 2], [8, 1], [17, 2], [9, 1], [10, 1], [11, 1],
  [12, 1], [14, 1], [16, 1], [18, 1], [20, 1], [22, 1], [25, 1], [28, 1], [33, 1], [40, 1], [50, 1], [66, 1],
  [80, 1], [100, 1], [125, 1], [150, 1], [200, 1], [250, 1], [300, 1], [400, 1], [500, 1], [750, 1], [1000, 1],
];
/** The ladder longest first: the first fraction at most a profit is the longest. */
const LADDER_DOWN = [...FRACTION_LADDER].reverse();

/**
 * Fractional odds (the profit per unit staked, as "p/q"): the longest fraction of the traditional ladder
 * that the decimal shows (to its own places: 10/11 is 1.91, and 1.9091) and that pays at most the exact
 * price, else the decimal's own profit as a reduced fraction, to four places at most and never more.
 */
export function decimalToFractional(decimal: number, exact = decimal): string {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  const most = Math.max(decimal, exact) - 1;
  const places = placesShown(decimal);
  const onLadder = LADDER_DOWN.find(([p, q]) => p * (1 - 1e-12) <= most * q);
  if (onLadder && roundTo(1 + onLadder[0] / onLadder[1], places) === roundTo(decimal, places))
    return `${onLadder[0]}/${onLadder[1]}`;
  return reduced(Math.max(1, floorTo((decimal - 1) * 10_000, 0)), 10_000);
}

/** The places a decimal price is shown to: as few as give it exactly, at most four. */
function placesShown(decimal: number): number {
  for (let places = 0; places < 4; places++) if (roundTo(decimal, places) === decimal) return places;
  return 4;
}

function reduced(p: number, q: number): string {
  const divisor = gcd(p, q);
  return `${p / divisor}/${q / divisor}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The places a figure is published to: two, or for a figure under 0.1 as many as three significant
 * figures need (a profit of 0.001 or a Malay -0.00497 is not 0).
 */
function placesOf(value: number): number {
  return value >= 0.1 ? 2 : 2 - Math.floor(Math.log10(value));
}

/** A payout figure rounded down: towards the house. */
function payoutDown(value: number): number {
  return floorTo(value, placesOf(value));
}

/** A stake per unit of profit rounded up: towards the house. */
function stakeUp(value: number): number {
  return ceilTo(value, placesOf(value));
}

/** Hong Kong odds: the profit per unit staked, rounded down (placesOf). */
export function decimalToHongKong(decimal: number): number {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  return payoutDown(decimal - 1);
}

/**
 * Malay odds: the profit per unit staked up to evens (0 to 1); beyond it, minus the stake per unit of
 * profit (-1 to 0). Never 0 (placesOf), rounded towards the house.
 */
export function decimalToMalay(decimal: number): number {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  return decimal <= 2 ? payoutDown(decimal - 1) : -stakeUp(1 / (decimal - 1));
}

/** Indonesian odds: the profit per unit staked from evens (1 and up); below it, minus the stake per unit of profit (-1 and down). */
export function decimalToIndonesian(decimal: number): number {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  return decimal >= 2 ? payoutDown(decimal - 1) : -stakeUp(1 / (decimal - 1));
}

/**
 * Rounding towards the house. A product such as 2.07 x 100 comes out a hair under 207: a relative
 * 10^-12 is forgiven before rounding: the float error of a price such as 1.001 (whose profit 0.001 is off by a relative 10^-13), far below any price's own precision.
 */
function floorTo(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.floor(value * factor * (1 + 1e-12)) / factor;
}

function ceilTo(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.ceil(value * factor * (1 - 1e-12)) / factor;
}
