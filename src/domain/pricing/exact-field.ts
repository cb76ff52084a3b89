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
 */

const ORDER = 10;
const GAUSS = gaussLegendre(ORDER);
/** CUMULATIVE[j * ORDER + l]: the weight of node l in ∫_{-1}^{x_j} (Lagrange interpolation on the nodes). */
const CUMULATIVE = integrationMatrix(GAUSS.x);
/** Below this chance of having finished, the strongest runner is taken as not started (a lost mass under 1e-15). */
const EPSILON = 1e-15;
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
    // The exact joint's walk asks for up to 50,000 at once: no Set per sequence (issue 42, item 4).
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
    const byLikelihood = (a: Ranked, b: Ranked) =>
      b.probability - a.probability || compareSequences(a.sequence, b.sequence);
    const pl = this.plackettLuce;
    if (pl) {
      // Closed forms, carried down the tree of prefixes, strongest first; a prefix no likelier than
      // the count-th sequence found cannot lead to a better one (extending only multiplies by chances).
      const found: Ranked[] = [];
      const prefix: number[] = [];
      const extend = (probability: number, used: number) => {
        if (found.length === count && probability <= (found[count - 1] as Ranked).probability) return;
        if (prefix.length === k) {
          found.push({ sequence: prefix.slice(), probability });
          found.sort(byLikelihood);
          if (found.length > count) found.pop();
          return;
        }
        for (const runner of strongest) {
          if (prefix.includes(runner)) continue;
          const p = pl[runner] as number;
          prefix.push(runner);
          extend((probability * p) / (1 - used), used + p);
          prefix.pop();
        }
      };
      extend(1, 0);
      return found;
    }
    // Gamma races: the same search, each prefix's probability integrated (prefixes share their integrals).
    const integrals = new SequenceIntegrals(this.timeGrid(), (runner) => this.place(runner, 1));
    const found: Ranked[] = [];
    const extend = (prefix: number[]) => {
      const probability = prefix.length === 0 ? 1 : integrals.probability(prefix);
      if (found.length === count && probability <= (found[count - 1] as Ranked).probability) return;
      if (prefix.length === k) {
        found.push({ sequence: prefix.slice(), probability });
        found.sort(byLikelihood);
        if (found.length > count) found.pop();
        return;
      }
      for (const runner of strongest) if (!prefix.includes(runner)) extend([...prefix, runner]);
    };
    extend([]);
    return found;
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
 * P(a1, ..., ak finish first, in that order) under gamma races, the integrals of each prefix kept for
 * the sequences that extend it (one search or one batch: they are dropped with it).
 */
class SequenceIntegrals {
  /** G_m(t) of a prefix: the chance its runners have finished by t, in its order. */
  private readonly cumulative = new Map<string, Float64Array>();
  /** G_m(t) × Π_{not in the prefix} S_j(t). */
  private readonly rested = new Map<string, Float64Array>();
  /** A runner's weighted hazard f / S at each node. */
  private readonly hazards = new Map<number, Float64Array>();

  private readonly g: Grid;
  private readonly win: (runner: number) => number;

  constructor(g: Grid, win: (runner: number) => number) {
    this.g = g;
    this.win = win;
  }

  /**
   * The last runner's integrand is G_{k-1} × f_last × Π_{others} S: split as G_{k-1} × Π_{not in the
   * prefix} S (per prefix) times the last runner's weighted hazard (per runner), so that each
   * sequence is one multiply-add per node.
   */
  probability(sequence: readonly number[]): number {
    if (sequence.length === 1) return this.win(sequence[0] as number);
    const before = this.restedOf(sequence.slice(0, -1));
    const hazard = this.hazardOf(sequence.at(-1) as number);
    let sum = 0;
    for (let node = 0; node < this.g.nodes; node++) sum += (before[node] as number) * (hazard[node] as number);
    return sum;
  }

  private prefixOf(prefix: readonly number[]): Float64Array {
    return remembered(this.cumulative, prefix, () => {
      const { g } = this;
      const N = g.nodes;
      const out = new Float64Array(N);
      const last = prefix.at(-1) as number;
      if (prefix.length === 1) {
        out.set(g.cdf.subarray(last * N, last * N + N));
      } else {
        const before = this.prefixOf(prefix.slice(0, -1));
        const integrand = new Float64Array(N);
        for (let node = 0; node < N; node++)
          integrand[node] = (before[node] as number) * Math.exp(g.logDensity[last * N + node] as number);
        g.cumulate(integrand, out);
      }
      return out;
    });
  }

  private restedOf(prefix: readonly number[]): Float64Array {
    return remembered(this.rested, prefix, () => {
      const { g } = this;
      const N = g.nodes;
      const before = this.prefixOf(prefix);
      const out = new Float64Array(N);
      for (let node = 0; node < N; node++) {
        let logRest = g.logSurvivalAll[node] as number;
        for (const runner of prefix) logRest -= g.logSurvival[runner * N + node] as number;
        out[node] = (before[node] as number) * Math.exp(logRest);
      }
      return out;
    });
  }

