import type { Competition } from '../domain/competitions.ts';
import type { EventStatus, ParticipantStatus, ResultStatus } from '../domain/enumerations.ts';
import type { HeatField } from '../domain/pricing/market-generator.ts';
import { hashSeed, Random } from '../domain/random.ts';
import { methodExcludesWinner } from '../domain/results/win-by.ts';
import type { FeedDocument } from '../ingest/feed-schema.ts';
import { ROTATION_COLOURS } from './names.ts';

/**
 * Heat results for the demo data: who is entered in each event and heat (eventParticipants,
 * heatEntries) and what happened in each completed or live heat (heat scores, laps, fight and battle
 * results, team games), shaped by the competition's results format.
 *
 * Each event is simulated whole, so a later round holds the athletes that earlier rounds sent through,
 * and is then published as far as the schedule has got: completed heats in full, the live heat
 * part-way, later heats with their draw and seeds only.
 */

type Item<K extends keyof FeedDocument> = NonNullable<FeedDocument[K]> extends ReadonlyArray<infer T> ? T : never;
export type FeedEventParticipant = Item<'eventParticipants'>;
export type FeedHeatEntry = Item<'heatEntries'>;
export type FeedLap = Item<'laps'>;
export type FeedHeatResult = Item<'heatResults'>;
export type FeedTeamGame = Item<'teamGames'>;
export type FeedMarket = Item<'markets'>;
export type FeedOdd = Item<'odds'>;

export interface ResultAthlete {
  id: string;
  lastName: string;
  /** Roughly N(0, 1); the same strength that prices the futures. */
  strength: number;
  gender: string | null;
  weightClass: string | null;
  teamId: string | null;
}

export interface ResultHeat {
  id: string;
  name: string;
  status: EventStatus;
  /** Share of a LIVE heat already run, 0 to 1. */
  progress: number;
  /** A COMPLETED heat's result is PROVISIONAL for a while after it ends (RESULT_PROVISIONAL_MS). */
  resultStatus: ResultStatus;
}

export interface ResultRound {
  name: string;
  heats: readonly ResultHeat[];
}

export interface ResultEvent {
  /** The event's feed id (`<competition>:<uuid>`). */
  id: string;
  uuid: string;
  name: string;
  /** Position of the event in its competition's calendar, from 0. */
  seq: number;
  rounds: readonly ResultRound[];
  /** Prices the event (events still to run, and those just finished); absent for an event without markets. */
  price?: (input: EventMarketInput) => void;
}

/** What an athlete event's markets are made from: its field, the heats drawn so far and, once over, the final places. */
export interface EventMarketInput {
  /** The event's uuid: market and odd ids are made from it. */
  uuid: string;
  eventId: string;
  /** The athletes who compete, best seed first. */
  athletes: readonly ResultAthlete[];
  /** Heats whose draw is published, with their athletes. */
  heats: readonly HeatField[];
  /** Final places once the event is completed (athlete id to place), for the operator-settled props. */
  places: ReadonlyMap<string, number> | null;
  /** Athletes knocked out by a completed heat. */
  eliminated: ReadonlySet<string>;
}

/** Where the results of an event are written: the collections of the document that carries the event. */
export interface ResultSink {
  eventParticipants: FeedEventParticipant[];
  heatEntries: FeedHeatEntry[];
  laps: FeedLap[];
  heatResults: FeedHeatResult[];
  teamGames: FeedTeamGame[];
  markets: FeedMarket[];
  odds: FeedOdd[];
}

export interface EventResultsGenerator {
  /** Publishes one event's participants, heat entries and results into the sink. */
  run(event: ResultEvent, sink: ResultSink): void;
  /** Bouts completed so far, over which the rarer fight outcomes are spread (0 outside combat). */
  fights(): number;
}

/**
 * The results generator of one competition, or null for team competitions (their periods carry round
 * scores, not heat entries). Events must be passed in calendar order: draws continue from one event
 * to the next, and the rarer fight outcomes are spread over the first completed bouts. A generator
 * can start part-way: from `rng` as it stood, with `fights` bouts completed before.
 */
export function eventResultsGenerator(
  competition: Competition,
  athletes: readonly ResultAthlete[],
  riderTeamIds: readonly string[],
  rng: Random,
  fights = 0,
): EventResultsGenerator | null {
  if (competition.participants !== 'athletes' || athletes.length === 0) return null;
  const format = resultsFormat(competition, riderTeamIds, fights);
  if (!format) return null;
  return {
    run(event, sink) {
      const b = new EventBuild(event, sink, athletes, rng, competition);
      format.build(b, event);
      b.finish();
    },
    fights: () => format.book?.completed ?? 0,
  };
}

