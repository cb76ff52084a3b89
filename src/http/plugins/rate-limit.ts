import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { memoryRateLimiter, type RateLimits, rateLimitHeaders, redisRateLimiter } from '../../access/rate-limit.ts';
import { ApiError } from '../../domain/errors.ts';

/**
 * Per-key rate limits on public routes (DESIGN decision 2). Registered after auth, which sets
 * request.apiKey, and before the response cache, whose hits go out with the headers set here.
 * The headers are set before a 429 is thrown: the error handler keeps them.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: { defaults: RateLimits; redisUrl: string | undefined }) => {
    const limiter = options.redisUrl ? redisRateLimiter(options.redisUrl, app.log) : memoryRateLimiter();
    app.addHook('onClose', () => limiter.close());

    app.addHook('onRequest', async (request, reply) => {
      const key = request.apiKey;
      if (request.routeOptions.config.access !== 'public' || !key) return;
      const decision = await limiter.consume(key.id, {
        perMinute: key.ratePerMinute ?? options.defaults.perMinute,
        perDay: key.ratePerDay ?? options.defaults.perDay,
      });
      reply.headers(rateLimitHeaders(decision));
      if (decision.allowed || !decision.binding) return;
      const { window, limit } = decision.binding;
      throw new ApiError(
        429,
        `Rate limit exceeded: this API key may make ${limit} requests per ${window}; retry in ${decision.retryAfterSeconds} s`,
        { window, limit, retryAfter: decision.retryAfterSeconds },
      );
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