  private hazardOf(runner: number): Float64Array {
    const known = this.hazards.get(runner);
    if (known) return known;
    const { g } = this;
    const N = g.nodes;
    const out = new Float64Array(N);
    for (let node = 0; node < N; node++)
      out[node] =
        (g.weight[node] as number) *
        Math.exp((g.logDensity[runner * N + node] as number) - (g.logSurvival[runner * N + node] as number));
    this.hazards.set(runner, out);
    return out;
  }
}

/** P(runner i finishes second) under Plackett-Luce: Σ over the winner a ≠ i of p_a p_i / (1 - p_a). */
function plackettLuceSecond(pl: Float64Array, i: number): number {
  const pi = pl[i] as number;
  let second = 0;
  for (let a = 0; a < pl.length; a++) if (a !== i) second += ((pl[a] as number) * pi) / (1 - (pl[a] as number));
  return second;
}

/** A prefix's integrals, computed once per search: `memory` keeps them by the prefix's runners. */
function remembered(memory: Map<string, Float64Array>, prefix: readonly number[], compute: () => Float64Array) {
  const key = prefix.join(',');
  let found = memory.get(key);
  if (!found) {
    found = compute();
    memory.set(key, found);
  }
  return found;
}

/** The quadrature nodes in time, and each runner's law at each of them. */
class Grid {
  readonly nodes: number;
  readonly panels: number;
  /** Node times and their weights for ∫ … dt (log-time substitution included). */
  readonly time: Float64Array;
  readonly weight: Float64Array;
  /** Per runner and node (runner * nodes + node): F_j(t), log S_j(t), log f_j(t). */
  readonly cdf: Float64Array;
  readonly logSurvival: Float64Array;
  readonly logDensity: Float64Array;
  /** Σ_j log S_j(t) per node. */
  readonly logSurvivalAll: Float64Array;
  private readonly halfWidth: number;

  /** `startAt`: the chance the strongest runner has finished at the grid's first time. */
  constructor(shape: number, strengths: Float64Array, startAt = EPSILON) {
    const n = strengths.length;
    const fastest = Math.max(...strengths);
    const slowest = Math.min(...strengths);
    let logFactorial = 0;
    for (let k = 2; k <= shape; k++) logFactorial += Math.log(k);
    // From where the fastest has finished with chance startAt ((s t)^shape / shape! ≈ startAt)...
    const from = (Math.log(startAt) + logFactorial) / shape - Math.log(fastest);
    // ... to where the slowest has finished but for e^-40.
    const to = Math.log((shape + 12 * Math.sqrt(shape) + 45) / slowest);
    // log T of a gamma time spreads about 1 / √shape: panels that wide (10 nodes each: errors under 1e-10, checked by the tests).
    const width = 1 / Math.sqrt(shape);
    this.panels = Math.max(4, Math.ceil((to - from) / width));
    this.halfWidth = (to - from) / this.panels / 2;
    this.nodes = this.panels * ORDER;
    this.time = new Float64Array(this.nodes);
    this.weight = new Float64Array(this.nodes);
    for (let p = 0; p < this.panels; p++) {
      const mid = from + (2 * p + 1) * this.halfWidth;
      for (let l = 0; l < ORDER; l++) {
        const t = Math.exp(mid + this.halfWidth * (GAUSS.x[l] as number));
        this.time[p * ORDER + l] = t;
        // dt = t dτ.
        this.weight[p * ORDER + l] = this.halfWidth * (GAUSS.w[l] as number) * t;
      }
    }
    const N = this.nodes;
    this.cdf = new Float64Array(n * N);
    this.logSurvival = new Float64Array(n * N);
    this.logDensity = new Float64Array(n * N);
    this.logSurvivalAll = new Float64Array(N);
    // The logarithms that do not depend on the runner, or not on the node, taken once (the same sums, in the same order).
    const timeTerm = this.time.map((t) => (shape - 1) * Math.log(t));
    const constant = logFactorial - Math.log(shape);
    for (let j = 0; j < n; j++) {
      const s = strengths[j] as number;
      const strengthTerm = shape * Math.log(s);
      for (let node = 0; node < N; node++) {
        const x = s * (this.time[node] as number);
        const { cdf, logSurvival } = gammaTail(shape, x);
        this.cdf[j * N + node] = cdf;
        this.logSurvival[j * N + node] = logSurvival;
        this.logDensity[j * N + node] = strengthTerm + (timeTerm[node] as number) - x - constant;
        this.logSurvivalAll[node] = (this.logSurvivalAll[node] as number) + logSurvival;
      }
    }
  }

  /** out[node] = ∫_0^{t_node} integrand dt, by each panel's interpolating polynomial. */
  cumulate(integrand: Float64Array, out: Float64Array): void {
    let carried = 0;
    for (let p = 0; p < this.panels; p++) {
      const base = p * ORDER;
      for (let j = 0; j < ORDER; j++) {
        let sum = 0;
        for (let l = 0; l < ORDER; l++)
          sum +=
            (CUMULATIVE[j * ORDER + l] as number) * (integrand[base + l] as number) * (this.time[base + l] as number);
        out[base + j] = carried + this.halfWidth * sum;
      }
      let whole = 0;
      for (let l = 0; l < ORDER; l++) whole += (this.weight[base + l] as number) * (integrand[base + l] as number);
      carried += whole;
    }
  }
}

