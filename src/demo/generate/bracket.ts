import type { Competition } from '../../domain/competitions.ts';
import { demoFirstHammer, demoMatchModel, demoMatchWinner } from '../matches.ts';
import type { TeamPlan } from './participants.ts';
import type { EventPlan } from './schedule.ts';
import { livePath } from './team-match.ts';

/**
 * The last seven games of each 3ICE season are its knockout bracket: four quarterfinals, two
 * semifinals and the final. Quarterfinalists are eight teams; later rounds take the winners of the
 * games that feed them, as played out by the score model, once those games are completed (until then
 * the game has no teams yet, and one whose feeders never finished is cancelled). Here the slots, the
 * quarterfinalists and the teams as the events were laid out; viewsAt fills in the rest as games end.
 */
export function planBracket(
  competition: Competition,
  plans: EventPlan[],
  teams: readonly TeamPlan[],
  now: number,
): void {
  if (competition.resultsFormat !== 'three-ice' || teams.length < 8) return;
  const seasons = new Map<number, EventPlan[]>();
  for (const p of plans)
    seasons.set(new Date(p.start).getUTCFullYear(), [...(seasons.get(new Date(p.start).getUTCFullYear()) ?? []), p]);
  for (const season of seasons.values()) {
    if (season.length < 8) continue;
    const games = season.slice(-7);
    const slots: Array<{ round: number; slot: number }> = [1, 2, 3, 4]
      .map((slot) => ({ round: 1, slot }))
      .concat([
        { round: 2, slot: 1 },
        { round: 2, slot: 2 },
        { round: 3, slot: 1 },
      ]);
    const ranked = [...teams].sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1)).slice(0, 8);
    // Seeds 1v8, 4v5, 2v7, 3v6, so that the top seeds meet only in the final.
    const pairs = [
      [0, 7],
      [3, 4],
      [1, 6],
      [2, 5],
    ] as const;
    games.forEach((game, i) => {
      const at = slots[i] as { round: number; slot: number };
      game.bracket = at;
      if (at.round === 1) {
        const [h, a] = pairs[at.slot - 1] as readonly [number, number];
        [game.home, game.away] = [ranked[h], ranked[a]];
      }
    });
    const fill = bracketFiller(competition, now);
    for (const game of games) {
      [game.home, game.away] = fill.teams(game);
      if ((!game.home || !game.away) && game.status === 'COMPLETED') game.status = 'CANCELLED';
      fill.played(game, game.status === 'COMPLETED');
    }
  }
}

/**
 * Fills a season's bracket in game order: `teams` gives a game's teams (the quarterfinalists' own, a
 * later game the winners of its feeders), `played` records whether the game is over, and so who won.
 */
export function bracketFiller(competition: Competition, now: number) {
  const winners = new Map<string, TeamPlan | undefined>();
  return {
    teams(game: EventPlan): [TeamPlan | undefined, TeamPlan | undefined] {
      const at = game.bracket;
      if (!at || at.round === 1) return [game.home, game.away];
      const feeder = (slot: number) => winners.get(`${at.round - 1}:${slot}`);
      return [feeder(2 * at.slot - 1), feeder(2 * at.slot)];
    },
    played(game: EventPlan, completed: boolean, home = game.home, away = game.away): void {
      if (!game.bracket) return;
      let winner: TeamPlan | undefined;
      if (completed && home && away) {
        const model = demoMatchModel(competition, home.strength, away.strength, demoFirstHammer(game.uuid));
        const side = model ? demoMatchWinner(competition, livePath(game, model, now)) : null;
        winner = side === 'home' ? home : side === 'away' ? away : undefined;
      }
      winners.set(`${game.bracket.round}:${game.bracket.slot}`, winner);
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Futures.
