import { mapPaced } from '../base/event-loop-turns.ts';
import type { ResultsFormat } from '../domain/competitions.ts';
import { findCompetition } from '../domain/competitions.ts';
import { toIsoTimestamp } from '../domain/dates.ts';
import { marketProblems } from '../domain/markets/market-shape.ts';
import { americanToDecimal, probabilityToDecimal, roundTo } from '../domain/odds-format.ts';
import { deriveJaiAlaiCardId, isJaiAlaiCardId, parsePublicId } from '../domain/public-id.ts';
import { methodExcludesWinner } from '../domain/results/win-by.ts';
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
import type { ReportProblem } from './feed-errors.ts';
import type { FeedCollection, FeedDocument } from './feed-schema.ts';

/**
 * A batch's items as the rows the store writes: defaults filled in, ids made bare, prices made
 * decimal, timestamps canonical. Problems found on the way (a date range backwards, a lap without a
 * time or a position, odds given twice) are reported, not thrown: validateFeed names them all at once.
 */

/** Rows ready to write; `referenceId` is absent where the store assigns one. */
type Incoming<T extends { referenceId: number }> = Omit<T, 'referenceId'> & { referenceId?: number | undefined };

export interface NormalizedFeed {
  tours: Incoming<TourRow>[];
  tourYears: Incoming<TourYearRow>[];
  teams: Incoming<TeamRow>[];
  athletes: Incoming<AthleteRow>[];
  events: Incoming<Omit<EventRow, 'contentUpdatedAt' | 'lastChangedAt'> & { referenceId: number }>[];
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

/** An item of a collection, as the feed schema lets it in. */
export type FeedItem<C extends FeedCollection> = NonNullable<FeedDocument[C]>[number];

/** What normalising an item needs: where problems go, and the batch's timestamps. */
export interface Normalizing {
  report: ReportProblem;
  /** The item's updatedAt, or the document's, or the time of ingest; canonical. */
  stamp(value: string | undefined): string;
  /** A canonical timestamp, or null. */
  time(value: string | null | undefined): string | null;
}

/** The batch's rows, collection by collection, letting the event loop run between items of a large batch. */
export async function normalizeFeed(doc: FeedDocument, normalizing: Normalizing): Promise<NormalizedFeed> {
  const n = normalizing;
  const rows = <T, R>(items: readonly T[] | undefined, fn: (item: T, i: number, n: Normalizing) => R) =>
    mapPaced(items ?? [], (item, i) => fn(item, i, n));
  return {
    tours: await rows(doc.tours, normalizeTour),
    tourYears: await rows(doc.tourYears, normalizeTourYear),
    teams: await rows(doc.teams, normalizeTeam),
    athletes: await rows(doc.athletes, normalizeAthlete),
    events: await rows(doc.events, normalizeEvent),
    rounds: await rows(doc.rounds, normalizeRound),
    heats: await rows(doc.heats, normalizeHeat),
    roundScores: await rows(doc.roundScores, normalizeRoundScore),
    eventParticipants: await rows(doc.eventParticipants, normalizeEventParticipant),
    heatEntries: await rows(doc.heatEntries, normalizeHeatEntry),
    laps: await rows(doc.laps, normalizeLap),
    heatResults: await rows(doc.heatResults, normalizeHeatResult),
    teamGames: await rows(doc.teamGames, normalizeTeamGame),
    futures: await rows(doc.futures, normalizeFuture),
    futureOdds: await rows(doc.futureOdds, normalizeFutureOdd),
    markets: await rows(doc.markets, normalizeMarket),
    odds: await rows(doc.odds, normalizeOdd),
  };
}

function normalizeTour(t: FeedItem<'tours'>, _i: number, n: Normalizing): NormalizedFeed['tours'][number] {
  return {
    id: t.id,
    referenceId: t.referenceId,
    competition: t.competition,
    name: t.name,
    gender: t.gender ?? null,
    updatedAt: n.stamp(t.updatedAt),
  };
}

function normalizeTourYear(y: FeedItem<'tourYears'>, i: number, n: Normalizing): NormalizedFeed['tourYears'][number] {
  checkRange('tourYears', i, y.id, y.startDate, y.endDate, n.report);
  return {
    id: y.id,
    referenceId: y.referenceId,
    tourId: y.tourId,
    year: y.year,
    startDate: n.time(y.startDate),
    endDate: n.time(y.endDate),
    updatedAt: n.stamp(y.updatedAt),
  };
}

function normalizeTeam(t: FeedItem<'teams'>, _i: number, n: Normalizing): NormalizedFeed['teams'][number] {
  return {
    id: t.id,
    referenceId: t.referenceId,
    competition: t.competition,
    name: t.name,
    shortName: t.shortName ?? null,
    logo: t.logo ?? null,
    updatedAt: n.stamp(t.updatedAt),
  };
}

function normalizeAthlete(a: FeedItem<'athletes'>, _i: number, n: Normalizing): NormalizedFeed['athletes'][number] {
  return {
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
    updatedAt: n.stamp(a.updatedAt),
  };
}

/**
 * An event's or a future's public id (`<sport_key>:<uuid>` or a bare uuid, its prefix agreeing with its
 * competition) and date range, each problem reported; the parsed id, or null when it is not one.
 */
function checkPublicItem(
  collection: 'events' | 'futures',
  i: number,
  item: { id: string; competition: string; startDate: string; endDate: string },
  n: Normalizing,
): ReturnType<typeof parsePublicId> {
  const id = parsePublicId(item.id);
  if (!id)
    n.report(collection, i, item.id, 'id', 'must be `<sport_key>:<uuid>` with a known competition key, or a bare uuid');
  else if (id.competition && id.competition !== item.competition)
    n.report(collection, i, item.id, 'id', `has prefix "${id.competition}" but competition is "${item.competition}"`);
  checkRange(collection, i, item.id, item.startDate, item.endDate, n.report);
  return id;
}

function normalizeEvent(e: FeedItem<'events'>, i: number, n: Normalizing): NormalizedFeed['events'][number] {
  const id = checkPublicItem('events', i, e, n);
  if (e.abandoned && e.eventStatus !== 'CANCELLED')
    n.report(
      'events',
      i,
      e.id,
      'abandoned',
      'is true only with eventStatus CANCELLED (an abandoned event is called off)',
    );
  const startDate = toIsoTimestamp(e.startDate);
  const format = findCompetition(e.competition)?.resultsFormat;
  for (const problem of matchFieldProblems(e, format)) n.report('events', i, e.id, problem.field, problem.message);
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
    resultStatus: e.resultStatus ?? 'OFFICIAL',
    abandoned: e.abandoned ? 1 : 0,
    updatedAt: n.stamp(e.updatedAt),
  };
}

