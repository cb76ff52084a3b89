import type { Selection } from '../markets/selection.ts';
import { type FinishingOrderModel, fitFinishingOrder } from './finishing-order.ts';

/**
 * The same game parlay's joint probability (DESIGN decision 8). Each scope of an event (its final
 * standing, a heat, a lap statistic) is simulated once per odds version as finishing orders of a model
 * fitted to that scope's winner probabilities. A leg becomes a bitset over the samples (bit s set when
 * the leg wins in sample s); the legs of one scope win together in the samples where every bit is set.
 * Scopes are taken as independent of one another.
 *
 * The model's joint probability is then scaled so that each leg keeps its own published probability
 * as its marginal: P = P_model(all) × Π (p_published / p_model). correlationFactor is
 * P_model(all) / Π p_model, the same ratio P / Π p_published.
 */

/** Finishing orders of one scope, kept as each runner's place in each sample (1-based). */
export class ScopeSamples {
  readonly words: number;
  private readonly index: Map<string, number>;

  readonly runners: readonly string[];
  readonly samples: number;
  /** ranks[s * runners + i]: runner i's place in sample s. */
  private readonly ranks: Uint8Array | Uint16Array;

  private constructor(runners: readonly string[], samples: number, ranks: Uint8Array | Uint16Array) {
    this.runners = runners;
    this.samples = samples;
    this.ranks = ranks;
    this.words = Math.ceil(samples / 32);
    this.index = new Map(runners.map((id, i) => [id, i]));
  }

  /** Simulates `samples` finishing orders of a model of these runners (in the model's order). */
  static simulate(
    runners: readonly string[],
    model: FinishingOrderModel,
    samples: number,
    uniform: () => number,
  ): ScopeSamples {
    const n = runners.length;
    if (n !== model.strengths.length) throw new RangeError('one strength per runner');
    const ranks = n < 256 ? new Uint8Array(samples * n) : new Uint16Array(samples * n);
    const times = new Float64Array(n);
    const order = new Int32Array(n);
    const rates = Float64Array.from(model.strengths);
    for (let s = 0; s < samples; s++) {
      // Race times, then an insertion sort of the small field by time.
      for (let i = 0; i < n; i++) {
        let g = 0;
        for (let k = 0; k < model.shape; k++) g -= Math.log(1 - uniform());
        times[i] = g / (rates[i] as number);
        let j = i;
        while (j > 0 && (times[order[j - 1] as number] as number) > (times[i] as number)) {
          order[j] = order[j - 1] as number;
          j--;
        }
        order[j] = i;
      }
      const base = s * n;
      for (let k = 0; k < n; k++) ranks[base + (order[k] as number)] = k + 1;
    }
    return new ScopeSamples(runners, samples, ranks);
  }

  /** Fitted to win probabilities (normalised), one per runner. */
  static fitted(
    runners: readonly string[],
    win: readonly number[],
    shape: number,
    samples: number,
    uniform: () => number,
  ): ScopeSamples {
    return ScopeSamples.simulate(runners, fitFinishingOrder(win, shape), samples, uniform);
  }

  /** Samples drawn elsewhere (a worker thread), from the places `placesOf` gave. */
  static fromPlaces(runners: readonly string[], samples: number, ranks: Uint8Array | Uint16Array): ScopeSamples {
    if (ranks.length !== runners.length * samples) throw new RangeError('one place per runner and sample');
    return new ScopeSamples(runners, samples, ranks);
  }

  /** The memory the samples take. */
  get byteLength(): number {
    return this.ranks.byteLength;
  }

  /** Each runner's place in each sample, as `fromPlaces` takes them: what a worker thread hands back. */
  placesOf(): Uint8Array | Uint16Array {
    return this.ranks;
  }

  has(athleteId: string): boolean {
    return this.index.has(athleteId);
  }

  /**
   * The samples in which the selection wins, as a bitset; null when it names an athlete outside the
   * scope's runners or is not decided by finishing order (points, operator-settled outcomes).
   */
  legBits(selection: Selection): Uint32Array | null {
    const n = this.runners.length;
    const at = (id: string) => this.index.get(id);
    const direct = this.rankBits(selection, at);
    if (direct !== undefined) return direct;
    const test = this.predicate(selection, at);
    if (!test) return null;
    const bits = new Uint32Array(this.words);
    const ranks = this.ranks;
    for (let s = 0; s < this.samples; s++) {
      if (test(ranks, s * n)) bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
    }
    return bits;
  }

