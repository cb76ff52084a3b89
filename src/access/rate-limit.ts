import { fail } from '../domain/errors.ts';

/**
 * Per-key rate limits (DESIGN decision 2, docs/decisions.md "Rate limits"): two fixed windows, the
 * clock minute and the UTC day. A request is allowed only if both windows have room; an allowed
 * request counts in both, a rejected one in neither. Counts are kept in Redis by rate-limiter-flexible
 * when the server has one, so that every API process shares them (redis-rate-limit.ts, loaded only
 * then), else in this process (memoryRateLimiter).
 */

/** Requests allowed per window; 0: no limit in that window. */
export interface RateLimits {
  perMinute: number;
  perDay: number;
}

export type RateWindowName = 'minute' | 'day';

export interface RateDecision {
  allowed: boolean;
  /** The window the X-RateLimit-* headers report; null when neither window is limited (no headers). */
  binding: { window: RateWindowName; limit: number; remaining: number; resetSeconds: number } | null;
  /** Whole seconds until a rejected request could pass (every exhausted window has reset); 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one request of `keyId`, if both windows have room (at once when counted in this process). */
  consume(keyId: string, limits: RateLimits, nowMs?: number): RateDecision | Promise<RateDecision>;
  /**
   * Counts `points` more requests of `keyId` in both windows if both have room for all of them, else
   * none (a parlay that needs a new simulation costs more than one request).
   */
  charge(keyId: string, limits: RateLimits, points: number, nowMs?: number): Promise<RateDecision>;
  /** Notes an admitted request of `keyId` in its minute's count. */
  countRequest(keyId: string, nowMs?: number): Promise<void> | undefined;
  /** What `keyId` used this minute, without counting. */
  minuteUsed(keyId: string, nowMs?: number): Promise<number>;
  close(): Promise<void>;
}

export interface WindowUsage {
  /** Null: no limit in this window. */
  limit: number | null;
  used: number;
  remaining: number | null;
  resetSeconds: number;
}

export interface KeyUsage {
  minute: WindowUsage;
  day: WindowUsage;
  /** This calendar month (UTC) against the key's plan's monthly quota. */
  month: WindowUsage;
  /** Today's (UTC) admitted requests by route template. */
  byRoute: Record<string, number>;
}

/**
 * The usage of a key from its counts: what `GET /usage` and `altsports keys usage` print. `minute` is
 * null where this minute's count is not known (the CLI without Redis); `quota` null: none.
 */
export function keyUsage(
  limits: RateLimits & { monthlyQuota: number | null },
  counts: { minute: number | null; byRoute: Record<string, number>; month: number },
  nowMs: number,
): Omit<KeyUsage, 'minute'> & { minute: WindowUsage | null } {
  const window = (limit: number, used: number, resetAt: number): WindowUsage => ({
    limit: limit === 0 ? null : limit,
    used,
    remaining: limit === 0 ? null : Math.max(0, limit - used),
    resetSeconds: Math.max(1, Math.ceil((resetAt - nowMs) / 1000)),
  });
  const end = (name: RateWindowName) => windowStart(name, nowMs) + WINDOW_MS[name];
  const today = Object.values(counts.byRoute).reduce((sum, n) => sum + n, 0);
  return {
    minute: counts.minute === null ? null : window(limits.perMinute, counts.minute, end('minute')),
    day: window(limits.perDay, today, end('day')),
    month: window(limits.monthlyQuota ?? 0, counts.month, utcMonth(nowMs).nextMs),
    byRoute: counts.byRoute,
  };
}

/**
 * Requests per key and clock minute, beside the limits' own (which count nothing for a key without a
 * limit): what GET /usage shows for the minute. Kept where the limits are; the day, the month and
 * the routes are the usage ledger's (usage-ledger.ts).
 */
export interface MinuteCounts {
  /** Counts at once (undefined) or on its way to a shared store (a promise). */
  count(keyId: string, nowMs: number): Promise<void> | undefined;
  read(keyId: string, nowMs: number): Promise<number>;
}

/** Counts in this process; a minute's counts are dropped once it is over. */
function memoryMinutes(): MinuteCounts {
  const minute = windowCounts('minute');
  return {
    count(keyId, nowMs) {
      minute.used(keyId, nowMs);
      minute.add(keyId, 1);
      return undefined;
    },
    read: async (keyId, nowMs) => minute.peek(keyId, nowMs),
  };
}