/** How the competition's events are built; combat keeps a book of outcomes across events. */
function resultsFormat(
  competition: Competition,
  riderTeamIds: readonly string[],
  fights: number,
): { build: (b: EventBuild, event: ResultEvent) => void; book?: FightBook } | null {
  const key = competition.key;
  const run = (build: (b: EventBuild, event: ResultEvent) => void) => ({ build });
  switch (competition.resultsFormat) {
    case 'judged-heat':
      return run(
        key === 'wsl' ? surfing : judgedRounds(JUDGED[key] ?? { size: 24, advance: 2, score: actionScore(75) }),
      );
    case 'skateboarding':
      return run(skateboarding);
    case 'supercross-laps':
    case 'sprint-laps':
    case 'position-race': {
      const profile = RACING[key];
      return profile ? run((b, event) => racing(b, event, profile)) : null;
    }
    case 'timed-race':
      return run(swimming);
    case 'stroke-play':
      return run(discGolf);
    case 'points-leaderboard':
      return run(rotationLeague);
    case 'combat': {
      const book = new FightBook(key, fights);
      return { build: (b, event) => combat(b, event, book), book };
    }
    case 'drift-battle':
      return run(drifting);
    case 'drag-pairing':
      return run(dragRacing);
    case 'bull-riding':
      return run((b, event) => bullRiding(b, event, riderTeamIds));
    case 'jai-alai':
      return run(jaiAlai);
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------
// Building one event.

interface Entrant {
  athlete: ResultAthlete;
  seedNo: number | null;
  /** Sorts by event seed, unseeded entrants after the seeded ones in the order they were added. */
  order: number;
  status: ParticipantStatus;
  /** The heat that knocked the athlete out: ELIMINATED once that heat is completed. */
  outAt: ResultHeat | null;
  /** The ranking mark of the athlete's latest heat (score or time), for cuts across heats. */
  mark: number;
  /** A running total across heats (aggregate ride score, strokes, best elapsed time). */
  total: number;
  /** The athlete's entry in the latest heat entered. */
  entry: FeedHeatEntry | null;
}

const NONE = 0;
const LIVE = 1;
const FINAL = 2;

/** What a heat publishes: nothing but its draw, a part-way result, or the final result. */
function stageOf(heat: ResultHeat): number {
  return heat.status === 'COMPLETED' ? FINAL : heat.status === 'LIVE' ? LIVE : NONE;
}

class EventBuild {
  readonly entrants: Entrant[] = [];
  /**
   * Heats whose draw is published: a round's draw is known once every heat of the rounds before it
   * has completed, so that an upcoming heat never gives away who wins a heat still to be run.
   */
  private readonly drawn = new Set<string>();
  /** The athletes of each heat whose draw is published, for the heat markets. */
  private readonly heatFields = new Map<string, string[]>();

  readonly event: ResultEvent;
  readonly sink: ResultSink;
  readonly athletes: readonly ResultAthlete[];
  readonly rng: Random;
  readonly competition: Competition;

  constructor(
    event: ResultEvent,
    sink: ResultSink,
    athletes: readonly ResultAthlete[],
    rng: Random,
    competition: Competition,
  ) {
    this.event = event;
    this.sink = sink;
    this.athletes = athletes;
    this.rng = rng;
    this.competition = competition;
    for (const round of event.rounds) {
      for (const heat of round.heats) this.drawn.add(heat.id);
      if (!round.heats.every((heat) => heat.status === 'COMPLETED')) break;
    }
  }

  add(athlete: ResultAthlete, seedNo: number | null, status: ParticipantStatus): Entrant {
    const entrant: Entrant = {
      athlete,
      seedNo,
      order: seedNo ?? 10_000 + this.entrants.length,
      status,
      outAt: null,
      mark: 0,
      total: 0,
      entry: null,
    };
    this.entrants.push(entrant);
    return entrant;
  }

  /**
   * Enters up to `size` athletes by current form (strength plus a little luck), seeded 1..n in that
   * order, and returns those who compete, best seed first. The form is the athlete's strength for this
   * event, its results and its prices alike: two events with the same field are priced apart as their
   * form differs. Now and then one withdraws or is injured before the start; the next athlete in form
   * takes the place as an unseeded alternate, or nobody does when the field stays at least `minSize`
   * without one.
   */
  field(size: number, minSize: number): Entrant[] {
    const rng = this.rng;
    const inForm = this.athletes.map((athlete) => ({ ...athlete, strength: athlete.strength + 0.35 * gauss(rng) }));
    inForm.sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1));
    const n = Math.min(size, inForm.length);
    const entered = inForm.slice(0, n).map((athlete, i) => this.add(athlete, i + 1, 'ACTIVE'));
    if (n > 4 && rng.chance(0.2)) {
      const spare = inForm[n];
      if (spare || n - 1 >= minSize) {
        (entered[rng.int(3, n - 1)] as Entrant).status = rng.chance(0.35) ? 'INJURED' : 'WITHDRAWN';
        if (spare) entered.push(this.add(spare, null, 'ALTERNATE'));
      }
    }
    return entered.filter(competes);
  }

  /** Adds the heat's entries, seeded 1..n in the order given. */
  enter(heat: ResultHeat, entrants: readonly Entrant[]): FeedHeatEntry[] {
    const entries: FeedHeatEntry[] = new Array(entrants.length);
    for (let i = 0; i < entrants.length; i++) {
      const entrant = entrants[i] as Entrant;
      const entry: FeedHeatEntry = {
        id: `${heat.id}-e${i + 1}`,
        heatId: heat.id,
        athleteId: entrant.athlete.id,
        seed: i + 1,
      };
      entrant.entry = entry;
      entries[i] = entry;
      if (this.drawn.has(heat.id))
        this.heatFields.set(heat.id, [...(this.heatFields.get(heat.id) ?? []), entrant.athlete.id]);
      if (this.drawn.has(heat.id)) this.sink.heatEntries.push(entry);
    }
    return entries;
  }

  out(entrant: Entrant, heat: ResultHeat | undefined): void {
    if (heat && !entrant.outAt) entrant.outAt = heat;
  }

  finish(): void {
    const eventId = this.event.id;
    const prefix = `${this.event.uuid}-p`;
    const places = this.finalPlaces();
    this.entrants.forEach((entrant, i) => {
      const status = entrant.outAt?.status === 'COMPLETED' && competes(entrant) ? 'ELIMINATED' : entrant.status;
      const place = places?.get(entrant.athlete.id);
      this.sink.eventParticipants.push({
        id: `${prefix}${i + 1}`,
        eventId,
        athleteId: entrant.athlete.id,
        seedNo: entrant.seedNo,
        status,
        ...(place ? { place } : {}),
      });
    });
    if (this.event.price) {
      const field = this.entrants.filter(competes);
      this.event.price({
        uuid: this.event.uuid,
        eventId,
        athletes: field.map((e) => e.athlete),
        heats: [...this.heatFields].map(([heatId, athleteIds]) => ({ heatId, athleteIds })),
        places,
        eliminated: new Set(field.filter((e) => e.outAt?.status === 'COMPLETED').map((e) => e.athlete.id)),
      });
    }
  }

  /**
   * The final standing once every heat is completed: athletes who went furthest rank first; those
   * still in at the end by their place in the last heat they rode; those knocked out in one round
   * share a place (equal 5th). Null while the event is running, and for fight cards (no standing).
   */
  private finalPlaces(): Map<string, number> | null {
    const heats = this.event.rounds.flatMap((r) => r.heats);
    if (
      heats.length === 0 ||
      heats.some((h) => h.status !== 'COMPLETED') ||
      this.competition.resultsFormat === 'combat'
    )
      return null;
    const roundOf = new Map(this.event.rounds.flatMap((r, i) => r.heats.map((h) => [h.id, i] as const)));
    const reach = (e: Entrant) => (e.outAt ? (roundOf.get(e.outAt.id) ?? 0) : Number.POSITIVE_INFINITY);
    const position = (e: Entrant) =>
      reach(e) === Number.POSITIVE_INFINITY ? (e.entry?.position ?? 10_000) || 10_000 : 0;
    const ranked = this.entrants.filter(competes).sort((a, b) => reach(b) - reach(a) || position(a) - position(b));
    const places = new Map<string, number>();
    ranked.forEach((e, i) => {
      const before = ranked[i - 1];
      const tied = before !== undefined && reach(before) === reach(e) && position(before) === position(e);
      places.set(e.athlete.id, tied ? (places.get(before.athlete.id) as number) : i + 1);
    });
    return places;
  }
}

const competes = (entrant: Entrant) => entrant.status === 'ACTIVE' || entrant.status === 'ALTERNATE';
const byOrder = (a: Entrant, b: Entrant) => a.order - b.order;

// ---------------------------------------------------------------------------------------------------
// Small numeric helpers; no transcendental functions, so results do not depend on the platform.

