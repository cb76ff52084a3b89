import type { Kysely } from 'kysely';
import { pace } from '../../base/event-loop-turns.ts';
import type { EventStatus, SortOrder } from '../../domain/enumerations.ts';
import type { Database, EventRow, HeatRow, RoundRow, RoundScoreRow, TeamRow } from '../schema.ts';
import { anyOf, chunks, readById } from './chunked.ts';

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

/**
 * Events with their rounds and heats: what the public documents read, and what the ingest looks up
 * and moves.
 * Long only as a list of short methods is: every repository is one object of its aggregate's queries
 * (docs/decisions.md, "SQL in repositories").
 */
export function eventsRepository(db: Kysely<Database>) {
  return {
    async list(filter: EventListFilter): Promise<EventWithTour[]> {
      let query = eventsWithTour(db);
      if (filter.competitions) query = query.where('events.competition', 'in', anyOf(filter.competitions));
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

    /** The competition and status of each of these events that the store holds, by id. */
    statesOf(ids: readonly string[]): Promise<Map<string, { competition: string; eventStatus: string }>> {
      return readById(
        ids,
        (part) =>
          db.selectFrom('events').select(['id', 'competition', 'eventStatus']).where('id', 'in', part).execute(),
        (row) => row,
      );
    },

    /** The event and status of each of these heats that the store holds, by id. */
    heatStates(heatIds: readonly string[]): Promise<Map<string, { eventId: string; heatStatus: string }>> {
      return readById(
        heatIds,
        (part) => db.selectFrom('heats').select(['id', 'eventId', 'heatStatus']).where('id', 'in', part).execute(),
        (row) => row,
      );
    },

    /** The event of each of these rounds that the store holds, by round id. */
    eventsOfRounds(roundIds: readonly string[]): Promise<Map<string, string>> {
      return readById(
        roundIds,
        (part) => db.selectFrom('rounds').select(['id', 'eventId']).where('id', 'in', part).execute(),
        (row) => row.eventId,
      );
    },

    /** Moves each event's contentUpdatedAt forward to the latest change made inside its document. */
    async touchContent(latestByEvent: ReadonlyMap<string, string>): Promise<void> {
      for (const [eventId, at] of latestByEvent) {
        await db
          .updateTable('events')
          .set({ contentUpdatedAt: at })
          .where('id', '=', eventId)
          .where('contentUpdatedAt', '<', at)
          .execute();
        await pace();
      }
    },

    /**
     * Moves the lastChangedAt of each event whose public documents a batch changed to the time
     * the batch is written: the server's clock, not the feed's, so that a row stamped earlier than a
     * poller's last `updatedSince` but written after it is still found. Never moved back.
     */
    async touchLastChanged(eventIds: readonly string[], at: string): Promise<void> {
      for (const ids of chunks(eventIds)) {
        await db
          .updateTable('events')
          .set({ lastChangedAt: at })
          .where('id', 'in', ids)
          .where((eb) => eb.or([eb('lastChangedAt', 'is', null), eb('lastChangedAt', '<', at)]))
          .execute();
        await pace();
      }
    },

    /** True when the store holds no events. */
    async isEmpty(): Promise<boolean> {
      return (await db.selectFrom('events').select('id').limit(1).executeTakeFirst()) === undefined;
    },

    /** The start date of each of these events that the store holds, by id. */
    async startDatesOf(ids: readonly string[]): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      for (const part of chunks(ids, 500))
        for (const row of await db.selectFrom('events').select(['id', 'startDate']).where('id', 'in', part).execute())
          found.set(row.id, row.startDate);
      return found;
    },

    /**
     * How far these events have got, at least: the latest end of a heat or round that is over, or
     * start of one under way; null when none has begun.
     */
    async progressOf(eventIds: readonly string[]): Promise<string | null> {
      const times: unknown[] = [];
      for (const part of chunks(eventIds, 500)) {
        const heats = db.selectFrom('heats').where('eventId', 'in', part);
        const rounds = db.selectFrom('rounds').where('eventId', 'in', part);
        for (const query of [
          heats.select((eb) => eb.fn.max('endDate').as('at')).where('heatStatus', '=', 'COMPLETED'),
          heats.select((eb) => eb.fn.max('startDate').as('at')).where('heatStatus', '=', 'LIVE'),
          rounds.select((eb) => eb.fn.max('endDate').as('at')).where('roundStatus', '=', 'COMPLETED'),
          rounds.select((eb) => eb.fn.max('startDate').as('at')).where('roundStatus', '=', 'LIVE'),
        ]) {
          times.push((await query.executeTakeFirst())?.at);
        }
      }
      return (
        times
          .filter((at): at is string => typeof at === 'string')
          .sort()
          .at(-1) ?? null
      );
    },
  };
}

export type EventsRepository = ReturnType<typeof eventsRepository>;
