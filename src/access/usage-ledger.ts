import { entryOf } from '../base/map-entry.ts';
import type { Store } from '../store/database.ts';
import { usageRepository } from '../store/repositories/usage-repository.ts';
import type { KeyUsageRow } from '../store/schema.ts';
import { utcDay, utcMonth } from './rate-limit.ts';

/**
 * Every counted request, kept durably (docs/decisions.md, "Usage and plans"): a request adds one to an
 * in-memory tally by key, UTC day and route, with no write on its path; the tally is written to the
 * store every `flushMs` in one transaction, and on close. A crash loses at most the last `flushMs` of
 * counts; a graceful stop loses none. Every node writes to the same store, so totals read from it
 * cover every node and outlive restarts.
 *
 * A key's monthly total, which the quota is checked against, is the store's (read again after each
 * write, so other nodes' requests arrive within a flush or two) plus this process's tally not yet
 * written.
 */
export interface UsageLedger {
  /** One counted request of `keyId` to `route` (a route template). */
  record(keyId: string, route: string, nowMs?: number): void;
  /** The key's requests this calendar month (UTC), from the store and this process's tally. */
  monthUsed(keyId: string, nowMs?: number): Promise<number>;
  /** The key's requests today (UTC) by route, from the store and this process's tally. */
  todayByRoute(keyId: string, nowMs?: number): Promise<Record<string, number>>;
  /** Writes the tally now. */
  flush(): Promise<void>;
  /** Writes the tally and stops the timer. */
  close(): Promise<void>;
}

const SEP = '\u0000';

type Repository = ReturnType<typeof usageRepository>;

/** What a ledger holds in memory between writes. */
interface Tallies {
  /** Requests not yet written, by key, day and route. */
  byRoute: Map<string, number>;
  /** The same by key and month. */
  byMonth: Map<string, number>;
  /** Those by month being written, until the store's totals include them. */
  writingByMonth: Map<string, number>;
  /** Per key: the store's total for a month (its first day), as last read. */
  stored: Map<string, { month: string; total: Promise<number> }>;
  /** Per key and route: today's entries in `byRoute` and `byMonth`, since the last write. */
  names: Map<string, Map<string, EntryNames>>;
}

interface EntryNames {
  day: string;
  byRoute: string;
  byMonth: string;
}

