import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import {
  type Competition,
  findCompetition,
  formatIn,
  HEAT_RESULT_FORMATS,
  LAP_RECORD_FORMATS,
  type ResultsFormat,
  TEAM_GAME_FORMATS,
} from '../domain/competitions.ts';
import { toIsoTimestamp } from '../domain/dates.ts';
import { type MarketShape, marketProblems, oddProblems } from '../domain/markets/market-shape.ts';
import { americanToDecimal, probabilityToDecimal, roundTo } from '../domain/odds-format.ts';
import { deriveJaiAlaiCardId, isJaiAlaiCardId, parsePublicId } from '../domain/public-id.ts';
import { isMatchFormat } from '../domain/results/match-score.ts';
import { methodExcludesWinner } from '../domain/results/win-by.ts';
import { inputProblems } from '../domain/text.ts';
import type {
  AthleteRow,
  EventParticipantRow,
  EventRow,
  FutureOddRow,
  FutureRow,
  HeatEntryRow,
  HeatResultRow,
  HeatRow,
  LapRow,
  MarketRow,
  OddRow,
  RoundRow,
  RoundScoreRow,
  TeamGameRow,
  TeamRow,
  TourRow,
  TourYearRow,
} from '../store/schema.ts';
import { type FeedProblem, FeedValidationError } from './feed-errors.ts';
import { FEED_COLLECTIONS, type FeedCollection, FeedDocument } from './feed-schema.ts';

/** Rows ready to write; `referenceId` is absent where the store assigns one. */
type Incoming<T extends { referenceId: number }> = Omit<T, 'referenceId'> & { referenceId?: number | undefined };

export interface NormalizedFeed {
  tours: Incoming<TourRow>[];
  tourYears: Incoming<TourYearRow>[];
  teams: Incoming<TeamRow>[];
  athletes: Incoming<AthleteRow>[];
  events: Incoming<Omit<EventRow, 'contentUpdatedAt'> & { referenceId: number }>[];
  rounds: Incoming<RoundRow>[];
  heats: Omit<Incoming<HeatRow>, 'eventId'>[];
  roundScores: Omit<Incoming<RoundScoreRow>, 'eventId'>[];
  eventParticipants: Incoming<EventParticipantRow>[];
  heatEntries: Incoming<HeatEntryRow>[];
  /** `heatId` is filled in by the ingest, from the batch or the store. */
  laps: Omit<LapRow, 'heatId'>[];
  heatResults: HeatResultRow[];
  teamGames: TeamGameRow[];
  futures: Omit<Incoming<FutureRow>, 'createdAt'>[];
  futureOdds: Incoming<FutureOddRow>[];
  markets: Incoming<MarketRow>[];
  /** `eventId` is filled in by the ingest, from the market in the batch or the store. */
  odds: Omit<Incoming<OddRow>, 'eventId'>[];
}

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

const ajv = new Ajv({ allErrors: true, strict: false, messages: true });
addFormats.default(ajv);
const validateDocument = ajv.compile(FeedDocument);
const MAX_REPORTED = 50;

/**
 * Checks a whole batch before anything is written: its shape, then ids, dates, prices and every
 * reference (to the batch itself or to the store). Throws FeedValidationError naming each problem.
 */
