import type { Competition } from '../../domain/competitions.ts';
import type { Gender } from '../../domain/enumerations.ts';
import type { Random } from '../../domain/random.ts';
import type { Venue } from '../venues.ts';
import type { AthletePlan, TeamPlan } from './participants.ts';

/**
 * A sport's profile: its season's rhythm, the format of its events (rounds of heats, or periods) and
 * how they are named. The profiles themselves are in one file per sport family (profiles.ts lists them).
 */

export interface RoundSpec {
  name: string;
  /** Heat names; null for team sports, whose rounds are periods that carry scores and no heats. */
  heats: readonly string[] | null;
  /** Length of one heat (or of the period) in minutes. */
  minutes: number;
  /** Minutes between heats of this round. */
  gap?: number;
  /** Minutes between the previous round and this one. */
  gapBefore?: number;
  /** Starts on the next competition day. */
  newDay?: boolean;
}

/** Scores one completed period as [home, away]; strengths are roughly N(0, 1). */
export type Scorer = (rng: Random, home: number, away: number) => [number, number];

export interface NameContext {
  rng: Random;
  competition: Competition;
  venue: Venue;
  /** Occurrence of this venue's event name within the season (1-based). */
  venueCount: number;
  /** Chronological index of the event in the whole dataset of this competition. */
  seq: number;
  athletes: readonly AthletePlan[];
  home: TeamPlan | undefined;
  away: TeamPlan | undefined;
}

export interface Profile {
  tourName: string;
  gender: Gender;
  /** Typical days between events, before squeezing many events into the window. */
  spacingDays: number;
  /** UTC hours at which an event's first heat may start. */
  startHours: readonly number[];
  /** Length of one competition day in hours; heats that do not fit move to the next day. */
  dayHours: number;
  athletes?: readonly [number, number];
  ages?: readonly [number, number];
  /** Surfing-style waiting period: the event spans more days than its action. */
  window?: { minDays: number; maxDays: number; maxLeadDays: number };
  /** Venues host this many consecutive events (touring team sports). */
  block?: number;
  /** Team sports that play at the home team's arena. */
  homeArena?: boolean;
  rounds(rng: Random): RoundSpec[];
  name?(ctx: NameContext): string;
  scorer?: Scorer;
}

export const numbered = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);
export const spec = (
  name: string,
  heats: readonly string[] | null,
  minutes: number,
  extra: Partial<RoundSpec> = {},
): RoundSpec => ({ name, heats, minutes, ...extra });
export const periods = (names: readonly string[], minutes: number, gap: number, halftimeBefore?: number): RoundSpec[] =>
  names.map((name, i) => spec(name, null, minutes, { gapBefore: i === halftimeBefore ? gap * 3 : gap }));
