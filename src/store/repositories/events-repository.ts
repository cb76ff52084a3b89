import type { Kysely } from 'kysely';
import type { EventStatus, SortOrder } from '../../domain/enumerations.ts';
import type { Database, EventRow, HeatRow, RoundRow, RoundScoreRow, TeamRow } from '../schema.ts';

export interface EventListFilter {
  /** Only these competitions; undefined for all. */
  competitions?: readonly string[] | undefined;
  statuses?: readonly EventStatus[] | undefined;
  /** Events that end at or after this instant (ISO). */
  endsFrom?: string | undefined;
  /** Events that start before this instant (ISO). */
  startsBefore?: string | undefined;
  /** Events any of whose public documents (event, heat scores, odds) changed after this instant (ISO). */
  updatedSince?: string | undefined;
  sortOrder: SortOrder;
  /** Keyset position: rows after (or before, when descending) this start date and reference id. */
  after?: { startDate: string; referenceId: number } | undefined;
  limit?: number | undefined;
}

export type EventWithTour = EventRow & { tourName: string; tourReferenceId: number };

export interface EventDocumentRows {
  event: EventWithTour;
  rounds: RoundRow[];
  heats: HeatRow[];
  roundScores: RoundScoreRow[];
  teams: TeamRow[];
}

function eventsWithTour(db: Kysely<Database>) {
  return db
    .selectFrom('events')
    .innerJoin('tours', 'tours.id', 'events.tourId')
    .selectAll('events')
    .select(['tours.name as tourName', 'tours.referenceId as tourReferenceId']);
}

export function eventsRepository(db: Kysely<Database>) {
  return {
    async list(filter: EventListFilter): Promise<EventWithTour[]> {
      let query = eventsWithTour(db);
      if (filter.competitions)
        query = query.where('events.competition', 'in', filter.competitions.length ? [...filter.competitions] : ['']);
      if (filter.statuses?.length) query = query.where('events.eventStatus', 'in', [...filter.statuses]);
      if (filter.endsFrom) query = query.where('events.endDate', '>=', filter.endsFrom);
      if (filter.startsBefore) query = query.where('events.startDate', '<', filter.startsBefore);
      if (filter.updatedSince) query = query.where('events.lastChangedAt', '>', filter.updatedSince);
      const direction = filter.sortOrder === 'DESC' ? 'desc' : 'asc';
      if (filter.after) {
        const { startDate, referenceId } = filter.after;
        const beyond = direction === 'asc' ? '>' : '<';
        query = query.where((eb) =>
          eb.or([
            eb('events.startDate', beyond, startDate),
            eb.and([eb('events.startDate', '=', startDate), eb('events.referenceId', beyond, referenceId)]),
          ]),
        );
      }
      query = query.orderBy('events.startDate', direction).orderBy('events.referenceId', direction);
      if (filter.limit !== undefined) query = query.limit(filter.limit);
      return (await query.execute()) as EventWithTour[];
    },

    async findById(id: string): Promise<EventWithTour | undefined> {
      return (await eventsWithTour(db).where('events.id', '=', id).executeTakeFirst()) as EventWithTour | undefined;
    },

    /** The event with everything its public document shows, or undefined when it is unknown. */
    async findDocument(id: string): Promise<EventDocumentRows | undefined> {
      const event = await this.findById(id);
      return event ? (await this.documentsOf([event]))[0] : undefined;
    },

    /** The public documents' rows of these events, in the order given, read in one query per table. */
    async documentsOf(events: readonly EventWithTour[]): Promise<EventDocumentRows[]> {
      if (events.length === 0) return [];
      const ids = events.map((e) => e.id);
      const teamIds = [
        ...new Set(events.flatMap((e) => (JSON.parse(e.teams) as Array<{ teamId: string }>).map((t) => t.teamId))),
      ];
      const [rounds, heats, roundScores, teams] = await Promise.all([
        db
          .selectFrom('rounds')
          .selectAll()
          .where('eventId', 'in', ids)
          .orderBy('roundNo')
          .orderBy('referenceId')
          .execute(),
        db
          .selectFrom('heats')
          .selectAll()
          .where('eventId', 'in', ids)
          .orderBy('heatNo')
          .orderBy('referenceId')
          .execute(),
        db.selectFrom('roundScores').selectAll().where('eventId', 'in', ids).orderBy('referenceId').execute(),
        teamIds.length
          ? db.selectFrom('teams').selectAll().where('id', 'in', teamIds).execute()
          : Promise.resolve([] as TeamRow[]),
      ]);
      const teamById = new Map(teams.map((t) => [t.id, t]));
      return events.map((event) => ({
        event,
        rounds: rounds.filter((r) => r.eventId === event.id),
        heats: heats.filter((h) => h.eventId === event.id),
        roundScores: roundScores.filter((s) => s.eventId === event.id),
        teams: (JSON.parse(event.teams) as Array<{ teamId: string }>).flatMap((t) => teamById.get(t.teamId) ?? []),
      }));
    },

    /** The matches of a Jai Alai card, in play order. */
    async findCard(cardId: string): Promise<EventWithTour[]> {
      return (await eventsWithTour(db)
        .where('events.cardId', '=', cardId)
        .orderBy('events.startDate')
        .orderBy('events.eventNumber')
        .orderBy('events.referenceId')
        .execute()) as EventWithTour[];
    },

    /** The games of a season's knockout bracket. */
    async bracketGames(tourYearId: string): Promise<EventWithTour[]> {
      return (await eventsWithTour(db)
        .where('events.tourYearId', '=', tourYearId)
        .where('events.bracketRound', 'is not', null)
        .orderBy('events.bracketRound')
        .orderBy('events.bracketSlot')
        .execute()) as EventWithTour[];
    },

    /** A season with its tour's name and competition; undefined when unknown. */
    async findTourYear(tourYearId: string) {
      return db
        .selectFrom('tourYears')
        .innerJoin('tours', 'tours.id', 'tourYears.tourId')
        .select([
          'tourYears.id',
          'tourYears.year',
          'tourYears.updatedAt',
          'tours.id as tourId',
          'tours.name as tourName',
          'tours.competition',
        ])
        .where('tourYears.id', '=', tourYearId)
        .executeTakeFirst();
    },

    /** What pricing an event starts from: its competition, teams and status; undefined when unknown. */
    async findPricingFacts(id: string) {
      return db
        .selectFrom('events')
        .select(['id', 'competition', 'teams', 'eventStatus'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The stored status of each of these events that the store holds, by id. */
    async statusesOf(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('events').select(['id', 'eventStatus']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.eventStatus]));
    },

    /** The competition of each of these events that the store holds, by id. */
    async competitionsOf(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('events').select(['id', 'competition']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.competition]));
    },

    /** The event's rounds (periods of a match) in play order, with their status. */
    async roundStatuses(eventId: string) {
      return db
        .selectFrom('rounds')
        .select(['id', 'roundStatus'])
        .where('eventId', '=', eventId)
        .orderBy('roundNo')
        .orderBy('referenceId')
        .execute();
    },
  };
}

export type EventsRepository = ReturnType<typeof eventsRepository>;