/** Roughly N(0, 1) from three uniforms: cheaper than Random.normal, good enough for noise. */
function gauss(rng: Random): number {
  return (rng.next() + rng.next() + rng.next() - 1.5) * 2;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(Math.max(x, lo), hi);
const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const quarter = (x: number) => Math.round(x * 4) / 4;

function indices(n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** Seeds dealt over `count` heats back and forth (1-2-3-4, 8-7-6-5...), so heats are even. */
function snake<T>(items: readonly T[], count: number): T[][] {
  const out: T[][] = Array.from({ length: count }, () => []);
  items.forEach((item, i) => {
    const pass = Math.floor(i / count);
    const k = i % count;
    out[pass % 2 === 0 ? k : count - 1 - k]?.push(item);
  });
  return out;
}

/** Consecutive slices of (nearly) equal size. */
function chunks<T>(items: readonly T[], count: number): T[][] {
  const size = Math.ceil(items.length / Math.max(1, count));
  return Array.from({ length: count }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** Standard bracket order of seeds (1, 16, 8, 9, 4, 13...): the top seeds meet as late as possible. */
function bracketOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const next = order.length * 2 + 1;
    order = order.flatMap((seed) => [seed, next - seed]);
  }
  return order;
}

/** Pairs a ranked list into `count` head-to-head heats by bracket order; a missing seed is a bye. */
function bracket(ranked: readonly Entrant[], count: number): Entrant[][] {
  const order = bracketOrder(count * 2);
  return Array.from({ length: count }, (_, h) =>
    [ranked[(order[2 * h] ?? 0) - 1], ranked[(order[2 * h + 1] ?? 0) - 1]].filter((r): r is Entrant => r !== undefined),
  );
}

type HeatRunner = (heat: ResultHeat, entrants: readonly Entrant[]) => Entrant[];

/**
 * Head-to-head rounds: the first from a ranked list by bracket, each later one from the winners of
 * neighbouring heats. A loser is out, except in the last round (a runner-up is not eliminated).
 */
function knockout(b: EventBuild, rounds: readonly ResultRound[], ranked: readonly Entrant[], run: HeatRunner): void {
  let groups = bracket(ranked, rounds[0]?.heats.length ?? 0);
  rounds.forEach((round, r) => {
    const last = r === rounds.length - 1;
    const winners: Entrant[] = [];
    round.heats.forEach((heat, h) => {
      const group = groups[h] ?? [];
      if (group.length === 0) return;
      const result = run(heat, group);
      const [winner, ...losers] = result;
      if (winner) winners.push(winner);
      if (!last) for (const loser of losers) b.out(loser, heat);
    });
    if (!last) groups = chunks(winners, rounds[r + 1]?.heats.length ?? 1).map((g) => g.sort(byOrder));
  });
}

/**
 * Group rounds: each round's athletes are dealt over its heats; the best `advance[r]` of each heat
 * go through, by place then seed, and the rest are out.
 */
function groupRounds(
  b: EventBuild,
  rounds: readonly ResultRound[],
  field: readonly Entrant[],
  advance: readonly number[],
  run: HeatRunner,
): void {
  let starters: readonly Entrant[] = field;
  rounds.forEach((round, r) => {
    const last = r === rounds.length - 1;
    const through: Array<{ entrant: Entrant; place: number }> = [];
    const groups = snake(starters, round.heats.length);
    round.heats.forEach((heat, h) => {
      const group = groups[h] ?? [];
      if (group.length === 0) return;
      const ranked = run(heat, group);
      const keep = last ? ranked.length : (advance[r] ?? ranked.length);
      ranked.forEach((entrant, place) => {
        if (place < keep) through.push({ entrant, place });
        else b.out(entrant, heat);
      });
    });
    starters = through.sort((x, y) => x.place - y.place || x.entrant.order - y.entrant.order).map((t) => t.entrant);
  });
}

const lastHeat = (round: ResultRound | undefined) => round?.heats[round.heats.length - 1];

// ---------------------------------------------------------------------------------------------------
// Scored heats: one number per athlete (judged score, qualifying points, time, strokes, points).

interface ScoreOptions {
  /** The athlete's final score in the heat; null for none (a disqualified swim, a run without a time). */
  score: (entrant: Entrant) => number | null;
  lowerIsBetter?: boolean;
  /** Equal scores share a position (1, 2, 2, 4). */
  ties?: boolean;
  /**
   * How a live heat looks: 'inOrder' the first athletes of the running order have their score (one
   * attempt each); 'partial' everybody has a running score; 'some' part of the heat has scored so far;
   * 'none' nothing until the heat is over.
   */
  live: 'inOrder' | 'partial' | 'some' | 'none';
  /**
   * The running score of a live heat from the final one (null: nothing scored yet). `own` is the
   * athlete's own random stream in this heat, the same at every clock, so a score moves only forward.
   */
  partial?: (score: number, progress: number, own: Random) => number | null;
}

function scoredHeat(b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], o: ScoreOptions): Entrant[] {
  const entries = b.enter(heat, entrants);
  const n = entrants.length;
  const scores = new Array<number | null>(n);
  const worst = o.lowerIsBetter ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const entrant = entrants[i] as Entrant;
    const score = o.score(entrant);
    scores[i] = score;
    entrant.mark = score ?? worst;
  }
  const mark = (i: number) => (entrants[i] as Entrant).mark;
  const order = indices(n).sort((x, y) => (o.lowerIsBetter ? mark(x) - mark(y) : mark(y) - mark(x)) || x - y);
  const stage = stageOf(heat);
  if (stage === FINAL) {
    let place = 0;
    order.forEach((i, k) => {
      const score = scores[i] ?? null;
      if (score === null) return;
      const entry = entries[i] as FeedHeatEntry;
      entry.heatScore = score;
      place = o.ties && k > 0 && scores[order[k - 1] ?? 0] === score ? place : k + 1;
      entry.position = place;
    });
  } else if (stage === LIVE && o.live !== 'none') {
    const partial = o.partial ?? ((score: number) => score);
    const done = Math.floor(n * heat.progress);
    for (let i = 0; i < n; i++) {
      const score = scores[i] ?? null;
      if (score === null) continue;
      const entry = entries[i] as FeedHeatEntry;
      const soFar = () =>
        partial(score, heat.progress, new Random(hashSeed(heat.id, (entrants[i] as Entrant).athlete.id))) ?? undefined;
      if (o.live === 'inOrder' && i < done) entry.heatScore = score;
      else if (o.live === 'partial') entry.heatScore = soFar();
      else if (o.live === 'some' && b.rng.chance(0.3 + 0.7 * heat.progress)) entry.heatScore = soFar();
    }
  }
  return order.map((i) => entrants[i] as Entrant);
}

// ---------------------------------------------------------------------------------------------------
// Judged heats: surfing (wsl), action sports (xgame) and made-for-TV events (spectation).

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

// ---------------------------------------------------------------------------------------------------
// Skateboarding (sls): two runs and four tricks, two more tricks for the top four of a final.

const SLS_FIELDS = [
  'lineScore1',
  'lineScore2',
  'trick1Score',
  'trick2Score',
  'trick3Score',
  'trick4Score',
  'trick5Score',
  'trick6Score',
] as const;

/**
 * The heat score: the sum of the three highest of the better run and the tricks, as the API's
 * roundScore counts them (docs/decisions.md: one run counts). -1 marks a score not (yet) given.
 */
