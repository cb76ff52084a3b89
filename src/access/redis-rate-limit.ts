import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import {
  CLOCK_SKEW_SECONDS,
  countersBy,
  KEY_PREFIX,
  type MinuteCounts,
  minuteKey,
  type RateLimiter,
  type RateLimitLog,
  WINDOW_MS,
  windowedLimiter,
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
