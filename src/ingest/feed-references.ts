import { forEachPaced } from '../base/event-loop-turns.ts';
import {
  type Competition,
  findCompetition,
  formatIn,
  HEAT_RESULT_FORMATS,
  LAP_RECORD_FORMATS,
  TEAM_GAME_FORMATS,
} from '../domain/competitions.ts';
import { type MarketShape, oddProblems } from '../domain/markets/market-shape.ts';
import { isMatchFormat } from '../domain/results/match-score.ts';
import type { ReportProblem } from './feed-errors.ts';
import { FEED_COLLECTIONS, type FeedCollection, type FeedDocument } from './feed-schema.ts';
import type { NormalizedFeed } from './normalize-feed.ts';

/**
 * The checks of a batch that look past each item: every reference resolves (to the batch or to the
 * store) within the right competition, an athlete enters a heat or an event once, odds fit their
 * markets, and a team market's period belongs to its event.
 */

/** Stored markets by id: what an odds item of a batch needs to be checked against its market. */
export type MarketLookup = (ids: string[]) => Promise<Map<string, MarketShape & { eventId: string }>>;

/**
 * What the store already holds, for references that a batch makes to items it does not carry.
 * Returns, for each id found, its competition: its own, or its event's for rounds, heats, heat entries and
 * team games (else null).
 */
export type ExistingLookup = (collection: FeedCollection, ids: string[]) => Promise<Map<string, string | null>>;

/** Stored heat entries of these heats, or participants of these events, as (id, owner, athlete). */
export type EntrantsLookup = (
  collection: 'heatEntries' | 'eventParticipants',
  ownerIds: string[],
) => Promise<Array<{ id: string; ownerId: string; athleteId: string }>>;

/** Stored rounds' events, by round id. */
export type RoundEventsLookup = (roundIds: string[]) => Promise<Map<string, string>>;

/** A normalised item of a collection. */
type Row<C extends FeedCollection> = NormalizedFeed[C][number];

/**
 * A field of `from`'s items that names items of `to`. Methods, not function properties: a reference
 * of one collection then also stands as a reference of any (each is only given its own items).
 */
interface Reference<C extends FeedCollection> {
  from: C;
  field: string;
  to: FeedCollection;
  /** Reads the referenced ids (null when the item makes no such reference). */
  ids(item: Row<C>): (string | null)[];
  /** The referenced item's competition must equal the referring item's. */
  sameCompetition?: boolean;
  /** The referenced item's competition must be one that takes this kind of fact. */
  accepts?: { test(competition: Competition, item: Row<C>): boolean; refusal(item: Row<C>): string };
}

type AnyReference = Reference<FeedCollection>;

const reference = <C extends FeedCollection>(r: Reference<C>): AnyReference => r;

