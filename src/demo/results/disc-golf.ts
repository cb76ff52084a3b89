import type { ResultEvent } from '../results.ts';
import type { Entrant, EventBuild } from './event-build.ts';
import { chunks, lastHeat, scoredHeat } from './heats.ts';
import { clamp, gauss } from './numbers.ts';

/**
 * Disc golf: three rounds in cards of four or five (leaders together), then a final round of two
 * cards.
 */

export function discGolf(b: EventBuild, event: ResultEvent): void {
  const rng = b.rng;
  const cards = event.rounds[0]?.heats.length ?? 4;
  let standing = b.field(cards * rng.int(4, 5), 8);
  const strokes = (entrant: Entrant) => {
    // Strokes relative to par; a pro shoots about -4 a round.
    const score = Math.round(clamp(-4 - 2.5 * entrant.athlete.strength + 2.8 * gauss(rng), -15, 8));
    entrant.total += score;
    return score;
  };
  const last = event.rounds.length - 1;
  event.rounds.forEach((round, r) => {
    let groups: Entrant[][];
    if (r === last && r > 0) {
      const lead = standing.slice(0, 4);
      const chase = standing.slice(4, 8);
      // The leaders go out last, on the lead card.
      groups = round.heats.map((heat, h) =>
        /lead/i.test(heat.name) || (!/chase/i.test(heat.name) && h === round.heats.length - 1) ? lead : chase,
      );
      for (const entrant of standing.slice(8)) b.out(entrant, lastHeat(event.rounds[r - 1]));
    } else {
      groups = chunks(standing, round.heats.length);
    }
    round.heats.forEach((heat, h) => {
      scoredHeat(b, heat, groups[h] ?? [], {
        score: strokes,
        lowerIsBetter: true,
        ties: true,
        live: 'partial',
        partial: (s, p) => Math.round(s * p),
      });
    });
    standing = [...standing].sort((x, y) => x.total - y.total || x.order - y.order);
  });
}