export async function validateFeed(
  input: unknown,
  existing: ExistingLookup,
  now: Date = new Date(),
  storedEntrants?: EntrantsLookup,
  storedMarkets?: MarketLookup,
  storedRoundEvents?: (roundIds: string[]) => Promise<Map<string, string>>,
): Promise<NormalizedFeed> {
  if (!validateDocument(input)) throw new FeedValidationError(schemaProblems(input, validateDocument.errors ?? []));
  const doc = input as FeedDocument;
  const problems: FeedProblem[] = [];
  const report = (collection: string, index: number, id: string | undefined, field: string, message: string) => {
    if (problems.length < MAX_REPORTED) problems.push({ item: `${collection}[${index}]`, id, field, message });
  };
  const defaultUpdatedAt = toIsoTimestamp(doc.updatedAt ?? now);
  const stamp = (value: string | undefined) => (value ? toIsoTimestamp(value) : defaultUpdatedAt);
  const time = (value: string | null | undefined) => (value ? toIsoTimestamp(value) : null);

  for (const collection of FEED_COLLECTIONS) {
    const seen = new Map<string, number>();
    (doc[collection] ?? []).forEach((item, index) => {
      const { key, field } = itemKey(collection, item);
      const first = seen.get(key);
      if (first !== undefined)
        report(
          collection,
          index,
          key,
          field,
          `repeats the ${field === 'id' ? 'id' : 'key'} of ${collection}[${first}]`,
        );
      else seen.set(key, index);
      for (const { path, problem } of inputProblems(item))
        report(collection, index, (item as { id?: string }).id, path, problem);
    });
  }

  const feed: NormalizedFeed = {
    tours: (doc.tours ?? []).map((t) => ({
      id: t.id,
      referenceId: t.referenceId,
      competition: t.competition,
      name: t.name,
      gender: t.gender ?? null,
      updatedAt: stamp(t.updatedAt),
    })),
    tourYears: (doc.tourYears ?? []).map((y, i) => {
      checkRange('tourYears', i, y.id, y.startDate, y.endDate, report);
      return {
        id: y.id,
        referenceId: y.referenceId,
        tourId: y.tourId,
        year: y.year,
        startDate: time(y.startDate),
        endDate: time(y.endDate),
        updatedAt: stamp(y.updatedAt),
      };
    }),
    teams: (doc.teams ?? []).map((t) => ({
      id: t.id,
      referenceId: t.referenceId,
      competition: t.competition,
      name: t.name,
      shortName: t.shortName ?? null,
      logo: t.logo ?? null,
      updatedAt: stamp(t.updatedAt),
    })),
    athletes: (doc.athletes ?? []).map((a) => ({
      id: a.id,
      referenceId: a.referenceId,
      firstName: a.firstName,
      middleName: a.middleName ?? '',
      lastName: a.lastName,
      nationality: a.nationality ?? null,
      stance: a.stance ?? null,
      teamId: a.teamId ?? null,
      hometown: a.hometown ?? null,
      height: a.height == null ? null : String(a.height),
      weight: a.weight == null ? null : String(a.weight),
      gender: a.gender ?? null,
      weightClass: a.weightClass ?? null,
      dob: a.dob ? toIsoTimestamp(a.dob) : null,
      providerId: a.providerId ?? null,
      updatedAt: stamp(a.updatedAt),
    })),
    events: (doc.events ?? []).map((e, i) => {
      const id = parsePublicId(e.id);
      if (!id)
        report('events', i, e.id, 'id', 'must be `<sport_key>:<uuid>` with a known competition key, or a bare uuid');
      else if (id.competition && id.competition !== e.competition)
        report('events', i, e.id, 'id', `has prefix "${id.competition}" but competition is "${e.competition}"`);
      checkRange('events', i, e.id, e.startDate, e.endDate, report);
      const startDate = toIsoTimestamp(e.startDate);
      const format = findCompetition(e.competition)?.resultsFormat;
      for (const problem of matchFieldProblems(e, format)) report('events', i, e.id, problem.field, problem.message);
      return {
        id: id?.uuid ?? e.id,
        referenceId: e.referenceId,
        competition: e.competition,
        tourId: e.tourId,
        tourYearId: e.tourYearId ?? null,
        name: e.name,
        startDate,
        endDate: toIsoTimestamp(e.endDate),
        year: Number(startDate.slice(0, 4)),
        eventNumber: e.eventNumber,
        eventStatus: e.eventStatus,
        eventLocation: e.eventLocation ?? null,
        eventLocationNumericId: e.eventLocationNumericId ?? null,
        eventLocationGroup: e.eventLocationGroup ?? null,
        providerId: e.providerId ?? null,
        seasonType: e.seasonType ?? null,
        teams: JSON.stringify(
          (e.teams ?? []).map((t) => ({
            teamId: t.teamId,
            isHomeTeam: t.isHomeTeam,
            ...(t.stoneColor !== undefined ? { stoneColor: t.stoneColor } : {}),
            ...(t.firstHammer !== undefined ? { firstHammer: t.firstHammer } : {}),
          })),
        ),
        cardId:
          format === 'jai-alai'
            ? (e.cardId ?? deriveJaiAlaiCardId(e.competition, startDate, e.eventLocation ?? null))
            : null,
        eventType: e.eventType ?? null,
        streamUrl: e.streamUrl ?? null,
        onServe: e.onServe ?? null,
        bracketRound: e.bracketRound ?? null,
        bracketSlot: e.bracketSlot ?? null,
        updatedAt: stamp(e.updatedAt),
      };
    }),
    rounds: (doc.rounds ?? []).map((r, i) => {
      checkRange('rounds', i, r.id, r.startDate, r.endDate, report);
      return {
        id: r.id,
        referenceId: r.referenceId,
        eventId: parsePublicId(r.eventId)?.uuid ?? r.eventId,
        roundName: r.roundName,
        roundNo: r.roundNo,
        roundStatus: r.roundStatus,
        startDate: time(r.startDate),
        endDate: time(r.endDate),
        providerId: r.providerId ?? null,
        gameType: r.gameType ?? null,
        homeLineup: r.homeLineup ?? null,
        awayLineup: r.awayLineup ?? null,
        updatedAt: stamp(r.updatedAt),
      };
    }),
    heats: (doc.heats ?? []).map((h, i) => {
      checkRange('heats', i, h.id, h.startDate, h.endDate, report);
      return {
        id: h.id,
        referenceId: h.referenceId,
        roundId: h.roundId,
        heatName: h.heatName,
        heatNo: h.heatNo,
        heatStatus: h.heatStatus,
        startDate: time(h.startDate),
        endDate: time(h.endDate),
        providerId: h.providerId ?? null,
        updatedAt: stamp(h.updatedAt),
      };
    }),
    roundScores: (doc.roundScores ?? []).map((s) => ({
      id: s.id,
      referenceId: s.referenceId,
      roundId: s.roundId,
      teamId: s.teamId,
      goals: s.goals,
      updatedAt: stamp(s.updatedAt),
    })),
    eventParticipants: (doc.eventParticipants ?? []).map((p) => ({
      id: p.id,
      referenceId: p.referenceId,
      eventId: parsePublicId(p.eventId)?.uuid ?? p.eventId,
      athleteId: p.athleteId,
      seedNo: p.seedNo ?? null,
      status: p.status ?? 'ACTIVE',
      place: p.place ?? null,
      updatedAt: stamp(p.updatedAt),
    })),
    heatEntries: (doc.heatEntries ?? []).map((e) => ({
      id: e.id,
      referenceId: e.referenceId,
      heatId: e.heatId,
      athleteId: e.athleteId,
      teamId: e.teamId ?? null,
      seed: e.seed ?? null,
      position: e.position ?? null,
      heatScore: e.heatScore ?? null,
      lapTime: e.lapTime ?? null,
      penaltyTime: e.penaltyTime ?? null,
      jokerLapTime: e.jokerLapTime ?? null,
      jokerLap: e.jokerLap ?? null,
      lapStatus: e.lapStatus ?? null,
      totalLaps: e.totalLaps ?? null,
      lineScore1: e.lineScore1 ?? null,
      lineScore2: e.lineScore2 ?? null,
      trick1Score: e.trick1Score ?? null,
      trick2Score: e.trick2Score ?? null,
      trick3Score: e.trick3Score ?? null,
      trick4Score: e.trick4Score ?? null,
      trick5Score: e.trick5Score ?? null,
      trick6Score: e.trick6Score ?? null,
      riderScore: e.riderScore ?? null,
      bullScore: e.bullScore ?? null,
      updatedAt: stamp(e.updatedAt),
    })),
    laps: (doc.laps ?? []).map((l, i) => {
      if (l.lapTime == null && l.position == null)
        report('laps', i, lapId(l), 'lapTime', 'a lap record needs a lapTime, a position, or both');
      return {
        id: lapId(l),
        heatEntryId: l.heatEntryId,
        lapNo: l.lapNo,
        lapTime: l.lapTime ?? null,
        position: l.position ?? null,
        updatedAt: stamp(l.updatedAt),
      };
    }),
    heatResults: (doc.heatResults ?? []).map((r, i) => {
      const method = r.method ?? null;
      if (method !== null && methodExcludesWinner(method) && r.winnerAthleteId) {
        report(
          'heatResults',
          i,
          r.heatId,
          'winnerAthleteId',
          `must be null when the method is "${method}" (a draw or a no contest has no winner)`,
        );
      }
      return { id: r.heatId, winnerAthleteId: r.winnerAthleteId ?? null, method, updatedAt: stamp(r.updatedAt) };
    }),
    teamGames: (doc.teamGames ?? []).map((g, i) => {
      if (g.homeTeamId === g.awayTeamId) report('teamGames', i, g.heatId, 'awayTeamId', 'must differ from homeTeamId');
      return {
        id: g.heatId,
        homeTeamId: g.homeTeamId,
        awayTeamId: g.awayTeamId,
        eventType: g.eventType ?? null,
        updatedAt: stamp(g.updatedAt),
      };
    }),
    futures: (doc.futures ?? []).map((f, i) => {
      const id = parsePublicId(f.id);
      if (!id)
        report('futures', i, f.id, 'id', 'must be `<sport_key>:<uuid>` with a known competition key, or a bare uuid');
      else if (id.competition && id.competition !== f.competition)
        report('futures', i, f.id, 'id', `has prefix "${id.competition}" but competition is "${f.competition}"`);
      checkRange('futures', i, f.id, f.startDate, f.endDate, report);
      const startDate = toIsoTimestamp(f.startDate);
      return {
        id: id?.uuid ?? f.id,
        referenceId: f.referenceId,
        competition: f.competition,
        tourId: f.tourId,
        tourYearId: f.tourYearId,
        type: f.type,
        gender: f.gender ?? null,
        startDate,
        endDate: toIsoTimestamp(f.endDate),
        year: Number(startDate.slice(0, 4)),
        isMarketOpen: f.isMarketOpen ? 1 : 0,
        updatedAt: stamp(f.updatedAt),
      };
    }),
    futureOdds: (doc.futureOdds ?? []).map((o, i) => {
      const prices = o.odds.map((price, p) => {
        const field = `odds[${p}]`;
        if ((price.decimalOdds === undefined) === (price.americanOdds === undefined)) {
          report('futureOdds', i, o.id, field, 'must give exactly one of decimalOdds and americanOdds');
          return { outcomeName: price.outcomeName, decimalOdds: 0 };
        }
        if (price.americanOdds !== undefined && Math.abs(price.americanOdds) < 100) {
          report('futureOdds', i, o.id, `${field}.americanOdds`, 'must be at most -100 or at least +100');
          return { outcomeName: price.outcomeName, decimalOdds: 0 };
        }
        const decimalOdds = price.decimalOdds ?? americanToDecimal(price.americanOdds as number);
        return { outcomeName: price.outcomeName, decimalOdds: roundTo(decimalOdds, 4) };
      });
      return {
        id: o.id,
        referenceId: o.referenceId,
        futureId: parsePublicId(o.futureId)?.uuid ?? o.futureId,
        name: o.name,
        athleteId: o.athleteId ?? null,
        teamId: o.teamId ?? null,
        prices: JSON.stringify(prices),
        updatedAt: stamp(o.updatedAt),
      };
    }),
    markets: (doc.markets ?? []).map((m, i) => {
      const row = {
        id: m.id,
        referenceId: m.referenceId,
        eventId: parsePublicId(m.eventId)?.uuid ?? m.eventId,
        oddType: m.oddType,
        heatId: m.heatId ?? null,
        exactasType: m.exactasType ?? (m.oddType === 'eventExacta' || m.oddType === 'heatExacta' ? 2 : null),
        overUnderSubMarketType:
          m.overUnderSubMarketType ??
          (m.oddType === 'overUnder' || m.oddType === 'multiOverUnder' ? 'finishingPosition' : null),
        line: m.line ?? null,
        athleteIds: m.athleteIds ? JSON.stringify(m.athleteIds) : null,
        places: m.places ?? null,
        proposition: m.proposition ?? null,
        teamMarketType: m.teamMarketType ?? null,
        roundId: m.roundId ?? null,
        status: m.status ?? 'OPEN',
        updatedAt: stamp(m.updatedAt),
      };
      for (const problem of marketProblems({
        ...m,
        exactasType: row.exactasType,
        overUnderSubMarketType: row.overUnderSubMarketType,
      }))
        report('markets', i, m.id, problem.field, problem.message);
      return row;
    }),
    odds: (doc.odds ?? []).map((o, i) => {
      const given = [o.odds, o.americanOdds, o.probability].filter((v) => v !== undefined).length;
      let decimalOdds = 0;
      if (given !== 1)
        report('odds', i, o.id, 'odds', 'must give exactly one of odds (decimal), americanOdds and probability');
      else if (o.americanOdds !== undefined && Math.abs(o.americanOdds) < 100)
        report('odds', i, o.id, 'americanOdds', 'must be at most -100 or at least +100');
      else {
        decimalOdds = roundTo(
          o.odds ??
            (o.americanOdds !== undefined
              ? americanToDecimal(o.americanOdds)
              : probabilityToDecimal(o.probability as number)),
          4,
        );
        if (!(decimalOdds > 1))
          report(
            'odds',
            i,
            o.id,
            o.probability !== undefined ? 'probability' : 'odds',
            'gives decimal odds of 1 or less once rounded',
          );
      }
      return {
        id: o.id,
        referenceId: o.referenceId,
        marketId: o.marketId,
        athleteId: o.athleteId ?? null,
        athleteIds: o.athleteIds ? JSON.stringify(o.athleteIds) : null,
        teamId: o.teamId ?? null,
        side: o.side ?? null,
        name: o.name ?? null,
        position: o.position ?? null,
        decimalOdds,
        status: o.status ?? 'OPEN',
        settlement: o.settlement ?? null,
        updatedAt: stamp(o.updatedAt),
      };
    }),
  };

  await checkOddsAgainstMarkets(doc, report, storedMarkets);
  await checkMarketRounds(feed, report, storedRoundEvents);
  await checkEntryRepeats(feed, report, storedEntrants);
  await checkReferences(feed, existing, report);
  if (problems.length > 0) throw new FeedValidationError(problems);
  return feed;
}

