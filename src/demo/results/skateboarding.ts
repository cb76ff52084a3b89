import type { Random } from '../../domain/random.ts';
import type { FeedHeatEntry, ResultEvent, ResultHeat } from '../results.ts';
import { type Entrant, type EventBuild, FINAL, LIVE, stageOf } from './event-build.ts';
import { snake } from './heats.ts';
import { clamp, gauss, indices, round1, round2 } from './numbers.ts';

/** Skateboarding (sls): two runs and four tricks, two more tricks for the top four of a final. */

const SLS_FIELDS = [
  'lineScore1',
  'lineScore2',
  'trick1Score',
  'trick2Score',
  'trick3Score',
  'trick4Score',
  'trick5Score',
  'trick6Score',
] as const;

/**
 * The heat score: the sum of the three highest of the better run and the tricks, as the API's
 * roundScore counts them (docs/decisions.md: one run counts). -1 marks a score not (yet) given.
 */
function bestThree(scores: ArrayLike<number>, from: number, to: number): number {
  let first = -1;
  let second = -1;
  let third = -1;
  const consider = (x: number) => {
    if (x > first) [first, second, third] = [x, first, second];
    else if (x > second) [second, third] = [x, second];
    else if (x > third) third = x;
  };
  consider(Math.max(scores[from] ?? -1, scores[from + 1] ?? -1));
  for (let k = from + 2; k < to; k++) {
    const x = scores[k] ?? -1;
    if (x >= 0) consider(x);
  }
  return round2(Math.max(0, first) + Math.max(0, second) + Math.max(0, third));
}

function slsHeat(b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], final: boolean): Entrant[] {
  const rng = b.rng;
  const entries = b.enter(heat, entrants);
  const n = entrants.length;
  // Eight scores per skater (two runs, six tricks); -1 where a trick is not skated.
  const scores = new Float64Array(n * 8).fill(-1);
  const totals = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = (entrants[i] as Entrant).athlete.strength;
    for (let k = 0; k < 2; k++)
      scores[i * 8 + k] = rng.chance(0.18)
        ? round1(rng.float(0.5, 3))
        : round1(clamp(7 + 0.6 * s + 1.1 * gauss(rng), 3.5, 9.6));
    for (let k = 2; k < 6; k++) scores[i * 8 + k] = slsTrick(rng, s);
    totals[i] = bestThree(scores, i * 8, i * 8 + 6);
  }
  // A final gives the top four after four tricks two more tricks.
  const topFour = final
    ? indices(n)
        .sort((x, y) => (totals[y] ?? 0) - (totals[x] ?? 0) || x - y)
        .slice(0, 4)
    : [];
  for (const i of topFour) {
    const s = (entrants[i] as Entrant).athlete.strength;
    scores[i * 8 + 6] = slsTrick(rng, s);
    scores[i * 8 + 7] = slsTrick(rng, s);
    totals[i] = bestThree(scores, i * 8, i * 8 + 8);
  }
  const order = indices(n).sort((x, y) => (totals[y] ?? 0) - (totals[x] ?? 0) || x - y);
  const stage = stageOf(heat);
  // A live heat has run its first stages (run 1, run 2, trick 1...) for everyone.
  const stages = stage === FINAL ? 8 : stage === LIVE ? Math.floor(heat.progress * (final ? 8 : 6)) : 0;
  for (let i = 0; i < n; i++) {
    const entrant = entrants[i] as Entrant;
    entrant.mark = totals[i] ?? 0;
    if (stages === 0) continue;
    const entry = entries[i] as FeedHeatEntry;
    const shown = new Float64Array(8).fill(-1);
    for (let k = 0; k < stages; k++) {
      const value = scores[i * 8 + k] ?? -1;
      if (value < 0) continue;
      entry[SLS_FIELDS[k] as (typeof SLS_FIELDS)[number]] = value;
      shown[k] = value;
    }
    entry.heatScore = bestThree(shown, 0, 8);
  }
  if (stage === FINAL)
    order.forEach((i, k) => {
      (entries[i] as FeedHeatEntry).position = k + 1;
    });
  return order.map((i) => entrants[i] as Entrant);
}

/** A trick: bails are common and score 0 (now and then a low score); a make scores 4 to 9.9. */
function slsTrick(rng: Random, strength: number): number {
  if (rng.chance(clamp(0.38 - 0.06 * strength, 0.2, 0.55))) return rng.chance(0.85) ? 0 : round1(rng.float(0.5, 3));
  return round1(clamp(7.5 + 0.5 * strength + 0.9 * gauss(rng), 4, 9.9));
}

/** Qualifying heats of 4-6 (the top three of each through), a knockout round of two sixes, a final of eight. */
export function skateboarding(b: EventBuild, event: ResultEvent): void {
  const last = event.rounds.length - 1;
  let starters = b.field(24, 16);
  event.rounds.forEach((round, r) => {
    const keep = r === 0 ? 3 : 4;
    const through: Array<{ entrant: Entrant; place: number }> = [];
    const groups = snake(starters, round.heats.length);
    round.heats.forEach((heat, h) => {
      const ranked = slsHeat(b, heat, groups[h] ?? [], r === last);
      ranked.forEach((entrant, place) => {
        if (r === last || place < keep) through.push({ entrant, place });
        else b.out(entrant, heat);
      });
    });
    starters = through.sort((x, y) => x.place - y.place || y.entrant.mark - x.entrant.mark).map((t) => t.entrant);
  });
}
