import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { entryOf } from '../base/map-entry.ts';
import {
  decideRate,
  type MinuteCounts,
  NO_LIMIT,
  type RateLimiter,
  type RateLimitLog,
  type RateWindowName,
  unlimited,
  WINDOW_MS,
  windowStart,
} from './rate-limit.ts';

/**
 * The rate limits counted in Redis, shared by every API process (rate-limit.ts has the rules and the
 * in-process counts). A module of its own so that ioredis is loaded only by a process that has a
 * Redis to count in: most commands and a server without REDIS_URL never load it.
 */

/** How long a request waits for Redis before it is counted in this process. */
const ANSWER_WITHIN_MS = 200;

/**
 * Counts in Redis, shared by every node: a counter per key and minute, expiring with it. Counting does
 * not hold up the request it counts; while Redis does not answer, the counts of that time are lost
 * (the limits themselves fall back to the process).
 */
function redisMinutes(redis: Redis): MinuteCounts {
  return {
    async count(keyId, nowMs) {
      const minute = minuteKey(keyId, nowMs);
      const ttl = Math.ceil((windowStart('minute', nowMs) + WINDOW_MS.minute - nowMs) / 1000) + CLOCK_SKEW_SECONDS;
      await redis.multi().incr(minute).expire(minute, ttl).exec();
    },
    async read(keyId, nowMs) {
      return Number((await redis.get(minuteKey(keyId, nowMs))) ?? 0);
    },
  };
}

/** The in-process limiter that counts while Redis does not answer: its first use is the outage's warning. */
class Insurance extends RateLimiterMemory {
  private readonly used: (reason: string) => void;

  constructor(options: ConstructorParameters<typeof RateLimiterMemory>[0], used: (reason: string) => void) {
    super(options);
    this.used = used;
  }

  override consume(...args: Parameters<RateLimiterMemory['consume']>) {
    this.used('a request was counted in this process');
    return super.consume(...args);
  }
}

const silentLog: RateLimitLog = { warn: () => {}, info: () => {} };

/**
 * Counts shared through Redis. When Redis does not answer within 200 ms, or is not connected, the
 * request is counted in this process instead by the limiter's insurance (fail open to per-process
 * limits, never an error), with one warning per outage; Redis is used again as soon as it answers.
 */
export function redisRateLimiter(url: string, log: RateLimitLog = silentLog): RateLimiter {
  const limits = connectRedis(url);
  const redis = limits.redis;
  let outage = false;
  const down = (reason: string) => {
    if (outage) return;
    outage = true;
    log.warn({ error: reason }, 'Redis does not answer: rate limits are counted per process until it does');
  };
  redis.on('error', (error: Error) => down(error.message));
  redis.on('ready', () => {
    if (!outage) return;
    outage = false;
    log.info({}, 'Redis answers again: rate limits are shared again');
  });
  const counters = countersBy((window, points) => {
    const duration = WINDOW_MS[window] / 1000;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: KEY_PREFIX,
      points,
      duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new Insurance({ keyPrefix: KEY_PREFIX, points, duration }, down),
    });
  });
  const counts = usageConnection(url);
  const limiter = windowedLimiter(counters, redisMinutes(counts), async () => {
    redis.disconnect();
    counts.disconnect();
  });
  return {
    async consume(keyId, keyLimits, nowMs) {
      await limits.ready;
      return limiter.consume(keyId, keyLimits, nowMs);
    },
    async charge(keyId, keyLimits, points, nowMs) {
      await limits.ready;
      return limiter.charge(keyId, keyLimits, points, nowMs);
    },
    countRequest: limiter.countRequest,
    minuteUsed: limiter.minuteUsed,
    close: limiter.close,
  };
}

/**
 * A Redis connection for the limits: it fails at once while disconnected (the insurance counts instead),
 * and `ready` settles after the first connection attempt (connectTimeout bounds it), which the first
 * requests wait for rather than count by themselves.
 */
function connectRedis(url: string): { redis: Redis; ready: Promise<void> } {
  const redis = new Redis(url, {
    ...CONNECTION,
    commandTimeout: ANSWER_WITHIN_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  const ready = new Promise<void>((resolve) => {
    for (const event of ['ready', 'error', 'end']) redis.once(event, () => resolve());
  });
  return { redis, ready };
}

/**
 * The usage counts' own connection. Counts hold up no request, so they wait for Redis longer than the
 * limits do (a count dropped after 200 ms on a busy Redis is a wrong bill): up to 5 s, queued while
 * connecting. The queue is emptied, and its counts lost, after every two failed reconnections, so an
 * outage holds a few seconds of counts at most.
 */
function usageConnection(url: string): Redis {
  const redis = new Redis(url, { ...CONNECTION, commandTimeout: 5_000, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  return redis;
}

const CONNECTION = {
  connectTimeout: 1_000,
  // Ready as soon as connected: no INFO or CLIENT SETINFO round trips before the first request.
  enableReadyCheck: false,
  disableClientInfo: true,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
} as const;

/** Keys outlive their window by this much, so that a node whose clock lags still finds the count. */
const CLOCK_SKEW_SECONDS = 5;

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
function windowedLimiter(counters: WindowCounters, usage: MinuteCounts, close: () => Promise<void>): RateLimiter {
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
function countersBy(make: (window: RateWindowName, points: number) => RateLimiterAbstract): WindowCounters {
  const made: Record<RateWindowName, Map<number, RateLimiterAbstract>> = { minute: new Map(), day: new Map() };
  return (window, points) => entryOf(made[window], points, () => make(window, points));
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
    const now = windowStart('minute', nowMs);
    if (now !== minute) {
      minute = now;
      held.minute.clear();
      held.day.clear();
    }
    return entryOf(held[window], keyId, () => countKey(keyId, window, nowMs));
  };
}

const KEY_PREFIX = 'altsports:rl';

const minuteKey = (keyId: string, nowMs: number) => `${KEY_PREFIX}:u:{${keyId}}:m:${windowStart('minute', nowMs)}`;
