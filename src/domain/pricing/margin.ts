/**
 * Margin (overround) on fair probabilities, so that a market's priced probabilities sum to more than
 * its fair ones. Two documented methods:
 * - `multiplicative`: every probability times (1 + overround). Simple and proportional; a price on a
 *   heavy favourite can reach certainty, so each is held below `MAX_PRICED`.
 * - `power`: q_i = p_i^c with c < 1 chosen so that Σ q = (Σ p)(1 + overround). Long shots carry more
 *   of the margin than favourites, as bookmakers' prices do (the favourite-longshot bias).
 * A market with several winners (top 3: Σ p = 3) keeps its own total, raised by the overround.
 */

export const MARGIN_METHODS = ['multiplicative', 'power'] as const;
export type MarginMethod = (typeof MARGIN_METHODS)[number];

/**
 * The most a margined probability may be: the default price range's shortest odds (1.01). A likelier
 * price would be published at the shortest odds with their probability, below the model's, and the
 * book would fall under its margin; `maxPriced` gives the cap of another range.
 */
export const MAX_PRICED = 1 / 1.01;

/** The cap of margined probabilities for a range whose shortest odds are `minDecimalOdds`. */
export function maxPriced(minDecimalOdds: number): number {
  return 1 / minDecimalOdds;
}

export function applyMargin(
  fair: readonly number[],
  overround: number,
  method: MarginMethod,
  cap = MAX_PRICED,
): number[] {
  if (!(overround >= 0) || overround > 1) throw new RangeError('overround must be from 0 to 1');
  if (fair.some((p) => !(p > 0 && p < 1))) throw new RangeError('fair probabilities must be strictly between 0 and 1');
  if (overround === 0) return fair.slice();
  const target = fair.reduce((a, b) => a + b, 0) * (1 + overround);
  if (method === 'multiplicative') return fair.map((p) => Math.min(cap, p * (1 + overround)));
  // Σ p^c falls as c rises (every p < 1); bisect c in (0, 1] for the target.
  const total = (c: number) => {
    let sum = 0;
    for (const p of fair) sum += p ** c;
    return sum;
  };
  if (total(0) <= target) throw new RangeError('the overround is too large for this market');
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    // Adjacent doubles: no later step can move either end.
    if (mid === lo || mid === hi) break;
    if (total(mid) > target) lo = mid;
    else hi = mid;
  }
  const c = (lo + hi) / 2;
  return fair.map((p) => p ** c);
}

/**
 * The fair probabilities behind a single-winner market's implied ones (1 / decimal odds), taking the
 * power method's margin out: p_i = q_i^k with k >= 1 chosen so that they sum to 1. Proportional
 * normalisation would pull favourites toward evens whenever the margin was applied by power.
 */
export function removePowerMargin(implied: readonly number[]): number[] {
  if (implied.some((q) => !(q > 0 && q < 1)))
    throw new RangeError('implied probabilities must be strictly between 0 and 1');
  const total = (k: number) => implied.reduce((sum, q) => sum + q ** k, 0);
  if (total(1) <= 1) return implied.map((q) => q / total(1));
  let lo = 1;
  let hi = 2;
  while (total(hi) > 1) hi *= 2;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (total(mid) > 1) lo = mid;
    else hi = mid;
  }
  const k = (lo + hi) / 2;
  return implied.map((q) => q ** k);
}
