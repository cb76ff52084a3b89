import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { BOARD_PATH, DOCS_PATH } from './openapi.ts';

/**
 * Headers every answer carries, and CORS. Registered before every other onRequest hook, so that a
 * 401, a 429 and a cached answer (which is written straight from the headers set so far) carry them
 * too.
 *
 * The API sends JSON only: the content type may not be sniffed, no page may frame it, no script may
 * run from it, and no referrer leaks from it. The two pages (the docs and the live board) get a policy
 * of their own: their scripts, styles and API calls from this origin only, nothing inline, nothing from
 * elsewhere. Strict-Transport-Security belongs to the TLS terminator in front of the API, which alone
 * knows the scheme the client used.
 */
const EVERY_RESPONSE = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  // Keys and feed results must not sit in a shared cache; cacheable documents say otherwise themselves.
  'cache-control': 'no-store',
};
const API_ONLY = "default-src 'none'; frame-ancestors 'none'";
const PAGE =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
// Swagger UI's logo (an SVG, replaced by the Fastify logo once shown) carries this one inline <style>.
const SWAGGER_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
const DOCS = PAGE.replace("style-src 'self'", `style-src 'self' ${SWAGGER_LOGO_STYLE}`);

/** The content security policy of a path: its page's, or the API's. */
export function contentSecurityPolicy(url: string): string {
  const path = url.split('?', 1)[0] as string;
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (under(DOCS_PATH)) return DOCS;
  return under(BOARD_PATH) ? PAGE : API_ONLY;
}

/** The headers every answer to `url` carries. */
export function securityHeaders(url: string): Record<string, string> {
  return { ...EVERY_RESPONSE, 'content-security-policy': contentSecurityPolicy(url) };
}

/** Request headers a browser client sends, and response headers it may read. */
const ALLOWED_HEADERS = [
  'X-API-KEY',
  'Authorization',
  'Content-Type',
  'If-None-Match',
  'If-Modified-Since',
  'Last-Event-ID',
  'X-Request-ID',
];
const EXPOSED_HEADERS = [
  'ETag',
  'Last-Modified',
  'Link',
  'Retry-After',
  'X-Request-ID',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { corsOrigins: Config['corsOrigins'] }) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.headers(securityHeaders(request.url));
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