  /**
   * The legs read from finishing orders (a place, a top k, one runner ahead of another, an order,
   * places added up over or under a line, the team with the lowest places) in one loop without a call
   * per sample: the bet builder makes one bitset per outcome of the event. Undefined for other kinds.
   */
  private rankBits(selection: Selection, at: (id: string) => number | undefined): Uint32Array | null | undefined {
    const n = this.runners.length;
    const ranks = this.ranks;
    const bits = new Uint32Array(this.words);
    const fill = (a: number, lo: number, hi: number) => {
      for (let s = 0, base = a; s < this.samples; s++, base += n) {
        const rank = ranks[base] as number;
        if (rank >= lo && rank <= hi) bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
      }
      return bits;
    };
    switch (selection.kind) {
      case 'place': {
        const a = at(selection.athleteId);
        return a === undefined ? null : fill(a, selection.place, selection.place);
      }
      case 'top': {
        const a = at(selection.athleteId);
        return a === undefined ? null : fill(a, 1, selection.places);
      }
      case 'ahead': {
        const a = at(selection.athleteId);
        const o = at(selection.otherId);
        if (a === undefined || o === undefined) return null;
        for (let s = 0, base = 0; s < this.samples; s++, base += n)
          if ((ranks[base + a] as number) < (ranks[base + o] as number))
            bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
        return bits;
      }
      case 'order': {
        const ids = selection.athleteIds.map(at);
        if (ids.some((a) => a === undefined)) return null;
        const order = Int32Array.from(ids as number[]);
        for (let s = 0, base = 0; s < this.samples; s++, base += n) {
          let k = 0;
          while (k < order.length && ranks[base + (order[k] as number)] === k + 1) k++;
          if (k === order.length) bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
        }
        return bits;
      }
      case 'overUnder': {
        if (selection.measure !== 'finishingPosition') return undefined;
        const ids = selection.athleteIds.map(at);
        if (ids.some((a) => a === undefined)) return null;
        const athletes = Int32Array.from(ids as number[]);
        // The athletes' places added up, against a half line.
        const { line, side } = selection;
        for (let s = 0, base = 0; s < this.samples; s++, base += n) {
          let total = 0;
          for (let k = 0; k < athletes.length; k++) total += ranks[base + (athletes[k] as number)] as number;
          if (side === 'OVER' ? total > line : total < line)
            bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
        }
        return bits;
      }
      case 'group':
        return this.groupBits(selection, at, bits);
      default:
        return undefined;
    }
  }

  /** A team of the field wins with the lowest sum of places; a tie goes to the team listed first (as `predicate`). */
  private groupBits(
    selection: Extract<Selection, { kind: 'group' }>,
    at: (id: string) => number | undefined,
    bits: Uint32Array,
  ): Uint32Array | null | undefined {
    const n = this.runners.length;
    const ranks = this.ranks;
    const indices = (ids: readonly string[]) => {
      const out = ids.map(at);
      return out.every((i) => i !== undefined) ? (out as number[]) : null;
    };
    const own = indices(selection.athleteIds);
    const groups = selection.groups.map(indices);
    if (own === null || groups.some((g) => g === null)) return null;
    const teams = groups as number[][];
    const mine = teams.findIndex((g) => g.length === own.length && g.every((a, k) => a === own[k]));
    if (mine < 0) return undefined;
    const members = Int32Array.from(teams.flat());
    const ends = Int32Array.from(teams.map((_, k) => teams.slice(0, k + 1).reduce((sum, g) => sum + g.length, 0)));
    const sums = new Float64Array(teams.length);
    for (let s = 0, base = 0; s < this.samples; s++, base += n) {
      for (let k = 0, m = 0; k < teams.length; k++) {
        let sum = 0;
        for (; m < (ends[k] as number); m++) sum += ranks[base + (members[m] as number)] as number;
        sums[k] = sum;
      }
      const score = sums[mine] as number;
      let wins = true;
      for (let k = 0; k < teams.length && wins; k++)
        if (k !== mine) wins = k < mine ? (sums[k] as number) > score : (sums[k] as number) >= score;
      if (wins) bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
    }
    return bits;
  }

