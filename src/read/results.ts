import { type Competition, getCompetition } from '../domain/competitions.ts';
import { fail } from '../domain/errors.ts';
import { formatPublicId } from '../domain/public-id.ts';
import { athleteRoundRank } from '../domain/results/athlete-round-rank.ts';
import { compareHeatRows } from '../domain/results/heat-row-order.ts';
import { heatLapStatistics } from '../domain/results/lap-statistics.ts';
import { scoreUpdatedAt } from '../domain/results/score-updated-at.ts';
import { skateboardingRoundScore } from '../domain/results/skateboarding-round-score.ts';
import { teamEventFields, teamIsHome } from '../domain/results/team-event-fields.ts';
import { winBy } from '../domain/results/win-by.ts';
import type { HeatScoreRow, Participant } from '../shapes/results.ts';
import type { Store } from '../store/database.ts';
import { type HeatResultsRows, resultsRepository } from '../store/repositories/results-repository.ts';
import type { AccessScope } from './access-scope.ts';
import { athleteDocument, teamDocument } from './athlete-document.ts';
import { resolveEvent } from './events.ts';
import { competitionFields } from './sports.ts';

/** Route 5: the heat's score rows, every derived field computed from raw facts, by rank then seed. */
export async function getHeatScores(
  store: Store,
  eventId: string,
  heatId: string,
  scope: AccessScope,
): Promise<HeatScoreRow[]> {
  const event = await resolveEvent(store, eventId, scope);
  const rows = await resultsRepository(store.db).findHeatResults(heatId);
  if (!rows || rows.heat.eventId !== event.id) {
    throw fail('HEAT_NOT_FOUND', { heatId, eventId: formatPublicId(event.competition, event.id) }, { eventId, heatId });
  }
  return heatScoreRows(getCompetition(event.competition), { id: event.id, referenceId: event.referenceId }, rows);
}

/** Composes the rows; pure, so that the rules' interplay is testable without a store. */
export function heatScoreRows(
  competition: Competition,
  event: { id: string; referenceId: number },
  rows: HeatResultsRows,
): HeatScoreRow[] {
  const { heat, entries, laps, result, teamGame } = rows;
  const format = competition.resultsFormat;
  const lapStats = heatLapStatistics(
    format,
    entries.map((e) => ({ id: e.id, lapStatus: e.lapStatus })),
    laps.map((l) => ({ entryId: l.heatEntryId, lapNo: l.lapNo, lapTime: l.lapTime, position: l.position })),
  );
  // Canonical ISO timestamps order as text.
  const latestLap = laps.reduce<string | null>(
    (latest, lap) => (latest === null || lap.updatedAt > latest ? lap.updatedAt : latest),
    null,
  );
  const heatContext: HeatContext = {
    competition,
    event,
    rows,
    publicEventId: formatPublicId(competition.key, event.id),
    heatAthleteIds: entries.map((e) => e.athleteId),
    storedResult: result ? { winnerAthleteId: result.winnerAthleteId, method: result.method } : null,
    game: teamGame
      ? { eventType: teamGame.eventType, homeTeamId: teamGame.homeTeamId, awayTeamId: teamGame.awayTeamId }
      : null,
    lapStats,
    heatDates: [heat.updatedAt, latestLap, result?.updatedAt ?? null, teamGame?.updatedAt ?? null],
  };
  return entries.map((entry) => scoreRow(entry, heatContext)).sort(compareHeatRows);
}

/** What every row of a heat is derived with. */
interface HeatContext {
  competition: Competition;
  event: { id: string; referenceId: number };
  rows: HeatResultsRows;
  publicEventId: string;
  heatAthleteIds: string[];
  storedResult: { winnerAthleteId: string | null; method: string | null } | null;
  game: { eventType: string | null; homeTeamId: string; awayTeamId: string } | null;
  lapStats: ReturnType<typeof heatLapStatistics>;
  heatDates: Array<string | null>;
}

