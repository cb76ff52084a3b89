import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../../domain/errors.ts';
import { textProblem } from '../../domain/text.ts';

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

const LOCATIONS = { params: 'path parameter', query: 'query parameter', body: 'request body field' } as const;

function problemIn(value: unknown, path: string, depth = 0): [string, string] | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : [path, 'must be a finite number'];
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? [path, problem] : null;
  }
  // Keys are text too (the markets route takes athlete ids as keys). Depth is bounded by the body parser's.
  if (typeof value === 'object' && value !== null && depth < 64) {
    for (const [key, inner] of Object.entries(value)) {
      const where = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      const keyProblem = textProblem(key);
      if (keyProblem) return [where, `has a name that ${keyProblem}`];
      const found = problemIn(inner, where, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preHandler', async (request) => {
      if (request.routeOptions.config.ownInputChecks) return;
      for (const part of ['params', 'query', 'body'] as const) {
        const found = problemIn(request[part], '');
        if (!found) continue;
        const [name, reason] = found;
        throw badRequest(`Invalid ${LOCATIONS[part]} "${name}": ${reason}`, { in: part === 'params' ? 'path' : part, parameter: name });
      }
    });
  },
  { name: 'input-guard' },
);
