import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fail } from '../../domain/errors.ts';
import { VERSION } from '../../version.ts';
import { errorResponses } from '../schemas/common.ts';

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      config: { access: 'open', listener: 'any' },
      schema: {
        tags: ['operations'],
        summary: 'Readiness',
        description:
          'Answers 200 when the store answers, 503 otherwise: when it cannot be reached, or once a read found the SQLite file corrupt (which a restart does not mend). Needs no key.',
        security: [],
        response: {
          200: Type.Object({
            status: Type.Literal('ok'),
            store: Type.String(),
            version: Type.String({ description: "the server's release, as `altsports --version` prints it" }),
            uptimeSeconds: Type.Number(),
          }),
          ...errorResponses({ 503: 'the store cannot be reached, or a read found it corrupt' }),
        },
      },
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
