import type { Random } from '../../domain/random.ts';
import { type NameContext, numbered, type Profile, periods, type Scorer } from './profile.ts';

/**
 * Team sports, whose rounds are periods: indoor soccer and football (scored here, period by period),
 * lacrosse, table tennis, 3-on-3 hockey, curling and Jai Alai (played out by their match models).
 */

/** A count of scoring plays: binomial, so no transcendental functions are needed. */
function plays(rng: Random, mean: number): number {
  const trials = Math.max(6, Math.ceil(mean * 3));
  const p = Math.min(0.95, Math.max(0, mean / trials));
  let count = 0;
  for (let i = 0; i < trials; i++) if (rng.chance(p)) count++;
  return count;
}

const edge = (own: number, other: number) => Math.max(0.4, 1 + 0.15 * (own - other));

const goalScorer =
  (mean: number): Scorer =>
  (rng, home, away) => [plays(rng, mean * edge(home, away) * 1.05), plays(rng, mean * edge(away, home))];

/** Indoor football: drives ending in touchdowns (7), field goals (3) or nothing. */
const footballScorer: Scorer = (rng, home, away) => {
  const side = (own: number, other: number) => {
    let points = 0;
    const drives = rng.int(1, 3);
    for (let i = 0; i < drives; i++) {
      const roll = rng.next() * edge(own, other);
      points += roll > 0.55 ? 7 : roll > 0.4 ? 3 : 0;
    }
    return points;
  };
  return [side(home, away), side(away, home)];
};

const awayAtHome = (ctx: NameContext) => `${ctx.away?.seed.name ?? 'TBD'} at ${ctx.home?.seed.name ?? 'TBD'}`;
const homeVsAway = (ctx: NameContext) => `${ctx.home?.seed.name ?? 'TBD'} vs. ${ctx.away?.seed.name ?? 'TBD'}`;
const QUARTERS = ['1st Quarter', '2nd Quarter', '3rd Quarter', '4th Quarter'];

export const TEAM_PROFILES: Readonly<Record<string, Profile>> = {
  masl: {
    tourName: 'MASL Regular Season',
    gender: 'men',
    spacingDays: 3,
    startHours: [0, 1],
    dayHours: 4,
    homeArena: true,
    rounds: () => periods(QUARTERS, 25, 5, 2),
    name: awayAtHome,
    scorer: goalScorer(3),
  },
  jaialai: {
    tourName: 'World Jai-Alai League',
    gender: 'men',
    // A card of about eight matches a night at one fronton; each match is an event of its own.
    spacingDays: 0.125,
    startHours: [17, 18, 19, 20, 21, 22],
    dayHours: 2,
    block: 8,
    rounds: () => periods(numbered('Set', 3), 10, 2),
    name: homeVsAway,
  },
  gsoc: {
    tourName: 'Grand Slam of Curling',
    gender: 'men',
    spacingDays: 2,
    startHours: [16, 20, 0],
    dayHours: 4,
    block: 6,
    rounds: () => periods(numbered('End', 8), 15, 1),
    name: (ctx) => `${ctx.venue.event}: ${homeVsAway(ctx)}`,
  },
  nll: {
    tourName: 'NLL Regular Season',
    gender: 'men',
    spacingDays: 3,
    startHours: [0, 1],
    dayHours: 4,
    homeArena: true,
    rounds: () => periods(QUARTERS, 30, 3, 2),
    name: awayAtHome,
  },
  mltt: {
    tourName: 'MLTT Regular Season',
    gender: 'mixed',
    spacingDays: 7,
    startHours: [18, 23],
    dayHours: 4,
    homeArena: true,
    rounds: () => periods(numbered('Game', 7), 12, 3),
    name: homeVsAway,
  },
  ifl: {
    tourName: 'IFL Regular Season',
    gender: 'men',
    spacingDays: 3,
    startHours: [0, 1],
    dayHours: 4,
    homeArena: true,
    rounds: () => periods(QUARTERS, 35, 3, 2),
    name: awayAtHome,
    scorer: footballScorer,
  },
  '3ice': {
    tourName: '3ICE Season',
    gender: 'men',
    spacingDays: 7,
    startHours: [23, 0],
    dayHours: 4,
    block: 4,
    rounds: () => periods(['1st Half', '2nd Half'], 15, 10),
    name: homeVsAway,
  },
};
