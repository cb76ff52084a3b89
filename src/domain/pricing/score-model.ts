/**
 * Score model for head-to-head contests (team games such as arena soccer, lacrosse, 3-on-3 hockey
 * and table tennis; fights; battles): the home and away scores are independent Poisson counts with
 * rates `home` and `away`. This is the Maher (1982) / Dixon-Coles (1997) model without Dixon and
 * Coles's low-score correction (their τ factor on 0-0, 1-0, 0-1 and 1-1), so low-scoring draws come
 * out a little rarer than in soccer-like data.
 *
 * Probabilities are exact sums of the Poisson pmfs up to a cutoff above which a side's tail is below
 * `TAIL` (1e-12). The total is Poisson(home + away); the margin home - away is Skellam, summed here.
 *
 * Pure: randomness comes in as a `uniform` function returning numbers in [0, 1).
 */

export interface ScoreModel {
  /** Expected home score (Poisson rate). */
  home: number;
  /** Expected away score (Poisson rate). */
  away: number;
}

export interface OutcomeProbabilities {
  homeWin: number;
  draw: number;
  awayWin: number;
}

export interface TotalLineProbabilities {
  /** P(home + away > line). */
  over: number;
  /** P(home + away < line). */
  under: number;
  /** P(home + away = line): zero unless the line is a whole number. */
  push: number;
}

export interface HandicapProbabilities {
  /** P(home - away + line > 0): the home side covers. */
  home: number;
  /** P(home - away + line < 0): the away side covers. */
  away: number;
  /** P(home - away + line = 0): zero unless the line is a whole number. */
  push: number;
}

/** Mass a side may leave above its table's cutoff. */
export const TAIL = 1e-12;

/** Largest expected total: keeps e^-rate a normal double (the pmf recursion starts there) and the tables small. */
export const MAX_EXPECTED_TOTAL = 500;

function checkModel(model: ScoreModel): void {
  const { home, away } = model;
  if (!Number.isFinite(home) || !Number.isFinite(away) || home < 0 || away < 0)
    throw new RangeError('score rates must be finite and not negative');
  if (home + away > MAX_EXPECTED_TOTAL)
    throw new RangeError(`the expected total must be at most ${MAX_EXPECTED_TOTAL}`);
}

function checkLine(line: number): void {
  if (!Number.isFinite(line)) throw new RangeError('a line must be a finite number');
}

/**
 * Poisson(rate) pmf for 0..n, where n is the first score past the mode whose tail is below `TAIL`,
 * and at least `atLeast`. Beyond n the ratio of successive terms is at most rate / (n + 2), so
 * P(X > n) <= p(n + 1) / (1 - rate / (n + 2)): a geometric bound that needs no tail sum.
 */
function poissonPmf(rate: number, atLeast = 0): Float64Array {
  const pmf: number[] = [Math.exp(-rate)];
  let p = pmf[0] as number;
  for (let n = 0; ; n++) {
    const next = (p * rate) / (n + 1);
    if (n >= atLeast && n + 2 > rate && next / (1 - rate / (n + 2)) < TAIL) break;
    p = next;
    pmf.push(p);
  }
  return Float64Array.from(pmf);
}

/** above[k] = Σ_{j > k} pmf[j] within the table, summed from the top so that small tails stay accurate. */
function tailsAbove(pmf: Float64Array): Float64Array {
  const above = new Float64Array(pmf.length);
  for (let k = pmf.length - 2; k >= 0; k--) above[k] = (above[k + 1] as number) + (pmf[k + 1] as number);
  return above;
}

/** P(X > x) for a real x, from the table's `tailsAbove`. */
function greaterThan(above: Float64Array, x: number): number {
  if (x < 0) return 1;
  const k = Math.floor(x);
  return k < above.length ? (above[k] as number) : 0;
}

/**
 * Exact home win, draw and away win probabilities. `maxScore` sums each side up to that score instead
 * of the automatic cutoff; outcomes with a side above it are then left out, so a small one shows
 * the truncation.
 */
export function scoreProbabilities(model: ScoreModel, maxScore?: number): OutcomeProbabilities {
  checkModel(model);
  if (maxScore !== undefined && (!Number.isInteger(maxScore) || maxScore < 0))
    throw new RangeError('maxScore must be a whole number, not negative');
  let home = poissonPmf(model.home, maxScore);
  let away = poissonPmf(model.away, maxScore);
  if (maxScore !== undefined) {
    home = home.subarray(0, maxScore + 1);
    away = away.subarray(0, maxScore + 1);
  }
  return outcomes(home, away);
}

function outcomes(home: Float64Array, away: Float64Array): OutcomeProbabilities {
  const homeAbove = tailsAbove(home);
  const awayAbove = tailsAbove(away);
  let homeWin = 0;
  let draw = 0;
  let awayWin = 0;
  for (let a = 0; a < away.length; a++) homeWin += (away[a] as number) * greaterThan(homeAbove, a);
  for (let h = 0; h < home.length; h++) awayWin += (home[h] as number) * greaterThan(awayAbove, h);
  for (let k = 0; k < Math.min(home.length, away.length); k++) draw += (home[k] as number) * (away[k] as number);
  return { homeWin, draw, awayWin };
}