/** 2^-54: a sum's last digit is worth more than 2^-53 of it. */
const HALF_LAST_DIGIT = 2 ** -54;

/**
 * F(x) and log S(x) of Gamma(shape, 1) at x (whole shapes): S = e^{-x} Σ_{m<shape} x^m / m!; for small x,
 * F = e^{-x} Σ_{m≥shape} x^m / m! directly, so that it keeps its digits.
 */
function gammaTail(shape: number, x: number): { cdf: number; logSurvival: number } {
  let term = 1;
  let head = 1;
  for (let m = 1; m < shape; m++) {
    term *= x / m;
    head += term;
  }
  const logSurvival = -x + Math.log(head);
  if (x < 1) {
    let tail = 0;
    let t = term * (x / shape);
    // A term under half the sum's last digit cannot move it, nor can the smaller ones after it.
    for (let m = shape; m < shape + 40 && t > 0 && t >= tail * HALF_LAST_DIGIT; m++) {
      tail += t;
      t *= x / (m + 1);
    }
    return { cdf: Math.exp(-x) * tail, logSurvival };
  }
  return { cdf: -Math.expm1(logSurvival), logSurvival };
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

interface Ranked {
  sequence: number[];
  probability: number;
}

function compareSequences(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

/** Gauss-Legendre nodes and weights on [-1, 1] (Newton's method on the Legendre polynomial). */
function gaussLegendre(order: number): { x: Float64Array; w: Float64Array } {
  const x = new Float64Array(order);
  const w = new Float64Array(order);
  for (let i = 0; i < order; i++) {
    let z = Math.cos((Math.PI * (i + 0.75)) / (order + 0.5));
    let derivative = 0;
    for (let iteration = 0; iteration < 100; iteration++) {
      let p0 = 1;
      let p1 = z;
      for (let k = 2; k <= order; k++) {
        const p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      derivative = (order * (z * p1 - p0)) / (z * z - 1);
      const step = p1 / derivative;
      z -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    x[order - 1 - i] = z;
    w[order - 1 - i] = 2 / ((1 - z * z) * derivative * derivative);
  }
  return { x, w };
}

/**
 * M[j][l] = ∫_{-1}^{x_j} L_l(x) dx for the Lagrange basis on the nodes: solved from the monomials
 * (M V = A with V[l][m] = x_l^m and A[j][m] = ∫_{-1}^{x_j} x^m dx).
 */
function integrationMatrix(nodes: Float64Array): Float64Array {
  const p = nodes.length;
  // Solve V^T M^T = A^T column by column: for each j, Σ_l M[j][l] x_l^m = A[j][m] for every m.
  const out = new Float64Array(p * p);
  for (let j = 0; j < p; j++) {
    const xj = nodes[j] as number;
    const matrix = Array.from({ length: p }, (_, m) => [
      ...Array.from(nodes, (xl) => xl ** m),
      (xj ** (m + 1) - (-1) ** (m + 1)) / (m + 1),
    ]);
    const solution = solve(matrix);
    for (let l = 0; l < p; l++) out[j * p + l] = solution[l] as number;
  }
  return out;
}

/** Gaussian elimination with partial pivoting on an augmented matrix. */
function solve(rows: number[][]): number[] {
  const n = rows.length;
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++)
      if (Math.abs((rows[r] as number[])[c] as number) > Math.abs((rows[pivot] as number[])[c] as number)) pivot = r;
    [rows[c], rows[pivot]] = [rows[pivot] as number[], rows[c] as number[]];
    const top = rows[c] as number[];
    for (let r = c + 1; r < n; r++) {
      const row = rows[r] as number[];
      const factor = (row[c] as number) / (top[c] as number);
      for (let k = c; k <= n; k++) row[k] = (row[k] as number) - factor * (top[k] as number);
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const row = rows[r] as number[];
    let sum = row[n] as number;
    for (let k = r + 1; k < n; k++) sum -= (row[k] as number) * (x[k] as number);
    x[r] = sum / (row[r] as number);
  }
  return x;
}

/** P(the first places are `sequence`) under Plackett-Luce, its runners distinct: Π p_am / (1 - Σ_{l<m} p_al). */
function plackettLuceSequence(pl: Float64Array, sequence: readonly number[]): number {
  let probability = 1;
  let used = 0;
  for (let m = 0; m < sequence.length; m++) {
    const p = pl[sequence[m] as number] as number;
    probability *= p / (1 - used);
    used += p;
  }
  return probability;
}

/** Whether a runner is named twice (sequences are a few places long: pairs are compared). */
function repeats(sequence: readonly number[]): boolean {
  for (let i = 1; i < sequence.length; i++) for (let j = 0; j < i; j++) if (sequence[i] === sequence[j]) return true;
  return false;
}
