import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { unavailable } from '../../domain/errors.ts';
import { errorResponses } from '../schemas/common.ts';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      config: { access: 'open', listener: 'any' },
      schema: {
        tags: ['operations'],
        summary: 'Readiness',
        description: 'Answers 200 when the store answers, 503 otherwise. Needs no key.',
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('ok'), store: Type.String(), uptimeSeconds: Type.Number() }),
          ...errorResponses({ 503: 'the store cannot be reached' }),
        },
      },
    },
    async (request) => {
      try {
        await request.server.store.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'health check: store unreachable');
        throw unavailable(`The ${request.server.store.dialect} store cannot be reached`);
      }
      return {
        status: 'ok' as const,
        store: request.server.store.dialect,
        uptimeSeconds: Math.round(process.uptime()),
      };
    },
  );
};
