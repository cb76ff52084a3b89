import type { Competition } from '../../domain/competitions.ts';
import { COMBAT_PROFILES } from './combat.ts';
import { JUDGED_PROFILES } from './judged-sports.ts';
import { OTHER_PROFILES } from './other-sports.ts';
import type { Profile } from './profile.ts';
import { RACING_PROFILES } from './racing.ts';
import { TEAM_PROFILES } from './team-sports.ts';

/** Every competition's profile, by competition key. */
const PROFILES: Readonly<Record<string, Profile>> = {
  ...JUDGED_PROFILES,
  ...RACING_PROFILES,
  ...COMBAT_PROFILES,
  ...TEAM_PROFILES,
  ...OTHER_PROFILES,
};

export function profileOf(competition: Competition): Profile {
  const profile = PROFILES[competition.key];
  if (!profile) throw new Error(`no demo profile for competition ${competition.key}`);
  return profile;
}
