import { laterOf } from '../dates.ts';

/**
 * `updatedAt` of a heat score row (section 2.5): the later of the score's date (the entry's
 * `updatedAt`) and the heat's date. The heat's date is the latest of the heat itself and of what is
 * stored for the whole heat (its result, team game and lap records), since those move the derived
 * fields of every row: a rival's quicker lap changes this athlete's fastest-lap count.
 */
export function scoreUpdatedAt(scoreDate: string, heatDates: readonly (string | null)[]): string {
  let latest = scoreDate;
  for (const date of heatDates) latest = laterOf(latest, date) as string;
  return latest;
}
