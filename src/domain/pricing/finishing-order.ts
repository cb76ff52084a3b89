/**
 * Finishing-order models for a field of athletes (the pricing engine's first part).
 *
 * Every runner i gets a race time T_i = G_i / s_i, with G_i ~ Gamma(shape, 1) independent and s_i its
 * strength; the order of the times is the finishing order. Shape 1 (exponential races) is exactly the
 * Plackett-Luce model: P(i wins) = s_i / sum(s), and each next place is a Plackett-Luce choice among
 * those left. A larger shape (gamma races, Stern 1990) makes the places below the winner less random
 * for the same win probabilities, which fits racing and judged sports better. Shapes are whole
 * numbers, so that every distribution involved has a closed form.
 *
 * Pure: randomness comes in as a `uniform` function returning numbers in [0, 1).
 */

import { gammaWinProbabilities } from './exact-field.ts';

export interface FinishingOrderModel {
  /** Gamma shape of the race times: 1 is Plackett-Luce. */
  shape: number;
  /** Strengths (rates), one per runner, in the order of the win probabilities fitted to. */
  strengths: readonly number[];
}

export const MAX_SHAPE = 12;

function checkProbabilities(win: readonly number[]): number[] {
  if (win.length < 2) throw new RangeError('a field needs at least two runners');
  if (win.some((p) => !(p > 0) || !Number.isFinite(p))) throw new RangeError('win probabilities must be positive');
  const total = win.reduce((a, b) => a + b, 0);
  return win.map((p) => p / total);
}

function checkShape(shape: number): void {
  if (!Number.isInteger(shape) || shape < 1 || shape > MAX_SHAPE)
    throw new RangeError(`shape must be a whole number from 1 to ${MAX_SHAPE}`);
}

/** Plackett-Luce fitted to win probabilities (normalised to sum to 1): the strengths are the probabilities. */
export function plackettLuceModel(win: readonly number[]): FinishingOrderModel {
  return { shape: 1, strengths: checkProbabilities(win) };
}

/**
 * Win probabilities of a model: shape 1 in closed form; otherwise P(i wins) = ∫ f_i(t) Π_{j≠i} S_j(t) dt
 * by the exact engine's quadrature (exact-field.ts), where T_j ~ Gamma(shape, rate s_j).
 */
export function modelWinProbabilities(model: FinishingOrderModel): number[] {
  const { shape, strengths } = model;
  checkShape(shape);
  const total = strengths.reduce((a, b) => a + b, 0);
  if (shape === 1) return strengths.map((s) => s / total);
  return gammaWinProbabilities(shape, strengths);
}

/**
 * Gamma races fitted to win probabilities: strengths are moved multiplicatively until the model's
 * win probabilities match the targets (to 1e-9, or 500 rounds). Shape 1 gives Plackett-Luce.
 */
export function fitFinishingOrder(win: readonly number[], shape = 1): FinishingOrderModel {
  checkShape(shape);
  const target = checkProbabilities(win);
  if (shape === 1) return { shape, strengths: target };
  let strengths = target.slice();
  for (let round = 0; round < 500; round++) {
    const fitted = modelWinProbabilities({ shape, strengths });
    let worst = 0;
    strengths = strengths.map((s, i) => {
      const ratio = (target[i] as number) / (fitted[i] as number);
      worst = Math.max(worst, Math.abs(ratio - 1));
      // Win probability moves roughly as strength^shape near the top of the field.
      return s * ratio ** (1 / shape);
    });
    const top = Math.max(...strengths);
    strengths = strengths.map((s) => s / top);
    if (worst < 1e-9) break;
  }
  return { shape, strengths };
}

/**
 * Draws finishing orders: `samples` orders of the whole field, flattened (row r holds runner indices
 * from first to last). Gamma(shape) times are sums of `shape` exponentials.
 */
export function simulateFinishingOrders(
  model: FinishingOrderModel,
  samples: number,
  uniform: () => number,
): Int32Array {
  checkShape(model.shape);
  const n = model.strengths.length;
  const orders = new Int32Array(samples * n);
  const times = new Float64Array(n);
  const index = Array.from({ length: n }, (_, i) => i);
  for (let r = 0; r < samples; r++) {
    drawTimes(model, uniform, times);
    index.sort((a, b) => (times[a] as number) - (times[b] as number));
    orders.set(index, r * n);
  }
  return orders;
}

/**
 * Draws the places of some runners only: row r holds the place (1-based) of each of `runners` in the
 * r-th draw. The draws are those of `simulateFinishingOrders` with the same `uniform`, so the places are
 * the ones its orders give; counting who is ahead of a few runners costs less than sorting the field.
 */
export function simulatePlaces(
  model: FinishingOrderModel,
  samples: number,
  uniform: () => number,
  runners: readonly number[],
): Int32Array {
  checkShape(model.shape);
  const n = model.strengths.length;
  const places = new Int32Array(samples * runners.length);
  const times = new Float64Array(n);
  for (let r = 0; r < samples; r++) {
    drawTimes(model, uniform, times);
    for (let k = 0; k < runners.length; k++) {
      const i = runners[k] as number;
      const own = times[i] as number;
      let ahead = 0;
      // A tie (probability zero) goes to the lower index, as the stable sort of the orders has it.
      for (let j = 0; j < n; j++) if ((times[j] as number) < own || (times[j] === own && j < i)) ahead++;
      places[r * runners.length + k] = ahead + 1;
    }
  }
  return places;
}

/** One draw of every runner's race time, into `times`. */
function drawTimes(model: FinishingOrderModel, uniform: () => number, times: Float64Array): void {
  for (let i = 0; i < times.length; i++) {
    let g = 0;
    for (let k = 0; k < model.shape; k++) g -= Math.log(1 - uniform());
    times[i] = g / (model.strengths[i] as number);
  }
}

/** P[i][k]: the share of orders in which runner i finishes in place k (0-based). */
export function positionProbabilities(orders: Int32Array, runners: number): number[][] {
  const samples = orders.length / runners;
  const counts = Array.from({ length: runners }, () => new Array<number>(runners).fill(0));
  for (let r = 0; r < samples; r++) {
    for (let k = 0; k < runners; k++) {
      const row = counts[orders[r * runners + k] as number] as number[];
      row[k] = (row[k] as number) + 1;
    }
  }
  return counts.map((row) => row.map((c) => c / samples));
}

/** P(runner finishes in the top `k`) from position probabilities. */
export function topProbability(positions: readonly (readonly number[])[], runner: number, k: number): number {
  const row = positions[runner] ?? [];
  let sum = 0;
  for (let place = 0; place < k && place < row.length; place++) sum += row[place] as number;
  return sum;
}

/**
 * Plackett-Luce in closed form: the probability that the first places are exactly `sequence`
 * (an exacta for two runners, a trifecta for three, ...): Π p_{a_m} / (1 - Σ_{l<m} p_{a_l}).
 */
export function plackettLuceSequence(win: readonly number[], sequence: readonly number[]): number {
  const p = checkProbabilities(win);
  let probability = 1;
  let used = 0;
  for (const runner of sequence) {
    const pr = p[runner];
    if (pr === undefined) throw new RangeError(`no runner ${runner}`);
    probability *= pr / (1 - used);
    used += pr;
  }
  return probability;
}

/** Plackett-Luce in closed form: P(a finishes ahead of b) = p_a / (p_a + p_b). */
export function plackettLuceHeadToHead(win: readonly number[], a: number, b: number): number {
  const pa = win[a];
  const pb = win[b];
  if (pa === undefined || pb === undefined) throw new RangeError('no such runner');
  return pa / (pa + pb);
}
