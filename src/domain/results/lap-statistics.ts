import { formatIn, LAP_RECORD_FORMATS, type ResultsFormat } from '../competitions.ts';

/** One per-lap record: the entry's time for the lap and its position at the end of it. */
export interface LapRecord {
  entryId: string;
  lapNo: number;
  lapTime: number | null;
  position: number | null;
}

/** An entry of the heat, in a stable order (the order breaks ties for the quickest lap). */
export interface LapEntry {
  id: string;
  lapStatus: string | null;
}

export interface AthleteLapStatistics {
  athleteLapsLed: number | null;
  athleteFastestLapCount: number | null;
  athleteFastestLapSeconds: number | null;
  athleteFastestLapNo: number | null;
}

const NONE: AthleteLapStatistics = {
  athleteLapsLed: null,
  athleteFastestLapCount: null,
  athleteFastestLapSeconds: null,
  athleteFastestLapNo: null,
};

/**
 * First lap that counts for an athlete's own quickest lap: supercross and motocross-style racing
 * exclude lap 1 (a standing start), `hlrs` sprint-car racing includes it.
 */
export function firstFastestLap(format: ResultsFormat): number {
  return format === 'sprint-laps' ? 1 : 2;
}

/** A DNS entry did not race, even if a record slipped in; no records at all also means it did not race. */
function raced(entry: LapEntry, laps: readonly LapRecord[]): boolean {
  return entry.lapStatus !== 'DNS' && laps.length > 0;
}

/**
 * `athleteLapsLed`: laps at whose end the athlete was first, counting lap 1. 0 means raced and led
 * none; null means did not race, or the heat has no per-lap positions at all.
 */
export function athleteLapsLed(
  entry: LapEntry,
  athleteLaps: readonly LapRecord[],
  fieldHasPositions: boolean,
): number | null {
  if (!raced(entry, athleteLaps) || !fieldHasPositions) return null;
  return athleteLaps.filter((lap) => lap.position === 1).length;
}

/**
 * Who was quickest of the whole field on each lap from lap 2 on (lap 1 never counts), so far: the
 * counts sum to the number of counted laps that have a time, live or final. A tie for the quickest
 * time goes to the entry ahead on the road at the end of that lap (lower position), then to the
 * entry that comes first in `entries`; so exactly one entry is credited per lap. DNS entries are
 * never credited.
 */
export function fastestLapCounts(entries: readonly LapEntry[], laps: readonly LapRecord[]): Map<string, number> {
  const order = new Map(entries.filter((e) => e.lapStatus !== 'DNS').map((e, i) => [e.id, i]));
  const best = new Map<number, LapRecord>();
  for (const lap of laps) {
    if (lap.lapNo < 2 || lap.lapTime === null || !order.has(lap.entryId)) continue;
    const current = best.get(lap.lapNo);
    if (!current || beats(lap, current, order)) best.set(lap.lapNo, lap);
  }
  const counts = new Map<string, number>();
  for (const lap of best.values()) counts.set(lap.entryId, (counts.get(lap.entryId) ?? 0) + 1);
  return counts;
}

function beats(a: LapRecord, b: LapRecord, order: Map<string, number>): boolean {
  if (a.lapTime !== b.lapTime) return (a.lapTime as number) < (b.lapTime as number);
  const pa = a.position ?? Number.POSITIVE_INFINITY;
  const pb = b.position ?? Number.POSITIVE_INFINITY;
  if (pa !== pb) return pa < pb;
  return (order.get(a.entryId) as number) < (order.get(b.entryId) as number);
}

/**
 * `athleteFastestLapSeconds` and `athleteFastestLapNo`: the athlete's own quickest lap from
 * `firstFastestLap(format)` on; the earlier lap wins a tie. Null when no such lap has a time.
 */
export function athleteFastestLap(
  format: ResultsFormat,
  athleteLaps: readonly LapRecord[],
): { seconds: number | null; lapNo: number | null } {
  const from = firstFastestLap(format);
  let quickest: LapRecord | null = null;
  for (const lap of athleteLaps) {
    if (lap.lapNo < from || lap.lapTime === null) continue;
    if (
      !quickest ||
      lap.lapTime < (quickest.lapTime as number) ||
      (lap.lapTime === quickest.lapTime && lap.lapNo < quickest.lapNo)
    )
      quickest = lap;
  }
  return { seconds: quickest?.lapTime ?? null, lapNo: quickest?.lapNo ?? null };
}

/**
 * The four lap statistics of every entry of a heat. Formats without per-lap records publish null.
 * `athleteFastestLapCount` is null for an entry that did not race, else its count (0 when none).
 */
export function heatLapStatistics(
  format: ResultsFormat,
  entries: readonly LapEntry[],
  laps: readonly LapRecord[],
): Map<string, AthleteLapStatistics> {
  const out = new Map<string, AthleteLapStatistics>();
  if (!formatIn(LAP_RECORD_FORMATS, format)) {
    for (const entry of entries) out.set(entry.id, NONE);
    return out;
  }
  const byEntry = new Map<string, LapRecord[]>();
  for (const lap of laps) {
    const list = byEntry.get(lap.entryId);
    if (list) list.push(lap);
    else byEntry.set(lap.entryId, [lap]);
  }
  const fieldHasPositions = laps.some((lap) => lap.position !== null);
  const counts = fastestLapCounts(entries, laps);
  for (const entry of entries) {
    const own = byEntry.get(entry.id) ?? [];
    if (!raced(entry, own)) {
      out.set(entry.id, NONE);
      continue;
    }
    const fastest = athleteFastestLap(format, own);
    out.set(entry.id, {
      athleteLapsLed: athleteLapsLed(entry, own, fieldHasPositions),
      athleteFastestLapCount: counts.get(entry.id) ?? 0,
      athleteFastestLapSeconds: fastest.seconds,
      athleteFastestLapNo: fastest.lapNo,
    });
  }
  return out;
}
