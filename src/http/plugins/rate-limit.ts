import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { VerifiedKey } from '../../access/api-keys.ts';
import {
  type KeyUsage,
  memoryRateLimiter,
  type RateLimiter,
  type RateLimits,
  rateLimitHeaders,
} from '../../access/rate-limit.ts';
import { fail } from '../../domain/errors.ts';
import { PUBLIC_PREFIX } from '../../read/public-paths.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Neither limited nor counted: the usage route answers a key over its limit. */
    uncounted?: boolean;
  }
  interface FastifyInstance {
    /** The calling key's usage this minute and today, without counting it. */
    usageOf(key: VerifiedKey): Promise<KeyUsage>;
    /**
     * Counts `points` more requests of the calling key (a parlay that starts a new simulation, issue
     * 25), setting the X-RateLimit-* headers to what is left; a 429 when the key has not that many
     * left, whose message starts with `why` (what costs how much).
     */
    chargeRequests(request: FastifyRequest, reply: FastifyReply, points: number, why: string): Promise<void>;
  }
}

/** The route a request matched, as the OpenAPI document names it under /api/v1/public (`/events/{eventId}`). */
export function routeTemplate(request: FastifyRequest): string {
  const url = request.routeOptions.url ?? request.url;
  let template = templates.get(url);
  if (template === undefined) {
    const path = url.startsWith(PUBLIC_PREFIX) ? url.slice(PUBLIC_PREFIX.length) : url;
    template = path.replace(/:(\w+)/g, '{$1}');
    templates.set(url, template);
  }
  return template;
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
  async (app: FastifyInstance, options: { defaults: RateLimits; redisUrl: string | undefined }) => {
    const limiter: RateLimiter = options.redisUrl
      ? (await import('../../access/redis-rate-limit.ts')).redisRateLimiter(options.redisUrl, app.log)
      : memoryRateLimiter();
    // Counts still on their way to Redis are let through before its connection closes.
    const counting = new Set<Promise<void>>();
    app.addHook('onClose', async () => {
      await Promise.all(counting);
      await limiter.close();
    });
    const limitsOf = (key: VerifiedKey): RateLimits => ({
      perMinute: key.ratePerMinute ?? options.defaults.perMinute,
      perDay: key.ratePerDay ?? options.defaults.perDay,
    });
    app.decorate('usageOf', (key: VerifiedKey) => limiter.usage(key.id, limitsOf(key)));
    app.decorate(
      'chargeRequests',
      async (request: FastifyRequest, reply: FastifyReply, points: number, why: string) => {
        const key = request.apiKey;
        if (!key || points <= 0 || request.routeOptions.config.access !== 'public') return;
        const decision = await limiter.charge(key.id, limitsOf(key), points);
        reply.headers(rateLimitHeaders(decision));
        if (decision.allowed || !decision.binding) return;
        const { window, limit, remaining } = decision.binding;
        const retryAfter = decision.retryAfterSeconds;
        throw fail(
          'RATE_LIMITED',
          { why, remaining, limit, window, retryAfter },
          { window, limit, remaining, retryAfter },
        );
      },
    );

    app.addHook('onRequest', async (request, reply) => {
      const key = request.apiKey;
      const config = request.routeOptions.config;
      if (config.access !== 'public' || !key || config.uncounted) return;
      const decision = await limiter.consume(key.id, limitsOf(key));
      reply.headers(rateLimitHeaders(decision));
      if (decision.allowed) {
        // Usage is bookkeeping: the request does not wait for it, and a failure only loses a count.
        const count = limiter
          .countRoute(key.id, routeTemplate(request))
          .catch((error: Error) => request.log.debug({ err: error }, 'usage not counted'))
          .finally(() => counting.delete(count));
        counting.add(count);
        return;
      }
      if (!decision.binding) return;
      const { window, limit } = decision.binding;
      const retryAfter = decision.retryAfterSeconds;
      throw fail('RATE_LIMITED', { limit, window, retryAfter }, { window, limit, retryAfter });
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