function normalizeRound(r: FeedItem<'rounds'>, i: number, n: Normalizing): NormalizedFeed['rounds'][number] {
  checkRange('rounds', i, r.id, r.startDate, r.endDate, n.report);
  return {
    id: r.id,
    referenceId: r.referenceId,
    eventId: parsePublicId(r.eventId)?.uuid ?? r.eventId,
    roundName: r.roundName,
    roundNo: r.roundNo,
    roundStatus: r.roundStatus,
    startDate: n.time(r.startDate),
    endDate: n.time(r.endDate),
    providerId: r.providerId ?? null,
    gameType: r.gameType ?? null,
    homeLineup: r.homeLineup ?? null,
    awayLineup: r.awayLineup ?? null,
    updatedAt: n.stamp(r.updatedAt),
  };
}

function normalizeHeat(h: FeedItem<'heats'>, i: number, n: Normalizing): NormalizedFeed['heats'][number] {
  checkRange('heats', i, h.id, h.startDate, h.endDate, n.report);
  return {
    id: h.id,
    referenceId: h.referenceId,
    roundId: h.roundId,
    heatName: h.heatName,
    heatNo: h.heatNo,
    heatStatus: h.heatStatus,
    startDate: n.time(h.startDate),
    endDate: n.time(h.endDate),
    providerId: h.providerId ?? null,
    updatedAt: n.stamp(h.updatedAt),
  };
}

