import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { VerifiedKey } from '../../access/api-keys.ts';
import {
  type KeyUsage,
  keyUsage,
  memoryRateLimiter,
  type RateDecision,
  type RateLimiter,
  type RateLimits,
  rateLimitHeaders,
  utcMonth,
  type WindowUsage,
} from '../../access/rate-limit.ts';
import { type UsageLedger, usageLedger } from '../../access/usage-ledger.ts';
import { fail } from '../../domain/errors.ts';
import { PUBLIC_PREFIX } from '../../read/public-paths.ts';
import type { Store } from '../../store/database.ts';
import { routeOf } from '../route-config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The calling key's usage this minute, today and this month, without counting it. */
    usageOf(key: VerifiedKey): Promise<KeyUsage>;
    /** Every counted request, kept in the store (access/usage-ledger.ts). */
    usageLedger: UsageLedger;
    /**
     * Counts `points` more requests of the calling key (a parlay that starts a new simulation, a
     * document built afresh), setting the X-RateLimit-* headers to what is left; a 429 when the key
     * has not that many left, whose message starts with `why` (what costs how much).
     */
    chargeRequests(request: FastifyRequest, reply: FastifyReply, points: number, why: string): Promise<void>;
  }
}

/** The route a request matched, as the OpenAPI document names it under /api/v1/public (`/events/{eventId}`). */
export function routeTemplate(request: FastifyRequest): string {
  const url = routeOf(request).url ?? request.url;
  let template = templates.get(url);
  if (template === undefined) {
    const path = url.startsWith(PUBLIC_PREFIX) ? url.slice(PUBLIC_PREFIX.length) : url;
    template = path.replace(/:(\w+)/g, '{$1}');
    templates.set(url, template);
  }
  return template;
}

/** Every header `quotaHeaders` may set. */
export const QUOTA_HEADER_NAMES = ['x-quota-limit', 'x-quota-remaining', 'x-quota-reset'] as const;

/** The X-Quota-* headers of a key with a monthly quota, after `used` requests this month. */
function quotaHeaders(quota: number, used: number, resetSeconds: number): Record<string, string> {
  return {
    'x-quota-limit': String(quota),
    'x-quota-remaining': String(Math.max(0, quota - used)),
    'x-quota-reset': String(resetSeconds),
  };
}

/** Each route's template, made on its first request (one entry per route: a route's url is its pattern). */
const templates = new Map<string, string>();

/**
 * Per-key rate limits on public routes (DESIGN decision 2). Registered after auth, which sets
 * request.apiKey, and before the response cache, whose hits go out with the headers set here.
 * The headers are set before a 429 is thrown: the error handler keeps them. Each admitted request
 * is also counted by route, for the key's usage.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: RateLimitOptions) => {
    const limiter: RateLimiter = options.redisUrl
      ? (await import('../../access/redis-rate-limit.ts')).redisRateLimiter(options.redisUrl, app.log)
      : memoryRateLimiter();
    const ledger = usageLedger(options.store, {
      flushMs: options.usageFlushSeconds * 1000,
      onError: (error) => app.log.error({ err: error }, 'usage not written yet: kept for the next write'),
    });
    app.decorate('usageLedger', ledger);
    const counts: Counts = { limiter, ledger, limitsOf: limitsWithDefaults(options.defaults), counting: new Set() };
    // Counts still on their way to Redis are let through before its connection closes.
    app.addHook('onClose', async () => {
      await Promise.all(counts.counting);
      await limiter.close();
      await ledger.close();
    });
    app.decorate('usageOf', (key: VerifiedKey) => usageOf(counts, key));
    app.decorate('chargeRequests', (request: FastifyRequest, reply: FastifyReply, points: number, why: string) =>
      charge(counts, request, reply, points, why),
    );
    app.onRequestStep((request, reply) => admit(counts, request, reply));
  },
  { name: 'rate-limit', dependencies: ['request-steps', 'auth'] },
);

interface RateLimitOptions {
  defaults: RateLimits;
  redisUrl: string | undefined;
  store: Store;
  usageFlushSeconds: number;
}

/** Where requests are counted: the limiter's windows, the usage ledger, and the counts still on their way. */
interface Counts {
  limiter: RateLimiter;
  ledger: UsageLedger;
  limitsOf(key: VerifiedKey): RateLimits;
  counting: Set<Promise<void>>;
}

/** A key's own limits, or the server's where it sets none. */
const limitsWithDefaults =
  (defaults: RateLimits) =>
  (key: VerifiedKey): RateLimits => ({
    perMinute: key.ratePerMinute ?? defaults.perMinute,
    perDay: key.ratePerDay ?? defaults.perDay,
  });

