import {
  likeliestIntegrated,
  likeliestPlackettLuce,
  plackettLuceSecond,
  plackettLuceSequence,
  repeats,
  SequenceIntegrals,
} from './exact-field/sequences.ts';
import { EPSILON, Grid } from './exact-field/time-grid.ts';
import type { FinishingOrderModel } from './finishing-order.ts';

/**
 * Exact finishing-order probabilities of a field: no simulation, so two runners with the
 * same strength get the same prices to the last digit, and every identity between markets holds to
 * about 1e-10.
 *
 * Runner i's race time T_i ~ Gamma(shape, rate s_i), independent (shape 1 is Plackett-Luce). Every
 * market is a one-dimensional integral over the time t at which a runner finishes:
 * - P(i finishes k-th) = ∫ f_i(t) P(exactly k-1 of the others are done by t) dt, the second factor a
 *   Poisson-binomial distribution of the others' F_j(t), computed for the whole field once per t and
 *   divided by runner i's own term (a stable deconvolution), so each node costs O(n²);
 * - P(a ahead of b) = ∫ f_a(t) S_b(t) dt;
 * - P(a1, ..., ak are the first k, in order) = ∫ f_ak(t) G_{k-1}(t) Π_{others} S_j(t) dt with
 *   G_1 = F_a1 and G_m(t) = ∫_0^t f_am G_{m-1}, cumulative integrals on the same nodes.
 * Under Plackett-Luce the winner, second place, head-to-heads and sequences have closed forms, used
 * instead: P(i wins) = p_i, P(a ahead of b) = p_a / (p_a + p_b), P(sequence) = Π p_am / (1 - Σ_{l<m} p_al).
 *
 * The integrals are taken in log time, on panels of 10-point Gauss-Legendre rules a fraction of the
 * spread of log T wide (a smooth integrand: errors below 1e-10, checked against the closed forms in
 * the tests). Pure and deterministic.
 *
 * In exact-field/: the quadrature, the time grid (each runner's law at its nodes) and the sequences
 * (closed forms, nested integrals, the likeliest ones).
 */

/**
 * Under Plackett-Luce the grid serves only the places from the third on (the first two are in closed
 * form). A runner finishing third or later before t needs two others done by then: with exponential
 * times (rates s_j summing to S) that mass is at most Σ_i ∫_0^t s_i (S u)² / 2 du = (S t)³ / 6, so the
 * grid starts where (S t)³ / 6 is 1e-15, about 1.8e-5 / S: errors under 1e-15, and a quarter fewer
 * nodes than a start where the strongest has finished with chance 1e-9 (the demo's start).
 */
const THIRD_PLACE_MASS = 1e-15;

export class ExactField {
  readonly runners: number;
  readonly shape: number;
  private readonly strengths: Float64Array;
  /** Plackett-Luce win probabilities (strengths normalised), for the closed forms; null for other shapes. */
  private readonly plackettLuce: Float64Array | null;
  /** places[i * n + k - 1]: P(runner i finishes k-th). */
  private readonly places: Float64Array;
  private grid: Grid | null = null;

  constructor(model: FinishingOrderModel) {
    const n = model.strengths.length;
    if (n < 2) throw new RangeError('a field needs at least two runners');
    if (!Number.isInteger(model.shape) || model.shape < 1) throw new RangeError('shape must be a whole number');
    if (model.strengths.some((s) => !(s > 0 && Number.isFinite(s)))) throw new RangeError('strengths must be positive');
    this.runners = n;
    this.shape = model.shape;
    this.strengths = Float64Array.from(model.strengths);
    const total = this.strengths.reduce((a, b) => a + b, 0);
    this.plackettLuce = model.shape === 1 ? this.strengths.map((s) => s / total) : null;
    this.places = this.placeProbabilities();
  }

  private check(runner: number): void {
    if (!Number.isInteger(runner) || runner < 0 || runner >= this.runners) throw new RangeError(`no runner ${runner}`);
  }

  /** P(runner finishes exactly `place`-th). */
  place(runner: number, place: number): number {
    this.check(runner);
    if (!Number.isInteger(place) || place < 1 || place > this.runners) return 0;
    return this.places[runner * this.runners + place - 1] as number;
  }

  win(runner: number): number {
    return this.place(runner, 1);
  }

  /** P(runner finishes in the top `k`). */
  top(runner: number, k: number): number {
    let sum = 0;
    for (let place = 1; place <= Math.min(k, this.runners); place++) sum += this.place(runner, place);
    return Math.min(1, sum);
  }

