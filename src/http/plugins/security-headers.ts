import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { DOCS_PATH } from './openapi.ts';

/**
 * Headers every answer carries, and CORS. Registered before every other onRequest hook, so that a
 * 401, a 429 and a cached answer (which is written straight from the headers set so far) carry them
 * too.
 *
 * The API sends JSON only: the content type may not be sniffed, no page may frame it, no script may
 * run from it, and no referrer leaks from it. The docs page (Swagger UI) runs scripts and styles of its
 * own, so it is spared the content security policy. Strict-Transport-Security belongs to the TLS
 * terminator in front of the API, which alone knows the scheme the client used.
 */
const EVERY_RESPONSE = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  // Keys and feed results must not sit in a shared cache; cacheable documents say otherwise themselves.
  'cache-control': 'no-store',
};
const API_ONLY = { 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" };

/** Request headers a browser client sends, and response headers it may read. */
const ALLOWED_HEADERS = ['X-API-KEY', 'Authorization', 'Content-Type', 'If-None-Match', 'If-Modified-Since', 'Last-Event-ID', 'X-Request-ID'];
const EXPOSED_HEADERS = ['ETag', 'Last-Modified', 'Link', 'Retry-After', 'X-Request-ID', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { corsOrigins: Config['corsOrigins'] }) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.headers(EVERY_RESPONSE);
      if (!request.url.startsWith(DOCS_PATH)) reply.headers(API_ONLY);
    });
    if (options.corsOrigins === 'none') return;
    await app.register(cors, {
      origin: options.corsOrigins,
      methods: ['GET', 'HEAD', 'POST'],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      // Browsers cache a preflight for at most 2 hours (Chromium); 10 minutes keeps a changed policy prompt.
      maxAge: 600,
      strictPreflight: true,
    });
  },
  { name: 'security-headers' },
);
