import type { ResultEvent } from '../results.ts';
import { ROTATION_COLOURS } from '../teams.ts';
import type { Entrant, EventBuild } from './event-build.ts';
import { scoredHeat, snake } from './heats.ts';
import { clamp, gauss } from './numbers.ts';

/**
 * Team-rotation leagues (athletesunlimited): a weekly draft into colour teams; games score
 * individual points.
 */

export function rotationLeague(b: EventBuild, event: ResultEvent): void {
  const rng = b.rng;
  const field = b.field(40, 8);
  const drafted = snake(field, ROTATION_COLOURS.length);
  const team = new Map<string, Entrant[]>(ROTATION_COLOURS.map((colour, i) => [colour, drafted[i] ?? []]));
  for (const round of event.rounds) {
    for (const heat of round.heats) {
      const [, home = ROTATION_COLOURS[0], away = ROTATION_COLOURS[1]] =
        /Team (\w+) vs\. Team (\w+)/.exec(heat.name) ?? [];
      const homePlayers = team.get(home) ?? [];
      const awayPlayers = team.get(away) ?? [];
      const strength = (entrants: readonly Entrant[]) =>
        entrants.reduce((sum, r) => sum + r.athlete.strength, 0) / Math.max(1, entrants.length);
      const homeWins = rng.chance(clamp(0.5 + 0.3 * (strength(homePlayers) - strength(awayPlayers)), 0.2, 0.8));
      const winners = new Set(homeWins ? homePlayers : awayPlayers);
      // Individual points: own play, plus a share of the win.
      const points = (entrant: Entrant) =>
        Math.round(clamp(15 + 8 * entrant.athlete.strength + 20 * gauss(rng), -40, 120)) +
        (winners.has(entrant) ? 40 : 0);
      scoredHeat(b, heat, [...homePlayers, ...awayPlayers], {
        score: points,
        live: 'partial',
        partial: (s, p) => Math.round(s * p),
      });
    }
  }
}
