import { Redis } from 'ioredis';
import { badRequest } from '../domain/errors.ts';

/**
 * Per-key rate limits (DESIGN decision 2, docs/decisions.md "Rate limits"): two fixed windows, the
 * clock minute and the UTC day. A request is allowed only if both windows have room; an allowed
 * request counts in both, a rejected one in neither. Counts live in Redis when the server has one,
 * so that every API process shares them, else in this process.
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
  /** Counts one request; a decision made in this process comes back at once, not as a promise. */
  consume(keyId: string, limits: RateLimits, nowMs?: number): RateDecision | Promise<RateDecision>;
  close(): Promise<void>;
}

export interface RateLimitLog {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WINDOW_MS: Record<RateWindowName, number> = { minute: MINUTE_MS, day: DAY_MS };

/** Start of the window holding `nowMs`; epoch milliseconds have no leap seconds, so days align to UTC midnight. */
export function windowStart(window: RateWindowName, nowMs: number): number {
  return Math.floor(nowMs / WINDOW_MS[window]) * WINDOW_MS[window];
}

const unlimited = (limits: RateLimits) => limits.perMinute === 0 && limits.perDay === 0;
const NO_LIMIT: RateDecision = { allowed: true, binding: null, retryAfterSeconds: 0 };

/**
 * The decision for a request, from the counts of both windows before it. The Redis script applies
 * the same admission rule atomically; this function stays the source of the headers.
 */
export function decideRate(limits: RateLimits, used: Record<RateWindowName, number>, nowMs: number): RateDecision {
  const windows = (['minute', 'day'] as const)
    .map((window) => ({ window, limit: window === 'minute' ? limits.perMinute : limits.perDay, used: used[window] }))
    .filter((w) => w.limit > 0);
  if (windows.length === 0) return NO_LIMIT;
  const allowed = windows.every((w) => w.used < w.limit);
  const states = windows.map((w) => ({
    window: w.window,
    limit: w.limit,
    remaining: Math.max(0, w.limit - w.used - (allowed ? 1 : 0)),
    // Whole seconds, at least 1: a client that waits this long is in the next window.
    resetSeconds: Math.max(1, Math.ceil((windowStart(w.window, nowMs) + WINDOW_MS[w.window] - nowMs) / 1000)),
  }));
  // Fewest remaining; on a tie the later reset, since after spending what is left the client waits for that one.
  const binding = states.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.resetSeconds > a.resetSeconds) ? b : a,
  );
  const exhausted = states.filter((s) => s.remaining === 0);
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
  throw badRequest(
    `${name} must be a whole number (0 or "unlimited" for no limit, "default" for the server's setting), got "${value}"`,
  );
}

/** Counts in this process: one entry per key and window, swept once a minute after the window ends. */
export function memoryRateLimiter(): RateLimiter & { readonly entries: number } {
  const counts = new Map<string, { count: number; expiresAt: number }>();
  let nextSweep = 0;

  const sweep = (nowMs: number) => {
    if (nowMs < nextSweep) return;
    for (const [key, entry] of counts) if (entry.expiresAt <= nowMs) counts.delete(key);
    nextSweep = nowMs + MINUTE_MS;
  };

  // Made once, not per call: tsx names each named function as it is made (docs/decisions.md "Caching").
  const slot = (keyId: string, window: RateWindowName, nowMs: number) => {
    const start = windowStart(window, nowMs);
    const key = `${keyId}:${window}:${start}`;
    return { key, expiresAt: start + WINDOW_MS[window], count: counts.get(key)?.count ?? 0 };
  };

  return {
    consume(keyId, limits, nowMs = Date.now()) {
      if (unlimited(limits)) return NO_LIMIT;
      sweep(nowMs);
      const minute = slot(keyId, 'minute', nowMs);
      const day = slot(keyId, 'day', nowMs);
      const decision = decideRate(limits, { minute: minute.count, day: day.count }, nowMs);
      if (decision.allowed) {
        for (const s of [minute, day]) counts.set(s.key, { count: s.count + 1, expiresAt: s.expiresAt });
      }
      return decision;
    },
    async close() {
      counts.clear();
    },
    /** Windows held, for tests: bounded by the keys active in the last minute and day. */
    get entries() {
      return counts.size;
    },
  };
}

