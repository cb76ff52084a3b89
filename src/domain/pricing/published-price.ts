/**
 * The price a bookmaker publishes for a model probability: within one configured range,
 * on a ladder of prices bettors know, rounded towards the house, beside the probability it came from.
 */

/** How decimal odds are stepped: two decimals as B2B feeds publish them, the exchange ladder, or not at all. */
export const PRICE_LADDERS = ['decimal2', 'exchange', 'off'] as const;
export type PriceLadder = (typeof PRICE_LADDERS)[number];

export interface PricePolicy {
  /** The shortest odds published; a likelier outcome is quoted here, at this price's probability. */
  minDecimalOdds: number;
  /** The longest odds published; a longer shot is quoted here, at this price's probability. */
  maxDecimalOdds: number;
  ladder: PriceLadder;
}

/** The exchange ladder's top: the defaults stop where its steps do. */
export const DEFAULT_PRICE_POLICY: PricePolicy = { minDecimalOdds: 1.01, maxDecimalOdds: 1000, ladder: 'decimal2' };

export interface PublishedPrice {
  /** Decimal odds as published. */
  odds: number;
  /** The model's probability in percent (margin included), to four places, never 0. */
  probability: number;
}

/** Probabilities are published in percent to four places: 10,000 units a percentage point. */
const UNITS_PER_PERCENT = 10_000;
/** 100 / probability in cents is 10^8 / units: whole numbers, so no float error decides a price. */
const CENTS_TIMES_UNITS = 100 * 100 * UNITS_PER_PERCENT;

/** The common exchange ladder: [from, to) in cents, step in cents; the last step goes on past 1000. */
const EXCHANGE_BANDS: ReadonlyArray<readonly [number, number, number]> = [
  [101, 200, 1],
  [200, 300, 2],
  [300, 400, 5],
  [400, 600, 10],
  [600, 1000, 20],
  [1000, 2000, 50],
  [2000, 3000, 100],
  [3000, 5000, 200],
  [5000, 10_000, 500],
  [10_000, Number.POSITIVE_INFINITY, 1000],
];

/**
 * The published price of an outcome whose model probability (0 to 1, margin included) is `p`. The
 * probability is rounded up to four places in percent (towards the house: a shorter price), and the
 * odds are the ladder's longest step at or below 100 / that probability, so that the odds never pay
 * more than the published probability implies. Beyond the range, the bound and its own probability.
 */
export function publishedPrice(p: number, policy: PricePolicy): PublishedPrice {
  if (!(p > 0 && p < 1)) throw new RangeError(`a probability must be strictly between 0 and 1, got ${p}`);
  const { minDecimalOdds: min, maxDecimalOdds: max } = policy;
  // A hair under the product first: 12.5% must stay 125,000 units, not become 125,001 by float error.
  const units = Math.ceil(p * 100 * UNITS_PER_PERCENT * (1 - 1e-12));
  const exactOdds = (100 * UNITS_PER_PERCENT) / units;
  if (exactOdds > max) return atBound(max);
  if (exactOdds < min) return atBound(min);
  const probability = units / UNITS_PER_PERCENT;
  const odds = policy.ladder === 'off' ? 100 / probability : onLadder(Math.floor(CENTS_TIMES_UNITS / units), policy);
  return { odds: Math.max(min, odds), probability };
}

/** A bound of the range as a price: its probability rounded down, so that the bound pays no more than it implies. */
function atBound(odds: number): PublishedPrice {
  return { odds, probability: Math.floor((100 / odds) * UNITS_PER_PERCENT * (1 + 1e-12)) / UNITS_PER_PERCENT };
}

/** Odds in cents down to the policy's ladder, as decimal odds. */
function onLadder(cents: number, policy: PricePolicy): number {
  if (policy.ladder === 'decimal2') return cents / 100;
  const band = EXCHANGE_BANDS.find(([from, to]) => cents >= from && cents < to);
  if (!band) return policy.minDecimalOdds;
  const [from, , step] = band;
  return (from + Math.floor((cents - from) / step) * step) / 100;
}
