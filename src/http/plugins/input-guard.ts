import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../../domain/errors.ts';
import { inputProblems } from '../../domain/text.ts';
import { LOCATIONS } from './errors.ts';

/**
 * What schema validation lets through and the store cannot take: numbers past the double range
 * (`limit=1e400` is coerced to Infinity after Ajv's bounds were checked on the text) and text no store
 * can hold as sent (NUL, a lone surrogate). Checked after validation, so that coerced values are seen;
 * routes that check their own input (the feed) say so with `config.ownInputChecks`.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    ownInputChecks?: boolean;
  }
}

/** The parts of a request checked, with Fastify's schema name of each (the one errors are named by). */
const PARTS = [
  ['params', 'params'],
  ['query', 'querystring'],
  ['body', 'body'],
] as const;

export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preHandler', async (request) => {
      if (request.routeOptions.config.ownInputChecks) return;
      for (const [part, schemaName] of PARTS) {
        const [found] = inputProblems(request[part], { finiteNumbers: true });
        if (found)
          throw badRequest(`Invalid ${LOCATIONS[schemaName]} "${found.path}": ${found.problem}`, {
            in: part === 'params' ? 'path' : part,
            parameter: found.path,
          });
      }
    });
  },
  { name: 'input-guard' },
);
