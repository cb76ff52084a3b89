import { CUMULATIVE, GAUSS, ORDER } from './quadrature.ts';

/** Below this chance of having finished, the strongest runner is taken as not started (a lost mass under 1e-15). */
export const EPSILON = 1e-15;

/** The quadrature nodes in time, and each runner's law at each of them. */
export class Grid {
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