const lapId = (lap: { heatEntryId: string; lapNo: number }) => `${lap.heatEntryId}/${lap.lapNo}`;

type FeedEventItem = NonNullable<FeedDocument['events']>[number];

/** Sport-specific event fields belong to their format: a stone colour on a Jai Alai match is a mistake worth naming. */
function matchFieldProblems(
  e: FeedEventItem,
  format: ResultsFormat | undefined,
): Array<{ field: string; message: string }> {
  if (format === undefined) return [];
  const problems: Array<{ field: string; message: string }> = [];
  const only = (field: string, present: boolean, formats: readonly ResultsFormat[], what: string) => {
    if (present && !formats.includes(format)) problems.push({ field, message: `applies to ${what} only` });
  };
  only('cardId', e.cardId != null, ['jai-alai'], 'Jai Alai matches');
  only('onServe', e.onServe != null, ['jai-alai'], 'Jai Alai matches');
  only('bracketRound', e.bracketRound != null, ['three-ice'], '3-on-3 hockey games');
  only('bracketSlot', e.bracketSlot != null, ['three-ice'], '3-on-3 hockey games');
  (e.teams ?? []).forEach((t, k) => {
    only(`teams[${k}].stoneColor`, t.stoneColor !== undefined, ['curling'], 'curling matches');
    only(`teams[${k}].firstHammer`, t.firstHammer !== undefined, ['curling'], 'curling matches');
  });
  if ((e.bracketRound == null) !== (e.bracketSlot == null))
    problems.push({
      field: e.bracketRound == null ? 'bracketRound' : 'bracketSlot',
      message: 'bracketRound and bracketSlot go together',
    });
  if (e.cardId != null && !isJaiAlaiCardId(e.cardId))
    problems.push({ field: 'cardId', message: 'must be `<prefix>:<YYYY-MM-DD>_<text>` with a real date' });
  const teams = e.teams ?? [];
  if (teams.filter((t) => t.isHomeTeam).length > 1)
    problems.push({ field: 'teams', message: 'names more than one home team' });
  if (teams.filter((t) => t.firstHammer).length > 1)
    problems.push({ field: 'teams', message: 'gives more than one team the first hammer' });
  return problems;
}