function bestThree(scores: ArrayLike<number>, from: number, to: number): number {
  let first = -1;
  let second = -1;
  let third = -1;
  const consider = (x: number) => {
    if (x > first) [first, second, third] = [x, first, second];
    else if (x > second) [second, third] = [x, second];
    else if (x > third) third = x;
  };
  consider(Math.max(scores[from] ?? -1, scores[from + 1] ?? -1));
  for (let k = from + 2; k < to; k++) {
    const x = scores[k] ?? -1;
    if (x >= 0) consider(x);
  }
  return round2(Math.max(0, first) + Math.max(0, second) + Math.max(0, third));
}

function slsHeat(b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], final: boolean): Entrant[] {
  const rng = b.rng;
  const entries = b.enter(heat, entrants);
  const n = entrants.length;
  // Eight scores per skater (two runs, six tricks); -1 where a trick is not skated.
  const scores = new Float64Array(n * 8).fill(-1);
  const totals = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = (entrants[i] as Entrant).athlete.strength;
    for (let k = 0; k < 2; k++)
      scores[i * 8 + k] = rng.chance(0.18)
        ? round1(rng.float(0.5, 3))
        : round1(clamp(7 + 0.6 * s + 1.1 * gauss(rng), 3.5, 9.6));
    for (let k = 2; k < 6; k++) scores[i * 8 + k] = slsTrick(rng, s);
    totals[i] = bestThree(scores, i * 8, i * 8 + 6);
  }
  // A final gives the top four after four tricks two more tricks.
  const topFour = final
    ? indices(n)
        .sort((x, y) => (totals[y] ?? 0) - (totals[x] ?? 0) || x - y)
        .slice(0, 4)
    : [];
  for (const i of topFour) {
    const s = (entrants[i] as Entrant).athlete.strength;
    scores[i * 8 + 6] = slsTrick(rng, s);
    scores[i * 8 + 7] = slsTrick(rng, s);
    totals[i] = bestThree(scores, i * 8, i * 8 + 8);
  }
  const order = indices(n).sort((x, y) => (totals[y] ?? 0) - (totals[x] ?? 0) || x - y);
  const stage = stageOf(heat);
  // A live heat has run its first stages (run 1, run 2, trick 1...) for everyone.
  const stages = stage === FINAL ? 8 : stage === LIVE ? Math.floor(heat.progress * (final ? 8 : 6)) : 0;
  for (let i = 0; i < n; i++) {
    const entrant = entrants[i] as Entrant;
    entrant.mark = totals[i] ?? 0;
    if (stages === 0) continue;
    const entry = entries[i] as FeedHeatEntry;
    const shown = new Float64Array(8).fill(-1);
    for (let k = 0; k < stages; k++) {
      const value = scores[i * 8 + k] ?? -1;
      if (value < 0) continue;
      entry[SLS_FIELDS[k] as (typeof SLS_FIELDS)[number]] = value;
      shown[k] = value;
    }
    entry.heatScore = bestThree(shown, 0, 8);
  }
  if (stage === FINAL)
    order.forEach((i, k) => {
      (entries[i] as FeedHeatEntry).position = k + 1;
    });
  return order.map((i) => entrants[i] as Entrant);
}

/** A trick: bails are common and score 0 (now and then a low score); a make scores 4 to 9.9. */
function slsTrick(rng: Random, strength: number): number {
  if (rng.chance(clamp(0.38 - 0.06 * strength, 0.2, 0.55))) return rng.chance(0.85) ? 0 : round1(rng.float(0.5, 3));
  return round1(clamp(7.5 + 0.5 * strength + 0.9 * gauss(rng), 4, 9.9));
}

/** Qualifying heats of 4-6 (the top three of each through), a knockout round of two sixes, a final of eight. */
function skateboarding(b: EventBuild, event: ResultEvent): void {
  const last = event.rounds.length - 1;
  let starters = b.field(24, 16);
  event.rounds.forEach((round, r) => {
    const keep = r === 0 ? 3 : 4;
    const through: Array<{ entrant: Entrant; place: number }> = [];
    const groups = snake(starters, round.heats.length);
    round.heats.forEach((heat, h) => {
      const ranked = slsHeat(b, heat, groups[h] ?? [], r === last);
      ranked.forEach((entrant, place) => {
        if (r === last || place < keep) through.push({ entrant, place });
        else b.out(entrant, heat);
      });
    });
    starters = through.sort((x, y) => x.place - y.place || y.entrant.mark - x.entrant.mark).map((t) => t.entrant);
  });
}

// ---------------------------------------------------------------------------------------------------
// Racing: lap-by-lap (supercross, motocross, hlrs sprint cars) and position races (f1, motoamerica,
// usac, worldoutlaws).

type Role = 'qualifying' | 'heat' | 'lcq' | 'main';

interface RaceSpec {
  laps: number;
  /** A typical lap, seconds. */
  base: number;
  /** Timed sessions rank by the best lap; races by who crosses the line first. */
  timed: boolean;
  dnf: number;
}

type Racer = (b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], spec: RaceSpec) => Entrant[];

/**
 * A race with per-lap records: each entrant's pace comes from strength, every lap adds noise and the odd
 * mistake, and lap 1 adds a start that shuffles the order; positions at the end of each lap come from
 * the cumulative times, so entrants pass each other. DNF entrants stop early, a rare DNS never starts.
 * A live race publishes the laps run so far, everyone on about the same lap.
 */
