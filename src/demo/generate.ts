import { COMPETITIONS, type Competition, formatIn, getCompetition, TEAM_GAME_FORMATS } from '../domain/competitions.ts';
import { type EventStatus, FUTURE_TYPES, type FutureType, type Gender } from '../domain/enumerations.ts';
import { decimalToAmerican } from '../domain/odds-format.ts';
import type { TeamMatchModel } from '../domain/pricing/team-match-model.ts';
import { hashSeed, Random } from '../domain/random.ts';
import type { PeriodScore } from '../domain/results/match-score.ts';
import type { FeedDocument } from '../ingest/feed-schema.ts';
import { type DemoTeamGame, demoMarkets, demoTeamMarkets, inPlayEventMarkets, type TeamGameState } from './markets.ts';
import {
  demoFirstHammer,
  demoMatchMarkets,
  demoMatchModel,
  demoMatchPath,
  demoMatchWinner,
  inPlayMatchOdds,
  type MatchState,
  tableTennisGame,
} from './matches.ts';
import {
  NATIONALITIES,
  type NationalityPool,
  RIDER_TEAMS,
  ROTATION_COLOURS,
  SPORT_NATIONALITIES,
  TEAMS,
  type TeamSeed,
  VENUES,
  type Venue,
  WEIGHT_CLASSES,
} from './names.ts';
import { ReplayRandom } from './replay-random.ts';
import {
  type EventMarketInput,
  type EventResultsGenerator,
  eventResultsGenerator,
  type ResultHeat,
  type ResultRound,
  type ResultSink,
} from './results.ts';

/**
 * Deterministic demo data: feed documents (the operator's input format) for every competition of the
 * catalogue, laid out around `now` so that past events are completed, one per competition is live and
 * the rest are upcoming, with heat entries and results as far as each event has got (results.ts).
 * The same seed and `now` always give the same documents. The same events can be taken to any later
 * `clock` (heats go live and complete, the next events open): what the live simulator does.
 */

