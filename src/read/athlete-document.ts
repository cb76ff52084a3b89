import type { Competition } from '../domain/competitions.ts';
import type { AthleteRow, TeamRow } from '../store/schema.ts';

/** Team inside a score row or participant (section 2.4); `isHomeTeam` only where a rule sets it. */
export interface ParticipantTeam {
  id: string;
  referenceId: number;
  name: string;
  isHomeTeam?: boolean;
}

/** Athlete inside a score row or participant (section 2.4). */
export interface AthleteDocument {
  id: string;
  referenceId: number;
  firstName: string;
  middleName: string;
  lastName: string;
  nationality: string | null;
  stance: string | null;
  team: ParticipantTeam | null;
  hometown: string | null;
  height: string | null;
  weight: string | null;
  gender: string | null;
  weightClass?: string | null;
  dob: string | null;
  providerId: string | null;
}

export function teamDocument(team: TeamRow | undefined, isHomeTeam?: boolean): ParticipantTeam | null {
  if (!team) return null;
  return isHomeTeam === undefined
    ? { id: team.id, referenceId: team.referenceId, name: team.name }
    : { id: team.id, referenceId: team.referenceId, name: team.name, isHomeTeam };
}

/** The athlete as published; `weightClass` appears for combat sports only. */
export function athleteDocument(
  athlete: AthleteRow,
  team: ParticipantTeam | null,
  competition: Competition,
): AthleteDocument {
  return {
    id: athlete.id,
    referenceId: athlete.referenceId,
    firstName: athlete.firstName,
    middleName: athlete.middleName,
    lastName: athlete.lastName,
    nationality: athlete.nationality,
    stance: athlete.stance,
    team,
    hometown: athlete.hometown,
    height: athlete.height,
    weight: athlete.weight,
    gender: athlete.gender,
    ...(competition.resultsFormat === 'combat' ? { weightClass: athlete.weightClass } : {}),
    dob: athlete.dob,
    providerId: athlete.providerId,
  };
}