function normalizeRoundScore(
  s: FeedItem<'roundScores'>,
  _i: number,
  n: Normalizing,
): NormalizedFeed['roundScores'][number] {
  return {
    id: s.id,
    referenceId: s.referenceId,
    roundId: s.roundId,
    teamId: s.teamId,
    goals: s.goals,
    updatedAt: n.stamp(s.updatedAt),
  };
}

function normalizeEventParticipant(
  p: FeedItem<'eventParticipants'>,
  _i: number,
  n: Normalizing,
): NormalizedFeed['eventParticipants'][number] {
  return {
    id: p.id,
    referenceId: p.referenceId,
    eventId: parsePublicId(p.eventId)?.uuid ?? p.eventId,
    athleteId: p.athleteId,
    seedNo: p.seedNo ?? null,
    status: p.status ?? 'ACTIVE',
    place: p.place ?? null,
    updatedAt: n.stamp(p.updatedAt),
  };
}

function normalizeHeatEntry(
  e: FeedItem<'heatEntries'>,
  _i: number,
  n: Normalizing,
): NormalizedFeed['heatEntries'][number] {
  return {
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
    updatedAt: n.stamp(e.updatedAt),
  };
}

function normalizeLap(l: FeedItem<'laps'>, i: number, n: Normalizing): NormalizedFeed['laps'][number] {
  if (l.lapTime == null && l.position == null)
    n.report('laps', i, lapId(l), 'lapTime', 'a lap record needs a lapTime, a position, or both');
  return {
    id: lapId(l),
    heatEntryId: l.heatEntryId,
    lapNo: l.lapNo,
    lapTime: l.lapTime ?? null,
    position: l.position ?? null,
    updatedAt: n.stamp(l.updatedAt),
  };
}

function normalizeHeatResult(
  r: FeedItem<'heatResults'>,
  i: number,
  n: Normalizing,
): NormalizedFeed['heatResults'][number] {
  const method = r.method ?? null;
  if (method !== null && methodExcludesWinner(method) && r.winnerAthleteId) {
    n.report(
      'heatResults',
      i,
      r.heatId,
      'winnerAthleteId',
      `must be null when the method is "${method}" (a draw or a no contest has no winner)`,
    );
  }
  return {
    id: r.heatId,
    winnerAthleteId: r.winnerAthleteId ?? null,
    method,
    resultStatus: r.resultStatus ?? 'OFFICIAL',
    updatedAt: n.stamp(r.updatedAt),
  };
}

function normalizeTeamGame(g: FeedItem<'teamGames'>, i: number, n: Normalizing): NormalizedFeed['teamGames'][number] {
  if (g.homeTeamId === g.awayTeamId) n.report('teamGames', i, g.heatId, 'awayTeamId', 'must differ from homeTeamId');
  return {
    id: g.heatId,
    homeTeamId: g.homeTeamId,
    awayTeamId: g.awayTeamId,
    eventType: g.eventType ?? null,
    updatedAt: n.stamp(g.updatedAt),
  };
}

function normalizeFuture(f: FeedItem<'futures'>, i: number, n: Normalizing): NormalizedFeed['futures'][number] {
  const id = checkPublicItem('futures', i, f, n);
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
    updatedAt: n.stamp(f.updatedAt),
  };
}

