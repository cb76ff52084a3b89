import type { Random } from '../../domain/random.ts';
import type { ResultEvent } from '../results.ts';
import { byOrder, type Entrant, type EventBuild } from './event-build.ts';
import { groupRounds, type HeatRunner, knockout, scoredHeat, snake } from './heats.ts';
import { clamp, gauss, round2 } from './numbers.ts';

/** Judged heats: surfing (wsl), action sports (xgame) and made-for-TV events (spectation). */

/** Surfing: the sum of the best two waves, each out of 10. */
function surfScore(rng: Random, entrant: Entrant): number {
  const wave = () => round2(clamp(5.9 + 0.8 * entrant.athlete.strength + 1.5 * gauss(rng), 0.5, 9.97));
  return round2(wave() + wave());
}

/** Action sports: one score out of 100 (the average of the judges, to two decimals). */
const actionScore =
  (mean: number) =>
  (rng: Random, entrant: Entrant): number =>
    round2(clamp(mean + 5 * entrant.athlete.strength + 8 * gauss(rng), 15, 98.5));

interface JudgedFormat {
  size: number;
  /** Athletes through from each heat to the next round. */
  advance: number;
  score: (rng: Random, entrant: Entrant) => number;
}

/** Judged heats other than surfing: heats of 4-8, the best of each through. */
const JUDGED: Readonly<Record<string, JudgedFormat>> = {
  xgame: { size: 32, advance: 4, score: actionScore(80) },
  spectation: { size: 24, advance: 2, score: actionScore(72) },
};

const judged =
  (b: EventBuild, score: (rng: Random, entrant: Entrant) => number): HeatRunner =>
  (heat, entrants) =>
    scoredHeat(b, heat, entrants, {
      score: (entrant) => score(b.rng, entrant),
      live: 'some',
      partial: judgedSoFar,
    });

/**
 * A judged athlete's running score in a live heat: it moves only when a wave or run is scored, at
 * moments of the athlete's own and by jumps of their own size (waves come in sets, with lulls between),
 * and the final score stands at the horn. Null until the first scored attempt.
 */
function judgedSoFar(score: number, progress: number, own: Random): number | null {
  const attempts = own.int(3, 7);
  const moments = Array.from({ length: attempts }, () => own.next()).sort((a, b) => a - b);
  const lifts = moments.map(() => own.float(0.25, 0.75));
  let share = 0;
  moments.forEach((moment, i) => {
    if (moment <= progress) share += (1 - share) * (lifts[i] as number);
  });
  return share === 0 ? null : round2(score * share);
}

/**
 * The Championship Tour format: an opening round of threes whose first two go straight to the round
 * of 32 and whose thirds surf an elimination round (its first two through), then man-on-man heats.
 */
function surfing(b: EventBuild, event: ResultEvent): void {
  const [opening, elimination, ...rest] = event.rounds;
  if (!opening || !elimination) return;
  const run = judged(b, surfScore);
  const direct: Entrant[] = [];
  const thirds: Entrant[] = [];
  const groups = snake(b.field(36, 24), opening.heats.length);
  opening.heats.forEach((heat, h) => {
    const ranked = run(heat, groups[h] ?? []);
    direct.push(...ranked.slice(0, 2));
    thirds.push(...ranked.slice(2));
  });
  const second = snake(thirds.sort(byOrder), elimination.heats.length);
  elimination.heats.forEach((heat, h) => {
    const ranked = run(heat, second[h] ?? []);
    direct.push(...ranked.slice(0, 2));
    for (const entrant of ranked.slice(2)) b.out(entrant, heat);
  });
  knockout(b, rest, direct.sort(byOrder), run);
}

/** Group rounds of judged heats, the best of each heat through to the next round. */
function judgedRounds(format: JudgedFormat) {
  return (b: EventBuild, event: ResultEvent): void => {
    groupRounds(b, event.rounds, b.field(format.size, 16), [format.advance, format.advance], judged(b, format.score));
  };
}

/** The competition's format: surfing's for wsl, group rounds of judged heats for the others. */
export function judgedFormat(key: string): (b: EventBuild, event: ResultEvent) => void {
  return key === 'wsl' ? surfing : judgedRounds(JUDGED[key] ?? { size: 24, advance: 2, score: actionScore(75) });
}