  /** P(a finishes ahead of b). */
  headToHead(a: number, b: number): number {
    this.check(a);
    this.check(b);
    if (a === b) throw new RangeError('a head-to-head needs two runners');
    const pl = this.plackettLuce;
    if (pl) return (pl[a] as number) / ((pl[a] as number) + (pl[b] as number));
    const g = this.timeGrid();
    let sum = 0;
    for (let node = 0; node < g.nodes; node++) {
      const fa = Math.exp((g.logDensity[a * g.nodes + node] as number) + (g.logSurvival[b * g.nodes + node] as number));
      sum += (g.weight[node] as number) * fa;
    }
    return sum;
  }

  /** P(the first places are exactly `sequence`): exacta (2), trifecta (3), superfecta (4); 0 when a runner repeats. */
  sequence(sequence: readonly number[]): number {
    for (const runner of sequence) this.check(runner);
    if (sequence.length === 0) return 1;
    if (new Set(sequence).size !== sequence.length) return 0;
    const pl = this.plackettLuce;
    if (pl) return plackettLuceSequence(pl, sequence);
    return this.integratedSequences([sequence])[0] as number;
  }

  /** Several sequences' probabilities at once (gamma races share the integrals of common prefixes). */
  sequences(sequences: readonly (readonly number[])[]): number[] {
    for (const sequence of sequences) for (const runner of sequence) this.check(runner);
    const pl = this.plackettLuce;
    // The exact joint's walk asks for up to 50,000 at once: no Set per sequence.
    if (pl) return sequences.map((s) => (repeats(s) ? 0 : plackettLuceSequence(pl, s)));
    const valid = sequences.map((s) => s.length > 0 && new Set(s).size === s.length);
    const computed = this.integratedSequences(sequences.filter((_, i) => valid[i]));
    let next = 0;
    return sequences.map((s, i) => (valid[i] ? (computed[next++] as number) : s.length === 0 ? 1 : 0));
  }

  /** Over/under on a runner's finishing position (a half line): OVER wins when the position is above it. */
  finishingPosition(runner: number, line: number): { over: number; under: number } {
    if (!Number.isFinite(line) || Math.abs((line % 1) - 0.5) > 1e-9)
      throw new RangeError('a finishing-position line is a half (3.5), so that it cannot push');
    const under = this.top(runner, Math.floor(line));
    return { over: Math.max(0, 1 - under), under };
  }

  /** How many ordered sequences of k runners the field has: n (n - 1) ... (n - k + 1). */
  sequenceCount(k: number): number {
    let count = 1;
    for (let m = 0; m < k; m++) count *= this.runners - m;
    return Math.max(0, count);
  }

  /**
   * The `count` likeliest sequences of the first k places, likeliest first (ties in runner order).
   * Only the count + k - 1 strongest runners can be in them: swapping a runner of a sequence for a
   * stronger one not in it makes the sequence likelier (every factor grows), and a runner ranked r has
   * at least r - k such stronger runners to swap for.
   */
  topSequences(k: number, count: number): Array<{ sequence: number[]; probability: number }> {
    if (k < 1 || k > this.runners) return [];
    const strongest = Array.from({ length: this.runners }, (_, i) => i)
      .sort((a, b) => (this.strengths[b] as number) - (this.strengths[a] as number) || a - b)
      .slice(0, Math.min(this.runners, count + k - 1));
    const pl = this.plackettLuce;
    if (pl) return likeliestPlackettLuce(pl, strongest, k, count);
    const integrals = new SequenceIntegrals(this.timeGrid(), (runner) => this.place(runner, 1));
    return likeliestIntegrated(integrals, strongest, k, count);
  }