export interface RateLimitLog {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
export const WINDOW_MS: Record<RateWindowName, number> = { minute: MINUTE_MS, day: DAY_MS };

/** Start of the window holding `nowMs`; epoch milliseconds have no leap seconds, so days align to UTC midnight. */
export function windowStart(window: RateWindowName, nowMs: number): number {
  return Math.floor(nowMs / WINDOW_MS[window]) * WINDOW_MS[window];
}

let lastDay = { number: Number.NaN, text: '' };

/** YYYY-MM-DD of a time, UTC (the last one remembered: every request asks for today's). */
export function utcDay(ms: number): string {
  const number = Math.floor(ms / DAY_MS);
  if (number !== lastDay.number) lastDay = { number, text: new Date(number * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

/**
 * The calendar month (UTC) holding `ms`: its first day, when the next starts, and the seconds from `ms`
 * until then (the monthly quota's window).
 */
export function utcMonth(ms: number): { firstDay: string; nextMs: number; resetSeconds: number } {
  const at = new Date(ms);
  const nextMs = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  return {
    firstDay: `${utcDay(ms).slice(0, 8)}01`,
    nextMs,
    resetSeconds: Math.max(1, Math.ceil((nextMs - ms) / 1000)),
  };
}

export const unlimited = (limits: RateLimits) => limits.perMinute === 0 && limits.perDay === 0;
export const NO_LIMIT: RateDecision = { allowed: true, binding: null, retryAfterSeconds: 0 };

/**
 * The decision for a request, from the counts of both windows before it. The Redis script applies
 * the same admission rule atomically; this function stays the source of the headers.
 */
export function decideRate(
  limits: RateLimits,
  used: Record<RateWindowName, number>,
  nowMs: number,
  points = 1,
): RateDecision {
  const windows = (['minute', 'day'] as const)
    .map((window) => ({ window, limit: window === 'minute' ? limits.perMinute : limits.perDay, used: used[window] }))
    .filter((w) => w.limit > 0);
  if (windows.length === 0) return NO_LIMIT;
  const allowed = windows.every((w) => w.used + points <= w.limit);
  const states = windows.map((w) => ({
    window: w.window,
    limit: w.limit,
    remaining: Math.max(0, w.limit - w.used - (allowed ? points : 0)),
    // Whole seconds, at least 1: a client that waits this long is in the next window.
    resetSeconds: Math.max(1, Math.ceil((windowStart(w.window, nowMs) + WINDOW_MS[w.window] - nowMs) / 1000)),
  }));
  // Fewest remaining; on a tie the later reset, since after spending what is left the client waits for that one.
  const binding = states.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.resetSeconds > a.resetSeconds) ? b : a,
  );
  // Exhausted for this charge: the windows without room for its points.
  const exhausted = allowed ? [] : states.filter((s, i) => (windows[i]?.used ?? 0) + points > s.limit);
  return { allowed, binding, retryAfterSeconds: allowed ? 0 : Math.max(...exhausted.map((s) => s.resetSeconds)) };
}

/** Every header `rateLimitHeaders` may set. */
export const RATE_LIMIT_HEADER_NAMES = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
] as const;

/** The response headers of a decision: none for a key without limits. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  if (!decision.binding) return {};
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(decision.binding.limit),
    'x-ratelimit-remaining': String(decision.binding.remaining),
    'x-ratelimit-reset': String(decision.binding.resetSeconds),
  };
  if (!decision.allowed) headers['retry-after'] = String(decision.retryAfterSeconds);
  return headers;
}

/** A limit as the CLI takes it: a whole number, `unlimited` (0), or `default` (null: the server's setting). */
export function parseRateSetting(value: string, name: string): number | null {
  const text = value.trim().toLowerCase();
  if (text === 'default') return null;
  if (text === 'unlimited') return 0;
  if (/^\d+$/.test(text) && Number(text) <= 1_000_000_000) return Number(text);
  throw fail('KEY_LIMIT_SETTING_INVALID', { name, value });
}

/**
 * Counts in this process: each window's counts in a map, cleared when the window turns. Here the
 * limiter is plain arithmetic: rate-limiter-flexible's memory limiter answers through promises and a
 * timer per key, two awaits a window on every request (docs/decisions.md "Rate limits").
 */
export function memoryRateLimiter(): RateLimiter {
  const windows = { minute: windowCounts('minute'), day: windowCounts('day') };
  const usage = memoryMinutes();
  const take = (keyId: string, limits: RateLimits, nowMs: number, points: number): RateDecision => {
    if (unlimited(limits)) return NO_LIMIT;
    const used = { minute: windows.minute.used(keyId, nowMs), day: windows.day.used(keyId, nowMs) };
    const decision = decideRate(limits, used, nowMs, points);
    // Counted in both windows or in neither, like the shared limiter's give-backs.
    if (decision.allowed) {
      if (limits.perMinute > 0) windows.minute.add(keyId, points);
      if (limits.perDay > 0) windows.day.add(keyId, points);
    }
    return decision;
  };
  return {
    consume: (keyId, limits, nowMs = Date.now()) => take(keyId, limits, nowMs, 1),
    charge: async (keyId, limits, points, nowMs = Date.now()) => take(keyId, limits, nowMs, points),
    countRequest: (keyId, nowMs = Date.now()) => usage.count(keyId, nowMs),
    minuteUsed: async (keyId, nowMs = Date.now()) => usage.read(keyId, nowMs),
    close: async () => {},
  };
}

/** A window's counts per key, in the window under way (`used` moves it on when the clock has). */
function windowCounts(window: RateWindowName) {
  let start = Number.NaN;
  const counts = new Map<string, number>();
  return {
    used(keyId: string, nowMs: number): number {
      const now = windowStart(window, nowMs);
      if (now !== start) {
        start = now;
        counts.clear();
      }
      return counts.get(keyId) ?? 0;
    },
    /** After `used`, in the same window. */
    add(keyId: string, points: number): void {
      counts.set(keyId, (counts.get(keyId) ?? 0) + points);
    },
    /** The count in the window holding `nowMs`, leaving the window as it is. */
    peek(keyId: string, nowMs: number): number {
      return windowStart(window, nowMs) === start ? (counts.get(keyId) ?? 0) : 0;
    },
  };
}