export function usageLedger(store: Store, options: { flushMs: number; onError?: (error: Error) => void }): UsageLedger {
  const repository = usageRepository(store.db);
  const tallies: Tallies = {
    byRoute: new Map(),
    byMonth: new Map(),
    writingByMonth: new Map(),
    stored: new Map(),
    names: new Map(),
  };
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    writing = writing.then(() => write(repository, tallies)).catch((error: Error) => options.onError?.(error));
    return writing;
  };
  const timer = setInterval(flush, options.flushMs);
  timer.unref();

  return {
    record: (keyId, route, nowMs = Date.now()) => record(tallies, keyId, route, nowMs),
    monthUsed: (keyId, nowMs = Date.now()) => monthUsed(repository, tallies, keyId, nowMs),
    todayByRoute: (keyId, nowMs = Date.now()) => todayByRoute(repository, tallies, keyId, nowMs),
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

function record(tallies: Tallies, keyId: string, route: string, nowMs: number): void {
  const { byRoute: entry, byMonth: month } = entryNames(tallies, keyId, route, utcDay(nowMs));
  tallies.byRoute.set(entry, (tallies.byRoute.get(entry) ?? 0) + 1);
  tallies.byMonth.set(month, (tallies.byMonth.get(month) ?? 0) + 1);
}

/**
 * A key's and route's entries in the tallies for `day`, made once a day: a string built on every
 * request is hashed afresh by each lookup, a kept one only once.
 */
function entryNames(tallies: Tallies, keyId: string, route: string, day: string): EntryNames {
  const byRoute = entryOf(tallies.names, keyId, () => new Map<string, EntryNames>());
  let names = byRoute.get(route);
  if (names?.day !== day) {
    names = { day, byRoute: `${keyId}${SEP}${day}${SEP}${route}`, byMonth: `${keyId}${SEP}${day.slice(0, 8)}01` };
    byRoute.set(route, names);
  }
  return names;
}

async function monthUsed(repository: Repository, tallies: Tallies, keyId: string, nowMs: number): Promise<number> {
  const { firstDay } = utcMonth(nowMs);
  let known = tallies.stored.get(keyId);
  if (known?.month !== firstDay) {
    known = {
      month: firstDay,
      total: repository.totalsSince([keyId], firstDay).then((t) => t.get(keyId) ?? 0),
    };
    tallies.stored.set(keyId, known);
  }
  const entry = `${keyId}${SEP}${firstDay}`;
  return (await known.total) + (tallies.byMonth.get(entry) ?? 0) + (tallies.writingByMonth.get(entry) ?? 0);
}

async function todayByRoute(
  repository: Repository,
  tallies: Tallies,
  keyId: string,
  nowMs: number,
): Promise<Record<string, number>> {
  const day = utcDay(nowMs);
  const byRoute: Record<string, number> = {};
  for (const row of await repository.between(day, day, keyId)) byRoute[row.route] = row.requests;
  for (const [entry, n] of tallies.byRoute) {
    const [key, when, route] = entry.split(SEP) as [string, string, string];
    if (key === keyId && when === day) byRoute[route] = (byRoute[route] ?? 0) + n;
  }
  return byRoute;
}

/** Writes the tally in one transaction; on failure it is kept for the next write. */
async function write(repository: Repository, tallies: Tallies): Promise<void> {
  const rows: KeyUsageRow[] = [];
  for (const [entry, requests] of tallies.byRoute) {
    const [keyId, day, route] = entry.split(SEP) as [string, string, string];
    rows.push({ keyId, day, route, requests });
  }
  const written = tallies.byRoute;
  tallies.byRoute = new Map();
  // Names of the keys that went quiet go with each write: held only for those in use.
  tallies.names.clear();
  tallies.writingByMonth = tallies.byMonth;
  tallies.byMonth = new Map();
  try {
    await repository.add(rows);
  } catch (error) {
    // Kept for the next write: counts are lost only with the process.
    for (const [entry, n] of written) tallies.byRoute.set(entry, (tallies.byRoute.get(entry) ?? 0) + n);
    for (const [entry, n] of tallies.writingByMonth) tallies.byMonth.set(entry, (tallies.byMonth.get(entry) ?? 0) + n);
    tallies.writingByMonth = new Map();
    throw error;
  }
  await readTotalsAgain(repository, tallies.stored);
  tallies.writingByMonth = new Map();
}

/**
 * The quota's totals read again, with what the other nodes wrote meanwhile; the counts just written
 * stop being added on top once the new totals include them.
 */
async function readTotalsAgain(repository: Repository, stored: Tallies['stored']): Promise<void> {
  const byMonth = new Map<string, string[]>();
  for (const [keyId, { month }] of stored) byMonth.set(month, [...(byMonth.get(month) ?? []), keyId]);
  const totals = await Promise.all(
    [...byMonth].map(async ([month, keyIds]) => ({
      month,
      keyIds,
      totals: await repository.totalsSince(keyIds, month),
    })),
  );
  for (const { month, keyIds, totals: byKey } of totals)
    for (const keyId of keyIds) stored.set(keyId, { month, total: Promise.resolve(byKey.get(keyId) ?? 0) });
}

/** A key's counted requests per day and route over days `from`..`to` (YYYY-MM-DD), as written so far. */
export async function usageBetween(
  store: Store,
  range: { from: string; to: string; keyId?: string },
): Promise<KeyUsageRow[]> {
  return usageRepository(store.db).between(range.from, range.to, range.keyId);
}

/** Each key's requests today and this month (UTC), as written so far. */
export async function storedTotals(
  store: Store,
  keyIds: readonly string[],
  nowMs = Date.now(),
): Promise<Array<{ today: number; month: number }>> {
  const repository = usageRepository(store.db);
  const [today, month] = await Promise.all([
    repository.totalsSince(keyIds, utcDay(nowMs)),
    repository.totalsSince(keyIds, utcMonth(nowMs).firstDay),
  ]);
  return keyIds.map((id) => ({ today: today.get(id) ?? 0, month: month.get(id) ?? 0 }));
}

/** Usage rows as CSV (RFC 4180): a header line, then one line per row. */
export function usageCsv(rows: readonly KeyUsageRow[]): string {
  const field = (value: string | number) => {
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = rows.map((r) => [r.keyId, r.day, r.route, r.requests].map(field).join(','));
  return `${['keyId,day,route,requests', ...lines].join('\r\n')}\r\n`;
}
