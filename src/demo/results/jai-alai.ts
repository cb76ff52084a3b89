import type { ResultEvent } from '../results.ts';
import { type Entrant, type EventBuild, FINAL, LIVE, stageOf } from './event-build.ts';
import { clamp } from './numbers.ts';

/** Jai alai: each match is two pairs, its sets played to 7 (the last match of the night to 9). */

export function jaiAlai(b: EventBuild, event: ResultEvent): void {
  const rng = b.rng;
  const matches = event.rounds.map(() => rng.sample(b.athletes, Math.min(4, b.athletes.length)));
  const playing = [...new Set(matches.flat())].sort((x, y) => y.strength - x.strength || (x.id < y.id ? -1 : 1));
  const entrantOf = new Map(playing.map((athlete, i) => [athlete, b.add(athlete, i + 1, 'ACTIVE')]));
  event.rounds.forEach((round, r) => {
    const players = (matches[r] ?? []).map((athlete) => entrantOf.get(athlete) as Entrant);
    const target = r === event.rounds.length - 1 ? 9 : 7;
    const pairStrength = (k: number) =>
      ((players[k]?.athlete.strength ?? 0) + (players[k + 1]?.athlete.strength ?? 0)) / 2;
    for (const heat of round.heats) {
      const entries = b.enter(heat, players);
      const firstWins = rng.chance(clamp(0.5 + 0.25 * (pairStrength(0) - pairStrength(2)), 0.2, 0.8));
      const losing = rng.int(0, target - 1);
      const stage = stageOf(heat);
      entries.forEach((entry, k) => {
        const won = k < 2 === firstWins;
        const points = won ? target : losing;
        if (stage === FINAL) {
          entry.heatScore = points;
          entry.position = won ? 1 : 3;
        } else if (stage === LIVE) {
          entry.heatScore = Math.floor(points * heat.progress);
        }
      });
    }
  });
}