/** The key that identifies an item of a collection, and the field that carries it. */
function itemKey(collection: FeedCollection, item: any): { key: string; field: string } {
  switch (collection) {
    case 'events':
    case 'futures':
      return { key: parsePublicId(item.id)?.uuid ?? item.id, field: 'id' };
    case 'laps':
      return { key: lapId(item), field: 'lapNo' };
    case 'heatResults':
    case 'teamGames':
      return { key: item.heatId, field: 'heatId' };
    default:
      return { key: item.id, field: 'id' };
  }
}

/**
 * An athlete enters a heat once, and an event once: within the batch, and against what the store
 * holds under other ids (a stored row the batch re-sends counts with its new values).
 */
async function checkEntryRepeats(
  feed: NormalizedFeed,
  report: Report,
  storedEntrants: EntrantsLookup | undefined,
): Promise<void> {
  const once = async (
    collection: 'heatEntries' | 'eventParticipants',
    items: Array<{ id: string; athleteId: string }>,
    owner: (item: any) => string,
    ownerName: string,
  ) => {
    if (items.length === 0) return;
    const seen = new Map<string, number>();
    const key = (ownerId: string, athleteId: string) => `${ownerId}\u0000${athleteId}`;
    items.forEach((item, index) => {
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
    items.forEach((item, index) => {
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
async function checkOddsAgainstMarkets(
  doc: FeedDocument,
  report: Report,
  storedMarkets: MarketLookup | undefined,
): Promise<void> {
  const odds = doc.odds ?? [];
  if (odds.length === 0) return;
  const shapes = new Map<string, MarketShape>();
  for (const m of doc.markets ?? []) shapes.set(m.id, { ...m, exactasType: m.exactasType ?? 2 });
  const missing = [...new Set(odds.map((o) => o.marketId).filter((id) => !shapes.has(id)))];
  if (missing.length > 0 && storedMarkets)
    for (const [id, shape] of await storedMarkets(missing)) shapes.set(id, shape);
  odds.forEach((o, i) => {
    const market = shapes.get(o.marketId);
    // A market neither in the batch nor stored is reported by the reference check.
    if (market) for (const problem of oddProblems(market, o)) report('odds', i, o.id, problem.field, problem.message);
  });
}

/** A team market's period (roundId) is a round of the market's own event. */
async function checkMarketRounds(
  feed: NormalizedFeed,
  report: Report,
  storedRoundEvents: ((roundIds: string[]) => Promise<Map<string, string>>) | undefined,
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

type Report = (collection: string, index: number, id: string | undefined, field: string, message: string) => void;

function checkRange(
  collection: string,
  index: number,
  id: string,
  start: string | null | undefined,
  end: string | null | undefined,
  report: Report,
) {
  if (start && end && Date.parse(end) < Date.parse(start))
    report(collection, index, id, 'endDate', 'is earlier than startDate');
}

interface Reference {
  from: FeedCollection;
  field: string;
  to: FeedCollection;
  /** Reads the referenced id (null when the item makes no such reference). */
  ids: (item: any) => (string | null)[];
  /** The referenced item's competition must equal the referring item's. */
  sameCompetition?: boolean;
  /** The referenced item's competition must be one that takes this kind of fact; says why not. */
  accepts?: { test: (competition: Competition, item: any) => boolean; refusal: string | ((item: any) => string) };
}

const REFERENCES: Reference[] = [
  { from: 'tourYears', field: 'tourId', to: 'tours', ids: (y) => [y.tourId] },
  { from: 'athletes', field: 'teamId', to: 'teams', ids: (a) => [a.teamId] },
  { from: 'events', field: 'tourId', to: 'tours', ids: (e) => [e.tourId], sameCompetition: true },
  { from: 'events', field: 'tourYearId', to: 'tourYears', ids: (e) => [e.tourYearId] },
  {
    from: 'events',
    field: 'teams',
    to: 'teams',
    ids: (e) => JSON.parse(e.teams).map((t: { teamId: string }) => t.teamId),
    sameCompetition: true,
  },
  { from: 'rounds', field: 'eventId', to: 'events', ids: (r) => [r.eventId] },
  { from: 'heats', field: 'roundId', to: 'rounds', ids: (h) => [h.roundId] },
  { from: 'roundScores', field: 'roundId', to: 'rounds', ids: (s) => [s.roundId] },
  { from: 'roundScores', field: 'teamId', to: 'teams', ids: (s) => [s.teamId], sameCompetition: true },
  {
    from: 'eventParticipants',
    field: 'eventId',
    to: 'events',
    ids: (p) => [p.eventId],
    accepts: { test: (c) => c.participants === 'athletes', refusal: 'publishes teams, not athlete participants' },
  },
  { from: 'eventParticipants', field: 'athleteId', to: 'athletes', ids: (p) => [p.athleteId] },
  { from: 'heatEntries', field: 'heatId', to: 'heats', ids: (e) => [e.heatId] },
  { from: 'heatEntries', field: 'athleteId', to: 'athletes', ids: (e) => [e.athleteId] },
  { from: 'heatEntries', field: 'teamId', to: 'teams', ids: (e) => [e.teamId], sameCompetition: true },
  {
    from: 'laps',
    field: 'heatEntryId',
    to: 'heatEntries',
    ids: (l) => [l.heatEntryId],
    accepts: {
      test: (c) => formatIn(LAP_RECORD_FORMATS, c.resultsFormat),
      refusal: 'has no per-lap records (only supercross-style and sprint-car lap racing do)',
    },
  },
  {
    from: 'heatResults',
    field: 'heatId',
    to: 'heats',
    ids: (r) => [r.id],
    accepts: {
      test: (c) => formatIn(HEAT_RESULT_FORMATS, c.resultsFormat),
      refusal: 'has no fight or battle results (only combat sports, drifting and drag racing do)',
    },
  },
  { from: 'heatResults', field: 'winnerAthleteId', to: 'athletes', ids: (r) => [r.winnerAthleteId] },
  {
    from: 'teamGames',
    field: 'heatId',
    to: 'heats',
    ids: (g) => [g.id],
    accepts: {
      test: (c) => formatIn(TEAM_GAME_FORMATS, c.resultsFormat),
      refusal: 'has no team games (only bull riding does)',
    },
  },
  { from: 'teamGames', field: 'homeTeamId', to: 'teams', ids: (g) => [g.homeTeamId], sameCompetition: true },
  { from: 'teamGames', field: 'awayTeamId', to: 'teams', ids: (g) => [g.awayTeamId], sameCompetition: true },
  { from: 'futures', field: 'tourId', to: 'tours', ids: (f) => [f.tourId], sameCompetition: true },
  { from: 'futures', field: 'tourYearId', to: 'tourYears', ids: (f) => [f.tourYearId] },
  { from: 'futureOdds', field: 'futureId', to: 'futures', ids: (o) => [o.futureId] },
  { from: 'futureOdds', field: 'athleteId', to: 'athletes', ids: (o) => [o.athleteId] },
  { from: 'futureOdds', field: 'teamId', to: 'teams', ids: (o) => [o.teamId] },
  {
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
  },
  { from: 'markets', field: 'heatId', to: 'heats', ids: (m) => [m.heatId], sameCompetition: true },
  { from: 'markets', field: 'roundId', to: 'rounds', ids: (m) => [m.roundId], sameCompetition: true },
  { from: 'markets', field: 'athleteIds', to: 'athletes', ids: (m) => (m.athleteIds ? JSON.parse(m.athleteIds) : []) },
  { from: 'odds', field: 'marketId', to: 'markets', ids: (o) => [o.marketId] },
  { from: 'odds', field: 'athleteId', to: 'athletes', ids: (o) => [o.athleteId] },
  { from: 'odds', field: 'athleteIds', to: 'athletes', ids: (o) => (o.athleteIds ? JSON.parse(o.athleteIds) : []) },
  { from: 'odds', field: 'teamId', to: 'teams', ids: (o) => [o.teamId], sameCompetition: true },
];

/**
 * How an item's competition is found: its own field, or through the parent it hangs from (a heat's
 * round's event). Collections not listed have none.
 */
const COMPETITION_VIA: Partial<Record<FeedCollection, (item: any) => [FeedCollection, string] | 'own'>> = {
  tours: () => 'own',
  teams: () => 'own',
  events: () => 'own',
  futures: () => 'own',
  rounds: (r) => ['events', r.eventId],
  heats: (h) => ['rounds', h.roundId],
  heatEntries: (e) => ['heats', e.heatId],
  teamGames: (g) => ['heats', g.id],
  markets: (m) => ['events', m.eventId],
  odds: (o) => ['markets', o.marketId],
};

async function checkReferences(feed: NormalizedFeed, existing: ExistingLookup, report: Report): Promise<void> {
  const inBatch = new Map<FeedCollection, Set<string>>();
  for (const collection of FEED_COLLECTIONS)
    inBatch.set(collection, new Set((feed[collection] as any[]).map((item) => item.id)));
  // Ask the store once per referenced collection for everything the batch does not carry itself.
  const wanted = new Map<FeedCollection, Set<string>>();
  for (const ref of REFERENCES) {
    for (const item of feed[ref.from] as any[]) {
      for (const id of ref.ids(item)) {
        if (id !== null && !inBatch.get(ref.to)?.has(id)) {
          if (!wanted.has(ref.to)) wanted.set(ref.to, new Set());
          wanted.get(ref.to)?.add(id);
        }
      }
    }
  }
  const known = new Map<FeedCollection, Map<string, string | null>>();
  for (const collection of FEED_COLLECTIONS) known.set(collection, new Map());
  for (const [collection, ids] of wanted)
    for (const [id, competition] of await existing(collection, [...ids])) known.get(collection)?.set(id, competition);

  // The batch's own items, in write order, so that a heat finds its round's competition.
  const competitionOf = (collection: FeedCollection, item: any): string | null => {
    const via = COMPETITION_VIA[collection]?.(item);
    if (via === undefined) return null;
    if (via === 'own') return item.competition;
    return known.get(via[0])?.get(via[1]) ?? null;
  };
  for (const collection of FEED_COLLECTIONS) {
    const map = known.get(collection) as Map<string, string | null>;
    for (const item of feed[collection] as any[]) map.set(item.id, competitionOf(collection, item));
  }

  for (const ref of REFERENCES) {
    const targets = known.get(ref.to) as Map<string, string | null>;
    (feed[ref.from] as any[]).forEach((item, index) => {
      for (const id of ref.ids(item)) {
        if (id === null) continue;
        if (!targets.has(id)) {
          report(
            ref.from,
            index,
            item.id,
            ref.field,
            `refers to ${ref.to} "${id}", which is neither in this batch nor in the store`,
          );
          continue;
        }
        const competition = targets.get(id) ?? null;
        if (competition === null) continue;
        if (ref.sameCompetition) {
          const own = competitionOf(ref.from, item);
          if (own && competition !== own)
            report(
              ref.from,
              index,
              item.id,
              ref.field,
              `refers to ${ref.to} "${id}" of competition "${competition}", not "${own}"`,
            );
        }
        const catalogued = ref.accepts ? findCompetition(competition) : undefined;
        if (ref.accepts && catalogued && !ref.accepts.test(catalogued, item)) {
          const refusal = typeof ref.accepts.refusal === 'function' ? ref.accepts.refusal(item) : ref.accepts.refusal;
          report(
            ref.from,
            index,
            item.id,
            ref.field,
            `refers to ${ref.to} "${id}" of competition "${competition}", which ${refusal}`,
          );
        }
      }
    });
  }
}

/** Turns Ajv's errors into problems that name the item (collection, index, id) and the field. */
function schemaProblems(input: unknown, errors: ErrorObject[]): FeedProblem[] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return [{ item: 'document', field: '', message: 'must be a JSON object of feed collections' }];
  }
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const segments = error.instancePath.split('/').slice(1);
    let item = 'document';
    let fieldSegments = segments;
    let id: string | undefined;
    if (segments.length >= 2 && /^\d+$/.test(segments[1] ?? '')) {
      item = `${segments[0]}[${segments[1]}]`;
      fieldSegments = segments.slice(2);
      const candidate = (input as Record<string, any>)[segments[0] as string]?.[Number(segments[1])]?.id;
      if (typeof candidate === 'string') id = candidate;
    }
    let field = fieldSegments
      .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`))
      .join('')
      .replace(/^\./, '');
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties') {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      field = field ? `${field}.${extra}` : extra;
      message = 'is not a field of this item';
    } else if (error.keyword === 'required') {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      field = field ? `${field}.${missing}` : missing;
      message = 'is required';
    } else if (error.keyword === 'enum') {
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    } else if (error.keyword === 'anyOf') {
      continue;
    }
    if (item === 'document' && field === '') field = segments.join('.');
    const key = `${item}|${field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ item, id, field, message });
    if (problems.length >= MAX_REPORTED) break;
  }
  if (problems.length === 0) problems.push({ item: 'document', field: '', message: 'does not match the feed schema' });
  return problems;
}
