import { type Competition, getCompetition } from '../domain/competitions.ts';
import { fail } from '../domain/errors.ts';
import { formatPublicId, parsePublicId } from '../domain/public-id.ts';
import { endStatus, hammerByEnd, hammerNow, type MatchSide } from '../domain/results/match-score.ts';
import type {
  CurlingEvent,
  LacrosseEvent,
  MatchTeamDetail,
  PeriodDetail,
  ScoreDetail,
  TableTennisEvent,
  ThreeIceEvent,
} from '../shapes/sport-events.ts';
import type { Store } from '../store/database.ts';
import { type EventWithTour, eventsRepository } from '../store/repositories/events-repository.ts';
import { type AccessScope, assertFoundInScope } from './access-scope.ts';
import { PUBLIC_PREFIX } from './public-paths.ts';
import { competitionFields } from './sports.ts';
import { type MatchPeriod, type MatchTeam, periodWinner, type TeamMatch, teamMatch, teamOfSide } from './team-match.ts';

/**
 * Routes 8, 10, 12 and 14: the detail documents of curling, table tennis, box lacrosse and 3-on-3
 * hockey matches. One shape for all four (docs/decisions.md, "Sport-specific routes"): the fields of
 * section 2.6, the teams with their match score, and the periods under the format's own name (ends,
 * games, quarters, periods), each with its team scores.
 */

/** The sport-specific routes' competitions, and what their periods are called in documents. */
export const SPORT_ROUTES = {
  gsoc: { periods: 'ends', period: 'end' },
  mltt: { periods: 'games', period: 'game' },
  nll: { periods: 'quarters', period: 'quarter' },
  '3ice': { periods: 'periods', period: 'period' },
  jaialai: { periods: 'sets', period: 'set' },
} as const;
export type SportRoute = keyof typeof SPORT_ROUTES;

/**
 * The event behind a sport-specific route. An id that names, or turns out to be, an event of another
 * sport: on an odds route a 400 that says which sport it belongs to; on a detail route a 404. Unknown
 * ids are a 404.
 */
export async function resolveSportEvent(
  store: Store,
  id: string,
  sport: SportRoute,
  route: 'detail' | 'odds',
  scope: AccessScope,
): Promise<EventWithTour> {
  const parsed = parsePublicId(id);
  const event = parsed ? await eventsRepository(store.db).findById(parsed.uuid) : undefined;
  const unknown = () => fail('EVENT_NOT_FOUND', { eventId: id }, { eventId: id });
  if (!event || (parsed?.competition && parsed.competition !== event.competition)) throw unknown();
  // Before the sport's check, whose message names the event's competition.
  assertFoundInScope(scope, event.competition, unknown);
  if (event.competition !== sport) {
    const [belongs, wanted] = [getCompetition(event.competition), getCompetition(sport)];
    const params = { eventId: id, belongs, wanted: { name: wanted.name, key: sport } };
    const metadata = { eventId: id, competition: belongs.key };
    // The specification's 400 is for the odds routes; elsewhere the event is not one of the sport's.
    throw fail(route === 'odds' ? 'EVENT_OF_OTHER_SPORT' : 'EVENT_NOT_OF_SPORT', params, metadata);
  }
  return event;
}

export async function loadTeamMatch(store: Store, event: EventWithTour): Promise<TeamMatch> {
  const [rows] = await eventsRepository(store.db).documentsOf([event]);
  return teamMatch(rows as NonNullable<typeof rows>);
}

/** The fields of section 2.6 that every sport-specific document opens with. */
export function matchHeader(event: EventWithTour, competition: Competition) {
  return {
    id: formatPublicId(event.competition, event.id),
    numericEventId: event.referenceId,
    ...competitionFields(competition),
    name: event.name,
    startDate: event.startDate,
    endDate: event.endDate,
    eventNumber: event.eventNumber,
    eventStatus: event.eventStatus,
    eventLocation: event.eventLocation,
    tourId: event.tourId,
    tourName: event.tourName,
    tourYearId: event.tourYearId,
    year: event.year,
  };
}

function teamDetail(match: TeamMatch, team: MatchTeam, side: MatchSide, hammer: MatchSide | null): MatchTeamDetail {
  return {
    id: `${match.rows.event.id}:${team.teamId}`,
    teamId: team.teamId,
    referenceId: team.team.referenceId,
    name: team.team.name,
    shortName: team.team.shortName,
    isHomeTeam: side === 'home',
    score: match.score[side],
    ...(match.competition.resultsFormat === 'curling'
      ? { hasHammer: hammer === side, stoneColor: team.stoneColor ?? null }
      : {}),
  };
}

