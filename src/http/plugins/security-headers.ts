import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { Config } from '../../config.ts';
import { fail } from '../../domain/errors.ts';
import { BOARD_PATH, DOCS_PATH } from './openapi.ts';

/**
 * Headers every answer carries, and CORS. Registered before auth, rate limits and the response
 * cache, so that a 401, a 429 and a cached answer carry them too.
 *
 * The API sends JSON only: the content type may not be sniffed, no page may frame it, no script may
 * run from it, and no referrer leaks from it. The two pages (the docs and the live board) get a policy
 * of their own: their scripts, styles and API calls from this origin only, nothing inline, nothing from
 * elsewhere. Strict-Transport-Security belongs to the TLS terminator in front of the API, which alone
 * knows the scheme the client used.
 *
 * helmet's middleware is built once per policy: @fastify/helmet builds it anew on every request
 * (docs/decisions.md "Hardening").
 */

const NONE = ["'none'"];
const SELF = ["'self'"];
// Swagger UI's logo (an SVG, replaced by our own once shown) carries this one inline <style>.
const SWAGGER_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

const pageDirectives = {
  defaultSrc: NONE,
  scriptSrc: SELF,
  styleSrc: SELF,
  connectSrc: SELF,
  imgSrc: ["'self'", 'data:'],
  baseUri: NONE,
  formAction: SELF,
  frameAncestors: NONE,
};

type Directives = Record<string, string[]>;

/** A page's policy: helmet's defaults, this content security policy, and no HSTS. */
const pagePolicy = (directives: Directives) =>
  helmet({
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    contentSecurityPolicy: { useDefaults: false, directives },
  });

/** JSON answers: none of the headers that only an HTML page reads. */
const apiPolicy = helmet({
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: NONE, frameAncestors: NONE } },
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});
const boardPolicy = pagePolicy(pageDirectives);
const docsPolicy = pagePolicy({ ...pageDirectives, styleSrc: [...SELF, SWAGGER_LOGO_STYLE] });

type Policy = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers a policy sets, with `Cache-Control: no-store` (keys and feed results must not sit in a
 * shared cache; cacheable documents say otherwise themselves). helmet's headers depend on the policy
 * only, not on the request: it is asked once per policy rather than on every answer.
 */
function headersOf(policy: Policy): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const collect = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => {},
  };
  policy({} as IncomingMessage, collect as unknown as ServerResponse, () => {});
  return Object.freeze({ ...headers, 'cache-control': 'no-store' });
}

/** The headers of an API answer, also those written without Fastify (a request Node refused before it was routed). */
export const RAW_ANSWER_HEADERS = headersOf(apiPolicy);
const BOARD_HEADERS = headersOf(boardPolicy);
const DOCS_HEADERS = headersOf(docsPolicy);

/** The headers every answer to a URL carries: its page's, or the API's. */
function securityHeadersOf(url: string): Readonly<Record<string, string>> {
  if (isUnder(url, DOCS_PATH)) return DOCS_HEADERS;
  return isUnder(url, BOARD_PATH) ? BOARD_HEADERS : RAW_ANSWER_HEADERS;
}

/** Whether a URL's path is `prefix` or under it (read in place: every answer asks, and most are neither). */
const isUnder = (url: string, prefix: string) => {
  if (!url.startsWith(prefix)) return false;
  const next = url[prefix.length];
  return next === undefined || next === '/' || next === '?';
};

/**
 * Sets the headers every answer to the request carries on Node's response: for an answer no hook
 * prepared (a request the router refused). The event stream's hijacked answer takes the reply's.
 */
export function setSecurityHeaders(request: IncomingMessage, response: ServerResponse): void {
  const headers = securityHeadersOf(request.url ?? '/');
  for (const [name, value] of HEADER_LISTS.get(headers) ?? []) response.setHeader(name, value);
}

/** Each policy's headers as a list, made once rather than on every answer. */
const HEADER_LISTS = new Map(
  [RAW_ANSWER_HEADERS, BOARD_HEADERS, DOCS_HEADERS].map((headers) => [headers, Object.entries(headers)]),
);

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
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
];

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { corsOrigins: Config['corsOrigins'] }) => {
    // Set on Fastify's reply, not Node's response: with no header set on the response beforehand,
    // Node writes the head from the reply's one object, checking each header once (setHeader checks
    // it as it is set, and makes writeHead set every other header the same way).
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(securityHeadersOf(request.url));
      done();
    });
    if (options.corsOrigins === 'none') return;
    // @fastify/cors answers an OPTIONS request that is not a preflight with a text/plain 400 of its
    // own; refused here first, it gets the error body and x-request-id like every answer.
    app.addHook('onRequest', async (request) => {
      if (request.method === 'OPTIONS' && !(request.headers.origin && request.headers['access-control-request-method']))
        throw fail('INVALID_PREFLIGHT', { method: 'OPTIONS' });
    });
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
