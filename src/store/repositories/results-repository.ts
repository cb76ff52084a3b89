import type { Kysely } from 'kysely';
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

export async function byId<K extends 'athletes' | 'teams'>(
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

export function resultsRepository(db: Kysely<Database>) {
  return {
    /** The heat with everything its score rows are derived from; undefined when the heat is unknown. */
    async findHeatResults(heatId: string): Promise<HeatResultsRows | undefined> {
      const heat = await db.selectFrom('heats').selectAll().where('id', '=', heatId).executeTakeFirst();
      if (!heat) return undefined;
      const [entries, laps, result, teamGame] = await Promise.all([
        db.selectFrom('heatEntries').selectAll().where('heatId', '=', heatId).orderBy('referenceId').execute(),
        db.selectFrom('laps').selectAll().where('heatId', '=', heatId).orderBy('lapNo').execute(),
        db.selectFrom('heatResults').selectAll().where('id', '=', heatId).executeTakeFirst(),
        db.selectFrom('teamGames').selectAll().where('id', '=', heatId).executeTakeFirst(),
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
      return { heat, entries, athletes, teams, laps, result, teamGame };
    },

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
  };
}

export type ResultsRepository = ReturnType<typeof resultsRepository>;
