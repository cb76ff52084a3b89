import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

export const METRICS_PATH = '/metrics';

/** Prometheus scrapes without a key: bind it to a private listener with METRICS_PORT, or turn it off. */
export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    METRICS_PATH,
    {
      config: { access: 'open', listener: 'metrics' },
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'The Prometheus text exposition: requests and latency per route, response cache hits and misses, push-stream clients, ' +
          'rate-limit rejections, feed rows written, store errors, and process memory, CPU and event-loop figures. Needs no key; ' +
          'served on METRICS_PORT instead when that is set.',
        security: [],
        response: {
          200: { description: 'text/plain; version=0.0.4', content: { 'text/plain': { schema: Type.String() } } },
        },
      },
    },
    async (_request, reply) => {
      reply.type(app.metrics.contentType);
      return app.metrics.exposition();
    },
  );
};
