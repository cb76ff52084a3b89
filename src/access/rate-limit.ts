import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { fail } from '../domain/errors.ts';

/**
 * Per-key rate limits (DESIGN decision 2, docs/decisions.md "Rate limits"): two fixed windows, the
 * clock minute and the UTC day. A request is allowed only if both windows have room; an allowed
 * request counts in both, a rejected one in neither. Counts are kept by rate-limiter-flexible: in
 * Redis when the server has one, so that every API process shares them (redis-rate-limit.ts, loaded
 * only then), else in this process.
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
  /** Counts one request of `keyId`, if both windows have room. */
  consume(keyId: string, limits: RateLimits, nowMs?: number): Promise<RateDecision>;
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

export const minuteKey = (keyId: string, nowMs: number) =>
  `${KEY_PREFIX}:u:{${keyId}}:m:${windowStart('minute', nowMs)}`;

/** Counts in this process; a minute's counts are dropped once it is over. */
function memoryMinutes(): MinuteCounts {
  const minutes = new Map<string, number>();
  let minuteNow = 0;
  return {
    count(keyId, nowMs) {
      if (windowStart('minute', nowMs) !== minuteNow) {
        minuteNow = windowStart('minute', nowMs);
        minutes.clear();
      }
      minutes.set(keyId, (minutes.get(keyId) ?? 0) + 1);
      return undefined;
    },
    async read(keyId, nowMs) {
      return windowStart('minute', nowMs) === minuteNow ? (minutes.get(keyId) ?? 0) : 0;
    },
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

const unlimited = (limits: RateLimits) => limits.perMinute === 0 && limits.perDay === 0;
const NO_LIMIT: RateDecision = { allowed: true, binding: null, retryAfterSeconds: 0 };

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

/** Keys outlive their window by this much, so that a node whose clock lags still finds the count. */
export const CLOCK_SKEW_SECONDS = 5;

/** A count's key: the hash tag keeps a key's windows in one slot of a Redis cluster. */
function countKey(keyId: string, window: RateWindowName, nowMs: number): string {
  return `{${keyId}}:${window === 'minute' ? 'm' : 'd'}:${windowStart(window, nowMs)}`;
}

/** Counts of one window kept by some store: rate-limiter-flexible's limiters, one per limit value. */
type WindowCounters = (window: RateWindowName, points: number) => RateLimiterAbstract;

/**
 * A limiter over `counters`. The window's start is part of each count's key, so that windows follow
 * the clock (rate-limiter-flexible's own start at a key's first request), and each count expires with
 * its window. The minute is counted first; a request the day then turns down is given back to the minute.
 */
export function windowedLimiter(
  counters: WindowCounters,
  usage: MinuteCounts,
  close: () => Promise<void>,
): RateLimiter {
  const keyOf = countKeys();
  const countIn = async (window: RateWindowName, limit: number, keyId: string, nowMs: number, points: number) => {
    if (limit === 0) return { used: 0, admitted: true, counted: null };
    const start = windowStart(window, nowMs);
    const counted: Counted = {
      counter: counters(window, limit),
      key: keyOf(keyId, window, nowMs),
      options: { customDuration: Math.ceil((start + WINDOW_MS[window] - nowMs) / 1000) + CLOCK_SKEW_SECONDS },
    };
    try {
      const held = await counted.counter.consume(counted.key, points, counted.options);
      return { used: held.consumedPoints - points, admitted: true, counted };
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      return { used: refused.consumedPoints - points, admitted: false, counted };
    }
  };
  const peek = async (window: RateWindowName, limit: number, keyId: string, nowMs: number) => {
    if (limit === 0) return 0;
    const held = await counters(window, limit).get(keyOf(keyId, window, nowMs));
    return held?.consumedPoints ?? 0;
  };
  return {
    async consume(keyId, limits, nowMs = Date.now()) {
      if (unlimited(limits)) return NO_LIMIT;
      const minute = await countIn('minute', limits.perMinute, keyId, nowMs, 1);
      if (!minute.admitted) {
        const day = await peek('day', limits.perDay, keyId, nowMs);
        return decideRate(limits, { minute: minute.used, day }, nowMs);
      }
      const day = await countIn('day', limits.perDay, keyId, nowMs, 1);
      if (!day.admitted && minute.counted) await giveBack(minute.counted, 1);
      return decideRate(limits, { minute: minute.used, day: day.used }, nowMs);
    },
    async charge(keyId, limits, points, nowMs = Date.now()) {
      if (unlimited(limits)) return NO_LIMIT;
      // A refused charge is given back in full: the key keeps what it has for cheaper requests.
      const minute = await countIn('minute', limits.perMinute, keyId, nowMs, points);
      if (!minute.admitted) {
        if (minute.counted) await giveBack(minute.counted, points);
        const day = await peek('day', limits.perDay, keyId, nowMs);
        return decideRate(limits, { minute: minute.used, day }, nowMs, points);
      }
      const day = await countIn('day', limits.perDay, keyId, nowMs, points);
      if (!day.admitted) {
        if (day.counted) await giveBack(day.counted, points);
        if (minute.counted) await giveBack(minute.counted, points);
      }
      return decideRate(limits, { minute: minute.used, day: day.used }, nowMs, points);
    },
    countRequest: (keyId, nowMs = Date.now()) => usage.count(keyId, nowMs),
    async minuteUsed(keyId, nowMs = Date.now()) {
      return usage.read(keyId, nowMs);
    },
    close,
  };
}

/** A request counted in a window: what it takes to give it back. */
interface Counted {
  counter: RateLimiterAbstract;
  key: string;
  options: { customDuration: number };
}

async function giveBack({ counter, key, options }: Counted, points: number): Promise<void> {
  await counter.reward(key, points, options);
}

/** Limiters made on first use, one per window and limit value (keys with their own limits add a few). */
export function countersBy(make: (window: RateWindowName, points: number) => RateLimiterAbstract): WindowCounters {
  const made: Record<RateWindowName, Map<number, RateLimiterAbstract>> = { minute: new Map(), day: new Map() };
  return (window, points) => {
    let counter = made[window].get(points);
    if (counter === undefined) {
      counter = make(window, points);
      made[window].set(points, counter);
    }
    return counter;
  };
}

/**
 * Each API key's count keys in the windows under way, made once rather than on every request (a
 * string made anew is hashed anew by every lookup), and forgotten each minute: a day starts on a
 * minute, so within a minute both windows' keys stay the same, and only the keys in use are held.
 */
function countKeys(): (keyId: string, window: RateWindowName, nowMs: number) => string {
  const held: Record<RateWindowName, Map<string, string>> = { minute: new Map(), day: new Map() };
  let minute = Number.NaN;
  return (keyId, window, nowMs) => {
    if (windowStart('minute', nowMs) !== minute) {
      minute = windowStart('minute', nowMs);
      held.minute.clear();
      held.day.clear();
    }
    let key = held[window].get(keyId);
    if (key === undefined) {
      key = countKey(keyId, window, nowMs);
      held[window].set(keyId, key);
    }
    return key;
  };
}

export const KEY_PREFIX = 'altsports:rl';

/** Counts in this process. */
export function memoryRateLimiter(): RateLimiter {
  const counters = countersBy(
    // No prefix: these counts are this limiter's own (a prefix would be joined to every key on every request).
    (window, points) => new RateLimiterMemory({ keyPrefix: '', points, duration: WINDOW_MS[window] / 1000 }),
  );
  return windowedLimiter(counters, memoryMinutes(), async () => {});
}
