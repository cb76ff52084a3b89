/** Date parameters accept `YYYY-MM-DD` or a full ISO 8601 date-time (DESIGN decision 4). */

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

export const DATE_PARAM_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:?\\d{2}))?$';

export interface DateBound {
  /** Inclusive lower instant of the value. */
  start: Date;
  /** Exclusive upper instant: the next day for a date, the instant itself plus 1 ms for a date-time. */
  endExclusive: Date;
}

/** Parses a date parameter; null when it is not a real calendar date or instant. */
export function parseDateParam(value: string): DateBound | null {
  const day = DATE_ONLY.exec(value);
  if (day) {
    const start = new Date(`${value}T00:00:00.000Z`);
    if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== value) return null;
    return { start, endExclusive: new Date(start.getTime() + 86_400_000) };
  }
  if (!DATE_TIME.test(value)) return null;
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return null;
  return { start: instant, endExclusive: new Date(instant.getTime() + 1) };
}

/** Normalises any accepted timestamp to the canonical UTC ISO form stored and published. */
export function toIsoTimestamp(value: string | Date): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isIsoTimestamp(value: string): boolean {
  return DATE_TIME.test(value) && !Number.isNaN(new Date(value).getTime());
}

/** The later of two ISO timestamps (either may be null). */
export function laterOf(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}