/** One entry's score row: its raw facts and every field derived from them (section 2.5). */
function scoreRow(entry: HeatResultsRows['entries'][number], context: HeatContext): HeatScoreRow {
  const { competition, rows, game, storedResult } = context;
  const { heat, athletes, teams } = rows;
  const format = competition.resultsFormat;
  const athlete = athletes.get(entry.athleteId);
  if (!athlete) throw new Error(`heat entry ${entry.id} names a missing athlete`);
  // The team ridden for in this heat (a bull-riding team game), else the athlete's own.
  const teamId = entry.teamId ?? athlete.teamId;
  const team = teamDocument(teams.get(teamId ?? ''), teamIsHome(format, game, teamId));
  const stats = context.lapStats.get(entry.id);
  const method = winBy(format, heat.heatStatus, storedResult);
  return {
    id: entry.id,
    ...competitionFields(competition),
    referenceId: entry.referenceId,
    heatStatus: heat.heatStatus,
    eventId: context.publicEventId,
    numericEventId: context.event.referenceId,
    heatId: heat.id,
    athleteRoundSeed: entry.seed,
    athleteRoundRank: athleteRoundRank({
      format,
      heatStatus: heat.heatStatus,
      storedPosition: entry.position,
      athleteId: entry.athleteId,
      heatAthleteIds: context.heatAthleteIds,
      result: storedResult,
    }),
    ...(method === undefined ? {} : { winBy: method }),
    athleteHeatScore: entry.heatScore,
    athleteLapTime: entry.lapTime,
    athletePenaltyTime: entry.penaltyTime ?? 0,
    athleteJokerLapTime: entry.jokerLapTime ?? 0,
    athleteJokerLap: entry.jokerLap ?? 0,
    athleteLapStatus: entry.lapStatus ?? 'ACT',
    totalLaps: entry.totalLaps,
    athleteLapsLed: stats?.athleteLapsLed ?? null,
    athleteFastestLapCount: stats?.athleteFastestLapCount ?? null,
    athleteFastestLapSeconds: stats?.athleteFastestLapSeconds ?? null,
    athleteFastestLapNo: stats?.athleteFastestLapNo ?? null,
    roundScore: skateboardingRoundScore(format, {
      lineScore1: entry.lineScore1,
      lineScore2: entry.lineScore2,
      tricks: [
        entry.trick1Score,
        entry.trick2Score,
        entry.trick3Score,
        entry.trick4Score,
        entry.trick5Score,
        entry.trick6Score,
      ],
    }),
    lineScore1: entry.lineScore1,
    lineScore2: entry.lineScore2,
    trick1Score: entry.trick1Score,
    trick2Score: entry.trick2Score,
    trick3Score: entry.trick3Score,
    trick4Score: entry.trick4Score,
    trick5Score: entry.trick5Score,
    trick6Score: entry.trick6Score,
    riderScore: entry.riderScore,
    bullScore: entry.bullScore,
    athlete: athleteDocument(athlete, team, competition),
    ...teamEventFields(format, game),
    updatedAt: scoreUpdatedAt(entry.updatedAt, context.heatDates),
  };
}

/** Route 4: the event's participants (DESIGN decision 6); 400 where the format publishes teams. */
export async function getParticipants(store: Store, eventId: string, scope: AccessScope): Promise<Participant[]> {
  const event = await resolveEvent(store, eventId, scope);
  const competition = getCompetition(event.competition);
  if (competition.participants !== 'athletes') {
    throw fail('PARTICIPANTS_UNAVAILABLE', { eventId, competition }, { eventId, competition: competition.key });
  }
  const { participants, athletes, teams } = await resultsRepository(store.db).findParticipants(event.id);
  const publicEventId = formatPublicId(event.competition, event.id);
  const seed = (p: { seedNo: number | null }) => p.seedNo ?? Number.POSITIVE_INFINITY;
  return [...participants]
    .sort((a, b) => seed(a) - seed(b) || a.referenceId - b.referenceId)
    .map((p) => {
      const athlete = athletes.get(p.athleteId);
      if (!athlete) throw new Error(`participant ${p.id} names a missing athlete`);
      const team = teamDocument(teams.get(athlete.teamId ?? ''));
      return {
        id: p.id,
        eventId: publicEventId,
        seedNo: p.seedNo,
        status: p.status,
        athlete: athleteDocument(athlete, team, competition),
      };
    });
}
