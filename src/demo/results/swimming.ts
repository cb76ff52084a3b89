import type { ResultEvent, ResultHeat } from '../results.ts';
import type { Entrant, EventBuild } from './event-build.ts';
import { lastHeat, scoredHeat } from './heats.ts';
import { gauss, round2 } from './numbers.ts';

/** Swimming: timed heats, two semifinals of the fastest sixteen, a final of the fastest eight. */

export function swimming(b: EventBuild, event: ResultEvent): void {
  const rng = b.rng;
  const time = (entrant: Entrant): number | null => {
    // A false start or a bad turn disqualifies now and then.
    if (rng.chance(0.015)) return null;
    const s = entrant.athlete.strength;
    return round2(
      entrant.athlete.gender === 'women' ? 53.6 - 0.6 * s + 0.3 * gauss(rng) : 48.3 - 0.55 * s + 0.25 * gauss(rng),
    );
  };
  const swim = (heat: ResultHeat, entrants: readonly Entrant[]) => {
    const ranked = scoredHeat(b, heat, entrants, { score: time, lowerIsBetter: true, live: 'none' });
    if (heat.status === 'COMPLETED')
      for (const entrant of entrants)
        if (entrant.entry && entrant.entry.heatScore === undefined) entrant.entry.lapStatus = 'DSQ';
    return ranked;
  };
  const fastest = (entrants: Entrant[]) => entrants.sort((x, y) => x.mark - y.mark || x.order - y.order);
  let starters = b.field(48, 8);
  event.rounds.forEach((round, r) => {
    const count = round.heats.length;
    const keep = r === 0 ? 16 : 8;
    let groups: Entrant[][];
    if (r === 0) {
      // The fastest starters swim the last heat; the first heat takes what is left over.
      const sizes = Array.from(
        { length: count },
        (_, h) => Math.floor(starters.length / count) + (h >= count - (starters.length % count) ? 1 : 0),
      );
      const slowestFirst = [...starters].reverse();
      let at = 0;
      groups = sizes.map((size) => {
        const group = slowestFirst.slice(at, at + size).reverse();
        at += size;
        return group;
      });
    } else {
      // Circle seeding: the fastest in the last semifinal, the second fastest in the one before.
      groups = Array.from({ length: count }, () => []);
      starters.forEach((entrant, k) => {
        groups[count - 1 - (k % count)]?.push(entrant);
      });
    }
    const swum: Entrant[] = [];
    round.heats.forEach((heat, h) => {
      swum.push(...swim(heat, groups[h] ?? []));
    });
    if (r === event.rounds.length - 1) return;
    const ranked = fastest(swum);
    starters = ranked.slice(0, keep);
    for (const entrant of ranked.slice(keep)) b.out(entrant, lastHeat(round));
  });
}
