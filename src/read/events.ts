import { getCompetition } from '../domain/competitions.ts';
import { parseDateParam } from '../domain/dates.ts';
import { fail } from '../domain/errors.ts';
import { formatPublicId, parsePublicId } from '../domain/public-id.ts';
import type { Event, EventListItem, EventListQuery } from '../shapes/events.ts';
import type { Store } from '../store/database.ts';
import { type EventWithTour, eventsRepository } from '../store/repositories/events-repository.ts';
import { type AccessScope, assertCanRead, assertFoundInScope } from './access-scope.ts';
import { heatScoresPath, participantsPath } from './public-paths.ts';

export interface EventListPage {
  items: EventListItem[];
  /** Present when `limit` cut the list: pass it as `cursor` for the next page. */
  nextCursor: string | null;
}

function encodeCursor(row: EventWithTour): string {
  return Buffer.from(JSON.stringify([row.startDate, row.referenceId])).toString('base64url');
}

function decodeCursor(cursor: string): { startDate: string; referenceId: number } {
  try {
    const [startDate, referenceId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [
      unknown,
      unknown,
    ];
    if (typeof startDate === 'string' && Number.isInteger(referenceId))
      return { startDate, referenceId: referenceId as number };
  } catch {
    // fall through to the error below
  }
  throw fail('INVALID_CURSOR', { parameter: 'cursor' });
}

/** A date or date-time query parameter as the day or instant it names; a 400 naming it when it is neither. */
export function dateBound(name: string, value: string) {
  const bound = parseDateParam(value);
  if (!bound)
    throw fail(
      'INVALID_PARAMETER',
      { where: 'query parameter', name, reason: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time' },
      { parameter: name, value },
    );
  return bound;
}

/** Route 2: events overlapping the date range, filtered by competition and status, ordered by start. */
export async function listEvents(store: Store, query: EventListQuery, scope: AccessScope): Promise<EventListPage> {
  const { competition, sportType } = query;
  if (competition && sportType && [...new Set(competition)].sort().join() !== [...new Set(sportType)].sort().join()) {
    throw fail('COMPETITION_CONFLICT', { parameter: 'competition' });
  }
  const competitions = competition ?? sportType;
  for (const key of competitions ?? []) assertCanRead(scope, key);
  const start = query.startDate ? dateBound('startDate', query.startDate) : undefined;
  const end = query.endDate ? dateBound('endDate', query.endDate) : undefined;
  if (start && end && end.endExclusive <= start.start) {
    throw fail('INVALID_DATE_RANGE', { later: 'endDate', earlier: 'startDate' }, { parameter: 'endDate' });
  }
  const limit = query.limit;
  const rows = await eventsRepository(store.db).list({
    competitions: competitions ?? scope ?? undefined,
    statuses: query.eventStatus,
    endsFrom: start?.start.toISOString(),
    startsBefore: end?.endExclusive.toISOString(),
    updatedSince: query.updatedSince ? dateBound('updatedSince', query.updatedSince).start.toISOString() : undefined,
    sortOrder: query.sortOrder ?? 'ASC',
    after: query.cursor ? decodeCursor(query.cursor) : undefined,
    limit: limit === undefined ? undefined : limit + 1,
  });
  const more = limit !== undefined && rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return {
    items: page.map(toListItem),
    nextCursor: more ? encodeCursor(page[page.length - 1] as EventWithTour) : null,
  };
}

function toListItem(row: EventWithTour): EventListItem {
  return {
    id: formatPublicId(row.competition, row.id),
    numericEventId: row.referenceId,
    name: row.name,
    competition: row.competition,
    tourName: row.tourName,
    startDate: row.startDate,
    endDate: row.endDate,
    year: row.year,
    eventNumber: row.eventNumber,
    eventStatus: row.eventStatus,
    eventLocation: row.eventLocation,
    eventLocationGroup: row.eventLocationGroup,
    updatedAt: row.contentUpdatedAt,
    lastChangedAt: row.lastChangedAt ?? row.contentUpdatedAt,
    ...(row.cardId ? { cardId: row.cardId } : {}),
  };
}

/** Resolves a public event id (prefixed or bare) to a stored event the caller may read; 404 otherwise. */
export async function resolveEvent(store: Store, eventId: string, scope: AccessScope): Promise<EventWithTour> {
  const parsed = parsePublicId(eventId);
  const event = parsed ? await eventsRepository(store.db).findById(parsed.uuid) : undefined;
  const unknown = () => fail('EVENT_NOT_FOUND', { eventId }, { eventId });
  if (!event || (parsed?.competition && parsed.competition !== event.competition)) throw unknown();
  assertFoundInScope(scope, event.competition, unknown);
  return event;
}

/** Route 3: the event document with rounds, heats, round scores and teams. */
export async function getEventDocument(store: Store, eventId: string, scope: AccessScope): Promise<Event> {
  const parsed = parsePublicId(eventId);
  const rows = parsed ? await eventsRepository(store.db).findDocument(parsed.uuid) : undefined;
  const unknown = () => fail('EVENT_NOT_FOUND', { eventId }, { eventId });
  if (!rows || (parsed?.competition && parsed.competition !== rows.event.competition)) throw unknown();
  const { event, rounds, heats, roundScores, teams } = rows;
  assertFoundInScope(scope, event.competition, unknown);
  const competition = getCompetition(event.competition);
  const teamById = new Map(teams.map((t) => [t.id, t]));
  const publicId = formatPublicId(event.competition, event.id);
  return {
    sportId: competition.key,
    sportType: competition.key,
    numericSportId: competition.referenceId,
    tourId: event.tourId,
    numericTournamentId: event.tourReferenceId,
    id: publicId,
    numericEventId: event.referenceId,
    tourName: event.tourName,
    name: event.name,
    startDate: event.startDate,
    endDate: event.endDate,
    year: event.year,
    eventNumber: event.eventNumber,
    eventStatus: event.eventStatus,
    eventLocation: event.eventLocation,
    eventLocationNumericId: event.eventLocationNumericId,
    eventLocationGroup: event.eventLocationGroup,
    providerId: event.providerId,
    rounds: rounds.map((round) => ({
      id: round.id,
      referenceId: round.referenceId,
      roundName: round.roundName,
      roundNo: round.roundNo,
      roundStatus: round.roundStatus,
      startDate: round.startDate,
      endDate: round.endDate,
      providerId: round.providerId,
      heats: heats
        .filter((h) => h.roundId === round.id)
        .map((h) => ({
          id: h.id,
          referenceId: h.referenceId,
          heatName: h.heatName,
          heatNo: h.heatNo,
          heatStatus: h.heatStatus,
          startDate: h.startDate,
          endDate: h.endDate,
          providerId: h.providerId,
          scoresUrl: heatScoresPath(publicId, h.id),
        })),
      scores: roundScores
        .filter((s) => s.roundId === round.id)
        .map((s) => ({ id: s.id, referenceId: s.referenceId, teamId: s.teamId, goals: s.goals })),
    })),
    teams: (JSON.parse(event.teams) as Array<{ teamId: string; isHomeTeam: boolean }>).flatMap(
      ({ teamId, isHomeTeam }) => {
        const team = teamById.get(teamId);
        return team
          ? [
              {
                id: team.id,
                referenceId: team.referenceId,
                name: team.name,
                shortName: team.shortName,
                logo: team.logo,
                isHomeTeam,
              },
            ]
          : [];
      },
    ),
    updatedAt: event.contentUpdatedAt,
    seasonType: event.seasonType,
    participantsUrl: competition.participants === 'athletes' ? participantsPath(publicId) : null,
    ...(event.cardId ? { cardId: event.cardId } : {}),
  };
}