function lapRace(b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], spec: RaceSpec): Entrant[] {
  const entries = b.enter(heat, entrants);
  const stage = stageOf(heat);
  if (stage === NONE) return quickRace(b.rng, entrants, spec);
  const rng = b.rng;
  const n = entrants.length;
  const L = spec.laps;
  const times = new Float64Array(n * L);
  const cum = new Float64Array(n * L);
  const done = new Int32Array(n);
  const dns = new Uint8Array(n);
  const best = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const penalty = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (rng.chance(0.012)) {
      dns[i] = 1;
      continue;
    }
    const pace = spec.base * (1 - 0.012 * (entrants[i] as Entrant).athlete.strength + 0.004 * gauss(rng));
    const laps = rng.chance(spec.dnf) ? rng.int(0, L - 1) : L;
    done[i] = laps;
    let total = 0;
    for (let l = 0; l < laps; l++) {
      let t = pace + spec.base * 0.008 * gauss(rng);
      // Lap 1 is an out lap in a timed session and a standing start in a race.
      if (l === 0) t += spec.base * (spec.timed ? 0.06 : rng.float(0.05, 0.15));
      if (rng.chance(0.03)) t += spec.base * rng.float(0.04, 0.2);
      t = round3(t);
      times[i * L + l] = t;
      total += t;
      cum[i * L + l] = total;
      if (t < (best[i] ?? 0)) best[i] = t;
    }
    if (!spec.timed && laps === L && rng.chance(0.025)) penalty[i] = rng.chance(0.8) ? 5 : 10;
  }
  const lapsOf = (i: number) => done[i] ?? 0;
  const cumAt = (i: number, laps: number) => (laps > 0 ? (cum[i * L + laps - 1] ?? 0) : 0);
  // Final order: finishers by time (with penalties), then DNFs by laps run, DNS last; timed: best lap.
  const order = indices(n).sort((x, y) => {
    const dx = dns[x] ?? 0;
    const dy = dns[y] ?? 0;
    if (dx !== dy) return dx - dy;
    if (spec.timed) return (best[x] ?? 0) - (best[y] ?? 0) || x - y;
    return (
      lapsOf(y) - lapsOf(x) ||
      cumAt(x, lapsOf(x)) + (penalty[x] ?? 0) - cumAt(y, lapsOf(y)) - (penalty[y] ?? 0) ||
      x - y
    );
  });

  order.forEach((i, k) => {
    (entrants[i] as Entrant).mark = spec.timed ? (best[i] ?? 0) : k;
  });

  const shown = stage === FINAL ? L : Math.min(L - 1, Math.floor(heat.progress * L));
  // Positions at the end of each shown lap, among the entrants who completed it.
  const position = new Int32Array(n * L);
  const soFar = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const onLap: number[] = [];
  for (let l = 0; l < shown; l++) {
    onLap.length = 0;
    for (let i = 0; i < n; i++) {
      if (lapsOf(i) <= l) continue;
      onLap.push(i);
      const t = times[i * L + l] ?? 0;
      if (t < (soFar[i] ?? 0)) soFar[i] = t;
    }
    if (spec.timed) onLap.sort((x, y) => (soFar[x] ?? 0) - (soFar[y] ?? 0) || x - y);
    else onLap.sort((x, y) => (cum[x * L + l] ?? 0) - (cum[y * L + l] ?? 0) || x - y);
    for (let k = 0; k < onLap.length; k++) position[(onLap[k] ?? 0) * L + l] = k + 1;
  }

  let running = order;
  if (stage === LIVE) {
    const upTo = (i: number) => Math.min(lapsOf(i), shown);
    running = indices(n).sort((x, y) => {
      const dx = dns[x] ?? 0;
      const dy = dns[y] ?? 0;
      if (dx !== dy) return dx - dy;
      if (spec.timed) return (soFar[x] ?? 0) - (soFar[y] ?? 0) || x - y;
      return upTo(y) - upTo(x) || cumAt(x, upTo(x)) - cumAt(y, upTo(y)) || x - y;
    });
  }
  running.forEach((i, k) => {
    const entry = entries[i] as FeedHeatEntry;
    const laps = Math.min(lapsOf(i), shown);
    if (shown > 0) entry.position = k + 1;
    entry.lapStatus = dns[i] ? 'DNS' : lapsOf(i) < shown || (stage === FINAL && lapsOf(i) < L) ? 'DNF' : 'ACT';
    entry.totalLaps = L;
    // A race sends the time of the entrant's last lap; a timed session the best lap, its qualifying time.
    if (laps > 0) entry.lapTime = spec.timed ? (soFar[i] ?? 0) : (times[i * L + laps - 1] ?? 0);
    if (stage === FINAL && (penalty[i] ?? 0) > 0) entry.penaltyTime = penalty[i] ?? 0;
    for (let l = 0; l < laps; l++) {
      b.sink.laps.push({
        heatEntryId: entry.id,
        lapNo: l + 1,
        lapTime: times[i * L + l] ?? 0,
        position: position[i * L + l] ?? 0,
      });
    }
  });
  return order.map((i) => entrants[i] as Entrant);
}

/**
 * An upcoming race is not published, but its outcome still decides who goes through: a rough order
 * from strength and luck, marked in lap seconds so that it ranks with timed sessions already run.
 */
function quickRace(rng: Random, entrants: readonly Entrant[], spec: RaceSpec): Entrant[] {
  for (const entrant of entrants)
    entrant.mark = spec.base * (1 - 0.012 * (entrant.athlete.strength + 0.8 * gauss(rng)));
  return [...entrants].sort((x, y) => x.mark - y.mark || x.order - y.order);
}

/**
 * A race published as positions only: the order comes from strength and luck, the best lap from pace.
 * A live race shows the running order and the best laps so far; a live timed session the drivers who
 * have set a time so far.
 */
function positionRace(b: EventBuild, heat: ResultHeat, entrants: readonly Entrant[], spec: RaceSpec): Entrant[] {
  const entries = b.enter(heat, entrants);
  const stage = stageOf(heat);
  if (stage === NONE) return quickRace(b.rng, entrants, spec);
  const rng = b.rng;
  const n = entrants.length;
  const L = spec.laps;
  const key = new Float64Array(n);
  const bestLap = new Float64Array(n);
  const done = new Int32Array(n);
  const dns = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const s = (entrants[i] as Entrant).athlete.strength;
    bestLap[i] = round3(spec.base * (spec.timed ? 1 : 1.025) * (1 - 0.007 * s + 0.003 * gauss(rng)));
    dns[i] = rng.chance(0.01) ? 1 : 0;
    done[i] = spec.timed || !rng.chance(spec.dnf) ? L : rng.int(0, L - 1);
    key[i] = spec.timed ? (bestLap[i] ?? 0) : -(s + 0.8 * gauss(rng));
  }
  const lapNow = stage === FINAL ? L : Math.floor(heat.progress * L);
  // Non-starters last, more laps first, then the key; a live race counts only the laps run so far,
  // so the retired drop behind everyone still running.
  const lapsNow = (i: number) => Math.min(done[i] ?? 0, lapNow);
  const compare = (laps: (i: number) => number) => (x: number, y: number) =>
    (dns[x] ?? 0) - (dns[y] ?? 0) || laps(y) - laps(x) || (key[x] ?? 0) - (key[y] ?? 0) || x - y;
  const order = indices(n).sort(compare((i) => done[i] ?? 0));
  order.forEach((i, k) => {
    (entrants[i] as Entrant).mark = spec.timed ? (dns[i] ? Number.POSITIVE_INFINITY : (bestLap[i] ?? 0)) : k;
  });
  const running = stage === FINAL ? order : indices(n).sort(compare(lapsNow));
  let place = 0;
  for (const i of running) {
    const entry = entries[i] as FeedHeatEntry;
    if (L > 0) entry.totalLaps = L;
    if (spec.timed && stage === LIVE && !dns[i] && !rng.chance(heat.progress)) continue;
    entry.lapStatus = dns[i] ? 'DNS' : (done[i] ?? 0) < lapNow ? 'DNF' : 'ACT';
    if (dns[i]) continue;
    entry.position = ++place;
    entry.lapTime = stage === FINAL ? (bestLap[i] ?? 0) : round3((bestLap[i] ?? 0) * 1.004);
  }
  return order.map((i) => entrants[i] as Entrant);
}

interface FieldRacingSpec {
  size: number;
  /** A withdrawal without an alternate to replace it may not shrink the field below this. */
  minSize: number;
  base: number;
  /** Laps by role; a number range is drawn per event. */
  laps: Readonly<Record<Role, readonly [number, number]>>;
  /** Straight into the main from a heat (with a heats round), or from qualifying (without one). */
  transfer: number;
  /** From the last chance qualifier into the main. */
  lastChance: number;
}