/** Checks both windows and counts an admitted request in both, atomically; answers the counts before it. */
const CONSUME_SCRIPT = `
local minute = tonumber(redis.call('GET', KEYS[1]) or '0')
local day = tonumber(redis.call('GET', KEYS[2]) or '0')
local perMinute = tonumber(ARGV[1])
local perDay = tonumber(ARGV[2])
if (perMinute == 0 or minute < perMinute) and (perDay == 0 or day < perDay) then
  redis.call('INCR', KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return { minute, day }
`;

/** Keys outlive their window by this much, so that a node whose clock lags still finds the count. */
const CLOCK_SKEW_MS = 5_000;
/** How long a request waits for Redis before it is counted in this process. */
const ANSWER_WITHIN_MS = 200;

type ConsumeCommand = (
  minuteKey: string,
  dayKey: string,
  perMinute: number,
  perDay: number,
  minuteTtlMs: number,
  dayTtlMs: number,
) => Promise<[number, number]>;

const silentLog: RateLimitLog = { warn: () => {}, info: () => {} };

/**
 * `promise`, or a rejection after `ms`. The rejection waits for one more turn of the event loop, which
 * first reads what arrived meanwhile: a stall of this process (a long synchronous task) is not a slow Redis.
 */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => setImmediate(() => reject(new Error(`Redis did not answer within ${ms} ms`))), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Counts shared through Redis, one round trip per request. When Redis does not answer within 200 ms
 * the request is counted in this process instead (fail open to per-process limits, never an error),
 * with one warning per outage; Redis is used again as soon as it answers.
 */
export function redisRateLimiter(url: string, log: RateLimitLog = silentLog): RateLimiter {
  const fallback = memoryRateLimiter();
  const redis = new Redis(url, {
    connectTimeout: 1_000,
    // A backstop that clears commands stuck on a dead connection; requests stop waiting sooner (within).
    commandTimeout: 2_000,
    maxRetriesPerRequest: 1,
    // Fail at once while disconnected rather than queue requests behind the outage.
    enableOfflineQueue: false,
    // Ready as soon as connected: no INFO or CLIENT SETINFO round trips before the first request.
    enableReadyCheck: false,
    disableClientInfo: true,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
  });
  redis.defineCommand('altsportsRateLimit', { numberOfKeys: 2, lua: CONSUME_SCRIPT });
  const consumeScript = (redis as unknown as { altsportsRateLimit: ConsumeCommand }).altsportsRateLimit.bind(redis);

  let outage = false;
  const down = (error: unknown) => {
    if (outage) return;
    outage = true;
    log.warn(
      { error: (error as Error).message },
      'Redis does not answer: rate limits are counted per process until it does',
    );
  };
  redis.on('error', down);
  // The first requests wait for the first connection attempt (connectTimeout bounds it) rather than count by themselves.
  const started = new Promise<void>((resolve) => {
    for (const event of ['ready', 'error', 'end']) redis.once(event, () => resolve());
  });

  const consumeShared = async (keyId: string, limits: RateLimits, nowMs: number): Promise<RateDecision> => {
    const minuteStart = windowStart('minute', nowMs);
    const dayStart = windowStart('day', nowMs);
    await started;
    try {
      // The hash tag keeps a key's two windows in one slot, which a multi-key script needs on a cluster.
      const [minute, day] = await within(
        consumeScript(
          `altsports:rl:{${keyId}}:m:${minuteStart}`,
          `altsports:rl:{${keyId}}:d:${dayStart}`,
          limits.perMinute,
          limits.perDay,
          minuteStart + MINUTE_MS - nowMs + CLOCK_SKEW_MS,
          dayStart + DAY_MS - nowMs + CLOCK_SKEW_MS,
        ),
        ANSWER_WITHIN_MS,
      );
      if (outage) {
        outage = false;
        log.info({}, 'Redis answers again: rate limits are shared again');
      }
      return decideRate(limits, { minute, day }, nowMs);
    } catch (error) {
      down(error);
      return fallback.consume(keyId, limits, nowMs);
    }
  };
  return {
    consume: (keyId, limits, nowMs = Date.now()) =>
      unlimited(limits) ? NO_LIMIT : consumeShared(keyId, limits, nowMs),
    async close() {
      redis.disconnect();
      await fallback.close();
    },
  };
}
