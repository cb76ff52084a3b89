import type { FeedHeatEntry, ResultAthlete, ResultEvent, ResultHeat } from '../results.ts';
import { byOrder, type Entrant, type EventBuild, FINAL, LIVE, stageOf } from './event-build.ts';
import { lastHeat } from './heats.ts';
import { clamp, gauss, quarter } from './numbers.ts';

/**
 * Bull riding: rounds of rides, the top twelve to the championship round; a third of the events
 * are team events, where each heat is a game between two teams.
 */

/**
 * One ride. `riderScore` is the ride's score out of 100 (entrant and bull halves together, as the
 * sport publishes it), 0 for a buck-off; `bullScore` is the bull's half. `heatScore` is the ride
 * score, so a buck-off scores 0 and the aggregate is the sum of heat scores.
 */
function pbrHeat(b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[]): Entrant[] {
  const rng = b.rng;
  const entries = b.enter(heat, entrants);
  const stage = stageOf(heat);
  const rode = stage === FINAL ? entrants.length : stage === LIVE ? Math.floor(entrants.length * heat.progress) : 0;
  entrants.forEach((entrant, i) => {
    const s = entrant.athlete.strength;
    const bull = quarter(clamp(43.25 + 1.1 * gauss(rng), 40, 46.5));
    const score = rng.chance(clamp(0.64 - 0.07 * s, 0.45, 0.8))
      ? 0
      : quarter(clamp(86.5 + 1.4 * s + 1.8 * gauss(rng), 80, 93));
    entrant.mark = score;
    entrant.total += score;
    if (i >= rode) return;
    const entry = entries[i] as FeedHeatEntry;
    entry.riderScore = score;
    entry.bullScore = bull;
    entry.heatScore = score;
  });
  return [...entrants].sort((x, y) => y.mark - x.mark || x.order - y.order);
}

export function bullRiding(b: EventBuild, event: ResultEvent, teamIds: readonly string[]): void {
  if (teamIds.length >= 2 && event.seq % 3 === 1) {
    teamBullRiding(b, event, teamIds);
    return;
  }
  const field = b.field(40, 12);
  const last = event.rounds.length - 1;
  let entrants = field;
  event.rounds.forEach((round, r) => {
    if (r === last && r > 0) {
      const ranked = [...entrants].sort((x, y) => y.total - x.total || x.order - y.order);
      entrants = ranked.slice(0, 12);
      for (const entrant of ranked.slice(12)) b.out(entrant, lastHeat(event.rounds[r - 1]));
    }
    const count = round.heats.length;
    round.heats.forEach((heat, h) => {
      pbrHeat(
        b,
        heat,
        entrants.filter((_, k) => (k + r) % count === h),
      );
    });
  });
}

export const TEAM_GAME_EVENT_TYPE = 'PBR Teams';

/** Teams meet in pairs; the championship round is between the two best teams of the earlier games. */
function teamBullRiding(b: EventBuild, event: ResultEvent, teamIds: readonly string[]): void {
  const rng = b.rng;
  const rosters = new Map<string, ResultAthlete[]>(teamIds.map((id) => [id, []]));
  for (const athlete of b.athletes) if (athlete.teamId) rosters.get(athlete.teamId)?.push(athlete);
  const order = rng.shuffle(teamIds.filter((id) => (rosters.get(id)?.length ?? 0) > 0));
  if (order.length < 2) return;
  const last = event.rounds.length - 1;
  const earlyGames = event.rounds.reduce((sum, round, r) => sum + (r === last && r > 0 ? 0 : round.heats.length), 0);
  const playing = order.slice(0, Math.min(order.length, earlyGames * 2));
  const athletes = playing
    .flatMap((id) => rosters.get(id) ?? [])
    .sort((x, y) => y.strength - x.strength || (x.id < y.id ? -1 : 1));
  const entrantOf = new Map(athletes.map((athlete, i) => [athlete, b.add(athlete, i + 1, 'ACTIVE')]));
  const teamRiders = (id: string) =>
    (rosters.get(id) ?? []).map((athlete) => entrantOf.get(athlete) as Entrant).sort(byOrder);
  const teamScore = new Map<string, number>();
  let next = 0;
  event.rounds.forEach((round, r) => {
    for (const heat of round.heats) {
      let home: string;
      let away: string;
      if (r === last && r > 0) {
        const best = [...teamScore].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
        home = best[0]?.[0] ?? (order[0] as string);
        away = best[1]?.[0] ?? (order[1] as string);
      } else {
        home = playing[next++ % playing.length] as string;
        away = playing[next++ % playing.length] as string;
      }
      const homeRiders = teamRiders(home);
      const awayRiders = teamRiders(away);
      for (const entrant of [...homeRiders, ...awayRiders]) entrant.total = 0;
      pbrHeat(b, heat, [...homeRiders, ...awayRiders]);
      for (const entrant of homeRiders) if (entrant.entry) entrant.entry.teamId = home;
      for (const entrant of awayRiders) if (entrant.entry) entrant.entry.teamId = away;
      teamScore.set(home, (teamScore.get(home) ?? 0) + homeRiders.reduce((sum, entrant) => sum + entrant.total, 0));
      teamScore.set(away, (teamScore.get(away) ?? 0) + awayRiders.reduce((sum, entrant) => sum + entrant.total, 0));
      b.sink.teamGames.push({ heatId: heat.id, homeTeamId: home, awayTeamId: away, eventType: TEAM_GAME_EVENT_TYPE });
    }
  });
}