/** Qualifying, then (heat races,) a last chance qualifier, then the main event(s). */
function fieldRacing(b: EventBuild, event: ResultEvent, spec: FieldRacingSpec, race: Racer): void {
  const rng = b.rng;
  const laps = {} as Record<Role, number>;
  for (const role of ['qualifying', 'heat', 'lcq', 'main'] as const)
    laps[role] = rng.int(spec.laps[role][0], spec.laps[role][1]);
  const dnf: Record<Role, number> = { qualifying: 0.02, heat: 0.03, lcq: 0.04, main: 0.06 };
  const run = (role: Role, heat: ResultHeat, entrants: readonly Entrant[]) =>
    race(b, heat, entrants, { laps: laps[role], base: spec.base, timed: role === 'qualifying', dnf: dnf[role] });

  const field = b.field(spec.size, spec.minSize);
  let qualified: Entrant[] = field;
  let main: Entrant[] = [];
  let lcq: Entrant[] = [];
  for (const round of event.rounds) {
    const role = roleOf(round.name);
    if (role === 'qualifying') {
      const groups = snake(field, round.heats.length);
      const timed: Entrant[] = [];
      round.heats.forEach((heat, h) => {
        timed.push(...run(role, heat, groups[h] ?? []));
      });
      // Riders without a time rank last; the time is each entrant's mark (Infinity when none).
      qualified = timed.sort((x, y) => x.mark - y.mark || x.order - y.order);
      main = qualified.slice(0, spec.transfer);
      lcq = qualified.slice(spec.transfer);
    } else if (role === 'heat') {
      main = [];
      lcq = [];
      const count = round.heats.length;
      round.heats.forEach((heat, h) => {
        const ranked = run(
          role,
          heat,
          qualified.filter((_, k) => k % count === h),
        );
        main.push(...ranked.slice(0, spec.transfer));
        lcq.push(...ranked.slice(spec.transfer));
      });
    } else if (role === 'lcq') {
      const heat = round.heats[0];
      if (heat && lcq.length > 0) {
        const ranked = run(role, heat, lcq.sort(byQualifying(qualified)));
        main.push(...ranked.slice(0, spec.lastChance));
        for (const entrant of ranked.slice(spec.lastChance)) b.out(entrant, heat);
      }
    } else {
      const gate = [...main].sort(byQualifying(qualified));
      for (const heat of round.heats) run(role, heat, gate);
    }
  }
}

function roleOf(roundName: string): Role {
  if (/last chance|consolation|semi|lcq/i.test(roundName)) return 'lcq';
  if (/qualif/i.test(roundName)) return 'qualifying';
  if (/heat/i.test(roundName)) return 'heat';
  return 'main';
}

/** Gate picks and grids go by qualifying result. */
function byQualifying(qualified: readonly Entrant[]) {
  const rank = new Map(qualified.map((entrant, i) => [entrant, i]));
  return (a: Entrant, b: Entrant) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0);
}

/**
 * Practice sessions, qualifying, then races with the whole field. Three qualifying sessions are a
 * knockout (Q1 and Q2 each drop five; the grid is Q3's order, then the others by their last session);
 * otherwise the grid goes by each entrant's best lap of any session.
 */
function roadRacing(b: EventBuild, event: ResultEvent, spec: FieldRacingSpec): void {
  const rng = b.rng;
  const raceLaps = rng.int(spec.laps.main[0], spec.laps.main[1]);
  const field = b.field(spec.size, spec.minSize);
  const session = (heat: ResultHeat, entrants: readonly Entrant[], base: number) =>
    positionRace(b, heat, entrants, { laps: 0, base, timed: true, dnf: 0 });
  let grid = field;
  for (const round of event.rounds) {
    if (/practice/i.test(round.name)) {
      for (const heat of round.heats) session(heat, field, spec.base * 1.012);
    } else if (/qualif/i.test(round.name) && round.heats.length === 3) {
      let starters = field;
      const dropped: Entrant[][] = [];
      round.heats.forEach((heat, q) => {
        const ranked = session(heat, starters, spec.base);
        if (q === round.heats.length - 1) {
          grid = [...ranked, ...dropped.flat()];
          return;
        }
        const keep = Math.max(1, ranked.length - 5);
        dropped.unshift(ranked.slice(keep));
        starters = ranked.slice(0, keep).sort(byOrder);
      });
    } else if (/qualif/i.test(round.name)) {
      for (const entrant of field) entrant.total = Number.POSITIVE_INFINITY;
      for (const heat of round.heats)
        for (const entrant of session(heat, field, spec.base)) entrant.total = Math.min(entrant.total, entrant.mark);
      grid = [...field].sort((x, y) => x.total - y.total || x.order - y.order);
    } else {
      for (const heat of round.heats)
        positionRace(b, heat, grid, { laps: raceLaps, base: spec.base, timed: false, dnf: 0.07 });
    }
  }
}

interface RacingProfile {
  /** Field racing: qualifying, heats, last chance, mains; road racing: sessions, then races. */
  kind: 'field' | 'road';
  size: number;
  minSize?: number;
  /** Range of a typical lap, seconds; each event (track) draws one. */
  base: readonly [number, number];
  laps: FieldRacingSpec['laps'];
  transfer: number;
  race: Racer;
}

function racing(b: EventBuild, event: ResultEvent, profile: RacingProfile): void {
  const spec: FieldRacingSpec = {
    size: profile.size,
    minSize: profile.minSize ?? 12,
    base: round1(b.rng.float(profile.base[0], profile.base[1])),
    laps: profile.laps,
    transfer: profile.transfer,
    lastChance: 4,
  };
  if (profile.kind === 'road') roadRacing(b, event, spec);
  else fieldRacing(b, event, spec, profile.race);
}

const NO_LAPS: readonly [number, number] = [0, 0];

