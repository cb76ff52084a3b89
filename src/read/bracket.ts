import { fail } from '../domain/errors.ts';
import { formatPublicId } from '../domain/public-id.ts';
import { type BracketGame, knockoutBracket } from '../domain/results/knockout-bracket.ts';
import type { KnockoutBracket } from '../shapes/sport-events.ts';
import type { Store } from '../store/database.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { type AccessScope, assertFoundInScope } from './access-scope.ts';
import { teamMatch } from './team-match.ts';

/**
 * Route 15: a 3ICE season's knockout bracket. Every slot of every round is shown; slots whose game
 * is not scheduled yet fill in with the winners of the games that feed them.
 */
export async function getBracket(store: Store, tourYearId: string, scope: AccessScope): Promise<KnockoutBracket> {
  const tourYear = await eventsRepository(store.db).findTourYear(tourYearId);
  const unknown = () => fail('TOUR_YEAR_NOT_FOUND', { tourYearId }, { tourYearId });
  if (tourYear?.competition !== '3ice') throw unknown();
  assertFoundInScope(scope, tourYear.competition, unknown);
  const repo = eventsRepository(store.db);
  const matches = (await repo.documentsOf(await repo.bracketGames(tourYearId))).map(teamMatch);
  const games: BracketGame[] = matches.map((m) => ({
    eventId: m.rows.event.id,
    round: m.rows.event.bracketRound as number,
    slot: m.rows.event.bracketSlot as number,
    homeTeamId: m.home?.teamId ?? null,
    awayTeamId: m.away?.teamId ?? null,
    status: m.rows.event.eventStatus,
    winner: m.winner,
  }));
  const bracket = knockoutBracket(games);
  const byEvent = new Map(matches.map((m) => [m.rows.event.id, m]));
  const teams = new Map(
    matches.flatMap((m) => [m.home, m.away]).flatMap((t) => (t ? [[t.teamId, t.team] as const] : [])),
  );
  const teamRef = (teamId: string | null) => {
    const team = teamId ? teams.get(teamId) : undefined;
    return teamId ? { teamId, name: team?.name ?? null, shortName: team?.shortName ?? null } : null;
  };
  const updatedAt = [tourYear.updatedAt, ...matches.map((m) => m.rows.event.contentUpdatedAt)].sort().at(-1) as string;
  return {
    tourYearId: tourYear.id,
    year: tourYear.year,
    tourId: tourYear.tourId,
    tourName: tourYear.tourName,
    competition: tourYear.competition,
    rounds: bracket.rounds.map((round) => ({
      roundNo: round.roundNo,
      name: round.name,
      slots: round.slots.map((slot) => {
        const match = slot.eventId ? byEvent.get(slot.eventId) : undefined;
        return {
          slot: slot.slot,
          eventId: match ? formatPublicId(match.rows.event.competition, match.rows.event.id) : null,
          name: match?.rows.event.name ?? null,
          startDate: match?.rows.event.startDate ?? null,
          eventStatus: slot.status,
          homeTeam: teamRef(slot.homeTeamId),
          awayTeam: teamRef(slot.awayTeamId),
          homeScore: match ? match.score.home : null,
          awayScore: match ? match.score.away : null,
          winnerTeamId: slot.winnerTeamId,
        };
      }),
    })),
    championTeamId: bracket.championTeamId,
    champion: teamRef(bracket.championTeamId),
    updatedAt,
  };
}