const REFERENCES: AnyReference[] = [
  reference({ from: 'tourYears', field: 'tourId', to: 'tours', ids: (y) => [y.tourId] }),
  reference({ from: 'athletes', field: 'teamId', to: 'teams', ids: (a) => [a.teamId] }),
  reference({ from: 'events', field: 'tourId', to: 'tours', ids: (e) => [e.tourId], sameCompetition: true }),
  reference({ from: 'events', field: 'tourYearId', to: 'tourYears', ids: (e) => [e.tourYearId] }),
  reference({
    from: 'events',
    field: 'teams',
    to: 'teams',
    ids: (e) => (JSON.parse(e.teams) as Array<{ teamId: string }>).map((t) => t.teamId),
    sameCompetition: true,
  }),
  reference({ from: 'rounds', field: 'eventId', to: 'events', ids: (r) => [r.eventId] }),
  reference({ from: 'heats', field: 'roundId', to: 'rounds', ids: (h) => [h.roundId] }),
  reference({ from: 'roundScores', field: 'roundId', to: 'rounds', ids: (s) => [s.roundId] }),
  reference({ from: 'roundScores', field: 'teamId', to: 'teams', ids: (s) => [s.teamId], sameCompetition: true }),
  reference({
    from: 'eventParticipants',
    field: 'eventId',
    to: 'events',
    ids: (p) => [p.eventId],
    accepts: {
      test: (c) => c.participants === 'athletes',
      refusal: () => 'publishes teams, not athlete participants',
    },
  }),
  reference({ from: 'eventParticipants', field: 'athleteId', to: 'athletes', ids: (p) => [p.athleteId] }),
  reference({ from: 'heatEntries', field: 'heatId', to: 'heats', ids: (e) => [e.heatId] }),
  reference({ from: 'heatEntries', field: 'athleteId', to: 'athletes', ids: (e) => [e.athleteId] }),
  reference({ from: 'heatEntries', field: 'teamId', to: 'teams', ids: (e) => [e.teamId], sameCompetition: true }),
  reference({
    from: 'laps',
    field: 'heatEntryId',
    to: 'heatEntries',
    ids: (l) => [l.heatEntryId],
    accepts: {
      test: (c) => formatIn(LAP_RECORD_FORMATS, c.resultsFormat),
      refusal: () => 'has no per-lap records (only supercross-style and sprint-car lap racing do)',
    },
  }),
  reference({
    from: 'heatResults',
    field: 'heatId',
    to: 'heats',
    ids: (r) => [r.id],
    accepts: {
      test: (c) => formatIn(HEAT_RESULT_FORMATS, c.resultsFormat),
      refusal: () => 'has no fight or battle results (only combat sports, drifting and drag racing do)',
    },
  }),
  reference({ from: 'heatResults', field: 'winnerAthleteId', to: 'athletes', ids: (r) => [r.winnerAthleteId] }),
  reference({
    from: 'teamGames',
    field: 'heatId',
    to: 'heats',
    ids: (g) => [g.id],
    accepts: {
      test: (c) => formatIn(TEAM_GAME_FORMATS, c.resultsFormat),
      refusal: () => 'has no team games (only bull riding does)',
    },
  }),
  reference({ from: 'teamGames', field: 'homeTeamId', to: 'teams', ids: (g) => [g.homeTeamId], sameCompetition: true }),
  reference({ from: 'teamGames', field: 'awayTeamId', to: 'teams', ids: (g) => [g.awayTeamId], sameCompetition: true }),
  reference({ from: 'futures', field: 'tourId', to: 'tours', ids: (f) => [f.tourId], sameCompetition: true }),
  reference({ from: 'futures', field: 'tourYearId', to: 'tourYears', ids: (f) => [f.tourYearId] }),
  reference({ from: 'futureOdds', field: 'futureId', to: 'futures', ids: (o) => [o.futureId] }),
  reference({ from: 'futureOdds', field: 'athleteId', to: 'athletes', ids: (o) => [o.athleteId] }),
  reference({ from: 'futureOdds', field: 'teamId', to: 'teams', ids: (o) => [o.teamId] }),
  reference({
    from: 'markets',
    field: 'eventId',
    to: 'events',
    ids: (m) => [m.eventId],
    accepts: {
      test: (c, m) =>
        c.supportedMarkets.includes(m.oddType) && (m.teamMarketType === null || isMatchFormat(c.resultsFormat)),
      refusal: (m) =>
        m.teamMarketType !== null
          ? `has no match score to settle a teamMarkets ${m.teamMarketType} market by`
          : `does not offer ${m.oddType} markets`,
    },
  }),
  reference({ from: 'markets', field: 'heatId', to: 'heats', ids: (m) => [m.heatId], sameCompetition: true }),
  reference({ from: 'markets', field: 'roundId', to: 'rounds', ids: (m) => [m.roundId], sameCompetition: true }),
  reference({ from: 'markets', field: 'athleteIds', to: 'athletes', ids: (m) => parseIds(m.athleteIds) }),
  reference({ from: 'odds', field: 'marketId', to: 'markets', ids: (o) => [o.marketId] }),
  reference({ from: 'odds', field: 'athleteId', to: 'athletes', ids: (o) => [o.athleteId] }),
  reference({ from: 'odds', field: 'athleteIds', to: 'athletes', ids: (o) => parseIds(o.athleteIds) }),
  reference({ from: 'odds', field: 'teamId', to: 'teams', ids: (o) => [o.teamId], sameCompetition: true }),
];

function parseIds(json: string | null): string[] {
  return json ? (JSON.parse(json) as string[]) : [];
}

/** Where an item's competition is: its own field, or the parent it hangs from. */
interface CompetitionVia<C extends FeedCollection> {
  of(item: Row<C>): 'own' | [FeedCollection, string];
}
const via = <C extends FeedCollection>(
  of: (item: Row<C>) => 'own' | [FeedCollection, string],
): CompetitionVia<FeedCollection> => {
  const found: CompetitionVia<C> = { of };
  return found;
};

/** How an item's competition is found (a heat's through its round's event); collections not listed have none. */
const COMPETITION_VIA: Partial<Record<FeedCollection, CompetitionVia<FeedCollection>>> = {
  tours: via<'tours'>(() => 'own'),
  teams: via<'teams'>(() => 'own'),
  events: via<'events'>(() => 'own'),
  futures: via<'futures'>(() => 'own'),
  rounds: via<'rounds'>((r) => ['events', r.eventId]),
  heats: via<'heats'>((h) => ['rounds', h.roundId]),
  heatEntries: via<'heatEntries'>((e) => ['heats', e.heatId]),
  teamGames: via<'teamGames'>((g) => ['heats', g.id]),
  markets: via<'markets'>((m) => ['events', m.eventId]),
  odds: via<'odds'>((o) => ['markets', o.marketId]),
};

