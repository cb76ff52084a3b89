import type { Kysely } from 'kysely';
import { groupBy } from '../../domain/group-by.ts';
import type {
  AthleteRow,
  Database,
  EventParticipantRow,
  HeatEntryRow,
  HeatResultRow,
  HeatRow,
  LapRow,
  TeamGameRow,
  TeamRow,
} from '../schema.ts';
import { chunks, readById } from './chunked.ts';

/** What route 5 is made of: the heat, its entries, their athletes and teams, laps, result and team game. */
export interface HeatResultsRows {
  heat: HeatRow;
  /** In reference-id order. */
  entries: HeatEntryRow[];
  athletes: Map<string, AthleteRow>;
  teams: Map<string, TeamRow>;
  laps: LapRow[];
  result: HeatResultRow | undefined;
  teamGame: TeamGameRow | undefined;
}

export interface ParticipantsRows {
  /** In reference-id order. */
  participants: EventParticipantRow[];
  athletes: Map<string, AthleteRow>;
  teams: Map<string, TeamRow>;
}

async function byId<K extends 'athletes' | 'teams'>(
  db: Kysely<Database>,
  table: K,
  ids: Iterable<string | null>,
): Promise<Map<string, Database[K]>> {
  const wanted = [...new Set([...ids].filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = (await db
    .selectFrom(table as 'athletes' | 'teams')
    .selectAll()
    .where('id', 'in', wanted)
    .execute()) as Database[K][];
  return new Map(rows.map((row) => [row.id, row]));
}

/** findHeatResults of many heats in one read per table: by heat id, the unknown ones left out. */
async function findHeatsResults(
  db: Kysely<Database>,
  heatIds: readonly string[],
): Promise<Map<string, HeatResultsRows>> {
  const ids = [...new Set(heatIds)];
  if (ids.length === 0) return new Map();
  const heats = await db.selectFrom('heats').selectAll().where('id', 'in', ids).execute();
  if (heats.length === 0) return new Map();
  const known = heats.map((h) => h.id);
  const [entries, laps, results, teamGames] = await Promise.all([
    db
      .selectFrom('heatEntries')
      .selectAll()
      .where('heatId', 'in', known)
      .orderBy('heatId')
      .orderBy('referenceId')
      .execute(),
    db.selectFrom('laps').selectAll().where('heatId', 'in', known).orderBy('heatId').orderBy('lapNo').execute(),
    db.selectFrom('heatResults').selectAll().where('id', 'in', known).execute(),
    db.selectFrom('teamGames').selectAll().where('id', 'in', known).execute(),
  ]);
  const athletes = await byId(
    db,
    'athletes',
    entries.map((e) => e.athleteId),
  );
  const teams = await byId(db, 'teams', [
    ...entries.map((e) => e.teamId),
    ...[...athletes.values()].map((a) => a.teamId),
  ]);
  const entriesOf = groupBy(entries, (e) => e.heatId);
  const lapsOf = groupBy(laps, (l) => l.heatId);
  const resultOf = new Map(results.map((r) => [r.id, r]));
  const teamGameOf = new Map(teamGames.map((g) => [g.id, g]));
  return new Map(
    heats.map((heat) => [
      heat.id,
      {
        heat,
        entries: entriesOf.get(heat.id) ?? [],
        athletes,
        teams,
        laps: lapsOf.get(heat.id) ?? [],
        result: resultOf.get(heat.id),
        teamGame: teamGameOf.get(heat.id),
      },
    ]),
  );
}

/**
 * Heats' and events' results: entries, participants, their athletes and teams, laps, fed results.
 * Long only as a list of short methods is: every repository is one object of its aggregate's queries
 * (docs/decisions.md, "SQL in repositories").
 */
export function resultsRepository(db: Kysely<Database>) {
  return {
    /** The heat with everything its score rows are derived from; undefined when the heat is unknown. */
    async findHeatResults(heatId: string): Promise<HeatResultsRows | undefined> {
      return (await findHeatsResults(db, [heatId])).get(heatId);
    },

    /**
     * findHeatResults of many heats in one read per table (a settlement reads all of an event's heats):
     * by heat id, the unknown ones left out.
     */
    findHeatsResults: (heatIds: readonly string[]) => findHeatsResults(db, heatIds),

    /** Each participant's athlete, status and final place: what event markets settle from. */
    async participantPlaces(
      eventId: string,
    ): Promise<Array<Pick<EventParticipantRow, 'athleteId' | 'status' | 'place'>>> {
      return db
        .selectFrom('eventParticipants')
        .select(['athleteId', 'status', 'place'])
        .where('eventId', '=', eventId)
        .execute();
    },

    /** The athletes of the event knocked out (its participants ELIMINATED). */
    async eliminatedAthletes(eventId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('eventParticipants')
        .select('athleteId')
        .where('eventId', '=', eventId)
        .where('status', '=', 'ELIMINATED')
        .execute();
      return rows.map((row) => row.athleteId);
    },

    /** Which of these athletes the store holds. */
    async knownAthletes(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('athletes').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((row) => row.id));
    },

    /** The event's heat entries with their heat's status, in the heats' reference-id order. */
    async entriesWithHeatStatus(eventId: string) {
      return db
        .selectFrom('heatEntries')
        .innerJoin('heats', 'heats.id', 'heatEntries.heatId')
        .select(['heatEntries.heatId', 'heatEntries.athleteId', 'heats.heatStatus'])
        .where('heats.eventId', '=', eventId)
        .orderBy('heats.referenceId')
        .execute();
    },

    /** Every heat entry of the event: who rode which heat, with their stored position and score. */
    async entriesOfEvent(
      eventId: string,
    ): Promise<Array<Pick<HeatEntryRow, 'heatId' | 'athleteId' | 'position' | 'heatScore'>>> {
      return db
        .selectFrom('heatEntries')
        .innerJoin('heats', 'heats.id', 'heatEntries.heatId')
        .select(['heatEntries.heatId', 'heatEntries.athleteId', 'heatEntries.position', 'heatEntries.heatScore'])
        .where('heats.eventId', '=', eventId)
        .execute();
    },

    /** The event's participants with their athletes and the athletes' teams. */
    async findParticipants(eventId: string): Promise<ParticipantsRows> {
      const participants = await db
        .selectFrom('eventParticipants')
        .selectAll()
        .where('eventId', '=', eventId)
        .orderBy('referenceId')
        .execute();
      const athletes = await byId(
        db,
        'athletes',
        participants.map((p) => p.athleteId),
      );
      const teams = await byId(
        db,
        'teams',
        [...athletes.values()].map((a) => a.teamId),
      );
      return { participants, athletes, teams };
    },

    /** These athletes, those the store holds, by id. */
    athletesByIds: (ids: Iterable<string | null>) => byId(db, 'athletes', ids),

    /** These teams, those the store holds, by id. */
    teamsByIds: (ids: Iterable<string | null>) => byId(db, 'teams', ids),

    /** Stored heat entries of these heats, or participants of these events: (id, owner, athlete). */
    async entrantsOf(
      collection: 'heatEntries' | 'eventParticipants',
      ownerIds: readonly string[],
    ): Promise<Array<{ id: string; ownerId: string; athleteId: string }>> {
      const out: Array<{ id: string; ownerId: string; athleteId: string }> = [];
      for (const part of chunks(ownerIds)) {
        const rows =
          collection === 'heatEntries'
            ? await db
                .selectFrom('heatEntries')
                .select(['id', 'heatId as ownerId', 'athleteId'])
                .where('heatId', 'in', part)
                .execute()
            : await db
                .selectFrom('eventParticipants')
                .select(['id', 'eventId as ownerId', 'athleteId'])
                .where('eventId', 'in', part)
                .execute();
        out.push(...rows);
      }
      return out;
    },

    /** The heat of each of these heat entries that the store holds, by entry id. */
    heatsOfEntries(entryIds: readonly string[]): Promise<Map<string, string>> {
      return readById(
        entryIds,
        (part) => db.selectFrom('heatEntries').select(['id', 'heatId']).where('id', 'in', part).execute(),
        (row) => row.heatId,
      );
    },

    /**
     * Of these ids, those whose result the store holds (what a feed correction may correct): a heat's
     * fed result, an event COMPLETED (its places or score are its result).
     */
    async resultsHeld(collection: 'events' | 'heatResults', ids: readonly string[]): Promise<Set<string>> {
      const found = await readById(
        ids,
        (part) =>
          collection === 'heatResults'
            ? db.selectFrom('heatResults').select('id').where('id', 'in', part).execute()
            : db
                .selectFrom('events')
                .select('id')
                .where('id', 'in', part)
                .where('eventStatus', '=', 'COMPLETED')
                .execute(),
        (row) => row.id,
      );
      return new Set(found.keys());
    },
  };
}

export type ResultsRepository = ReturnType<typeof resultsRepository>;
