/** Times as the demo lays them out: milliseconds since the epoch, written in the feed's ISO form. */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const pad2 = (n: number) => String(n).padStart(2, '0');

const dayPrefixes = new Map<number, string>();
const pad3 = (n: number) => String(n).padStart(3, '0');

/** Same as `new Date(ms).toISOString()`, caching the date part: large datasets format millions of these. */
export function iso(ms: number): string {
  const day = Math.floor(ms / DAY);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    if (dayPrefixes.size > 10_000) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  const rest = ms - day * DAY;
  const h = Math.floor(rest / HOUR);
  const m = Math.floor((rest % HOUR) / MINUTE);
  const sec = Math.floor((rest % MINUTE) / 1000);
  return `${prefix}${pad2(h)}:${pad2(m)}:${pad2(sec)}.${pad3(rest % 1000)}Z`;
}

/** Midnight UTC of the day `ms` falls in. */
export function dayFloor(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}