/**
 * A public request of a key: counted, and its headers set, or refused with a 429 (rate or quota). At
 * once when the limits are counted in this process and the key has no monthly quota.
 */
function admit(counts: Counts, request: FastifyRequest, reply: FastifyReply): undefined | Promise<void> {
  const key = request.apiKey;
  const config = routeOf(request).config;
  if (config.access !== 'public' || !key || config.uncounted) return undefined;
  if (key.monthlyQuota !== null) return admitWithQuota(counts, key, key.monthlyQuota, request, reply);
  const decision = counts.limiter.consume(key.id, counts.limitsOf(key));
  if (decision instanceof Promise) return decision.then((decided) => counted(counts, key, request, reply, decided));
  return counted(counts, key, request, reply, decision);
}

/** A key with a monthly quota: this month's count is read from the store first, a 429 once it is spent. */
async function admitWithQuota(
  counts: Counts,
  key: VerifiedKey,
  quota: number,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const used = await checkQuota(counts.ledger, key, quota, reply);
  const decision = await counts.limiter.consume(key.id, counts.limitsOf(key));
  counted(counts, key, request, reply, decision);
  if (decision.allowed) reply.headers(quotaHeaders(quota, used + 1, utcMonth(Date.now()).resetSeconds));
}

/** Sets the limit's headers, and records an allowed request or throws the 429 of a refused one. */
function counted(
  { limiter, ledger, counting }: Counts,
  key: VerifiedKey,
  request: FastifyRequest,
  reply: FastifyReply,
  decision: RateDecision,
) {
  reply.headers(rateLimitHeaders(decision));
  if (decision.allowed) {
    ledger.record(key.id, routeTemplate(request));
    // Usage is bookkeeping: the request does not wait for it, and a failure only loses a count.
    const sent = limiter.countRequest(key.id);
    if (sent === undefined) return undefined;
    const count = sent
      .catch((error: Error) => request.log.debug({ err: error }, 'usage not counted'))
      .finally(() => counting.delete(count));
    counting.add(count);
    return undefined;
  }
  if (!decision.binding) return undefined;
  const { window, limit } = decision.binding;
  const retryAfter = decision.retryAfterSeconds;
  throw fail('RATE_LIMITED', { limit, window, retryAfter }, { window, limit, retryAfter });
}

/** This month's requests of a key with a quota; a 429 until the month ends once the quota is spent. */
async function checkQuota(ledger: UsageLedger, key: VerifiedKey, quota: number, reply: FastifyReply): Promise<number> {
  const now = Date.now();
  const used = await ledger.monthUsed(key.id, now);
  if (used < quota) return used;
  const { resetSeconds } = utcMonth(now);
  reply.headers({ ...quotaHeaders(quota, used, resetSeconds), 'retry-after': String(resetSeconds) });
  throw fail(
    'QUOTA_EXCEEDED',
    { limit: quota, retryAfter: resetSeconds },
    { window: 'month', limit: quota, retryAfter: resetSeconds },
  );
}

/** `app.chargeRequests`: `points` more requests of the calling key, or a 429 whose message starts with `why`. */
async function charge(
  { limiter, limitsOf }: Counts,
  request: FastifyRequest,
  reply: FastifyReply,
  points: number,
  why: string,
): Promise<void> {
  const key = request.apiKey;
  if (!key || points <= 0 || routeOf(request).config.access !== 'public') return;
  const decision = await limiter.charge(key.id, limitsOf(key), points);
  reply.headers(rateLimitHeaders(decision));
  if (decision.allowed || !decision.binding) return;
  const { window, limit, remaining } = decision.binding;
  const retryAfter = decision.retryAfterSeconds;
  throw fail('RATE_LIMITED', { why, remaining, limit, window, retryAfter }, { window, limit, remaining, retryAfter });
}

/** `app.usageOf`: the key's usage this minute, today and this month, without counting it. */
async function usageOf({ limiter, ledger, limitsOf }: Counts, key: VerifiedKey): Promise<KeyUsage> {
  const now = Date.now();
  const [minute, byRoute, month] = await Promise.all([
    limiter.minuteUsed(key.id, now),
    ledger.todayByRoute(key.id, now),
    ledger.monthUsed(key.id, now),
  ]);
  const usage = keyUsage({ ...limitsOf(key), monthlyQuota: key.monthlyQuota }, { minute, byRoute, month }, now);
  return { ...usage, minute: usage.minute as WindowUsage };
}
