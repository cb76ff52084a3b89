import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MetricsExposition, metricsOperation } from '../schemas/metrics.ts';

export const METRICS_PATH = '/metrics';

/** Prometheus scrapes without a key: bind it to a private listener with METRICS_PORT, or turn it off. */
export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    METRICS_PATH,
    {
      config: { access: 'open', listener: 'metrics' },
      schema: { ...metricsOperation.docs, response: { 200: MetricsExposition, ...metricsOperation.errors } },
    },
    async (_request, reply) => {
      reply.type(app.metrics.contentType);
      return app.metrics.exposition();
    },
  );
};