type Competitions = Map<FeedCollection, Map<string, string | null>>;

/** Every reference resolves, to the batch or the store, in the competition it must be in. */
export async function checkReferences(
  feed: NormalizedFeed,
  existing: ExistingLookup,
  report: ReportProblem,
): Promise<void> {
  const known = await knownCompetitions(feed, existing);
  for (const ref of REFERENCES) await checkReference(ref, feed, known, report);
}

/**
 * The competition of every item referred to: from the store (one question per collection, for what
 * the batch does not carry), then the batch's own items in write order, so that a heat finds its
 * round's competition.
 */
async function knownCompetitions(feed: NormalizedFeed, existing: ExistingLookup): Promise<Competitions> {
  const inBatch = new Map(FEED_COLLECTIONS.map((c) => [c, new Set(rowsOf(feed, c).map((item) => item.id))]));
  const wanted = new Map<FeedCollection, Set<string>>();
  for (const ref of REFERENCES) {
    await forEachPaced(rowsOf(feed, ref.from), (item) => {
      for (const id of ref.ids(item)) {
        if (id === null || inBatch.get(ref.to)?.has(id)) continue;
        if (!wanted.has(ref.to)) wanted.set(ref.to, new Set());
        wanted.get(ref.to)?.add(id);
      }
    });
  }
  const known: Competitions = new Map(FEED_COLLECTIONS.map((c) => [c, new Map()]));
  for (const [collection, ids] of wanted)
    for (const [id, competition] of await existing(collection, [...ids])) known.get(collection)?.set(id, competition);
  for (const collection of FEED_COLLECTIONS) {
    const map = known.get(collection) as Map<string, string | null>;
    await forEachPaced(rowsOf(feed, collection), (item) => map.set(item.id, competitionOf(collection, item, known)));
  }
  return known;
}

/** A collection's items, as any collection's. */
function rowsOf(feed: NormalizedFeed, collection: FeedCollection): ReadonlyArray<Row<FeedCollection>> {
  return feed[collection];
}

function competitionOf(collection: FeedCollection, item: Row<FeedCollection>, known: Competitions): string | null {
  const found = COMPETITION_VIA[collection]?.of(item);
  if (found === undefined) return null;
  if (found === 'own') return 'competition' in item ? item.competition : null;
  return known.get(found[0])?.get(found[1]) ?? null;
}

/** Reports each item of `ref.from` whose reference is unknown, of another competition, or not accepted there. */
async function checkReference(
  ref: AnyReference,
  feed: NormalizedFeed,
  known: Competitions,
  report: ReportProblem,
): Promise<void> {
  const targets = known.get(ref.to) as Map<string, string | null>;
  await forEachPaced(rowsOf(feed, ref.from), (item, index) => {
    const problem = (message: string) => report(ref.from, index, item.id, ref.field, message);
    for (const id of ref.ids(item)) {
      if (id === null) continue;
      if (!targets.has(id)) {
        problem(`refers to ${ref.to} "${id}", which is neither in this batch nor in the store`);
        continue;
      }
      const competition = targets.get(id) ?? null;
      if (competition === null) continue;
      if (ref.sameCompetition) {
        const own = competitionOf(ref.from, item, known);
        if (own && competition !== own)
          problem(`refers to ${ref.to} "${id}" of competition "${competition}", not "${own}"`);
      }
      const catalogued = ref.accepts ? findCompetition(competition) : undefined;
      if (ref.accepts && catalogued && !ref.accepts.test(catalogued, item))
        problem(`refers to ${ref.to} "${id}" of competition "${competition}", which ${ref.accepts.refusal(item)}`);
    }
  });
}

/**
 * An athlete enters a heat once, and an event once: within the batch, and against what the store
 * holds under other ids (a stored row the batch re-sends counts with its new values).
 */
