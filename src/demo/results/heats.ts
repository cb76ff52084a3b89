import { hashSeed, Random } from '../../domain/random.ts';
import type { FeedHeatEntry, ResultHeat, ResultRound } from '../results.ts';
import { byOrder, type Entrant, type EventBuild, FINAL, LIVE, stageOf } from './event-build.ts';
import { indices } from './numbers.ts';

/**
 * What the sports' formats share: heats drawn from a field (snake, bracket, knockout and group
 * rounds) and heats scored with one number per athlete.
 */

/** Seeds dealt over `count` heats back and forth (1-2-3-4, 8-7-6-5...), so heats are even. */
export function snake<T>(items: readonly T[], count: number): T[][] {
  const out: T[][] = Array.from({ length: count }, () => []);
  items.forEach((item, i) => {
    const pass = Math.floor(i / count);
    const k = i % count;
    out[pass % 2 === 0 ? k : count - 1 - k]?.push(item);
  });
  return out;
}

/** Consecutive slices of (nearly) equal size. */
export function chunks<T>(items: readonly T[], count: number): T[][] {
  const size = Math.ceil(items.length / Math.max(1, count));
  return Array.from({ length: count }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** Standard bracket order of seeds (1, 16, 8, 9, 4, 13...): the top seeds meet as late as possible. */
function bracketOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const next = order.length * 2 + 1;
    order = order.flatMap((seed) => [seed, next - seed]);
  }
  return order;
}

/** Pairs a ranked list into `count` head-to-head heats by bracket order; a missing seed is a bye. */
function bracket(ranked: readonly Entrant[], count: number): Entrant[][] {
  const order = bracketOrder(count * 2);
  return Array.from({ length: count }, (_, h) =>
    [ranked[(order[2 * h] ?? 0) - 1], ranked[(order[2 * h + 1] ?? 0) - 1]].filter((r): r is Entrant => r !== undefined),
  );
}

export type HeatRunner = (heat: ResultHeat, entrants: readonly Entrant[]) => Entrant[];

/**
 * Head-to-head rounds: the first from a ranked list by bracket, each later one from the winners of
 * neighbouring heats. A loser is out, except in the last round (a runner-up is not eliminated).
 */
export function knockout(
  b: EventBuild,
  rounds: readonly ResultRound[],
  ranked: readonly Entrant[],
  run: HeatRunner,
): void {
  let groups = bracket(ranked, rounds[0]?.heats.length ?? 0);
  rounds.forEach((round, r) => {
    const last = r === rounds.length - 1;
    const winners: Entrant[] = [];
    round.heats.forEach((heat, h) => {
      const group = groups[h] ?? [];
      if (group.length === 0) return;
      const result = run(heat, group);
      const [winner, ...losers] = result;
      if (winner) winners.push(winner);
      if (!last) for (const loser of losers) b.out(loser, heat);
    });
    if (!last) groups = chunks(winners, rounds[r + 1]?.heats.length ?? 1).map((g) => g.sort(byOrder));
  });
}

/**
 * Group rounds: each round's athletes are dealt over its heats; the best `advance[r]` of each heat
 * go through, by place then seed, and the rest are out.
 */
export function groupRounds(
  b: EventBuild,
  rounds: readonly ResultRound[],
  field: readonly Entrant[],
  advance: readonly number[],
  run: HeatRunner,
): void {
  let starters: readonly Entrant[] = field;
  rounds.forEach((round, r) => {
    const last = r === rounds.length - 1;
    const through: Array<{ entrant: Entrant; place: number }> = [];
    const groups = snake(starters, round.heats.length);
    round.heats.forEach((heat, h) => {
      const group = groups[h] ?? [];
      if (group.length === 0) return;
      const ranked = run(heat, group);
      const keep = last ? ranked.length : (advance[r] ?? ranked.length);
      ranked.forEach((entrant, place) => {
        if (place < keep) through.push({ entrant, place });
        else b.out(entrant, heat);
      });
    });
    starters = through.sort((x, y) => x.place - y.place || x.entrant.order - y.entrant.order).map((t) => t.entrant);
  });
}

export const lastHeat = (round: ResultRound | undefined) => round?.heats[round.heats.length - 1];

/** A scored heat: one number per athlete (judged score, qualifying points, time, strokes, points). */
interface ScoreOptions {
  /** The athlete's final score in the heat; null for none (a disqualified swim, a run without a time). */
  score: (entrant: Entrant) => number | null;
  lowerIsBetter?: boolean;
  /** Equal scores share a position (1, 2, 2, 4). */
  ties?: boolean;
  /**
   * How a live heat looks: 'inOrder' the first athletes of the running order have their score (one
   * attempt each); 'partial' everybody has a running score; 'some' part of the heat has scored so far;
   * 'none' nothing until the heat is over.
   */
  live: 'inOrder' | 'partial' | 'some' | 'none';
  /**
   * The running score of a live heat from the final one (null: nothing scored yet). `own` is the
   * athlete's own random stream in this heat, the same at every clock, so a score moves only forward.
   */
  partial?: (score: number, progress: number, own: Random) => number | null;
}

export function scoredHeat(b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], o: ScoreOptions): Entrant[] {
  const entries = b.enter(heat, entrants);
  const n = entrants.length;
  const scores = new Array<number | null>(n);
  const worst = o.lowerIsBetter ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const entrant = entrants[i] as Entrant;
    const score = o.score(entrant);
    scores[i] = score;
    entrant.mark = score ?? worst;
  }
  const mark = (i: number) => (entrants[i] as Entrant).mark;
  const order = indices(n).sort((x, y) => (o.lowerIsBetter ? mark(x) - mark(y) : mark(y) - mark(x)) || x - y);
  const stage = stageOf(heat);
  if (stage === FINAL) {
    let place = 0;
    order.forEach((i, k) => {
      const score = scores[i] ?? null;
      if (score === null) return;
      const entry = entries[i] as FeedHeatEntry;
      entry.heatScore = score;
      place = o.ties && k > 0 && scores[order[k - 1] ?? 0] === score ? place : k + 1;
      entry.position = place;
    });
  } else if (stage === LIVE && o.live !== 'none') {
    const partial = o.partial ?? ((score: number) => score);
    const done = Math.floor(n * heat.progress);
    for (let i = 0; i < n; i++) {
      const score = scores[i] ?? null;
      if (score === null) continue;
      const entry = entries[i] as FeedHeatEntry;
      const soFar = () =>
        partial(score, heat.progress, new Random(hashSeed(heat.id, (entrants[i] as Entrant).athlete.id))) ?? undefined;
      if (o.live === 'inOrder' && i < done) entry.heatScore = score;
      else if (o.live === 'partial') entry.heatScore = soFar();
      else if (o.live === 'some' && b.rng.chance(0.3 + 0.7 * heat.progress)) entry.heatScore = soFar();
    }
  }
  return order.map((i) => entrants[i] as Entrant);
}