const RACING: Readonly<Record<string, RacingProfile>> = {
  spr: {
    kind: 'field',
    size: 40,
    base: [46, 56],
    laps: { qualifying: [6, 8], heat: [6, 6], lcq: [4, 5], main: [19, 22] },
    transfer: 9,
    race: lapRace,
  },
  sprmtcrs: {
    kind: 'field',
    size: 40,
    base: [50, 60],
    laps: { qualifying: [6, 8], heat: [6, 6], lcq: [5, 6], main: [15, 18] },
    transfer: 18,
    race: lapRace,
  },
  motocrs: {
    kind: 'field',
    size: 40,
    base: [120, 140],
    laps: { qualifying: [5, 6], heat: [6, 6], lcq: [5, 6], main: [14, 17] },
    transfer: 22,
    race: lapRace,
  },
  hlrs: {
    kind: 'field',
    size: 40,
    base: [11, 15.5],
    laps: { qualifying: [2, 2], heat: [8, 10], lcq: [12, 12], main: [25, 30] },
    transfer: 5,
    race: lapRace,
  },
  usac: {
    kind: 'field',
    size: 40,
    base: [11, 15.5],
    laps: { qualifying: [2, 2], heat: [8, 8], lcq: [12, 12], main: [30, 30] },
    transfer: 4,
    race: positionRace,
  },
  worldoutlaws: {
    kind: 'field',
    size: 40,
    base: [11, 15.5],
    laps: { qualifying: [2, 2], heat: [8, 8], lcq: [12, 12], main: [30, 40] },
    transfer: 5,
    race: positionRace,
  },
  // Formula 1 always starts twenty cars: a driver who cannot race is replaced by a reserve.
  f1: {
    kind: 'road',
    size: 20,
    minSize: 20,
    base: [72, 98],
    laps: { qualifying: NO_LAPS, heat: NO_LAPS, lcq: NO_LAPS, main: [50, 72] },
    transfer: 0,
    race: positionRace,
  },
  motoamerica: {
    kind: 'road',
    size: 28,
    base: [95, 125],
    laps: { qualifying: NO_LAPS, heat: NO_LAPS, lcq: NO_LAPS, main: [14, 21] },
    transfer: 0,
    race: positionRace,
  },
};

// ---------------------------------------------------------------------------------------------------
// Swimming: timed heats, two semifinals of the fastest sixteen, a final of the fastest eight.