export interface DemoOptions {
  /** The time the events are laid out around. */
  now: Date;
  /**
   * The time the data stands at (default `now`): statuses, heats, scores, laps and results as they are
   * then, for the events laid out around `now`; documents are stamped with it.
   */
  clock?: Date;
  seed?: number;
  /** Total events across all competitions, shared out as evenly as possible; default 8 per competition. */
  events?: number;
  /** Only these competitions' documents (by key); the events are laid out as in the whole dataset. */
  competitions?: readonly string[];
  /** Upper bound on events per yielded document (default 2000). */
  maxEventsPerChunk?: number;
  /**
   * A document is closed once it holds this many items (rounds, heats, heat entries, laps...), even
   * with fewer events: lap racing makes about a thousand per event (default 250000).
   */
  maxItemsPerChunk?: number;
  /**
   * false leaves the events' markets and odds out (default true): every other item is the same, since
   * pricing draws from streams of its own. For datasets whose shape matters, not their prices.
   */
  markets?: boolean;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_EVENTS_PER_COMPETITION = 8;
export const DEFAULT_MAX_EVENTS_PER_CHUNK = 2000;
export const DEFAULT_MAX_ITEMS_PER_CHUNK = 250_000;

type Item<K extends keyof FeedDocument> = NonNullable<FeedDocument[K]> extends ReadonlyArray<infer T> ? T : never;
type FeedTour = Item<'tours'>;
type FeedTourYear = Item<'tourYears'>;
type FeedTeam = Item<'teams'>;
type FeedAthlete = Item<'athletes'>;
type FeedEvent = Item<'events'>;
type FeedRound = Item<'rounds'>;
type FeedHeat = Item<'heats'>;
type FeedRoundScore = Item<'roundScores'>;
type FeedFuture = Item<'futures'>;
type FeedFutureOdd = Item<'futureOdds'>;
type FeedFuturePrice = FeedFutureOdd['odds'][number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Past events reach back at most this far, upcoming ones forward, however many events are asked for. */
const MAX_PAST_DAYS = 400;
const MAX_FUTURE_DAYS = 300;
/** Future odds items per future (the field is cut to its strongest entrants). */
const MAX_FIELD = 20;

// ---------------------------------------------------------------------------------------------------
// Sport profiles: season rhythm, event format and naming per competition.

interface RoundSpec {
  name: string;
  /** Heat names; null for team sports, whose rounds are periods that carry scores and no heats. */
  heats: readonly string[] | null;
  /** Length of one heat (or of the period) in minutes. */
  minutes: number;
  /** Minutes between heats of this round. */
  gap?: number;
  /** Minutes between the previous round and this one. */
  gapBefore?: number;
  /** Starts on the next competition day. */
  newDay?: boolean;
}

/** Scores one completed period as [home, away]; strengths are roughly N(0, 1). */
type Scorer = (rng: Random, home: number, away: number) => [number, number];

interface NameContext {
  rng: Random;
  competition: Competition;
  venue: Venue;
  /** Occurrence of this venue's event name within the season (1-based). */
  venueCount: number;
  /** Chronological index of the event in the whole dataset of this competition. */
  seq: number;
  athletes: readonly AthletePlan[];
  home: TeamPlan | undefined;
  away: TeamPlan | undefined;
}

interface Profile {
  tourName: string;
  gender: Gender;
  /** Typical days between events, before squeezing many events into the window. */
  spacingDays: number;
  /** UTC hours at which an event's first heat may start. */
  startHours: readonly number[];
  /** Length of one competition day in hours; heats that do not fit move to the next day. */
  dayHours: number;
  athletes?: readonly [number, number];
  ages?: readonly [number, number];
  /** Surfing-style waiting period: the event spans more days than its action. */
  window?: { minDays: number; maxDays: number; maxLeadDays: number };
  /** Venues host this many consecutive events (touring team sports). */
  block?: number;
  /** Team sports that play at the home team's arena. */
  homeArena?: boolean;
  rounds(rng: Random): RoundSpec[];
  name?(ctx: NameContext): string;
  scorer?: Scorer;
}

const numbered = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);
const spec = (
  name: string,
  heats: readonly string[] | null,
  minutes: number,
  extra: Partial<RoundSpec> = {},
): RoundSpec => ({ name, heats, minutes, ...extra });
const periods = (names: readonly string[], minutes: number, gap: number, halftimeBefore?: number): RoundSpec[] =>
  names.map((name, i) => spec(name, null, minutes, { gapBefore: i === halftimeBefore ? gap * 3 : gap }));

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

const COMBAT_PREFIX: Readonly<Record<string, readonly [string, number]>> = {
  bkfc: ['BKFC', 60],
  byb: ['BYB', 30],
  lux: ['LUX', 40],
  raf: ['RAF', 1],
  powerslap: ['Power Slap', 10],
};

function combatName(ctx: NameContext): string {
  const [prefix, base] = COMBAT_PREFIX[ctx.competition.key] ?? [ctx.competition.name, 1];
  if (ctx.rng.chance(0.25)) return `${prefix} Fight Night ${ctx.venue.event}`;
  const byClass = new Map<string, AthletePlan[]>();
  for (const athlete of ctx.athletes) {
    const group = byClass.get(athlete.weightClass ?? '') ?? [];
    group.push(athlete);
    byClass.set(athlete.weightClass ?? '', group);
  }
  const classes = [...byClass.values()].filter((group) => group.length >= 2);
  const [a, b] = classes.length > 0 ? ctx.rng.sample(ctx.rng.pick(classes), 2) : ctx.rng.sample(ctx.athletes, 2);
  return a && b ? `${prefix} ${base + ctx.seq}: ${a.lastName} vs. ${b.lastName}` : `${prefix} ${base + ctx.seq}`;
}

const combat = (
  tourName: string,
  spacingDays: number,
  boutMinutes: number,
  bouts: readonly [number, number],
): Profile => ({
  tourName,
  gender: 'men',
  spacingDays,
  startHours: [23, 0, 1],
  dayHours: 8,
  athletes: [28, 40],
  ages: [21, 38],
  rounds: (rng) => [spec('Main Card', numbered('Bout', rng.int(bouts[0], bouts[1])), boutMinutes, { gap: 5 })],
  name: combatName,
});

const sprintCars = (tourName: string, qualifying: RoundSpec, last: string): Profile => ({
  tourName,
  gender: 'men',
  spacingDays: 4,
  startHours: [23, 0],
  dayHours: 5,
  athletes: [24, 36],
  rounds: () => [
    qualifying,
    spec('Heat Races', numbered('Heat', 4), 8, { gap: 4, gapBefore: 20 }),
    spec(last, [last], 10, { gapBefore: 20 }),
    spec('Feature', ['Feature'], 25, { gapBefore: 20 }),
  ],
});

const awayAtHome = (ctx: NameContext) => `${ctx.away?.seed.name ?? 'TBD'} at ${ctx.home?.seed.name ?? 'TBD'}`;
const homeVsAway = (ctx: NameContext) => `${ctx.home?.seed.name ?? 'TBD'} vs. ${ctx.away?.seed.name ?? 'TBD'}`;
const QUARTERS = ['1st Quarter', '2nd Quarter', '3rd Quarter', '4th Quarter'];

const PROFILES: Readonly<Record<string, Profile>> = {
  wsl: {
    tourName: "Men's Championship Tour",
    gender: 'men',
    spacingDays: 21,
    startHours: [17, 18, 19],
    dayHours: 9,
    athletes: [34, 36],
    window: { minDays: 10, maxDays: 12, maxLeadDays: 4 },
    rounds: () => [
      spec('Opening Round', numbered('Heat', 12), 30, { gap: 5 }),
      spec('Elimination Round', numbered('Heat', 4), 30, { gap: 5 }),
      spec('Round of 32', numbered('Heat', 16), 30, { gap: 5, newDay: true }),
      spec('Round of 16', numbered('Heat', 8), 35, { gap: 5 }),
      spec('Quarterfinals', numbered('Heat', 4), 35, { gap: 5, newDay: true }),
      spec('Semifinals', numbered('Heat', 2), 35, { gap: 5 }),
      spec('Final', ['Heat 1'], 40, { gapBefore: 30 }),
    ],
  },
  sls: {
    tourName: 'SLS Championship Tour',
    gender: 'men',
    spacingDays: 30,
    startHours: [18, 20],
    dayHours: 8,
    athletes: [16, 24],
    ages: [16, 32],
    rounds: () => [
      spec('Qualifying', numbered('Heat', 4), 50, { gap: 10 }),
      spec('Knockout Round', numbered('Heat', 2), 45, { gap: 10, newDay: true }),
      spec('Final', ['Final'], 60, { gapBefore: 60 }),
    ],
  },
  spr: {
    tourName: 'AMA Supercross 450SX',
    gender: 'men',
    spacingDays: 7,
    startHours: [17, 18],
    dayHours: 10,
    athletes: [22, 30],
    rounds: () => [
      spec('Qualifying', ['Qualifying 1', 'Qualifying 2'], 20, { gap: 30 }),
      spec('Heats', ['Heat 1', 'Heat 2'], 15, { gap: 10, gapBefore: 240 }),
      spec('Last Chance Qualifier', ['LCQ'], 12, { gapBefore: 40 }),
      spec('Main Event', ['Main Event'], 25, { gapBefore: 45 }),
    ],
  },
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
  pbr: {
    tourName: 'Unleash The Beast',
    gender: 'men',
    spacingDays: 7,
    startHours: [0, 1],
    dayHours: 4,
    athletes: [30, 40],
    rounds: () => [
      spec('Round 1', ['Heat 1', 'Heat 2'], 45, { gap: 15 }),
      spec('Round 2', ['Heat 1', 'Heat 2'], 45, { gap: 15, newDay: true }),
      spec('Championship Round', ['Heat 1'], 40, { gapBefore: 30 }),
    ],
  },
  bkfc: combat('BKFC', 14, 25, [8, 12]),
  f1: {
    tourName: 'FIA Formula One World Championship',
    gender: 'men',
    spacingDays: 14,
    startHours: [11, 12, 13],
    dayHours: 5,
    athletes: [20, 20],
    ages: [18, 40],
    rounds: () => [
      spec('Practice', ['Practice 1', 'Practice 2', 'Practice 3'], 60, { gap: 120 }),
      spec('Qualifying', ['Q1', 'Q2', 'Q3'], 18, { gap: 8, gapBefore: 120 }),
      spec('Race', ['Grand Prix'], 100, { newDay: true }),
    ],
  },
  motocrs: {
    tourName: 'Pro Motocross 450 Class',
    gender: 'men',
    spacingDays: 7,
    startHours: [14, 15],
    dayHours: 9,
    athletes: [30, 40],
    rounds: () => [
      spec('Qualifying', ['Group A', 'Group B'], 25, { gap: 15 }),
      spec('Consolation Race', ['Consi'], 15, { gapBefore: 120 }),
      spec('Moto 1', ['Moto 1'], 40, { gapBefore: 60 }),
      spec('Moto 2', ['Moto 2'], 40, { gapBefore: 150 }),
    ],
  },
  fdrift: {
    tourName: 'Formula DRIFT PRO Championship',
    gender: 'men',
    spacingDays: 21,
    startHours: [17, 18],
    dayHours: 8,
    athletes: [32, 36],
    rounds: () => [
      spec('Qualifying', ['Qualifying'], 180),
      spec('Top 32', numbered('Battle', 16), 4, { gap: 2, newDay: true }),
      spec('Top 16', numbered('Battle', 8), 4, { gap: 2, gapBefore: 30 }),
      spec('Great 8', numbered('Battle', 4), 4, { gap: 2, gapBefore: 20 }),
      spec('Final Four', numbered('Battle', 2), 5, { gap: 3, gapBefore: 15 }),
      spec('Final', ['Battle 1'], 5, { gapBefore: 15 }),
    ],
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
  motoamerica: {
    tourName: 'MotoAmerica Superbike',
    gender: 'men',
    spacingDays: 14,
    startHours: [14, 15],
    dayHours: 8,
    athletes: [20, 28],
    rounds: () => [
      spec('Qualifying', ['Q1', 'Q2'], 30, { gap: 120 }),
      spec('Race 1', ['Race 1'], 35, { newDay: true }),
      spec('Race 2', ['Race 2'], 35, { newDay: true }),
    ],
  },
  byb: combat('BYB Extreme', 21, 25, [8, 11]),
  powerslap: combat('Power Slap League', 14, 10, [8, 14]),
  usac: sprintCars('USAC National Sprint Car Series', spec('Qualifying', ['Qualifying'], 30), 'Semi-Feature'),
  nhra: {
    tourName: 'NHRA Top Fuel',
    gender: 'men',
    spacingDays: 10,
    startHours: [17, 18],
    dayHours: 7,
    athletes: [16, 24],
    ages: [22, 55],
    rounds: () => [
      spec('Qualifying', ['Q1', 'Q2', 'Q3', 'Q4'], 45, { gap: 150 }),
      spec('Round 1', numbered('Pair', 8), 4, { gap: 3, newDay: true }),
      spec('Quarterfinals', numbered('Pair', 4), 4, { gap: 3, gapBefore: 75 }),
      spec('Semifinals', numbered('Pair', 2), 4, { gap: 3, gapBefore: 75 }),
      spec('Final', ['Pair 1'], 4, { gapBefore: 75 }),
    ],
  },
  sprmtcrs: {
    tourName: 'SuperMotocross World Championship 450',
    gender: 'men',
    spacingDays: 7,
    startHours: [17, 18],
    dayHours: 9,
    athletes: [22, 30],
    rounds: () => [
      spec('Qualifying', ['Qualifying 1', 'Qualifying 2'], 20, { gap: 30 }),
      spec('Last Chance Qualifier', ['LCQ'], 12, { gapBefore: 180 }),
      spec('Moto 1', ['Moto 1'], 25, { gapBefore: 45 }),
      spec('Moto 2', ['Moto 2'], 25, { gapBefore: 60 }),
    ],
  },
  hlrs: sprintCars(
    'High Limit Racing',
    spec('Qualifying', ['Flight A', 'Flight B'], 15, { gap: 5 }),
    'Last Chance Showdown',
  ),
  // An X Games or a swim meet runs men's and women's events apart: each demo tour is one field.
  xgame: {
    tourName: 'X Games',
    gender: 'men',
    spacingDays: 60,
    startHours: [17, 18],
    dayHours: 8,
    athletes: [24, 40],
    ages: [15, 34],
    rounds: () => [
      spec('Qualifying', numbered('Heat', 4), 30, { gap: 10 }),
      spec('Semifinals', numbered('Heat', 2), 30, { gap: 10, newDay: true }),
      spec('Final', ['Final'], 45, { newDay: true }),
    ],
  },
  worldoutlaws: sprintCars(
    'World of Outlaws Sprint Car Series',
    spec('Qualifying', ['Group A', 'Group B'], 15, { gap: 5 }),
    'Last Chance Showdown',
  ),
  dgpt: {
    tourName: 'Disc Golf Pro Tour MPO',
    gender: 'men',
    spacingDays: 7,
    startHours: [13, 14],
    dayHours: 9,
    athletes: [30, 40],
    rounds: () => [
      spec('Round 1', numbered('Card', 4), 60, { gap: 10 }),
      spec('Round 2', numbered('Card', 4), 60, { gap: 10, newDay: true }),
      spec('Round 3', numbered('Card', 4), 60, { gap: 10, newDay: true }),
      spec('Final Round', ['Chase Card', 'Lead Card'], 60, { gap: 10, newDay: true }),
    ],
  },
  athletesunlimited: {
    tourName: 'Athletes Unlimited Pro Leagues',
    gender: 'women',
    spacingDays: 7,
    startHours: [22, 23],
    dayHours: 5,
    athletes: [24, 40],
    rounds: (rng) =>
      ['Game 1', 'Game 2', 'Game 3'].map((name, i) => {
        const [a, b] = rng.sample(ROTATION_COLOURS, 2);
        return spec(name, [`Team ${a ?? 'Gold'} vs. Team ${b ?? 'Blue'}`], 150, { newDay: i > 0 });
      }),
    name: (ctx) => `${ctx.venue.event} Week ${ctx.venueCount}`,
  },
  lux: combat('LUX Fight League', 21, 25, [8, 11]),
  raf: combat('Real American Freestyle', 30, 15, [8, 10]),
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
  spectation: {
    tourName: 'Spectation Sports Series',
    gender: 'mixed',
    spacingDays: 30,
    startHours: [0, 1],
    dayHours: 5,
    athletes: [16, 24],
    rounds: () => [
      spec('Round 1', numbered('Heat', 4), 20, { gap: 5 }),
      spec('Semifinals', numbered('Heat', 2), 20, { gap: 5, gapBefore: 20 }),
      spec('Final', ['Final'], 25, { gapBefore: 20 }),
    ],
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
  swimming: {
    tourName: 'Pro Swim Series',
    gender: 'women',
    spacingDays: 21,
    startHours: [14, 15],
    dayHours: 10,
    athletes: [24, 40],
    ages: [16, 32],
    rounds: () => [
      spec('Heats', numbered('Heat', 6), 6, { gap: 3 }),
      spec('Semifinals', ['Semifinal 1', 'Semifinal 2'], 6, { gap: 5, gapBefore: 420 }),
      spec('Final', ['Final'], 6, { newDay: true }),
    ],
  },
};

function profileOf(competition: Competition): Profile {
  const profile = PROFILES[competition.key];
  if (!profile) throw new Error(`no demo profile for competition ${competition.key}`);
  return profile;
}

// ---------------------------------------------------------------------------------------------------
// Participants.

interface AthletePlan {
  id: string;
  name: string;
  lastName: string;
  weightClass: string | undefined;
  strength: number;
  feed: FeedAthlete;
}

interface TeamPlan {
  id: string;
  index: number;
  seed: TeamSeed;
  strength: number;
  feed: FeedTeam;
}

const POOLS = new Map(NATIONALITIES.map((p) => [p.code, p]));

function slug(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function makeAthletes(
  competition: Competition,
  profile: Profile,
  gender: Gender,
  rng: Random,
  now: Date,
): AthletePlan[] {
  const [min, max] = profile.athletes ?? [16, 40];
  const [minAge, maxAge] = profile.ages ?? [19, 36];
  const count = rng.int(min, max);
  const weights = SPORT_NATIONALITIES[competition.key] ?? [['USA', 1]];
  const classes = WEIGHT_CLASSES[competition.key];
  const used = new Set<string>();
  const athletes: AthletePlan[] = [];
  for (let i = 0; i < count; i++) {
    const athleteGender: 'men' | 'women' =
      gender === 'mixed' ? (rng.chance(0.5) ? 'men' : 'women') : gender === 'women' ? 'women' : 'men';
    let nation: NationalityPool | undefined;
    let firstName = '';
    let lastName = '';
    for (let attempt = 0; attempt < 40; attempt++) {
      nation = POOLS.get(rng.weighted(weights)) ?? NATIONALITIES[0];
      if (!nation) throw new Error('empty nationality pool');
      firstName = rng.pick(athleteGender === 'men' ? nation.male : nation.female);
      lastName = rng.pick(nation.last);
      // No two athletes of a field share a name, and nobody is called Mitchell Mitchell.
      if (!used.has(`${firstName} ${lastName}`) && firstName !== lastName) break;
    }
    used.add(`${firstName} ${lastName}`);
    if (!nation) throw new Error('empty nationality pool');

    const weightClass = classes ? rng.pick(classes) : undefined;
    const heightCm = Math.round(rng.normal(athleteGender === 'men' ? 178 : 167, athleteGender === 'men' ? 7 : 6));
    const weightKg = weightClass
      ? Math.round((weightClass[1] - rng.float(0.2, 4)) * 10) / 10
      : Math.round(rng.normal(23, 1.5) * (heightCm / 100) ** 2 * 10) / 10;
    const age = rng.int(minAge, maxAge);
    const dob = `${now.getUTCFullYear() - age}-${pad2(rng.int(1, 12))}-${pad2(rng.int(1, 28))}`;
    const id = `${competition.key}-athlete-${String(i + 1).padStart(3, '0')}`;
    const feed: FeedAthlete = {
      id,
      firstName,
      lastName,
      nationality: nation.code,
      ...(competition.key === 'wsl' ? { stance: rng.chance(0.55) ? 'Regular' : 'Goofy' } : {}),
      hometown: rng.chance(0.7) ? `${rng.pick(nation.cities)}, ${nation.country}` : null,
      // Some feeds do not record height or weight; the API publishes null then.
      height: rng.chance(0.12) ? null : heightCm,
      weight: rng.chance(0.12) ? null : weightKg,
      gender: athleteGender,
      ...(weightClass ? { weightClass: weightClass[0] } : {}),
      dob,
    };
    athletes.push({
      id,
      name: `${firstName} ${lastName}`,
      lastName,
      weightClass: weightClass?.[0],
      strength: rng.normal(),
      feed,
    });
  }
  return athletes;
}

function makeTeams(competition: Competition, rng: Random): TeamPlan[] {
  const pool = TEAMS[competition.key] ?? [];
  // 8-12 where the pool allows, so every future prices at least eight outcomes.
  const count = Math.min(pool.length, rng.int(8, 12));
  return rng.sample(pool, count).map((seed, index) => {
    const id = `${competition.key}-team-${slug(seed.shortName)}`;
    return {
      id,
      index,
      seed,
      strength: rng.normal(),
      feed: {
        id,
        competition: competition.key,
        name: seed.name,
        shortName: seed.shortName,
        logo: `https://assets.altsports.example/logos/${competition.key}/${slug(seed.shortName)}.png`,
      },
    };
  });
}

/**
 * Teams of a bull-riding tour, for its team events: every rider rides for one, dealt back and forth by
 * strength so that the teams are even. No draws, so the athletes and everything after are unchanged.
 */
function makeRiderTeams(competition: Competition, athletes: readonly AthletePlan[]): FeedTeam[] {
  const teams: FeedTeam[] = (RIDER_TEAMS[competition.key] ?? []).map((seed) => ({
    id: `${competition.key}-team-${slug(seed.shortName)}`,
    competition: competition.key,
    name: seed.name,
    shortName: seed.shortName,
    logo: `https://assets.altsports.example/logos/${competition.key}/${slug(seed.shortName)}.png`,
  }));
  if (teams.length === 0) return teams;
  const byStrength = [...athletes].sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1));
  byStrength.forEach((athlete, i) => {
    const pass = Math.floor(i / teams.length);
    const k = i % teams.length;
    athlete.feed.teamId = teams[pass % 2 === 0 ? k : teams.length - 1 - k]?.id ?? null;
  });
  return teams;
}

// ---------------------------------------------------------------------------------------------------
// Event schedule.

interface Unit {
  name: string;
  /** Milliseconds from the event's action start. */
  start: number;
  end: number;
}

interface LaidRound {
  spec: RoundSpec;
  units: Unit[];
}

/** Places heats one after another, moving to the next competition day when one does not fit. */
function layOut(specs: readonly RoundSpec[], dayHours: number): { rounds: LaidRound[]; length: number } {
  let dayStart = 0;
  let t = 0;
  const rounds: LaidRound[] = [];
  specs.forEach((round, r) => {
    if (r > 0 && round.newDay) {
      dayStart += DAY;
      t = dayStart;
    } else if (r > 0) {
      t += (round.gapBefore ?? 10) * MINUTE;
    }
    const length = round.minutes * MINUTE;
    const units = (round.heats ?? [round.name]).map((name, h) => {
      if (h > 0) t += (round.gap ?? 5) * MINUTE;
      if (t > dayStart && t + length > dayStart + dayHours * HOUR) {
        dayStart += DAY;
        t = dayStart;
      }
      const unit = { name, start: t, end: t + length };
      t += length;
      return unit;
    });
    rounds.push({ spec: round, units });
  });
  return { rounds, length: t };
}

type Category = 'past' | 'live' | 'window' | 'future';

interface EventPlan {
  uuid: string;
  category: Category;
  status: EventStatus;
  start: number;
  end: number;
  actionStart: number;
  rounds: LaidRound[];
  home: TeamPlan | undefined;
  away: TeamPlan | undefined;
  /** 3-on-3 hockey: the game's place in its season's knockout bracket. */
  bracket?: { round: number; slot: number };
  /** When an event still to come is called off (CALL_OFF_ONE_IN), if it is. */
  callOff?: number;
}

/**
 * One event in this many still to come is called off an hour before it starts (weather, venue): the
 * simulator shows a cancellation voiding open markets (issue 27). Chosen by the event's id rather than
 * the shared draws, so that the rest of the demo stays as it was.
 */
const CALL_OFF_ONE_IN = 10;

function dayFloor(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

function planEvents(
  count: number,
  compIndex: number,
  profile: Profile,
  teams: readonly TeamPlan[],
  rng: Random,
  now: number,
): EventPlan[] {
  if (count === 0) return [];
  const pastCount = Math.floor(count / 2);
  const futureSlots = count - pastCount - 1;
  const windowCount = profile.window && futureSlots >= 2 ? 1 : 0;
  const upcomingCount = futureSlots - windowCount;
  const pastSpan = Math.min(MAX_PAST_DAYS, Math.max(1, pastCount) * profile.spacingDays) * DAY;
  const futureSpan = Math.min(MAX_FUTURE_DAYS, Math.max(1, upcomingCount) * profile.spacingDays) * DAY;
  const clock = (day: number) => dayFloor(day) + rng.pick(profile.startHours) * HOUR + rng.pick([0, 0, 30]) * MINUTE;

  const plans: EventPlan[] = [];
  const plan = (category: Category): void => {
    const { rounds, length } = layOut(profile.rounds(rng), profile.dayHours);
    const windowDays = profile.window ? rng.int(profile.window.minDays, profile.window.maxDays) : 0;
    const lead = profile.window ? rng.int(0, profile.window.maxLeadDays) * DAY : 0;
    const [home, away] = teams.length >= 2 ? rng.sample(teams, 2) : [undefined, undefined];
    const place = (actionStart: number) => {
      const start = actionStart - lead;
      return { actionStart, start, end: Math.max(actionStart + length, start + windowDays * DAY) };
    };
    let at: { actionStart: number; start: number; end: number };
    if (category === 'past') {
      const i = plans.length;
      at = place(clock(now - pastSpan + ((i + rng.float(0.2, 0.8)) * pastSpan) / pastCount));
      while (at.end > now - HOUR) at = place(at.actionStart - DAY);
    } else if (category === 'future') {
      const j = plans.length - pastCount - 1 - windowCount;
      at = place(clock(now + ((j + rng.float(0.1, 0.9)) * futureSpan) / upcomingCount));
      while (at.start < now + HOUR) at = place(at.actionStart + DAY);
    } else if (category === 'window') {
      // The waiting period has opened but competition has not been called on yet.
      const start = clock(now - rng.int(1, 3) * DAY);
      let actionStart = start + DAY;
      while (actionStart < now + HOUR) actionStart += DAY;
      at = { actionStart, start, end: Math.max(actionStart + length, start + windowDays * DAY) };
    } else {
      // Put `now` in the middle of the middle heat, so some heats are done and the rest to come.
      const units = rounds.flatMap((r) => r.units);
      const anchor = units[Math.floor(units.length / 2)] ?? { start: 0, end: HOUR };
      // Whole minutes, like a real schedule; heats are at least 4 minutes long, so `now` stays inside.
      at = place(Math.floor((now - anchor.start - (anchor.end - anchor.start) / 2) / MINUTE) * MINUTE);
    }
    plans.push({ uuid: rng.uuid(), category, status: 'UPCOMING', ...at, rounds, home, away });
  };
  for (let i = 0; i < pastCount; i++) plan('past');
  plan('live');
  for (let i = 0; i < windowCount; i++) plan('window');
  for (let i = 0; i < upcomingCount; i++) plan('future');

  const byStart = (a: EventPlan, b: EventPlan) => a.start - b.start || (a.uuid < b.uuid ? -1 : 1);
  const past = plans.filter((p) => p.category === 'past').sort(byStart);
  const future = plans.filter((p) => p.category === 'future').sort(byStart);
  for (const p of plans) {
    p.status =
      p.category === 'past'
        ? 'COMPLETED'
        : p.category === 'live'
          ? 'LIVE'
          : p.category === 'window'
            ? 'IN_WINDOW'
            : 'UPCOMING';
  }
  // Guarantee every status somewhere in the default dataset; sprinkle more in large ones.
  const cancelAt = compIndex % 3 === 0 && past.length >= 2 ? rng.int(0, past.length - 2) : -1;
  past.forEach((p, i) => {
    if (i === cancelAt || rng.chance(0.02)) p.status = 'CANCELLED';
  });
  const postponeAt = compIndex % 4 === 1 && future.length >= 3 ? rng.int(1, future.length - 1) : -1;
  future.forEach((p, i) => {
    if (i === 0) p.status = 'NEXT';
    else if (i === postponeAt || rng.chance(0.02)) p.status = 'POSTPONED';
    // An hour before its start: a future event starts an hour or more after `now`, so never before it.
    if (p.status !== 'POSTPONED' && hashSeed('call-off', p.uuid) % CALL_OFF_ONE_IN === 0) p.callOff = p.start - HOUR;
  });
  return plans.sort(byStart);
}

// ---------------------------------------------------------------------------------------------------
// Materialising events, rounds, heats, scores and results.

/** The collections of one document under construction; events are materialised straight into it. */
export interface DemoChunk extends ResultSink {
  events: FeedEvent[];
  rounds: FeedRound[];
  heats: FeedHeat[];
  roundScores: FeedRoundScore[];
}

export const newChunk = (): DemoChunk => ({
  events: [],
  rounds: [],
  heats: [],
  roundScores: [],
  eventParticipants: [],
  heatEntries: [],
  laps: [],
  heatResults: [],
  teamGames: [],
  markets: [],
  odds: [],
});

function chunkItems(chunk: DemoChunk): number {
  return (
    chunk.events.length +
    chunk.rounds.length +
    chunk.heats.length +
    chunk.roundScores.length +
    chunk.eventParticipants.length +
    chunk.heatEntries.length +
    chunk.laps.length +
    chunk.heatResults.length +
    chunk.teamGames.length +
    chunk.markets.length +
    chunk.odds.length
  );
}

const dayPrefixes = new Map<number, string>();
const pad3 = (n: number) => String(n).padStart(3, '0');

/** Same as `new Date(ms).toISOString()`, caching the date part: large datasets format millions of these. */
function iso(ms: number): string {
  const day = Math.floor(ms / DAY);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    if (dayPrefixes.size > 10_000) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  const rest = ms - day * DAY;
  const h = Math.floor(rest / HOUR);
  const m = Math.floor((rest % HOUR) / MINUTE);
  const sec = Math.floor((rest % MINUTE) / 1000);
  return `${prefix}${pad2(h)}:${pad2(m)}:${pad2(sec)}.${pad3(rest % 1000)}Z`;
}

/** A heat's or period's status in an event of status `status` at `clock`: by the schedule while the event is live. */
function unitStatus(status: EventStatus, plan: EventPlan, unit: Unit, clock: number): EventStatus {
  switch (status) {
    case 'COMPLETED':
    case 'CANCELLED':
    case 'POSTPONED':
      return status;
    case 'LIVE': {
      const start = plan.actionStart + unit.start;
      const end = plan.actionStart + unit.end;
      return end <= clock ? 'COMPLETED' : start <= clock ? 'LIVE' : 'UPCOMING';
    }
    default:
      return 'UPCOMING';
  }
}

function combine(statuses: readonly EventStatus[]): EventStatus {
  if (statuses.every((s) => s === statuses[0])) return statuses[0] ?? 'UPCOMING';
  return 'LIVE';
}

/**
 * The event's status at `clock`. Completed, cancelled and postponed events stay so; the others open
 * their waiting period at their start, go live with their first heat or period and complete with the
 * last (`finish`). At the time the events were laid out, it is the planned status, except that NEXT
 * is given per competition (viewsAt).
 */
function statusAt(plan: EventPlan, clock: number, finish: number): EventStatus {
  if (plan.status === 'COMPLETED' || plan.status === 'CANCELLED' || plan.status === 'POSTPONED') return plan.status;
  // A knockout game is never called off: the bracket goes on from it.
  if (plan.callOff !== undefined && !plan.bracket && clock > plan.callOff) return 'CANCELLED';
  if (clock >= finish) return 'COMPLETED';
  if (clock >= plan.actionStart) return 'LIVE';
  return clock >= plan.start ? 'IN_WINDOW' : 'UPCOMING';
}

/** When the action ends: the last heat or period, or the period that decides a match (overtime included). */
function finishOf(plan: EventPlan, path: readonly PeriodScore[] | null): number {
  const regularEnd = plan.actionStart + (plan.rounds.at(-1)?.units.at(-1)?.end ?? 0);
  if (!path || path.length === plan.rounds.length) return regularEnd;
  if (path.length > plan.rounds.length) return regularEnd + (path.length - plan.rounds.length) * EXTRA_PERIOD_MS;
  return plan.actionStart + (plan.rounds[Math.max(0, path.length - 1)]?.units[0]?.end ?? 0);
}

/** An event as it stands at `clock`: its status then, and its teams (a knockout game has them once its feeders are over). */
export interface EventView {
  readonly clock: number;
  readonly status: EventStatus;
  /** When its action ends (overtime included): its results are provisional for RESULT_PROVISIONAL_MS after. */
  readonly finish: number;
  readonly home: TeamPlan | undefined;
  readonly away: TeamPlan | undefined;
  readonly base: EventBase;
}

/** Where an event stands when it is priced. */
export interface PricingContext {
  competition: Competition;
  uuid: string;
  eventId: string;
  status: EventStatus;
}

/** A team match to price: its model, its periods' round ids, and the state of play. */
export interface MatchToPrice {
  model: TeamMatchModel;
  roundIds: readonly string[];
  state: MatchState;
}

/**
 * How events are priced. The dataset prices every event as before its start (and keeps those prices
 * once it is over, settled from its results); the simulator prices events in play.
 */
export interface DemoPricer {
  athleteEvent(ctx: PricingContext, input: EventMarketInput, rounds: readonly ResultRound[], sink: ResultSink): void;
  match(ctx: PricingContext, match: MatchToPrice, sink: ResultSink): void;
  teamGame(ctx: PricingContext, game: DemoTeamGame, state: TeamGameState, sink: ResultSink): void;
}

export const PRE_EVENT_PRICES: DemoPricer = {
  athleteEvent(ctx, input, _rounds, sink) {
    const generated = demoMarkets(ctx.competition, input);
    for (const m of generated.markets) sink.markets.push({ ...m, eventId: ctx.eventId });
    for (const o of generated.odds) sink.odds.push(o);
  },
  match(ctx, match, sink) {
    const markets = demoMatchMarkets(ctx.competition, ctx.uuid, match.model, match.roundIds);
    sink.markets.push(...markets.markets);
    sink.odds.push(...markets.odds);
  },
  teamGame(ctx, game, _state, sink) {
    const markets = demoTeamMarkets(ctx.competition, game);
    sink.markets.push(...markets.markets);
    sink.odds.push(...markets.odds);
  },
};

/** Prices of `base` with those of `update` in their place (by id), and what `update` adds. */
function overlay<T extends { id: string }, U extends { id: string }>(
  base: readonly T[],
  update: readonly U[],
): Array<T | U> {
  const byId = new Map(update.map((item) => [item.id, item]));
  const known = new Set(base.map((item) => item.id));
  return [...base.map((item) => byId.get(item.id) ?? item), ...update.filter((item) => !known.has(item.id))];
}

/**
 * The dataset's prices as loaded: events priced before their start as PRE_EVENT_PRICES does, and an
 * event in play from where it stands, as the simulator prices it (a trailing side is not priced as the
 * favourite, a total counts the goals already scored, a race's prices follow its running order).
 */
export const LOADED_PRICES: DemoPricer = {
  athleteEvent(ctx, input, rounds, sink) {
    if (ctx.status !== 'LIVE') return PRE_EVENT_PRICES.athleteEvent(ctx, input, rounds, sink);
    const generated = demoMarkets(ctx.competition, input);
    const before = { markets: generated.markets.map((m) => ({ ...m, eventId: ctx.eventId })), odds: generated.odds };
    const own = new Set(input.heats.map((h) => h.heatId));
    const entries = sink.heatEntries.filter((e) => own.has(e.heatId));
    const live = inPlayEventMarkets(ctx.competition, input, rounds, entries, before);
    sink.markets.push(...overlay(before.markets, live.markets));
    sink.odds.push(...overlay(before.odds, live.odds));
  },
  match(ctx, match, sink) {
    if (ctx.status !== 'LIVE') return PRE_EVENT_PRICES.match(ctx, match, sink);
    const markets = demoMatchMarkets(ctx.competition, ctx.uuid, match.model, match.roundIds);
    sink.markets.push(...markets.markets);
    sink.odds.push(...overlay(markets.odds, inPlayMatchOdds(markets, match.model, match.state)));
  },
  teamGame(ctx, game, state, sink) {
    if (ctx.status !== 'LIVE') return PRE_EVENT_PRICES.teamGame(ctx, game, state, sink);
    const markets = demoTeamMarkets(ctx.competition, game, state);
    sink.markets.push(...markets.markets);
    sink.odds.push(...markets.odds);
  },
};

/** For replaying the draws only: pricing draws from streams of its own, so it can be left out. */
const NO_PRICES: DemoPricer = { athleteEvent() {}, match() {}, teamGame() {} };

/** The streams an event's scores and results are drawn from. */
interface Streams {
  scores: Random;
  results: EventResultsGenerator | null;
}

/**
 * How long a result stays provisional after its heat or event ends (issue 27): long enough for the
 * simulator to show a PROVISIONAL settlement, and a corrected one, before it is OFFICIAL.
 */
export const RESULT_PROVISIONAL_MS = 20 * MINUTE;

/** `resultStatus: PROVISIONAL` for a result that ended less than RESULT_PROVISIONAL_MS before `clock`. */
function provisional(completed: boolean, clock: number, end: number): { resultStatus?: 'PROVISIONAL' } {
  return completed && clock - end < RESULT_PROVISIONAL_MS ? { resultStatus: 'PROVISIONAL' } : {};
}

function materialise(
  plan: EventPlan,
  view: EventView,
  seq: number,
  profile: Profile,
  streams: Streams,
  anchor: number,
  pricer: DemoPricer,
  content: DemoChunk,
): void {
  const { clock, status, home, away, base } = view;
  const eventId = `${base.competition}:${plan.uuid}`;
  const competition = getCompetition(base.competition);
  const ctx: PricingContext = { competition, uuid: plan.uuid, eventId, status };
  const model =
    home && away ? demoMatchModel(competition, home.strength, away.strength, demoFirstHammer(plan.uuid)) : null;
  if (model && home && away) {
    const path = livePath(plan, model, anchor);
    // Overtime and extra ends of a match that needs them follow the schedule, ten minutes each.
    const extra =
      status === 'COMPLETED' || (status === 'LIVE' && clock >= plan.end)
        ? Math.max(0, path.length - plan.rounds.length) * EXTRA_PERIOD_MS
        : 0;
    const onServe =
      competition.resultsFormat === 'jai-alai' && status === 'LIVE'
        ? { onServe: streams.scores.pick(['home', 'away'] as const) }
        : {};
    content.events.push({
      id: eventId,
      ...base,
      ...onServe,
      startDate: iso(plan.start),
      endDate: iso(plan.end + extra),
      eventStatus: status,
      ...provisional(status === 'COMPLETED', clock, view.finish),
    });
    materialiseMatch(plan, view, competition, model, path, { home, away }, eventId, content, (match) =>
      pricer.match(ctx, match, content),
    );
    return;
  }
  content.events.push({
    id: eventId,
    ...base,
    startDate: iso(plan.start),
    endDate: iso(plan.end),
    eventStatus: status,
    ...provisional(status === 'COMPLETED', clock, view.finish),
  });
  const resultRounds: ResultRound[] = [];
  // Periods of a team game played so far, the one in play in part.
  let periodsPlayed = 0;
  plan.rounds.forEach((laid, r) => {
    const roundId = `${plan.uuid}-r${r + 1}`;
    const statuses = laid.units.map((u) => unitStatus(status, plan, u, clock));
    const first = laid.units[0];
    const last = laid.units[laid.units.length - 1];
    const roundStatus = combine(statuses);
    content.rounds.push({
      id: roundId,
      eventId,
      roundName: laid.spec.name,
      roundNo: r + 1,
      roundStatus,
      startDate: first ? iso(plan.actionStart + first.start) : null,
      endDate: last ? iso(plan.actionStart + last.end) : null,
    });
    if (laid.spec.heats) {
      const resultHeats = laid.units.map((unit, h) => {
        const id = `${roundId}-h${h + 1}`;
        const heatStatus = statuses[h] ?? 'UPCOMING';
        const start = plan.actionStart + unit.start;
        const end = plan.actionStart + unit.end;
        content.heats.push({
          id,
          roundId,
          heatName: unit.name,
          heatNo: h + 1,
          heatStatus,
          startDate: iso(start),
          endDate: iso(end),
        });
        const heat: ResultHeat = {
          id,
          name: unit.name,
          status: heatStatus,
          progress: heatStatus === 'LIVE' ? Math.min(1, Math.max(0, (clock - start) / (end - start))) : 0,
          resultStatus: provisional(heatStatus === 'COMPLETED', clock, end).resultStatus ?? 'OFFICIAL',
        };
        return heat;
      });
      resultRounds.push({ name: laid.spec.name, heats: resultHeats });
    }
    if (profile.scorer && home && away && (roundStatus === 'COMPLETED' || roundStatus === 'LIVE')) {
      let [homeGoals, awayGoals] = profile.scorer(streams.scores, home.strength, away.strength);
      let elapsed = 1;
      if (roundStatus === 'LIVE' && first) {
        // A period in play shows the score so far.
        elapsed = Math.min(1, Math.max(0, (clock - plan.actionStart - first.start) / (first.end - first.start)));
        homeGoals = Math.floor(homeGoals * elapsed);
        awayGoals = Math.floor(awayGoals * elapsed);
      }
      periodsPlayed += elapsed;
      content.roundScores.push({ id: `${roundId}-${home.id}`, roundId, teamId: home.id, goals: homeGoals });
      content.roundScores.push({ id: `${roundId}-${away.id}`, roundId, teamId: away.id, goals: awayGoals });
    }
  });
  const scorer = profile.scorer;
  if (scorer && home && away) {
    const goals = (teamId: string) =>
      content.roundScores
        .filter((s) => s.roundId.startsWith(`${plan.uuid}-r`) && s.teamId === teamId)
        .reduce((sum, s) => sum + s.goals, 0);
    // Its own draws, so that pricing leaves the rest of the demo data as it was.
    const pricingRng = new Random(hashSeed('team-markets', plan.uuid));
    const score = { home: goals(home.id), away: goals(away.id) };
    const game: DemoTeamGame = {
      uuid: plan.uuid,
      eventId,
      home: { id: home.id, name: home.feed.name },
      away: { id: away.id, name: away.feed.name },
      drawScore: () => {
        let [h, a] = [0, 0];
        for (let r = 0; r < plan.rounds.length; r++) {
          const [dh, da] = scorer(pricingRng, home.strength, away.strength);
          h += dh;
          a += da;
        }
        return [h, a];
      },
      final: status === 'COMPLETED' ? [score.home, score.away] : null,
    };
    pricer.teamGame(
      ctx,
      game,
      { ...score, remaining: Math.max(0, 1 - periodsPlayed / Math.max(1, plan.rounds.length)) },
      content,
    );
  }
  streams.results?.run(
    {
      id: eventId,
      uuid: plan.uuid,
      name: base.name,
      seq,
      rounds: resultRounds,
      price: (input: EventMarketInput) => pricer.athleteEvent(ctx, input, resultRounds, content),
    },
    content,
  );
}

/**
 * A team match (curling, table tennis, lacrosse, 3-on-3 hockey, Jai Alai) played out by its score
 * model: periods in the schedule take the played scores (the one in play shows its score so far);
 * games and sets not needed once the match is decided are CANCELLED; overtime or extra ends follow
 * the schedule when the match needs them. Markets come from the same model.
 */
function materialiseMatch(
  plan: EventPlan,
  view: EventView,
  competition: Competition,
  model: TeamMatchModel,
  path: readonly PeriodScore[],
  teams: { home: TeamPlan; away: TeamPlan },
  eventId: string,
  content: DemoChunk,
  price: (match: MatchToPrice) => void,
): void {
  const { clock, status } = view;
  const roundIds: string[] = [];
  const state: { completed: PeriodScore[]; live: MatchState['live'] } = { completed: [], live: null };
  const rosters =
    competition.resultsFormat === 'table-tennis' ? { home: roster(teams.home), away: roster(teams.away) } : null;
  const addRound = (
    r: number,
    name: string,
    roundStatus: EventStatus,
    start: number,
    end: number,
    score: PeriodScore | undefined,
  ) => {
    const roundId = `${plan.uuid}-r${r + 1}`;
    roundIds.push(roundId);
    content.rounds.push({
      id: roundId,
      eventId,
      roundName: name,
      roundNo: r + 1,
      roundStatus,
      startDate: iso(start),
      endDate: iso(end),
      ...(rosters ? tableTennisGame(r, rosters.home, rosters.away) : {}),
    });
    if (!score) return;
    if (roundStatus === 'COMPLETED') state.completed.push(score);
    content.roundScores.push({ id: `${roundId}-${teams.home.id}`, roundId, teamId: teams.home.id, goals: score.home });
    content.roundScores.push({ id: `${roundId}-${teams.away.id}`, roundId, teamId: teams.away.id, goals: score.away });
  };
  // The period in play shows its score so far.
  const inPlay = (r: number, name: string, start: number, end: number, played: PeriodScore) => {
    const elapsed = Math.min(1, Math.max(0, (clock - start) / Math.max(1, end - start)));
    const score = { home: Math.floor(played.home * elapsed), away: Math.floor(played.away * elapsed) };
    state.live = { index: r, score, elapsed };
    addRound(r, name, 'LIVE', start, end, score);
  };
  let last = plan.actionStart;
  plan.rounds.forEach((laid, r) => {
    const unit = laid.units[0] ?? { name: laid.spec.name, start: 0, end: 0 };
    const [start, end] = [plan.actionStart + unit.start, plan.actionStart + unit.end];
    last = end;
    const roundStatus = unitStatus(status, plan, unit, clock);
    const played = path[r];
    if (!played) {
      // Not needed: the match was decided before this game or set.
      addRound(
        r,
        laid.spec.name,
        roundStatus === 'UPCOMING' || roundStatus === 'POSTPONED' ? roundStatus : 'CANCELLED',
        start,
        end,
        undefined,
      );
      return;
    }
    if (roundStatus === 'LIVE') inPlay(r, laid.spec.name, start, end, played);
    else addRound(r, laid.spec.name, roundStatus, start, end, roundStatus === 'COMPLETED' ? played : undefined);
  });
  if (status === 'COMPLETED' || status === 'LIVE') {
    const extraName = competition.resultsFormat === 'curling' ? 'Extra End' : 'Overtime';
    for (let r = plan.rounds.length; r < path.length; r++) {
      const played = path[r] as PeriodScore;
      const name = r === plan.rounds.length ? extraName : `${extraName} ${r - plan.rounds.length + 1}`;
      const end = last + EXTRA_PERIOD_MS;
      if (status === 'COMPLETED' || end <= clock) addRound(r, name, 'COMPLETED', last, end, played);
      else if (last <= clock) inPlay(r, name, last, end, played);
      else break;
      last = end;
    }
  }
  price({ model, roundIds, state });
}

const EXTRA_PERIOD_MS = 10 * MINUTE;

/**
 * The match as played. A match in play when the events were laid out (`now`) is still going then:
 * its draw is one that has not been decided before the period in play (redrawn, seeded, until so).
 */
function livePath(plan: EventPlan, model: TeamMatchModel, now: number): PeriodScore[] {
  let path = demoMatchPath(model, plan.uuid);
  if (plan.status !== 'LIVE') return path;
  const inPlay = plan.rounds.findIndex(
    (laid) => laid.units[0] !== undefined && unitStatus(plan.status, plan, laid.units[0], now) === 'LIVE',
  );
  for (let attempt = 1; attempt < 50 && inPlay >= 0 && path.length <= inPlay; attempt++)
    path = demoMatchPath(model, `${plan.uuid}/${attempt}`);
  return path;
}

/** Four players per table tennis team, named from the team's id so that every match shows the same roster. */
function roster(team: TeamPlan): string[] {
  const rng = new Random(hashSeed('roster', team.id));
  return Array.from({ length: 4 }, (_, i) => {
    const nation = rng.pick(NATIONALITIES);
    return `${rng.pick(i % 2 === 0 ? nation.male : nation.female)} ${rng.pick(nation.last)}`;
  });
}

/**
 * The last seven games of each 3ICE season are its knockout bracket: four quarterfinals, two
 * semifinals and the final. Quarterfinalists are eight teams; later rounds take the winners of the
 * games that feed them, as played out by the score model, once those games are completed (until then
 * the game has no teams yet, and one whose feeders never finished is cancelled). Here the slots, the
 * quarterfinalists and the teams as the events were laid out; viewsAt fills in the rest as games end.
 */
function planBracket(competition: Competition, plans: EventPlan[], teams: readonly TeamPlan[], now: number): void {
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
function bracketFiller(competition: Competition, now: number) {
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

/** Rounds a decimal price to a bookmaker-style ladder within [1.01, 500]. */
function ladder(decimal: number): number {
  const d = Math.min(500, Math.max(1.01, decimal));
  const step = d < 2 ? 0.01 : d < 5 ? 0.05 : d < 10 ? 0.1 : d < 20 ? 0.5 : d < 50 ? 1 : d < 100 ? 5 : 10;
  return Math.max(1.01, Math.round(Math.round(d / step) * step * 100) / 100);
}

/** Probabilities of finishing in the top `k`: 1 - (1 - p)^e with e chosen so they sum to `target`. */
function topProbabilities(win: readonly number[], target: number): number[] {
  const at = (e: number) => win.map((p) => 1 - (1 - p) ** e);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  let lo = 1;
  let hi = 4096;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (sum(at(mid)) < target) lo = mid;
    else hi = mid;
  }
  return at((lo + hi) / 2);
}

interface Entrant {
  id: string;
  name: string;
  strength: number;
  kind: 'athlete' | 'team';
}

function futureOdds(
  type: FutureType,
  futureId: string,
  futureUuid: string,
  entrants: readonly Entrant[],
  rng: Random,
): FeedFutureOdd[] {
  const field = [...entrants].sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1)).slice(0, MAX_FIELD);
  const weights = field.map((e) => Math.exp(e.strength));
  const total = weights.reduce((a, b) => a + b, 0);
  const win = weights.map((w) => w / total);
  const n = field.length;
  const k: Record<FutureType, number> = {
    winner: 1,
    top2: 2,
    top3: 3,
    top5: 5,
    top10: 10,
    makeCut: n * 0.65,
    makePlayOdds: n * 0.5,
  };
  const target = Math.min(k[type], n * 0.9);
  const chances = type === 'winner' ? win : topProbabilities(win, target);
  const yesNo = type === 'makeCut' || type === 'makePlayOdds';
  const margin = type === 'winner' ? 1.25 : yesNo ? 1.05 : 1.15;
  return field.map((entrant, i) => {
    const q = Math.min(0.985, Math.max(0.002, chances[i] ?? 0.01));
    const american = rng.chance(0.25);
    const price = (outcomeName: string, probability: number): FeedFuturePrice => {
      // Books rarely price below 1.05 even on near-certainties.
      const decimal = ladder(1 / Math.min(0.95, probability * margin));
      return american
        ? { outcomeName, americanOdds: decimalToAmerican(decimal) }
        : { outcomeName, decimalOdds: decimal };
    };
    const odds = yesNo ? [price('Yes', q), price('No', 1 - q)] : [price('Yes', q)];
    return {
      id: `${futureUuid}-${entrant.id}`,
      futureId,
      name: entrant.name,
      ...(entrant.kind === 'athlete' ? { athleteId: entrant.id } : { teamId: entrant.id }),
      odds,
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// Per competition.

type EventBase = Omit<FeedEvent, 'id' | 'startDate' | 'endDate' | 'eventStatus'>;

/** Where a competition's streams stood when an event's turn came: what rebuilding the event later starts from. */
interface Checkpoint {
  scores: number;
  results: number;
  fights: number;
}

interface CompetitionData {
  competition: Competition;
  head: Pick<FeedDocument, 'tours' | 'tourYears' | 'teams' | 'athletes'>;
  /** Planned events in calendar order; rounds, heats, scores and results are materialised chunk by chunk. */
  events: Array<{ plan: EventPlan; base: EventBase; name: NameContext }>;
  /**
   * Materialises event `seq` as laid out into a chunk; events must come in order (the draws continue
   * where the previous event stopped), and each leaves its checkpoint.
   */
  materialise: (seq: number, chunk: DemoChunk, pricer?: DemoPricer) => void;
  /** Every event as it stands at `clock`. */
  viewsAt: (clock: number) => EventView[];
  /** Materialises event `seq` as it stands in `view`, from its checkpoint: `materialise` must have had its turn. */
  materialiseAt: (seq: number, view: EventView, chunk: DemoChunk, pricer: DemoPricer) => void;
  futures: FeedFuture[];
  futureOdds: FeedFutureOdd[];
}

function buildCompetition(
  competition: Competition,
  compIndex: number,
  count: number,
  seed: number,
  now: Date,
): CompetitionData {
  const profile = profileOf(competition);
  const root = new Random(hashSeed('altsports-demo', seed, competition.key));
  const participantsRng = root.fork('participants');
  const eventsRng = root.fork('events');
  const contentRng = root.fork('content');
  const futuresRng = root.fork('futures');
  const scoresRng = ReplayRandom.fork(root, 'scores');
  // Forked last, so that adding results left every earlier draw (names, schedule, scores) as it was.
  const resultsRng = ReplayRandom.fork(root, 'results');
  const nowMs = now.getTime();
  const nowYear = now.getUTCFullYear();

  const gender = profile.gender;
  const tourId = `${competition.key}-tour-${gender}`;
  const tour: FeedTour = { id: tourId, competition: competition.key, name: profile.tourName, gender };
  const teams = competition.participants === 'teams' ? makeTeams(competition, participantsRng) : [];
  const athletes =
    competition.participants === 'athletes' ? makeAthletes(competition, profile, gender, participantsRng, now) : [];
  const riderTeams = formatIn(TEAM_GAME_FORMATS, competition.resultsFormat)
    ? makeRiderTeams(competition, athletes)
    : [];
  const resultAthletes = athletes.map((a) => ({
    id: a.id,
    lastName: a.lastName,
    strength: a.strength,
    gender: a.feed.gender ?? null,
    weightClass: a.weightClass ?? null,
    teamId: a.feed.teamId ?? null,
  }));
  const riderTeamIds = riderTeams.map((t) => t.id);
  const results = eventResultsGenerator(competition, resultAthletes, riderTeamIds, resultsRng);

  const plans = planEvents(count, compIndex, profile, teams, eventsRng, nowMs);
  planBracket(competition, plans, teams, nowMs);

  // Tour years: last year and this year always, plus any year an event starts in.
  const years = new Set<number>([nowYear - 1, nowYear]);
  for (const p of plans) years.add(new Date(p.start).getUTCFullYear());
  const tourYears: FeedTourYear[] = [...years]
    .sort((a, b) => a - b)
    .map((year) => {
      const inYear = plans.filter((p) => new Date(p.start).getUTCFullYear() === year);
      const start = inYear.reduce((min, p) => Math.min(min, p.start), Date.UTC(year, 1, 1));
      const end = inYear.reduce((max, p) => Math.max(max, p.end), Date.UTC(year, 10, 30, 23, 59, 59));
      return { id: `${tourId}-${year}`, tourId, year, startDate: iso(start), endDate: iso(end) };
    });

  // Season order: event numbers, venues and names follow the calendar.
  const venues = VENUES[competition.key] ?? [];
  const numericIds = new Map<string, number>();
  venues.forEach((venue, i) => {
    if (!numericIds.has(venue.location)) numericIds.set(venue.location, competition.referenceId * 1000 + i + 1);
  });
  const calendarRepeats = new Map<string, number>();
  for (const venue of venues) calendarRepeats.set(venue.event, (calendarRepeats.get(venue.event) ?? 0) + 1);
  const seasons = new Map<number, EventPlan[]>();
  for (const p of plans) {
    const year = new Date(p.start).getUTCFullYear();
    const season = seasons.get(year) ?? [];
    season.push(p);
    seasons.set(year, season);
  }
  const venueFor = (p: EventPlan, seasonIndex: number): Venue => {
    if (profile.homeArena && p.home)
      return { event: p.home.seed.name, location: p.home.seed.venue, group: p.home.seed.group };
    return (
      venues[Math.floor(seasonIndex / (profile.block ?? 1)) % Math.max(1, venues.length)] ?? {
        event: competition.name,
        location: 'TBA',
        group: 'TBA',
      }
    );
  };
  const events: CompetitionData['events'] = [];
  let seq = 0;
  for (const [year, season] of [...seasons].sort((a, b) => a[0] - b[0])) {
    const seen = new Map<string, number>();
    season.forEach((p, i) => {
      const venue = venueFor(p, i);
      const venueCount = (seen.get(venue.event) ?? 0) + 1;
      seen.set(venue.event, venueCount);
      const ctx: NameContext = {
        rng: contentRng,
        competition,
        venue,
        venueCount,
        seq,
        athletes,
        home: p.home,
        away: p.away,
      };
      const name = profile.name
        ? profile.name(ctx)
        : defaultName(venue.event, venueCount, (calendarRepeats.get(venue.event) ?? 0) > 1);
      const playoffs =
        competition.participants === 'teams' && season.length >= 4 && i >= Math.ceil(season.length * 0.85);
      const numericId =
        profile.homeArena && p.home
          ? competition.referenceId * 1000 + 500 + p.home.index
          : (numericIds.get(venue.location) ?? null);
      const base: EventBase = {
        competition: competition.key,
        tourId,
        tourYearId: `${tourId}-${year}`,
        name,
        eventNumber: i + 1,
        eventLocation: venue.location,
        eventLocationNumericId: numericId,
        eventLocationGroup: venue.group,
        seasonType: playoffs ? 'playoffs' : 'regular',
        ...(p.home && p.away ? { teams: eventTeams(competition, p.uuid, p.home, p.away) } : {}),
        ...(competition.resultsFormat === 'jai-alai'
          ? { eventType: 'Doubles', streamUrl: `https://stream.altsports.example/jaialai/${p.uuid}` }
          : {}),
        ...(p.bracket ? { bracketRound: p.bracket.round, bracketSlot: p.bracket.slot } : {}),
      };
      events.push({ plan: p, base, name: ctx });
      seq++;
    });
  }

  // Futures: one per type on the current season, priced over the strongest entrants.
  const currentYear = tourYears.find((y) => y.year === nowYear);
  const entrants: Entrant[] =
    competition.participants === 'teams'
      ? teams.map((t) => ({ id: t.id, name: t.seed.name, strength: t.strength, kind: 'team' as const }))
      : athletes.map((a) => ({ id: a.id, name: a.name, strength: a.strength, kind: 'athlete' as const }));
  const futures: FeedFuture[] = [];
  const odds: FeedFutureOdd[] = [];
  for (const type of FUTURE_TYPES) {
    const uuid = futuresRng.uuid();
    const id = `${competition.key}:${uuid}`;
    futures.push({
      id,
      competition: competition.key,
      tourId,
      tourYearId: `${tourId}-${nowYear}`,
      type,
      gender,
      startDate: currentYear?.startDate ?? iso(Date.UTC(nowYear, 0, 1)),
      endDate: currentYear?.endDate ?? iso(Date.UTC(nowYear, 11, 31)),
      isMarketOpen: true,
    });
    odds.push(...futureOdds(type, id, uuid, entrants, futuresRng));
  }

  const allTeams = [...teams.map((t) => t.feed), ...riderTeams];
  const checkpoints: Checkpoint[] = [];
  const paths = new Map<string, PeriodScore[]>();
  /** A match as played (kept: drawing a curling match takes a while); null without two teams. */
  const pathOf = (plan: EventPlan, home: TeamPlan | undefined, away: TeamPlan | undefined): PeriodScore[] | null => {
    const model =
      home && away ? demoMatchModel(competition, home.strength, away.strength, demoFirstHammer(plan.uuid)) : null;
    if (!model) return null;
    const key = `${plan.uuid}|${home?.id}|${away?.id}`;
    let path = paths.get(key);
    if (!path) {
      path = livePath(plan, model, nowMs);
      paths.set(key, path);
    }
    return path;
  };
  return {
    competition,
    head: {
      tours: [tour],
      tourYears,
      ...(allTeams.length > 0 ? { teams: allTeams } : {}),
      ...(athletes.length > 0 ? { athletes: athletes.map((a) => a.feed) } : {}),
    },
    events,
    materialise: (seq, chunk, pricer = PRE_EVENT_PRICES) => {
      const e = events[seq];
      if (!e) return;
      checkpoints[seq] = { scores: scoresRng.draws, results: resultsRng.draws, fights: results?.fights() ?? 0 };
      const view: EventView = {
        clock: nowMs,
        status: e.plan.status,
        finish: finishOf(e.plan, pathOf(e.plan, e.plan.home, e.plan.away)),
        home: e.plan.home,
        away: e.plan.away,
        base: e.base,
      };
      materialise(e.plan, view, seq, profile, { scores: scoresRng, results }, nowMs, pricer, chunk);
    },
    viewsAt: (clock) => {
      const brackets = new Map<number, ReturnType<typeof bracketFiller>>();
      const views = events.map(({ plan, base, name }): EventView => {
        let { home, away } = plan;
        const season = new Date(plan.start).getUTCFullYear();
        let bracket = plan.bracket ? brackets.get(season) : undefined;
        if (plan.bracket && !bracket) {
          bracket = bracketFiller(competition, nowMs);
          brackets.set(season, bracket);
        }
        if (bracket) [home, away] = bracket.teams(plan);
        const finish = finishOf(plan, pathOf(plan, home, away));
        let status = statusAt(plan, clock, finish);
        // A knockout game whose feeders never finished is called off.
        if (bracket && (!home || !away) && status === 'COMPLETED') status = 'CANCELLED';
        bracket?.played(plan, status === 'COMPLETED', home, away);
        if (home === plan.home && away === plan.away) return { clock, status, finish, home, away, base };
        const named = { ...name, home, away };
        return {
          clock,
          status,
          finish,
          home,
          away,
          base: {
            ...base,
            name: profile.name ? profile.name(named) : base.name,
            ...(home && away ? { teams: eventTeams(competition, plan.uuid, home, away) } : {}),
          },
        };
      });
      // The first event still to start is the next one.
      const next = views.findIndex(
        (view, seq) =>
          view.status === 'UPCOMING' &&
          (events[seq]?.plan.status === 'NEXT' || events[seq]?.plan.status === 'UPCOMING'),
      );
      if (next >= 0) views[next] = { ...(views[next] as EventView), status: 'NEXT' };
      return views;
    },
    materialiseAt: (seq, view, chunk, pricer) => {
      const e = events[seq];
      const at = checkpoints[seq];
      if (!e || !at) throw new Error(`event ${seq} of ${competition.key} has not had its turn yet`);
      const streams = {
        scores: ReplayRandom.resume(scoresRng.seed, at.scores),
        results: eventResultsGenerator(
          competition,
          resultAthletes,
          riderTeamIds,
          ReplayRandom.resume(resultsRng.seed, at.results),
          at.fights,
        ),
      };
      materialise(e.plan, view, seq, profile, streams, nowMs, pricer, chunk);
    },
    futures,
    futureOdds: odds,
  };
}

/** The event's two teams; in curling with their stone colours and who has the hammer in the first end. */
function eventTeams(
  competition: Competition,
  uuid: string,
  homeTeam: TeamPlan,
  awayTeam: TeamPlan,
): NonNullable<FeedEvent['teams']> {
  const home = { teamId: homeTeam.id, isHomeTeam: true };
  const away = { teamId: awayTeam.id, isHomeTeam: false };
  if (competition.resultsFormat !== 'curling') return [home, away];
  const hammer = demoFirstHammer(uuid);
  const [homeColor, awayColor] = hashSeed('stones', uuid) % 2 === 0 ? ['red', 'yellow'] : ['yellow', 'red'];
  return [
    { ...home, stoneColor: homeColor as string, firstHammer: hammer === 'home' },
    { ...away, stoneColor: awayColor as string, firstHammer: hammer === 'away' },
  ];
}

/**
 * A calendar that visits a venue twice numbers every visit ("Anaheim 1", "Anaheim 2"); a season that
 * outgrows its calendar numbers only the repeats ("Gold Coast Pro 2").
 */
function defaultName(event: string, count: number, calendarRepeats: boolean): string {
  if (calendarRepeats) return `${event} ${count}`;
  if (count === 1) return event;
  return /\d$/.test(event) ? `${event} (${count})` : `${event} ${count}`;
}

/** How many of `total` events each competition gets: even shares, the remainder to the first ones. */
export function eventsPerCompetition(total: number): number[] {
  const whole = Math.max(0, Math.floor(total));
  const share = Math.floor(whole / COMPETITIONS.length);
  const extra = whole % COMPETITIONS.length;
  return COMPETITIONS.map((_, i) => share + (i < extra ? 1 : 0));
}

/**
 * Yields feed documents competition by competition, each holding at most `maxEventsPerChunk` events
 * with their rounds, heats, scores, participants, heat entries, laps, results and team games (and
 * closed early once it holds `maxItemsPerChunk` items). A competition's tour, tour years, teams,
 * athletes and futures travel in its first document, so ingesting the documents in order never meets
 * a dangling reference.
 */
export function* generateDemoFeeds(options: DemoOptions): Generator<FeedDocument> {
  const now = options.now;
  if (Number.isNaN(now.getTime())) throw new RangeError('now must be a valid date');
  const clock = (options.clock ?? now).getTime();
  if (Number.isNaN(clock)) throw new RangeError('clock must be a valid date');
  const chunkSize = Math.max(1, Math.floor(options.maxEventsPerChunk ?? DEFAULT_MAX_EVENTS_PER_CHUNK));
  const maxItems = Math.max(1, Math.floor(options.maxItemsPerChunk ?? DEFAULT_MAX_ITEMS_PER_CHUNK));
  const updatedAt = new Date(clock).toISOString();
  const pricer = options.markets === false ? NO_PRICES : LOADED_PRICES;

  for (const data of buildCompetitions(options)) {
    let first = true;
    let chunk = newChunk();
    const document = (): FeedDocument => {
      const doc: FeedDocument = { updatedAt, ...(first ? data.head : {}), ...chunkDocument(chunk) };
      if (first) {
        doc.futures = data.futures;
        doc.futureOdds = data.futureOdds;
      }
      first = false;
      chunk = newChunk();
      return doc;
    };
    // At a later clock each event is rebuilt from where its turn left the draws, so that later events stay as laid out.
    const views = clock === now.getTime() ? null : data.viewsAt(clock);
    for (let seq = 0; seq < data.events.length; seq++) {
      if (chunk.events.length >= chunkSize || (chunk.events.length > 0 && chunkItems(chunk) >= maxItems))
        yield document();
      if (views) {
        data.materialise(seq, newChunk(), NO_PRICES);
        data.materialiseAt(seq, views[seq] as EventView, chunk, pricer);
      } else {
        data.materialise(seq, chunk, pricer);
      }
    }
    yield document();
  }
}

/** The competitions' data one at a time (large datasets), laid out as in the whole dataset: each competition's share of `events`. */
function* buildCompetitions(
  options: Pick<DemoOptions, 'now' | 'seed' | 'events' | 'competitions'>,
): Generator<CompetitionData> {
  const seed = options.seed ?? DEFAULT_SEED;
  const counts = eventsPerCompetition(options.events ?? DEFAULT_EVENTS_PER_COMPETITION * COMPETITIONS.length);
  for (const [index, competition] of COMPETITIONS.entries()) {
    if (!options.competitions || options.competitions.includes(competition.key))
      yield buildCompetition(competition, index, counts[index] ?? 0, seed, options.now);
  }
}

/** A chunk's non-empty collections. */
export function chunkDocument(chunk: DemoChunk): FeedDocument {
  const doc: FeedDocument = {};
  for (const [collection, items] of Object.entries(chunk) as Array<[keyof DemoChunk, unknown[]]>)
    if (items.length > 0) (doc as Record<string, unknown[]>)[collection] = items;
  return doc;
}

/** A competition's demo events laid out around a time, for the simulator to rebuild as they stand at any later time. */
export interface DemoCompetition {
  readonly key: string;
  /** The events in calendar order: feed id, stored id and start. */
  readonly events: ReadonlyArray<{ id: string; uuid: string; startDate: string }>;
  /** Every event as it stands at `clock`. */
  viewsAt(clock: number): EventView[];
  /** Draws every event as laid out (no pricing), once, before materialiseAt. */
  replay(): void;
  /** Event `seq` as it stands in `view`, into the chunk. */
  materialiseAt(seq: number, view: EventView, chunk: DemoChunk, pricer: DemoPricer): void;
  /** The competition's live event when laid out, and the times it could have been laid out around given that event's start: [from, to). */
  readonly live: { id: string; uuid: string; layoutTimes: (start: number) => { from: number; to: number } } | null;
}

/** The demo's competitions (all, or those named) laid out around `now`. */
export function layOutDemo(options: Pick<DemoOptions, 'now' | 'seed' | 'events' | 'competitions'>): DemoCompetition[] {
  return [...buildCompetitions(options)].map((data) => {
    let replayed = false;
    const live = data.events.find((e) => e.plan.category === 'live');
    return {
      key: data.competition.key,
      events: data.events.map(({ plan }) => ({
        id: `${data.competition.key}:${plan.uuid}`,
        uuid: plan.uuid,
        startDate: iso(plan.start),
      })),
      viewsAt: data.viewsAt,
      replay() {
        if (replayed) return;
        for (let seq = 0; seq < data.events.length; seq++) data.materialise(seq, newChunk(), NO_PRICES);
        replayed = true;
      },
      materialiseAt: data.materialiseAt,
      live: live
        ? {
            id: `${data.competition.key}:${live.plan.uuid}`,
            uuid: live.plan.uuid,
            layoutTimes: (start) => layoutTimes(live.plan, start),
          }
        : null,
    };
  });
}

/**
 * The times a live event starting at `start` could have been laid out around: planEvents puts `now`
 * in the middle of its middle heat, whole minutes apart, so one minute's worth.
 */
function layoutTimes(plan: EventPlan, start: number): { from: number; to: number } {
  const units = plan.rounds.flatMap((r) => r.units);
  const anchor = units[Math.floor(units.length / 2)] ?? { start: 0, end: HOUR };
  const from = start + (plan.actionStart - plan.start) + anchor.start + (anchor.end - anchor.start) / 2;
  return { from, to: from + MINUTE };
}