/**
 * The model whose rates add up to `expectedTotal` and whose home side wins `homeWin` of the contests
 * that are not drawn. That share rises with the home side's part of the total, from 0 to 1, so the
 * part is found by bisection, down to a width of 1e-15: the fitted share is then good to well
 * within 1e-9.
 */
export function fitScoreModel(input: { homeWin: number; expectedTotal: number }): ScoreModel {
  const { homeWin, expectedTotal } = input;
  if (!(homeWin > 0 && homeWin < 1)) throw new RangeError('homeWin must be strictly between 0 and 1');
  if (!(expectedTotal > 0) || expectedTotal > MAX_EXPECTED_TOTAL)
    throw new RangeError(`expectedTotal must be above 0 and at most ${MAX_EXPECTED_TOTAL}`);
  const split = (share: number): ScoreModel => ({ home: share * expectedTotal, away: (1 - share) * expectedTotal });
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200 && hi - lo > 1e-15; i++) {
    const mid = (lo + hi) / 2;
    const { homeWin: h, awayWin: a } = scoreProbabilities(split(mid));
    if (h / (h + a) < homeWin) lo = mid;
    else hi = mid;
  }
  const share = (lo + hi) / 2;
  // The away rate as the remainder, so that the two add up to the total exactly as doubles allow.
  const home = share * expectedTotal;
  return { home, away: expectedTotal - home };
}

/** Over, under and push on the total score: the total is Poisson(home + away). */
export function totalLine(model: ScoreModel, line: number): TotalLineProbabilities {
  checkModel(model);
  checkLine(line);
  if (line < 0) return { over: 1, under: 0, push: 0 };
  const pmf = poissonPmf(model.home + model.away, Math.floor(line) + 1);
  const above = tailsAbove(pmf);
  const whole = Number.isInteger(line);
  const push = whole ? (pmf[line] as number) : 0;
  const over = above[Math.floor(line)] as number;
  // Whole scores strictly below the line.
  let under = 0;
  for (let k = 0; k < line; k++) under += pmf[k] as number;
  return { over, under, push };
}

/** P(home + away > line). */
export function totalOver(model: ScoreModel, line: number): number {
  return totalLine(model, line).over;
}

/** P(home + away < line). */
export function totalUnder(model: ScoreModel, line: number): number {
  return totalLine(model, line).under;
}

/**
 * The handicap (spread) market: the home side covers when home - away + line > 0. The margin is
 * Skellam; each side is summed over the other side's score: P(H - A > t) = Σ_a P(A = a) P(H > a + t).
 */
export function handicap(model: ScoreModel, line: number): HandicapProbabilities {
  checkModel(model);
  checkLine(line);
  const pmfHome = poissonPmf(model.home);
  const pmfAway = poissonPmf(model.away);
  const homeAbove = tailsAbove(pmfHome);
  const awayAbove = tailsAbove(pmfAway);
  const t = -line;
  let home = 0;
  for (let a = 0; a < pmfAway.length; a++) home += (pmfAway[a] as number) * greaterThan(homeAbove, a + t);
  let away = 0;
  for (let h = 0; h < pmfHome.length; h++) away += (pmfHome[h] as number) * greaterThan(awayAbove, h - t);
  let push = 0;
  if (Number.isInteger(t)) {
    for (let a = 0; a < pmfAway.length; a++) {
      const h = a + t;
      if (h >= 0 && h < pmfHome.length) push += (pmfAway[a] as number) * (pmfHome[h] as number);
    }
  }
  return { home, away, push };
}

/** P(home - away + line > 0): the home side's chance on the spread. */
export function spread(model: ScoreModel, line: number): number {
  return handicap(model, line).home;
}

/** Cumulative table for inversion: cdf[k] = P(X <= k). */
function poissonCdf(rate: number): Float64Array {
  const cdf = poissonPmf(rate);
  for (let k = 1; k < cdf.length; k++) cdf[k] = (cdf[k] as number) + (cdf[k - 1] as number);
  return cdf;
}

/** The smallest k with u < cdf[k]; a uniform past the table's last entry (mass below TAIL) takes its last score. */
export function invert(cdf: Float64Array, u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (u < (cdf[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Draws `samples` scores, flattened as [home0, away0, home1, away1, ...], by inverting each side's
 * Poisson cdf (tabulated once, then a binary search per draw). Home draws before away in each pair.
 */
export function simulateScores(model: ScoreModel, samples: number, uniform: () => number): Int32Array {
  checkModel(model);
  if (!Number.isInteger(samples) || samples < 0) throw new RangeError('samples must be a whole number, not negative');
  const homeCdf = poissonCdf(model.home);
  const awayCdf = poissonCdf(model.away);
  const scores = new Int32Array(samples * 2);
  for (let s = 0; s < samples; s++) {
    scores[2 * s] = invert(homeCdf, uniform());
    scores[2 * s + 1] = invert(awayCdf, uniform());
  }
  return scores;
}