function normalizeFutureOdd(
  o: FeedItem<'futureOdds'>,
  i: number,
  n: Normalizing,
): NormalizedFeed['futureOdds'][number] {
  const prices = o.odds.map((price, p) => {
    const field = `odds[${p}]`;
    if ((price.decimalOdds === undefined) === (price.americanOdds === undefined)) {
      n.report('futureOdds', i, o.id, field, 'must give exactly one of decimalOdds and americanOdds');
      return { outcomeName: price.outcomeName, decimalOdds: 0 };
    }
    if (price.americanOdds !== undefined && Math.abs(price.americanOdds) < 100) {
      n.report('futureOdds', i, o.id, `${field}.americanOdds`, 'must be at most -100 or at least +100');
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
    updatedAt: n.stamp(o.updatedAt),
  };
}

function normalizeMarket(m: FeedItem<'markets'>, i: number, n: Normalizing): NormalizedFeed['markets'][number] {
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
    statusReason: operatorReason(m.status, m.statusReason),
    updatedAt: n.stamp(m.updatedAt),
  };
  for (const problem of marketProblems({
    ...m,
    exactasType: row.exactasType,
    overUnderSubMarketType: row.overUnderSubMarketType,
  }))
    n.report('markets', i, m.id, problem.field, problem.message);
  return row;
}

function normalizeOdd(o: FeedItem<'odds'>, i: number, n: Normalizing): NormalizedFeed['odds'][number] {
  // A dead-heat share is of a win: on any other settlement it is a mistake worth naming.
  if (o.deadHeatFactor !== undefined && o.settlement !== 'WIN')
    n.report('odds', i, o.id, 'deadHeatFactor', 'is the share of a WIN: give it only with settlement WIN');
  const decimalOdds = fedPrice(o, i, n);
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
    probability: o.odds !== undefined && o.probability !== undefined ? o.probability : null,
    status: o.status ?? 'OPEN',
    statusReason: operatorReason(o.status, o.statusReason),
    settlement: o.settlement ?? null,
    deadHeatFactor: o.deadHeatFactor ?? null,
    updatedAt: n.stamp(o.updatedAt),
  };
}

/**
 * An outcome's decimal odds from the one price it gives (odds, americanOdds or probability), or from
 * odds with the probability they were published from (the pricing engine's output), which
 * must not pay more than that probability implies.
 */
function fedPrice(o: FeedItem<'odds'>, i: number, n: Normalizing): number {
  if (o.odds !== undefined && o.probability !== undefined && o.americanOdds === undefined) {
    if (!(o.odds <= (100 / o.probability) * (1 + 1e-9)))
      n.report(
        'odds',
        i,
        o.id,
        'odds',
        `pays more than its probability ${o.probability}% implies (at most ${100 / o.probability})`,
      );
    return o.odds;
  }
  const given = [o.odds, o.americanOdds, o.probability].filter((v) => v !== undefined).length;
  if (given !== 1) {
    n.report(
      'odds',
      i,
      o.id,
      'odds',
      'must give exactly one of odds (decimal), americanOdds and probability, or odds with the probability they were priced from',
    );
    return 0;
  }
  if (o.americanOdds !== undefined && Math.abs(o.americanOdds) < 100) {
    n.report('odds', i, o.id, 'americanOdds', 'must be at most -100 or at least +100');
    return 0;
  }
  const decimalOdds = roundTo(
    o.odds ??
      (o.americanOdds !== undefined
        ? americanToDecimal(o.americanOdds)
        : probabilityToDecimal(o.probability as number)),
    4,
  );
  if (!(decimalOdds > 1))
    n.report(
      'odds',
      i,
      o.id,
      o.probability !== undefined ? 'probability' : 'odds',
      'gives decimal odds of 1 or less once rounded',
    );
  return decimalOdds;
}

/** The reason stored with an operator's status: none while OPEN, OPERATOR unless another is given. */
function operatorReason(status: string | undefined, reason: string | undefined): string | null {
  return status === undefined || status === 'OPEN' ? null : (reason ?? 'OPERATOR');
}

export const lapId = (lap: { heatEntryId: string; lapNo: number }) => `${lap.heatEntryId}/${lap.lapNo}`;

/** Sport-specific event fields belong to their format: a stone colour on a Jai Alai match is a mistake worth naming. */
function matchFieldProblems(
  e: FeedItem<'events'>,
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

function checkRange(
  collection: string,
  index: number,
  id: string,
  start: string | null | undefined,
  end: string | null | undefined,
  report: ReportProblem,
) {
  if (start && end && Date.parse(end) < Date.parse(start))
    report(collection, index, id, 'endDate', 'is earlier than startDate');
}
