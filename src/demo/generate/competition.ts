import { type Competition, formatIn, TEAM_GAME_FORMATS } from '../../domain/competitions.ts';
import { hashSeed, Random } from '../../domain/random.ts';
import type { PeriodScore } from '../../domain/results/match-score.ts';
import type { FeedDocument } from '../../ingest/feed-schema.ts';
import { demoFirstHammer, demoMatchModel } from '../matches.ts';
import { ReplayRandom } from '../replay-random.ts';
import { type EventResultsGenerator, eventResultsGenerator, type ResultAthlete } from '../results.ts';
import { VENUES, type Venue } from '../venues.ts';
import { bracketFiller, planBracket } from './bracket.ts';
import type { DemoChunk } from './chunk.ts';
import { type EventBase, type EventView, finishOf, statusAt } from './event-status.ts';
import type { FeedEvent, FeedFuture, FeedFutureOdd, FeedTeam, FeedTour, FeedTourYear } from './feed-items.ts';
import { competitionFutures } from './futures.ts';
import { materialise } from './materialise.ts';
import { type AthletePlan, makeAthletes, makeRiderTeams, makeTeams, type TeamPlan } from './participants.ts';
import { type DemoPricer, PRE_EVENT_PRICES } from './pricers.ts';
import type { NameContext, Profile } from './profile.ts';
import { profileOf } from './profiles.ts';
import { type EventPlan, planEvents } from './schedule.ts';
import { livePath } from './team-match.ts';
import { iso } from './time.ts';

/**
 * One competition's demo data: its tour, participants, calendar of events and futures, and the means
 * to write each event as it stands at any time. Each part draws from a stream of its own (forked from
 * the competition's seed), so that adding to one leaves the others as they were.
 */

/** Where a competition's streams stood when an event's turn came: what rebuilding the event later starts from. */
interface Checkpoint {
  scores: number;
  results: number;
  fights: number;
}