  /** Place probabilities by quadrature; the Plackett-Luce winner and second place in closed form. */
  private placeProbabilities(): Float64Array {
    const n = this.runners;
    if (this.plackettLuce && n <= 3) return this.smallPlackettLucePlaces();
    const places = new Float64Array(n * n);
    const g = this.timeGrid();
    // Runners of equal strength share one computation, so their prices are equal to the last digit.
    const firstOf = new Map<number, number>();
    const distinct: number[] = [];
    this.strengths.forEach((s, i) => {
      if (!firstOf.has(s)) {
        firstOf.set(s, i);
        distinct.push(i);
      }
    });
    const all = new Float64Array(n + 1);
    const others = new Float64Array(n);
    for (let node = 0; node < g.nodes; node++) {
      // Poisson-binomial distribution of how many runners have finished by t.
      all.fill(0);
      all[0] = 1;
      for (let j = 0; j < n; j++) {
        const q = g.cdf[j * g.nodes + node] as number;
        for (let m = j + 1; m >= 1; m--) all[m] = (all[m] as number) * (1 - q) + (all[m - 1] as number) * q;
        all[0] = (all[0] as number) * (1 - q);
      }
      for (const i of distinct) {
        const q = g.cdf[i * g.nodes + node] as number;
        removeRunner(all, q, others);
        const density = (g.weight[node] as number) * Math.exp(g.logDensity[i * g.nodes + node] as number);
        if (density === 0) continue;
        for (let m = 0; m < n; m++) places[i * n + m] = (places[i * n + m] as number) + density * (others[m] as number);
      }
    }
    const pl = this.plackettLuce;
    if (pl) {
      for (const i of distinct) {
        places[i * n] = pl[i] as number;
        places[i * n + 1] = plackettLuceSecond(pl, i);
      }
    }
    this.strengths.forEach((s, i) => {
      const first = firstOf.get(s) as number;
      if (first !== i) places.copyWithin(i * n, first * n, first * n + n);
    });
    return places;
  }

  /** Two or three runners under Plackett-Luce: first and second in closed form, and third what is left. */
  private smallPlackettLucePlaces(): Float64Array {
    const n = this.runners;
    const pl = this.plackettLuce as Float64Array;
    const places = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      const pi = pl[i] as number;
      const second = plackettLuceSecond(pl, i);
      places[i * n] = pi;
      places[i * n + 1] = n === 2 ? 1 - pi : second;
      if (n === 3) places[i * n + 2] = Math.max(0, 1 - pi - second);
    }
    return places;
  }

  /** Sequence probabilities by nested cumulative integrals (gamma races); prefixes are shared. */
  private integratedSequences(sequences: readonly (readonly number[])[]): number[] {
    const integrals = new SequenceIntegrals(this.timeGrid(), (runner) => this.place(runner, 1));
    return sequences.map((sequence) => integrals.probability(sequence));
  }

  /** Under Plackett-Luce: the chance the strongest has finished where the grid starts (THIRD_PLACE_MASS). */
  private thirdPlaceStart(): number {
    const total = this.strengths.reduce((a, b) => a + b, 0);
    const start = Math.cbrt(6 * THIRD_PLACE_MASS) / total;
    return -Math.expm1(-Math.max(...this.strengths) * start);
  }

  private timeGrid(): Grid {
    this.grid ??= new Grid(this.shape, this.strengths, this.plackettLuce ? this.thirdPlaceStart() : EPSILON);
    return this.grid;
  }
}

/**
 * Win probabilities of gamma races, P(i wins) = ∫ f_i Π_{j≠i} S_j, on the grid the prices are
 * integrated on (so that a model fitted with it publishes its input as its winners).
 */
export function gammaWinProbabilities(shape: number, strengths: readonly number[]): number[] {
  const n = strengths.length;
  const g = new Grid(shape, Float64Array.from(strengths));
  const out = new Array<number>(n).fill(0);
  for (let node = 0; node < g.nodes; node++) {
    const all = g.logSurvivalAll[node] as number;
    for (let i = 0; i < n; i++)
      out[i] =
        (out[i] as number) +
        (g.weight[node] as number) *
          Math.exp((g.logDensity[i * g.nodes + node] as number) + all - (g.logSurvival[i * g.nodes + node] as number));
  }
  const total = out.reduce((a, b) => a + b, 0);
  return out.map((v) => v / total);
}

/**
 * Takes one runner (finished with chance q) out of the Poisson-binomial distribution `all` of the
 * whole field: forwards when q ≤ 1/2, backwards otherwise, so that errors shrink as they travel.
 */
function removeRunner(all: Float64Array, q: number, out: Float64Array): void {
  const n = out.length;
  if (q <= 0.5) {
    let previous = 0;
    for (let m = 0; m < n; m++) {
      previous = ((all[m] as number) - q * previous) / (1 - q);
      out[m] = Math.max(0, previous);
    }
  } else {
    let next = 0;
    for (let m = n - 1; m >= 0; m--) {
      next = ((all[m + 1] as number) - (1 - q) * next) / q;
      out[m] = Math.max(0, next);
    }
  }
}
