import type { Competition } from '../domain/competitions.ts';
import type { Athlete, ParticipantTeam } from '../shapes/results.ts';
import type { AthleteRow, TeamRow } from '../store/schema.ts';

export function teamDocument(team: TeamRow | undefined, isHomeTeam?: boolean): ParticipantTeam | null {
  if (!team) return null;
  return isHomeTeam === undefined
    ? { id: team.id, referenceId: team.referenceId, name: team.name }
    : { id: team.id, referenceId: team.referenceId, name: team.name, isHomeTeam };
}

/**
 * The team of an athlete who rides for none. Section 2.4 makes `team` a required Team, so the
 * athlete carries this empty one rather than null (docs/decisions.md, "An athlete without a team").
 */
export const NO_TEAM: ParticipantTeam = Object.freeze({ id: '', referenceId: 0, name: '' });

/** The athlete as published; `weightClass` appears for combat sports only. */
export function athleteDocument(athlete: AthleteRow, team: ParticipantTeam | null, competition: Competition): Athlete {
  return {
    id: athlete.id,
    referenceId: athlete.referenceId,
    firstName: athlete.firstName,
    middleName: athlete.middleName,
    lastName: athlete.lastName,
    nationality: athlete.nationality,
    stance: athlete.stance,
    team: team ?? NO_TEAM,
    hometown: athlete.hometown,
    height: athlete.height,
    weight: athlete.weight,
    gender: athlete.gender,
    ...(competition.resultsFormat === 'combat' ? { weightClass: athlete.weightClass } : {}),
    dob: athlete.dob,
    providerId: athlete.providerId,
  };
}