function swimming(b: EventBuild, event: ResultEvent): void {
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

// ---------------------------------------------------------------------------------------------------
// Disc golf: three rounds in cards of four or five (leaders together), then a final round of two cards.

function discGolf(b: EventBuild, event: ResultEvent): void {
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

// ---------------------------------------------------------------------------------------------------
// Team-rotation leagues (athletesunlimited): a weekly draft into colour teams; games score individual points.

function rotationLeague(b: EventBuild, event: ResultEvent): void {
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

// ---------------------------------------------------------------------------------------------------
// Jai alai: each match is two pairs, its sets played to 7 (the last match of the night to 9).

function jaiAlai(b: EventBuild, event: ResultEvent): void {
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

// ---------------------------------------------------------------------------------------------------
// Combat: a card of bouts in matching weight classes; each completed bout has a winner and a method.

type Methods = ReadonlyArray<readonly [string, number]>;

/** How fights end, with rough frequencies per promotion. */
const METHODS: Readonly<Record<string, Methods>> = {
  bkfc: [
    ['KO', 30],
    ['TKO', 26],
    ['Unanimous Decision', 16],
    ['Split Decision', 5],
    ['Majority Decision', 2],
    ['Decision', 2],
    ['Medical Stoppage', 5],
    ['Technical Decision', 2],
    ['Referee Technical Decision', 1],
    ['Disqualification', 1.5],
    ['Forfeit', 0.5],
    ['Draw', 0.7],
    ['Majority Draw', 0.7],
    ['Split Draw', 0.5],
    ['Technical Draw', 0.3],
    ['No Contest', 1],
  ],
  byb: [
    ['KO', 30],
    ['TKO', 28],
    ['Unanimous Decision', 15],
    ['Split Decision', 5],
    ['Majority Decision', 2],
    ['Medical Stoppage', 5],
    ['Technical Decision', 2],
    ['Referee Technical Decision', 1.5],
    ['Disqualification', 1.5],
    ['Forfeit', 0.5],
    ['Draw', 1],
    ['Split Draw', 0.5],
    ['Unanimous Draw', 0.3],
    ['No Contest', 1],
  ],
  powerslap: [
    ['KO', 32],
    ['TKO', 20],
    ['Unanimous Decision', 24],
    ['Split Decision', 8],
    ['Majority Decision', 5],
    ['Decision', 2],
    ['Disqualification', 3],
    ['Medical Stoppage', 2],
    ['Forfeit', 1],
    ['Draw', 1.5],
    ['Majority Draw', 1],
    ['No Contest', 1],
  ],
  lux: [
    ['KO', 12],
    ['TKO', 22],
    ['Submission', 22],
    ['Technical Submission', 3],
    ['Unanimous Decision', 20],
    ['Split Decision', 8],
    ['Majority Decision', 2.5],
    ['Medical Stoppage', 2],
    ['Technical Decision', 1.5],
    ['Referee Technical Decision', 1],
    ['Disqualification', 1],
    ['Unanimous Draw', 0.5],
    ['Split Draw', 0.5],
    ['Majority Draw', 0.5],
    ['Technical Draw', 0.3],
    ['No Contest', 1.5],
  ],
  // Freestyle wrestling has no draws; technical superiority and falls are sent as the promotion words them.
  raf: [
    ['Decision', 30],
    ['Technical Superiority', 28],
    ['Pin', 12],
    ['Fall', 4],
    ['Technical Decision', 5],
    ['Forfeit', 3],
    ['Disqualification', 3],
    ['Medical Stoppage', 2],
    ['Injury Default', 2],
    ['No Contest', 0.5],
  ],
};

/**
 * Rare outcomes each promotion shows early (every fourth completed bout until the list is used up), so
 * that even the default dataset holds every published method, draws and no contests included.
 */
const SHOWCASE: Readonly<Record<string, readonly string[]>> = {
  bkfc: ['Medical Stoppage', 'Majority Draw', 'Referee Technical Decision', 'No Contest', 'Forfeit', 'Decision'],
  byb: ['Technical Decision', 'Split Draw', 'Disqualification', 'Majority Decision', 'Unanimous Draw'],
  powerslap: ['Draw', 'Disqualification', 'Split Decision', 'No Contest', 'Forfeit'],
  lux: [
    'Submission',
    'Technical Submission',
    'Technical Draw',
    'Unanimous Draw',
    'Referee Technical Decision',
    'Split Decision',
  ],
  raf: ['Technical Superiority', 'Pin', 'Technical Decision', 'Forfeit', 'Medical Stoppage'],
};

/** Other spellings feeds use for the same method; the API publishes the listed spelling. */
const SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  KO: ['Knockout', 'K.O.', 'ko'],
  TKO: ['T.K.O.', 'tko', 'Technical Knockout'],
  Submission: ['SUB', 'submission'],
  'Unanimous Decision': ['unanimous decision', 'UD'],
  'Split Decision': ['split decision', 'SD'],
  'Majority Decision': ['MD'],
  Disqualification: ['DQ'],
  'No Contest': ['NC', 'no contest'],
};

/** Per competition: its method frequencies and the showcase still to come. */
class FightBook {
  readonly methods: Methods;
  readonly showcase: string[];

  completed: number;

  /** A book `completed` bouts in: the showcase has given one outcome every fourth bout from the first. */
  constructor(key: string, completed = 0) {
    this.completed = completed;
    this.methods = METHODS[key] ?? [['Decision', 1]];
    this.showcase = (SHOWCASE[key] ?? []).slice(Math.ceil(completed / 4));
  }

  method(rng: Random): string {
    this.completed++;
    const showcased = this.completed % 4 === 1 ? this.showcase.shift() : undefined;
    const method = showcased ?? rng.weighted(this.methods);
    const spellings = SPELLINGS[method];
    return spellings && rng.chance(0.08) ? rng.pick(spellings) : method;
  }
}

/** The two fighters an event is named after, of one weight class, if the name bills a main event. */
function billedPair(name: string, athletes: readonly ResultAthlete[]): [ResultAthlete, ResultAthlete] | null {
  const match = /: (.+) vs\. (.+)$/.exec(name);
  if (!match) return null;
  for (const a of athletes) {
    if (a.lastName !== match[1]) continue;
    const b = athletes.find((x) => x !== a && x.lastName === match[2] && x.weightClass === a.weightClass);
    if (b) return [a, b];
  }
  return null;
}

function combat(b: EventBuild, event: ResultEvent, book: FightBook): void {
  const rng = b.rng;
  const round = event.rounds[0];
  if (!round) return;
  const bouts = round.heats.length;
  // Pair fighters within their weight class; leftovers fight across classes only if the card is short.
  const byClass = new Map<string, ResultAthlete[]>();
  for (const athlete of rng.shuffle(b.athletes)) {
    const group = byClass.get(athlete.weightClass ?? '');
    if (group) group.push(athlete);
    else byClass.set(athlete.weightClass ?? '', [athlete]);
  }
  // An event named after its main event ("BKFC 61: Smith vs. Jones") books that pairing last.
  const billed = billedPair(event.name, b.athletes);
  const isBilled = (athlete: ResultAthlete) => billed?.includes(athlete) ?? false;
  const pairs: Array<[ResultAthlete, ResultAthlete]> = [];
  for (const group of byClass.values()) {
    const free = group.filter((athlete) => !isBilled(athlete));
    for (let i = 0; i + 1 < free.length; i += 2) pairs.push([free[i] as ResultAthlete, free[i + 1] as ResultAthlete]);
  }
  const wanted = billed ? bouts - 1 : bouts;
  const card = rng.shuffle(pairs).slice(0, wanted);
  if (card.length < wanted) {
    // Too few pairs within a class: the rest fight across classes, grouped by class as far as it goes.
    const booked = new Set(card.flat());
    const rest = b.athletes
      .filter((a) => !booked.has(a) && !isBilled(a))
      .sort((x, y) =>
        (x.weightClass ?? '') < (y.weightClass ?? '') ? -1 : (x.weightClass ?? '') > (y.weightClass ?? '') ? 1 : 0,
      );
    for (let i = 0; card.length < wanted && i + 1 < rest.length; i += 2)
      card.push([rest[i] as ResultAthlete, rest[i + 1] as ResultAthlete]);
  }
  // Otherwise the main event, the last bout, has the strongest pairing.
  const pairStrength = (p: readonly [ResultAthlete, ResultAthlete]) => p[0].strength + p[1].strength;
  card.sort((x, y) => pairStrength(x) - pairStrength(y));
  if (billed) card.push(billed);

  const fighters = card.flat().sort((x, y) => y.strength - x.strength || (x.id < y.id ? -1 : 1));
  const entrantOf = new Map(fighters.map((athlete, i) => [athlete, b.add(athlete, i + 1, 'ACTIVE')]));
  const bouted = card.map((pair) => pair.map((athlete) => entrantOf.get(athlete) as Entrant));
  // A late withdrawal: an unbooked fighter of the same class steps in on short notice.
  if (card.length > 0 && rng.chance(0.25)) {
    const booked = new Set(fighters);
    const spares = b.athletes.filter((a) => !booked.has(a));
    // Never the billed main event, so the event name still holds.
    const bout = bouted[rng.int(0, Math.max(0, bouted.length - (billed && bouted.length > 1 ? 2 : 1)))] as Entrant[];
    const side = rng.int(0, 1);
    const out = bout[side] as Entrant;
    const spare = spares.find((a) => a.weightClass === out.athlete.weightClass) ?? spares[0];
    if (spare) {
      out.status = rng.chance(0.4) ? 'INJURED' : 'WITHDRAWN';
      bout[side] = b.add(spare, null, 'ALTERNATE');
    }
  }

  round.heats.forEach((heat, h) => {
    const bout = (bouted[h] ?? []).sort(byOrder);
    b.enter(heat, bout);
    const [favourite, underdog] = bout;
    if (heat.status !== 'COMPLETED' || !favourite || !underdog) return;
    const method = book.method(rng);
    const favouriteWins = rng.chance(
      clamp(0.5 + 0.25 * (favourite.athlete.strength - underdog.athlete.strength), 0.12, 0.88),
    );
    // Draws and no contests (in any spelling) name no winner.
    const noWinner = methodExcludesWinner(method);
    const [winner, loser] = favouriteWins ? [favourite, underdog] : [underdog, favourite];
    b.sink.heatResults.push({
      heatId: heat.id,
      winnerAthleteId: noWinner ? null : announcedWinner(heat, method, winner, loser).athlete.id,
      method,
      ...resultStatusOf(heat),
    });
  });
}

/**
 * The winner as announced. A decision's scorecards are now and then misread: the provisional result
 * names the loser, and the official one corrects it (RESULT_CHANGED). One decision in three, chosen by
 * the heat's id rather than the shared draws, so that the rest of the demo stays as it was.
 */
function announcedWinner(heat: ResultHeat, method: string, winner: Entrant, loser: Entrant): Entrant {
  const misread =
    heat.resultStatus === 'PROVISIONAL' &&
    /decision|^[SUM]D$/i.test(method) &&
    hashSeed('scorecard', heat.id) % 3 === 0;
  return misread ? loser : winner;
}

/** The heat result's `resultStatus`, left out when OFFICIAL (the feed's default). */
function resultStatusOf(heat: ResultHeat): { resultStatus?: ResultStatus } {
  return heat.resultStatus === 'PROVISIONAL' ? { resultStatus: 'PROVISIONAL' } : {};
}

// ---------------------------------------------------------------------------------------------------
// Drifting: a qualifying run for everyone, then tandem battles of the top 32.

function drifting(b: EventBuild, event: ResultEvent): void {
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

// ---------------------------------------------------------------------------------------------------
// Drag racing: four qualifying sessions for everyone, then pairs of the top sixteen by best elapsed time.

/** A Top Fuel elapsed time, seconds; now and then a run goes up in smoke. */
function elapsedTime(rng: Random, entrant: Entrant): number | null {
  const roll = rng.next();
  if (roll < 0.02) return null;
  if (roll < 0.1) return round3(rng.float(4.2, 8.5));
  return round3(clamp(3.72 - 0.022 * entrant.athlete.strength + 0.025 * gauss(rng), 3.62, 3.95));
}

function dragRacing(b: EventBuild, event: ResultEvent): void {
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

// ---------------------------------------------------------------------------------------------------
// Bull riding: rounds of rides, the top twelve to the championship round; a third of the events are
// team events, where each heat is a game between two teams.

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

function bullRiding(b: EventBuild, event: ResultEvent, teamIds: readonly string[]): void {
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