export async function checkEntryRepeats(
  feed: NormalizedFeed,
  report: ReportProblem,
  storedEntrants: EntrantsLookup | undefined,
): Promise<void> {
  const once = async <T extends { id: string; athleteId: string }>(
    collection: 'heatEntries' | 'eventParticipants',
    items: T[],
    owner: (item: T) => string,
    ownerName: string,
  ) => {
    if (items.length === 0) return;
    const seen = new Map<string, number>();
    const key = (ownerId: string, athleteId: string) => `${ownerId}\u0000${athleteId}`;
    await forEachPaced(items, (item, index) => {
      const k = key(owner(item), item.athleteId);
      const first = seen.get(k);
      if (first !== undefined)
        report(
          collection,
          index,
          item.id,
          'athleteId',
          `enters athlete "${item.athleteId}" in ${ownerName} "${owner(item)}" again (see ${collection}[${first}])`,
        );
      else seen.set(k, index);
    });
    if (!storedEntrants) return;
    const resent = new Set(items.map((item) => item.id));
    const stored = new Map<string, string>();
    for (const row of await storedEntrants(collection, [...new Set(items.map(owner))])) {
      if (!resent.has(row.id)) stored.set(key(row.ownerId, row.athleteId), row.id);
    }
    await forEachPaced(items, (item, index) => {
      const other = stored.get(key(owner(item), item.athleteId));
      if (other !== undefined && other !== item.id) {
        report(
          collection,
          index,
          item.id,
          'athleteId',
          `enters athlete "${item.athleteId}" in ${ownerName} "${owner(item)}", who is already entered there as "${other}"`,
        );
      }
    });
  };
  await once('heatEntries', feed.heatEntries, (e) => e.heatId, 'heat');
  await once('eventParticipants', feed.eventParticipants, (p) => p.eventId, 'event');
}

/** Each odds item fits its market (from the batch or the store): an exacta names as many athletes as its type, and so on. */
export async function checkOddsAgainstMarkets(
  doc: FeedDocument,
  report: ReportProblem,
  storedMarkets: MarketLookup | undefined,
): Promise<void> {
  const odds = doc.odds ?? [];
  if (odds.length === 0) return;
  const shapes = new Map<string, MarketShape>();
  for (const m of doc.markets ?? []) shapes.set(m.id, { ...m, exactasType: m.exactasType ?? 2 });
  const missing = [...new Set(odds.map((o) => o.marketId).filter((id) => !shapes.has(id)))];
  if (missing.length > 0 && storedMarkets)
    for (const [id, shape] of await storedMarkets(missing)) shapes.set(id, shape);
  await forEachPaced(odds, (o, i) => {
    const market = shapes.get(o.marketId);
    // A market neither in the batch nor stored is reported by the reference check.
    if (market) for (const problem of oddProblems(market, o)) report('odds', i, o.id, problem.field, problem.message);
  });
}

/** A team market's period (roundId) is a round of the market's own event. */
export async function checkMarketRounds(
  feed: NormalizedFeed,
  report: ReportProblem,
  storedRoundEvents: RoundEventsLookup | undefined,
): Promise<void> {
  const roundIds = [...new Set(feed.markets.flatMap((m) => (m.roundId ? [m.roundId] : [])))];
  if (roundIds.length === 0) return;
  const eventOf = new Map(feed.rounds.map((r) => [r.id, r.eventId]));
  const missing = roundIds.filter((id) => !eventOf.has(id));
  if (missing.length > 0 && storedRoundEvents)
    for (const [id, eventId] of await storedRoundEvents(missing)) eventOf.set(id, eventId);
  feed.markets.forEach((m, i) => {
    const eventId = m.roundId ? eventOf.get(m.roundId) : undefined;
    // An unknown round is reported by the reference check.
    if (eventId !== undefined && eventId !== m.eventId)
      report(
        'markets',
        i,
        m.id,
        'roundId',
        `is a period of event "${eventId}", not of this market's event "${m.eventId}"`,
      );
  });
}

/** Of these ids, those whose result the store holds: a heat's fed result, an event COMPLETED. */
export type ResultsLookup = (collection: 'events' | 'heatResults', ids: string[]) => Promise<Set<string>>;

/**
 * A correction (`correction: true`) must correct something: the heat's result or the COMPLETED
 * event's must be in the store before the batch. A mistyped id then fails loudly rather than
 * settling a heat nobody meant to.
 */
export async function checkCorrections(
  feed: NormalizedFeed,
  doc: FeedDocument,
  report: ReportProblem,
  storedResults: ResultsLookup | undefined,
): Promise<void> {
  if (!storedResults) return;
  for (const collection of ['events', 'heatResults'] as const) {
    const items: ReadonlyArray<{ correction?: boolean }> = doc[collection] ?? [];
    const rows = feed[collection];
    const corrected = rows.filter((_, i) => items[i]?.correction === true).map((row) => row.id);
    if (corrected.length === 0) continue;
    const held = await storedResults(collection, corrected);
    rows.forEach((row, i) => {
      if (items[i]?.correction === true && !held.has(row.id))
        report(
          collection,
          i,
          (items[i] as { id?: string }).id ?? row.id,
          'correction',
          collection === 'events'
            ? 'corrects a result the store does not hold: the event is not COMPLETED'
            : 'corrects a result the store does not hold: no result was fed for this heat',
        );
    });
  }
}
