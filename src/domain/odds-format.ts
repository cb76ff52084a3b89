/**
 * Price conversions. The store keeps decimal odds; American odds and implied probability are derived.
 * Probabilities are published as percentages (49.4 means 49.4%), per DESIGN decision 7.
 */

/** The longest decimal odds a feed may carry and the engine will quote. */
export const MAX_DECIMAL_ODDS = 100_000;

export function decimalToAmerican(decimal: number): number {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  const american = decimal >= 2 ? (decimal - 1) * 100 : -100 / (decimal - 1);
  return Math.round(american);
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
 * The formats a price is published in on request (`oddsFormat`, issue 28): what sportsbooks, media
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
 * Decimal odds in `format`, rounded as the format's convention is: American whole numbers, fractional
 * a reduced "p/q" string, Hong Kong, Malay and Indonesian to two places, probability as the
 * `probability` field. Null for a value that is no price (decimal odds of 1 or less).
 */
export function formatPrice(decimal: number, format: OddsFormat): number | string | null {
  if (!(decimal > 1) || !Number.isFinite(decimal)) return null;
  switch (format) {
    case 'decimal':
      return decimal;
    case 'american':
      return decimalToAmerican(decimal);
    case 'fractional':
      return decimalToFractional(decimal);
    case 'hongkong':
      return decimalToHongKong(decimal);
    case 'malay':
      return decimalToMalay(decimal);
    case 'indonesian':
      return decimalToIndonesian(decimal);
    case 'probability':
      return decimalToProbability(decimal);
  }
}

/** Fractions are read at a glance only with small denominators: the simplest within this share of the profit. */
const FRACTION_TOLERANCE = 0.005;
const MAX_DENOMINATOR = 100;

/**
 * Fractional odds (the profit per unit staked, as "p/q"): the fraction with the smallest denominator up
 * to 100 within 0.5% of the profit (1.9091 is "10/11", 1.8333 "5/6"), else the exact four-place
 * fraction, reduced.
 */
export function decimalToFractional(decimal: number): string {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  const profit = decimal - 1;
  for (let q = 1; q <= MAX_DENOMINATOR; q++) {
    const p = Math.round(profit * q);
    if (p >= 1 && Math.abs(p / q - profit) <= FRACTION_TOLERANCE * profit) return reduced(p, q);
  }
  return reduced(Math.max(1, Math.round(profit * 10_000)), 10_000);
}

function reduced(p: number, q: number): string {
  const divisor = gcd(p, q);
  return `${p / divisor}/${q / divisor}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Hong Kong odds: the profit per unit staked, to two places. */
export function decimalToHongKong(decimal: number): number {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  return roundTo(decimal - 1, 2);
}

/** Malay odds: the profit per unit staked up to evens (0 to 1); beyond it, minus the stake per unit of profit (-1 to 0). */
export function decimalToMalay(decimal: number): number {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  return roundTo(decimal <= 2 ? decimal - 1 : -1 / (decimal - 1), 2) || 0;
}

/** Indonesian odds: the profit per unit staked from evens (1 and up); below it, minus the stake per unit of profit (-1 and down). */
export function decimalToIndonesian(decimal: number): number {
  if (!(decimal > 1)) throw new RangeError(`decimal odds must be greater than 1, got ${decimal}`);
  return roundTo(decimal >= 2 ? decimal - 1 : -1 / (decimal - 1), 2);
}
