import type { Random } from '../../domain/random.ts';
import type { ResultEvent, ResultHeat } from '../results.ts';
import { type Entrant, type EventBuild, resultStatusOf } from './event-build.ts';
import { knockout, lastHeat, scoredHeat } from './heats.ts';
import { clamp, gauss, round1, round3 } from './numbers.ts';

/**
 * Head-to-head battles after a qualifying round: drifting (a qualifying run for everyone, then tandem
 * battles of the top 32) and drag racing (four qualifying sessions for everyone, then pairs of the top
 * sixteen by best elapsed time).
 */

export function drifting(b: EventBuild, event: ResultEvent): void {
  const [qualifying, ...battles] = event.rounds;
  const heat = qualifying?.heats[0];
  if (!heat) return;
  const rng = b.rng;
  const field = b.field(b.athletes.length, 32);
  const points = (entrant: Entrant) => round1(clamp(84 + 5 * entrant.athlete.strength + 5 * gauss(rng), 60, 100));
  const ranked = scoredHeat(b, heat, field, { score: points, live: 'inOrder' });
  for (const entrant of ranked.slice(32)) b.out(entrant, heat);
  knockout(b, battles, ranked.slice(0, 32), (battle, entrants) =>
    headToHead(b, battle, entrants, 0.2, (winner, loser) => {
      const stored = rng.chance(0.3);
      if (stored && winner.entry && loser.entry) {
        winner.entry.position = 1;
        loser.entry.position = 2;
      }
      const roll = rng.next();
      return roll < 0.08 ? 'Judges decision' : roll < 0.12 ? 'One More Time' : null;
    }),
  );
}

/**
 * A two-athlete heat decided by a stored winner. `decide` stores anything else the sport sends and
 * returns the method (or null). Returns winner first.
 */
function headToHead(
  b: EventBuild,
  heat: ResultHeat,
  entrants: readonly Entrant[],
  edgePerStrength: number,
  decide: (winner: Entrant, loser: Entrant) => string | null,
): Entrant[] {
  b.enter(heat, entrants);
  const [first, second] = entrants;
  if (!first || !second) return [...entrants];
  const firstWins = b.rng.chance(
    clamp(0.5 + edgePerStrength * (first.athlete.strength - second.athlete.strength), 0.15, 0.85),
  );
  const [winner, loser] = firstWins ? [first, second] : [second, first];
  if (heat.status === 'COMPLETED') {
    const method = decide(winner, loser);
    b.sink.heatResults.push({
      heatId: heat.id,
      winnerAthleteId: winner.athlete.id,
      ...(method === null ? {} : { method }),
      ...resultStatusOf(heat),
    });
  }
  return [winner, loser];
}

/** A Top Fuel elapsed time, seconds; now and then a run goes up in smoke. */
function elapsedTime(rng: Random, entrant: Entrant): number | null {
  const roll = rng.next();
  if (roll < 0.02) return null;
  if (roll < 0.1) return round3(rng.float(4.2, 8.5));
  return round3(clamp(3.72 - 0.022 * entrant.athlete.strength + 0.025 * gauss(rng), 3.62, 3.95));
}

export function dragRacing(b: EventBuild, event: ResultEvent): void {
  const [qualifying, ...ladder] = event.rounds;
  if (!qualifying) return;
  const rng = b.rng;
  const field = b.field(b.athletes.length, 16);
  for (const entrant of field) entrant.total = Number.POSITIVE_INFINITY;
  const session = (entrant: Entrant) => {
    const et = elapsedTime(rng, entrant);
    if (et !== null && et < entrant.total) entrant.total = et;
    return et;
  };
  for (const heat of qualifying.heats)
    scoredHeat(b, heat, field, { score: session, lowerIsBetter: true, live: 'inOrder' });
  const ranked = [...field].sort((x, y) => x.total - y.total || x.order - y.order);
  for (const entrant of ranked.slice(16)) b.out(entrant, lastHeat(qualifying));
  knockout(b, ladder, ranked.slice(0, 16), (pair, entrants) => {
    const result = headToHead(b, pair, entrants, 0.2, (winner, loser) => {
      // The winner usually ran the quicker time; a red light hands the pair to the slower car.
      const redLight = rng.chance(0.04);
      const quick = elapsedTime(rng, winner) ?? 3.9;
      const slow = round3(quick + rng.float(0.005, 0.4));
      if (winner.entry) winner.entry.heatScore = redLight ? slow : quick;
      if (loser.entry) loser.entry.heatScore = redLight ? quick : slow;
      // Drag racing stores a position for the winner only, when it stores one at all.
      if (winner.entry && rng.chance(0.6)) winner.entry.position = 1;
      return redLight ? 'Red light' : null;
    });
    return result;
  });
}