  private predicate(
    selection: Selection,
    at: (id: string) => number | undefined,
  ): ((ranks: Uint8Array | Uint16Array, base: number) => boolean) | null {
    const indices = (ids: readonly string[]) => {
      const out = ids.map(at);
      return out.every((i) => i !== undefined) ? (out as number[]) : null;
    };
    switch (selection.kind) {
      case 'place': {
        const a = at(selection.athleteId);
        const place = selection.place;
        return a === undefined ? null : (r, b) => r[b + a] === place;
      }
      case 'top': {
        const a = at(selection.athleteId);
        const places = selection.places;
        return a === undefined ? null : (r, b) => (r[b + a] as number) <= places;
      }
      case 'order': {
        const ids = indices(selection.athleteIds);
        return ids === null ? null : (r, b) => ids.every((a, k) => r[b + a] === k + 1);
      }
      case 'ahead': {
        const a = at(selection.athleteId);
        const o = at(selection.otherId);
        return a === undefined || o === undefined ? null : (r, b) => (r[b + a] as number) < (r[b + o] as number);
      }
      case 'overUnder': {
        if (selection.measure !== 'finishingPosition') return null;
        const ids = indices(selection.athleteIds);
        if (ids === null) return null;
        const { line, side } = selection;
        return (r, b) => {
          let total = 0;
          for (const a of ids) total += r[b + a] as number;
          return side === 'OVER' ? total > line : total < line;
        };
      }
      case 'group': {
        const own = indices(selection.athleteIds);
        const groups = selection.groups.map(indices);
        if (own === null || groups.some((g) => g === null)) return null;
        const mine = groups.findIndex((g) => g !== null && g.length === own.length && g.every((a, k) => a === own[k]));
        return (r, b) => {
          const sum = (g: number[]) => g.reduce((t, a) => t + (r[b + a] as number), 0);
          const score = sum(own);
          // A tie between teams goes to the one listed first, so that each sample has one winner.
          return groups.every(
            (g, k) => k === mine || (k < mine ? sum(g as number[]) > score : sum(g as number[]) >= score),
          );
        };
      }
      case 'matchScore':
      case 'operator':
        return null;
    }
  }
}

/** Samples in which every bitset is set. */
export function countAll(bitsets: readonly Uint32Array[]): number {
  const count = bitsets.length;
  if (count === 0) return 0;
  if (count === 1) return countOne(bitsets[0] as Uint32Array);
  const first = bitsets[0] as Uint32Array;
  let total = 0;
  for (let w = 0; w < first.length; w++) {
    let x = first[w] as number;
    for (let b = 1; b < count && x !== 0; b++) x &= (bitsets[b] as Uint32Array)[w] as number;
    total += popcount(x);
  }
  return total;
}

/** A leg's own count never changes for its bitset, so it is remembered with it. */
const ownCounts = new WeakMap<Uint32Array, number>();

function countOne(bits: Uint32Array): number {
  const known = ownCounts.get(bits);
  if (known !== undefined) return known;
  let total = 0;
  for (let w = 0; w < bits.length; w++) total += popcount(bits[w] as number);
  ownCounts.set(bits, total);
  return total;
}

function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export interface ParlayLegInput {
  /** The leg's published probability, 0 to 1. */
  published: number;
  /** Its wins over its scope's samples; null for a leg priced as independent of the others. */
  bits: Uint32Array | null;
}

export interface ParlayScopeInput {
  samples: number;
  legs: readonly ParlayLegInput[];
}

export interface ParlayProbability {
  probability: number;
  independentProbability: number;
  correlationFactor: number;
}

/**
 * Combines the legs, scope by scope. A combination the samples never drew counts as half a sample,
 * so that a rare but possible parlay gets a long price rather than none.
 */
export function parlayProbability(scopes: readonly ParlayScopeInput[]): ParlayProbability {
  let probability = 1;
  let independentProbability = 1;
  for (const scope of scopes) {
    const modelled = scope.legs.filter((leg) => leg.bits !== null);
    let joint = 1;
    for (const leg of scope.legs) independentProbability *= leg.published;
    for (const leg of scope.legs) if (leg.bits === null) joint *= leg.published;
    if (modelled.length > 0) {
      const share = (hits: number) => Math.max(hits, 0.5) / scope.samples;
      const bits = modelled.map((leg) => leg.bits as Uint32Array);
      let scaled = share(countAll(bits));
      for (const leg of modelled) scaled *= leg.published / share(countAll([leg.bits as Uint32Array]));
      joint *= Math.min(scaled, ...modelled.map((leg) => leg.published));
    }
    probability *= joint;
  }
  return { probability, independentProbability, correlationFactor: probability / independentProbability };
}

/** A leg decided by the first places alone, over runner indices: what the exact joint takes. */
export type OrderLeg =
  | { kind: 'place'; runner: number; place: number }
  | { kind: 'top'; runner: number; places: number }
  | { kind: 'order'; runners: readonly number[] };

