import type { ResultsFormat } from '../competitions.ts';

/** A bull-riding team game: two teams, one at home, and the display text of its event type. */
export interface TeamGame {
  eventType: string | null;
  homeTeamId: string;
  awayTeamId: string;
}

/**
 * `isTeamEvent` and `eventType` (section 2.5): bull riding only, where `isTeamEvent` says whether the
 * heat is a team game and `eventType` is its display text (null when not a team game). Other formats
 * get neither field.
 */
export function teamEventFields(
  format: ResultsFormat,
  teamGame: TeamGame | null,
): { isTeamEvent?: boolean; eventType?: string | null } {
  if (format !== 'bull-riding') return {};
  return { isTeamEvent: teamGame !== null, eventType: teamGame?.eventType ?? null };
}

/**
 * `athlete.team.isHomeTeam` (section 2.4): present only in a bull-riding team game, for a team that
 * plays in it; undefined (absent) everywhere else.
 */
export function teamIsHome(
  format: ResultsFormat,
  teamGame: TeamGame | null,
  teamId: string | null,
): boolean | undefined {
  if (format !== 'bull-riding' || !teamGame || teamId === null) return undefined;
  if (teamId === teamGame.homeTeamId) return true;
  if (teamId === teamGame.awayTeamId) return false;
  return undefined;
}
