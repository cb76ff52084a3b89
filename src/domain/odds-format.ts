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