/** The order leg a selection is, or null when it is not decided by the first places (or names someone outside). */
export function orderLegOf(selection: Selection, index: ReadonlyMap<string, number>): OrderLeg | null {
  switch (selection.kind) {
    case 'place': {
      const runner = index.get(selection.athleteId);
      return runner === undefined ? null : { kind: 'place', runner, place: selection.place };
    }
    case 'top': {
      const runner = index.get(selection.athleteId);
      return runner === undefined ? null : { kind: 'top', runner, places: selection.places };
    }
    case 'order': {
      const runners = selection.athleteIds.map((id) => index.get(id));
      return runners.some((r) => r === undefined) ? null : { kind: 'order', runners: runners as number[] };
    }
    default:
      return null;
  }
}

type LegState = 'won' | 'lost' | 'open';

/**
 * A leg against the first places of an order (`prefix`, -1 for a runner no leg names): won, lost, or
 * not decided yet. `at[runner]` is the runner's index in the prefix, -1 when absent.
 */
function legState(leg: OrderLeg, prefix: readonly number[], at: Int32Array): LegState {
  switch (leg.kind) {
    case 'place': {
      const where = at[leg.runner] as number;
      if (where >= 0) return where === leg.place - 1 ? 'won' : 'lost';
      return prefix.length >= leg.place ? 'lost' : 'open';
    }
    case 'top': {
      const where = at[leg.runner] as number;
      if (where >= 0) return where < leg.places ? 'won' : 'lost';
      return prefix.length >= leg.places ? 'lost' : 'open';
    }
    case 'order': {
      for (let k = 0; k < leg.runners.length; k++) {
        const where = at[leg.runners[k] as number] as number;
        if (where >= 0 && where !== k) return 'lost';
        if (k < prefix.length && prefix[k] !== leg.runners[k]) return 'lost';
      }
      return prefix.length >= leg.runners.length ? 'won' : 'open';
    }
  }
}

/** Whether the walk stops at this prefix: some leg lost ('lost'), every leg won ('won'), or neither (null). */
function settled(legs: readonly OrderLeg[], prefix: readonly number[], at: Int32Array): 'lost' | 'won' | null {
  let allWon = true;
  for (const leg of legs) {
    const state = legState(leg, prefix, at);
    if (state === 'lost') return 'lost';
    if (state !== 'won') allWon = false;
  }
  return allWon ? 'won' : null;
}

/**
 * How many prefixes the walk of `exactJoint` visits, or more than `cap` (it stops counting there).
 * Runners no leg names are alike to every leg, so the subtrees after each of them are counted once
 * and multiplied: a walk too large to take is known for the price of a few hundred steps.
 */
export function walkSize(runners: number, legs: readonly OrderLeg[], cap: number): number {
  const named = [...new Set(legs.flatMap((leg) => (leg.kind === 'order' ? leg.runners : [leg.runner])))];
  const at = new Int32Array(runners).fill(-1);
  const prefix: number[] = [];
  const others = runners - named.length;
  const size = (fillers: number, limit: number): number => {
    if (settled(legs, prefix, at) !== null) return 1;
    let nodes = 1;
    for (const runner of named) {
      if ((at[runner] as number) >= 0) continue;
      at[runner] = prefix.length;
      prefix.push(runner);
      nodes += size(fillers, limit - nodes);
      prefix.pop();
      at[runner] = -1;
      if (nodes > limit) return nodes;
    }
    const alike = others - fillers;
    if (alike > 0) {
      prefix.push(-1);
      nodes += alike * size(fillers + 1, Math.floor((limit - nodes) / alike) + 1);
      prefix.pop();
    }
    return nodes;
  };
  return size(0, cap);
}

/**
 * P(every leg wins), exactly: the orders are walked place by place, and a prefix of the order after
 * which every leg has won counts with its own probability (whatever follows), so that [A wins, B in
 * the top 3] is A-B plus the n - 2 orders A-x-B. Null when the walk would pass `budget` prefixes
 * (long top-k legs of several runners), known before walking (walkSize): the caller simulates instead.
 */
export function exactJoint(
  field: { runners: number; sequences(s: readonly (readonly number[])[]): number[] },
  legs: readonly OrderLeg[],
  budget = 50_000,
): number | null {
  if (walkSize(field.runners, legs, budget) > budget) return null;
  const leaves: number[][] = [];
  const at = new Int32Array(field.runners).fill(-1);
  const prefix: number[] = [];
  const walk = (): void => {
    const state = settled(legs, prefix, at);
    if (state === 'lost') return;
    if (state === 'won') {
      leaves.push(prefix.slice());
      return;
    }
    for (let runner = 0; runner < field.runners; runner++) {
      if ((at[runner] as number) >= 0) continue;
      at[runner] = prefix.length;
      prefix.push(runner);
      walk();
      prefix.pop();
      at[runner] = -1;
    }
  };
  walk();
  return field.sequences(leaves).reduce((a, b) => a + b, 0);
}