/** Score details of a period (section 2.6): one per team that has a score in it. */
export function periodScores(match: TeamMatch, period: MatchPeriod): ScoreDetail[] {
  return (['home', 'away'] as const).flatMap((side) => {
    const row = period[side];
    const team = teamOfSide(match, side);
    return row && team ? [{ id: row.id, label: team.team.name, teamId: team.teamId, score: row.goals }] : [];
  });
}

function firstHammer(match: TeamMatch): MatchSide | null {
  if (match.home?.firstHammer) return 'home';
  if (match.away?.firstHammer) return 'away';
  return null;
}

function periodDetail(match: TeamMatch, period: MatchPeriod, hammer: MatchSide | null | undefined): PeriodDetail {
  const { round } = period;
  const format = match.competition.resultsFormat;
  const winner = periodWinner(period);
  return {
    id: round.id,
    name: round.roundName,
    number: round.roundNo,
    roundStatus: format === 'curling' ? endStatus(round.roundStatus) : round.roundStatus,
    startDate: round.startDate,
    endDate: round.endDate,
    scores: periodScores(match, period),
    winner,
    winnerTeamId: teamOfSide(match, winner)?.teamId ?? null,
    ...(format === 'curling' ? { hammer: hammer ?? null } : {}),
    ...(format === 'table-tennis'
      ? { gameType: round.gameType, homeLineup: round.homeLineup, awayLineup: round.awayLineup }
      : {}),
  };
}

/** The detail document of each sport-specific detail route. */
interface SportEventDocuments {
  gsoc: CurlingEvent;
  mltt: TableTennisEvent;
  nll: LacrosseEvent;
  '3ice': ThreeIceEvent;
}

/** What every detail document has: section 2.6's opening fields, the teams and the match score. */
type MatchDocument = Omit<CurlingEvent, 'ends'>;

/** Each sport's document: the periods under the format's own name, and what only that sport has. */
const SPORT_DOCUMENTS: {
  [S in keyof SportEventDocuments]: (
    match: MatchDocument,
    periods: PeriodDetail[],
    event: EventWithTour,
  ) => SportEventDocuments[S];
} = {
  gsoc: (match, ends) => ({ ...match, ends }),
  mltt: (match, games) => ({ ...match, games }),
  nll: (match, quarters) => ({ ...match, quarters }),
  '3ice': (match, periods, event) => ({
    ...match,
    periods,
    ...(event.tourYearId ? { bracketUrl: `${PUBLIC_PREFIX}/events/3ice/bracket/${event.tourYearId}` } : {}),
    bracketRound: event.bracketRound,
    bracketSlot: event.bracketSlot,
  }),
};

/** Routes 8, 10, 12, 14. */
export async function getSportEventDocument<S extends keyof SportEventDocuments>(
  store: Store,
  sport: S,
  eventId: string,
  scope: AccessScope,
): Promise<SportEventDocuments[S]> {
  const event = await resolveSportEvent(store, eventId, sport, 'detail', scope);
  const match = await loadTeamMatch(store, event);
  const competition = match.competition;
  const first = firstHammer(match);
  // Completed ends pass the hammer, in order (as hammerNow reads them); an end after the one in play has no hammer yet.
  const played = match.periods.findIndex((p) => p.round.roundStatus !== 'COMPLETED');
  const completed = (played < 0 ? match.periods : match.periods.slice(0, played)).map((p) => p.score);
  const hammers = first ? hammerByEnd(first, completed) : [];
  const hammerNowSide = first
    ? hammerNow(
        first,
        match.periods.map((p) => p.score),
      )
    : null;
  const sides = (['home', 'away'] as const).flatMap((side) => {
    const team = teamOfSide(match, side);
    return team ? [teamDetail(match, team, side, competition.resultsFormat === 'curling' ? hammerNowSide : null)] : [];
  });
  const document: MatchDocument = {
    ...matchHeader(event, competition),
    homeScore: match.score.home,
    awayScore: match.score.away,
    winner: match.winner,
    winnerTeamId: teamOfSide(match, match.winner)?.teamId ?? null,
    teams: sides,
    updatedAt: event.contentUpdatedAt,
  };
  const periods = match.periods.map((period, i) => periodDetail(match, period, hammers[i]));
  return SPORT_DOCUMENTS[sport](document, periods, event);
}
