import { parse as parseContentType } from 'content-type';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../../domain/errors.ts';
import { inputProblems } from '../../domain/text.ts';
import { parseJsonBody } from '../../ingest/large-json.ts';
import { routeOf } from '../route-config.ts';
import { readJsonBody, tooLarge } from '../staged-body.ts';
import { LOCATIONS } from './errors.ts';

/**
 * JSON bodies in UTF-8 only; and what schema validation lets through and the store cannot take: numbers past the double range
 * (`limit=1e400` is coerced to Infinity after Ajv's bounds were checked on the text) and text no store
 * can hold as sent (NUL, a lone surrogate). Checked after validation, so that coerced values are seen;
 * routes that check their own input (the feed) say so with `config.ownInputChecks`.
 */

/** The parts of a request checked, with Fastify's schema name of each (the one errors are named by). */
const PARTS = [
  ['params', 'params'],
  ['query', 'querystring'],
  ['body', 'body'],
] as const;

/** The charset a JSON body declares, lowercased; undefined when it declares none or is not JSON. */
function jsonCharset(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  try {
    const { type, parameters } = parseContentType(contentType);
    return type === 'application/json' ? parameters.charset?.toLowerCase() : undefined;
  } catch {
    // A malformed header is the JSON parser's to refuse (415).
    return undefined;
  }
}

export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    // Fastify's JSON parser, but with its refusals told apart: a key that would reach Object's
    // prototype, and where a malformed document goes wrong.
    app.removeContentTypeParser('application/json');
    // Read here rather than by Fastify, so that nesting and UTF-8 are checked as the bytes arrive; a
    // large body is parsed an item at a time, letting others be answered (ingest/large-json.ts).
    app.addContentTypeParser('application/json', (request: FastifyRequest, payload, done) => {
      readJsonBody(payload, routeOf(request).bodyLimit ?? app.initialConfig.bodyLimit ?? 0)
        .then(parseJsonBody)
        .then(
          (body) => done(null, body),
          (error: Error) => done(error, undefined),
        );
    });

    // A body declared larger than the route takes is refused before any of it is read; the
    // connection is closed rather than read to its end.
    app.onRequestStep((request, reply) => {
      const declared = Number(request.headers['content-length']);
      const limit = routeOf(request).bodyLimit ?? app.initialConfig.bodyLimit ?? 0;
      if (declared > limit) {
        reply.header('connection', 'close');
        throw tooLarge(limit);
      }
      return undefined;
    });

    // JSON is UTF-8 (RFC 8259): a body declared in another charset would be read wrongly.
    app.addHook('preParsing', async (request) => {
      const charset = jsonCharset(request.headers['content-type']);
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
        throw fail('UNSUPPORTED_CHARSET', { charset }, { charset });
    });

    app.addHook('preHandler', async (request) => {
      if (routeOf(request).config.ownInputChecks) return;
      for (const [part, schemaName] of PARTS) {
        const [found] = inputProblems(request[part], { finiteNumbers: true });
        if (found)
          throw fail(
            'INVALID_PARAMETER',
            { where: LOCATIONS[schemaName] ?? schemaName, name: found.path, reason: found.problem },
            { in: part === 'params' ? 'path' : part, parameter: found.path },
          );
      }
    });
  },
  { name: 'input-guard', dependencies: ['request-steps'] },
);
