import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fail } from '../../domain/errors.ts';
import { VERSION } from '../../version.ts';
import { HealthStatus, healthOperation } from '../schemas/health.ts';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      config: { access: 'open', listener: 'any' },
      schema: { ...healthOperation.docs, response: { 200: HealthStatus, ...healthOperation.errors } },
    },
    async (request) => {
      const { storeCorruption } = request.server;
      if (storeCorruption !== null)
        throw fail('STORE_CORRUPT', { dialect: request.server.store.dialect, problem: storeCorruption });
      try {
        await request.server.store.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'health check: store unreachable');
        throw fail('STORE_UNAVAILABLE', { dialect: request.server.store.dialect });
      }
      return {
        status: 'ok' as const,
        store: request.server.store.dialect,
        version: VERSION,
        uptimeSeconds: Math.round(process.uptime()),
      };
    },
  );
};
