import type { Grid } from './time-grid.ts';

/**
 * Sequences of the first places: their probabilities under Plackett-Luce (closed forms) and under
 * gamma races (nested integrals on the time grid), and the search for the likeliest ones.
 */

/**
 * P(a1, ..., ak finish first, in that order) under gamma races, the integrals of each prefix kept for
 * the sequences that extend it (one search or one batch: they are dropped with it).
 */
export class SequenceIntegrals {
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
export function plackettLuceSecond(pl: Float64Array, i: number): number {
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

export interface Ranked {
  sequence: number[];
  probability: number;
}

function compareSequences(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

/** P(the first places are `sequence`) under Plackett-Luce, its runners distinct: Π p_am / (1 - Σ_{l<m} p_al). */
export function plackettLuceSequence(pl: Float64Array, sequence: readonly number[]): number {
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
export function repeats(sequence: readonly number[]): boolean {
  for (let i = 1; i < sequence.length; i++) for (let j = 0; j < i; j++) if (sequence[i] === sequence[j]) return true;
  return false;
}

const byLikelihood = (a: Ranked, b: Ranked) =>
  b.probability - a.probability || compareSequences(a.sequence, b.sequence);

/**
 * The `count` likeliest sequences of k places among `runners` under Plackett-Luce: closed forms,
 * carried down the tree of prefixes, strongest first; a prefix no likelier than the count-th sequence
 * found cannot lead to a better one (extending only multiplies by chances).
 */
export function likeliestPlackettLuce(
  pl: Float64Array,
  runners: readonly number[],
  k: number,
  count: number,
): Ranked[] {
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
    for (const runner of runners) {
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

/** The same search in gamma races, each prefix's probability integrated (prefixes share their integrals). */
export function likeliestIntegrated(
  integrals: SequenceIntegrals,
  runners: readonly number[],
  k: number,
  count: number,
): Ranked[] {
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
    for (const runner of runners) if (!prefix.includes(runner)) extend([...prefix, runner]);
  };
  extend([]);
  return found;
}