export interface CompetitionData {
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

/** The competition's streams, forked from its seed in this order (a fork draws from the root). */
function competitionStreams(competition: Competition, seed: number) {
  const root = new Random(hashSeed('altsports-demo', seed, competition.key));
  return {
    participants: root.fork('participants'),
    events: root.fork('events'),
    content: root.fork('content'),
    futures: root.fork('futures'),
    scores: ReplayRandom.fork(root, 'scores'),
    // Forked last, so that adding results left every earlier draw (names, schedule, scores) as it was.
    results: ReplayRandom.fork(root, 'results'),
  };
}

/** Who takes part: teams, or athletes (with a bull-riding tour's rider teams), and the athletes as results see them. */
interface Field {
  teams: TeamPlan[];
  athletes: AthletePlan[];
  riderTeams: FeedTeam[];
  resultAthletes: ResultAthlete[];
  riderTeamIds: string[];
}

function competitionField(competition: Competition, profile: Profile, rng: Random, now: Date): Field {
  const teams = competition.participants === 'teams' ? makeTeams(competition, rng) : [];
  const athletes =
    competition.participants === 'athletes' ? makeAthletes(competition, profile, profile.gender, rng, now) : [];
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
  return { teams, athletes, riderTeams, resultAthletes, riderTeamIds: riderTeams.map((t) => t.id) };
}

/**
 * The competition's data laid out around `now`: `count` events; `compIndex` (its place in the
 * catalogue) picks the statuses it is sure to show.
 */
export function buildCompetition(
  competition: Competition,
  compIndex: number,
  count: number,
  seed: number,
  now: Date,
): CompetitionData {
  const profile = profileOf(competition);
  const streams = competitionStreams(competition, seed);
  const nowMs = now.getTime();
  const nowYear = now.getUTCFullYear();
  const gender = profile.gender;
  const tour: FeedTour = {
    id: `${competition.key}-tour-${gender}`,
    competition: competition.key,
    name: profile.tourName,
    gender,
  };
  const field = competitionField(competition, profile, streams.participants, now);
  const results = eventResultsGenerator(competition, field.resultAthletes, field.riderTeamIds, streams.results);
  const plans = planEvents(count, compIndex, profile, field.teams, streams.events, nowMs);
  planBracket(competition, plans, field.teams, nowMs);
  const tourYears = tourYearsOf(tour.id, plans, nowYear);
  const events = calendarEvents(competition, profile, tour.id, plans, field.athletes, streams.content);
  const futures = competitionFutures(
    competition,
    tour,
    tourYears,
    field.teams,
    field.athletes,
    streams.futures,
    nowYear,
  );
  const allTeams = [...field.teams.map((t) => t.feed), ...field.riderTeams];
  return {
    competition,
    head: {
      tours: [tour],
      tourYears,
      ...(allTeams.length > 0 ? { teams: allTeams } : {}),
      ...(field.athletes.length > 0 ? { athletes: field.athletes.map((a) => a.feed) } : {}),
    },
    events,
    ...eventWriters(competition, profile, events, { ...streams, generator: results }, field, nowMs),
    ...futures,
  };
}

/** Tour years: last year and this year always, plus any year an event starts in. */
function tourYearsOf(tourId: string, plans: readonly EventPlan[], nowYear: number): FeedTourYear[] {
  const years = new Set<number>([nowYear - 1, nowYear]);
  for (const p of plans) years.add(new Date(p.start).getUTCFullYear());
  return [...years]
    .sort((a, b) => a - b)
    .map((year) => {
      const inYear = plans.filter((p) => new Date(p.start).getUTCFullYear() === year);
      const start = inYear.reduce((min, p) => Math.min(min, p.start), Date.UTC(year, 1, 1));
      const end = inYear.reduce((max, p) => Math.max(max, p.end), Date.UTC(year, 10, 30, 23, 59, 59));
      return { id: `${tourId}-${year}`, tourId, year, startDate: iso(start), endDate: iso(end) };
    });
}

/** Season order: event numbers, venues and names follow the calendar. */
function calendarEvents(
  competition: Competition,
  profile: Profile,
  tourId: string,
  plans: readonly EventPlan[],
  athletes: readonly AthletePlan[],
  rng: Random,
): CompetitionData['events'] {
  const venues = competitionVenues(competition, profile);
  const seasons = new Map<number, EventPlan[]>();
  for (const p of plans) {
    const year = new Date(p.start).getUTCFullYear();
    const season = seasons.get(year) ?? [];
    season.push(p);
    seasons.set(year, season);
  }
  const events: CompetitionData['events'] = [];
  let seq = 0;
  for (const [year, season] of [...seasons].sort((a, b) => a[0] - b[0])) {
    const seen = new Map<string, number>();
    season.forEach((p, i) => {
      const venue = venues.of(p, i);
      const venueCount = (seen.get(venue.event) ?? 0) + 1;
      seen.set(venue.event, venueCount);
      const ctx: NameContext = { rng, competition, venue, venueCount, seq, athletes, home: p.home, away: p.away };
      const name = profile.name ? profile.name(ctx) : defaultName(venue.event, venueCount, venues.repeats(venue));
      const playoffs =
        competition.participants === 'teams' && season.length >= 4 && i >= Math.ceil(season.length * 0.85);
      const base: EventBase = {
        competition: competition.key,
        tourId,
        tourYearId: `${tourId}-${year}`,
        name,
        eventNumber: i + 1,
        eventLocation: venue.location,
        eventLocationNumericId: venues.numericId(p, venue),
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
  return events;
}

/**
 * Where a competition's events take place: touring sports visit the calendar's venues in turn (each
 * hosting `block` events), team sports that play at home go to the home team's arena.
 */
function competitionVenues(competition: Competition, profile: Profile) {
  const venues = VENUES[competition.key] ?? [];
  const numericIds = new Map<string, number>();
  venues.forEach((venue, i) => {
    if (!numericIds.has(venue.location)) numericIds.set(venue.location, competition.referenceId * 1000 + i + 1);
  });
  const calendarRepeats = new Map<string, number>();
  for (const venue of venues) calendarRepeats.set(venue.event, (calendarRepeats.get(venue.event) ?? 0) + 1);
  return {
    of: (p: EventPlan, seasonIndex: number): Venue => {
      if (profile.homeArena && p.home)
        return { event: p.home.seed.name, location: p.home.seed.venue, group: p.home.seed.group };
      return (
        venues[Math.floor(seasonIndex / (profile.block ?? 1)) % Math.max(1, venues.length)] ?? {
          event: competition.name,
          location: 'TBA',
          group: 'TBA',
        }
      );
    },
    /** Whether the calendar visits the venue's event more than once a season. */
    repeats: (venue: Venue) => (calendarRepeats.get(venue.event) ?? 0) > 1,
    numericId: (p: EventPlan, venue: Venue): number | null =>
      profile.homeArena && p.home
        ? competition.referenceId * 1000 + 500 + p.home.index
        : (numericIds.get(venue.location) ?? null),
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

type Events = CompetitionData['events'];

/**
 * What writes the competition's events: as laid out, in order, leaving a checkpoint of the streams
 * for each; and any one of them later, as it stands then, from its checkpoint.
 */
function eventWriters(
  competition: Competition,
  profile: Profile,
  events: Events,
  streams: { scores: ReplayRandom; results: ReplayRandom; generator: EventResultsGenerator | null },
  field: Field,
  nowMs: number,
): Pick<CompetitionData, 'materialise' | 'viewsAt' | 'materialiseAt'> {
  const checkpoints: Checkpoint[] = [];
  const pathOf = matchPaths(competition, nowMs);
  return {
    materialise: (seq, chunk, pricer = PRE_EVENT_PRICES) => {
      const e = events[seq];
      if (!e) return;
      const { scores, results, generator } = streams;
      checkpoints[seq] = { scores: scores.draws, results: results.draws, fights: generator?.fights() ?? 0 };
      const view: EventView = {
        clock: nowMs,
        status: e.plan.status,
        finish: finishOf(e.plan, pathOf(e.plan, e.plan.home, e.plan.away)),
        home: e.plan.home,
        away: e.plan.away,
        base: e.base,
      };
      materialise(e.plan, view, seq, profile, { scores, results: generator }, nowMs, pricer, chunk);
    },
    viewsAt: (clock) => viewsAt(clock, competition, profile, events, pathOf, nowMs),
    materialiseAt: (seq, view, chunk, pricer) => {
      const e = events[seq];
      const at = checkpoints[seq];
      if (!e || !at) throw new Error(`event ${seq} of ${competition.key} has not had its turn yet`);
      const resumed = {
        scores: ReplayRandom.resume(streams.scores.seed, at.scores),
        results: eventResultsGenerator(
          competition,
          field.resultAthletes,
          field.riderTeamIds,
          ReplayRandom.resume(streams.results.seed, at.results),
          at.fights,
        ),
      };
      materialise(e.plan, view, seq, profile, resumed, nowMs, pricer, chunk);
    },
  };
}

type PathOf = (plan: EventPlan, home: TeamPlan | undefined, away: TeamPlan | undefined) => PeriodScore[] | null;

/** A match as played (kept: drawing a curling match takes a while); null without two teams. */
function matchPaths(competition: Competition, nowMs: number): PathOf {
  const paths = new Map<string, PeriodScore[]>();
  return (plan, home, away) => {
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
}

/**
 * Every event as it stands at `clock`: its status, and a knockout game's teams once its feeders are
 * over (renamed for them). The first event still to start is the next one.
 */
function viewsAt(
  clock: number,
  competition: Competition,
  profile: Profile,
  events: Events,
  pathOf: PathOf,
  nowMs: number,
): EventView[] {
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
  const next = views.findIndex(
    (view, seq) =>
      view.status === 'UPCOMING' && (events[seq]?.plan.status === 'NEXT' || events[seq]?.plan.status === 'UPCOMING'),
  );
  if (next >= 0) views[next] = { ...(views[next] as EventView), status: 'NEXT' };
  return views;
}
