import { readFileSync } from 'node:fs';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERRORS, type ErrorCode } from '../../domain/errors.ts';
import { PUBLIC_PREFIX } from '../../read/public-paths.ts';
import { codesOfRoute, codesOfStatus, type RouteKind } from '../error-statuses.ts';
import { applyDocsExamples, type DocsExamples, type DocumentPaths, findDocsExamples } from '../pages/docs-examples.ts';
import { gettingStarted } from '../pages/getting-started.ts';
import { routeOf } from '../route-config.ts';
import { MAX_BODY_IDS } from '../schemas/odds.ts';
import { STREAM_DATA_COMPONENTS } from '../schemas/stream.ts';
import { OPENAPI_TAGS } from '../tags.ts';

export { PUBLIC_PREFIX };

interface Operation {
  parameters?: Array<{
    name?: string;
    in?: string;
    description?: string;
    deprecated?: boolean;
    schema?: { type?: string; deprecated?: boolean };
  }>;
  responses?: Record<
    string,
    { description?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }
  >;
  requestBody?: unknown;
  /** The codes the route raises itself (schemas/common.ts operation); read here, then removed. */
  'x-error-codes'?: readonly ErrorCode[];
}

declare module 'fastify' {
  interface FastifySchema {
    /** The error codes the route raises itself: its error responses list them (schemas/common.ts operation). */
    'x-error-codes'?: readonly ErrorCode[];
  }
}

/**
 * The parlay bodies' lists as the server limits them: the validator takes up to MAX_BODY_IDS ids so
 * that a leg too many is a 422 naming it (TOO_MANY_LEGS), but a client may send SGP_MAX_LEGS at most,
 * and that is what the document states.
 */
function documentLegLimit(schema: unknown, sgpMaxLegs: number): void {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (node.maxItems === MAX_BODY_IDS) node.maxItems = sgpMaxLegs;
  for (const value of Object.values(node)) documentLegLimit(value, sgpMaxLegs);
}

const PARLAY_BODY_PATH = /\/sgp(\/options)?$/;

const header = (description: string, type: 'string' | 'integer' = 'string') => ({ description, schema: { type } });
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': header(
    "requests allowed in the key's binding window (its minute or its day); absent for keys without a limit",
    'integer',
  ),
  'X-RateLimit-Remaining': header('requests left in that window', 'integer'),
  'X-RateLimit-Reset': header('seconds until that window starts over', 'integer'),
  'X-Quota-Limit': header(
    "requests allowed per calendar month (UTC) by the key's plan; absent for keys without a monthly quota",
    'integer',
  ),
  'X-Quota-Remaining': header('requests left this month', 'integer'),
  'X-Quota-Reset': header('seconds until the next month starts (UTC)', 'integer'),
};

/**
 * What the plugins add to every public route, which route schemas do not declare: rate-limit headers
 * (and 429), and on document GETs the validators (ETag, Last-Modified), their 304 and the content codings.
 */
function describeLiveHeaders(operation: Operation, conditional: boolean): void {
  operation.responses ??= {};
  const responses = operation.responses;
  for (const response of Object.values(responses)) response.headers = { ...response.headers, ...RATE_LIMIT_HEADERS };
  responses['429'] ??= {
    description: "over the key's rate limit or its plan's monthly quota: retry after Retry-After seconds",
    headers: { 'Retry-After': header('seconds to wait', 'integer'), ...RATE_LIMIT_HEADERS },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ServerErrorResponse' } } },
  };
  if (!conditional) return;
  const ok = responses['200'];
  if (ok) {
    ok.headers = {
      ...ok.headers,
      ETag: header(
        'a strong validator of the exact bytes (a coded answer has its own, ending -br or -gzip); send it back as If-None-Match',
      ),
      'Last-Modified': header(
        'when the data beneath changed, as this node knows it (one-second resolution: prefer the ETag)',
      ),
      'Cache-Control': header('private, no-cache: revalidate on every use'),
      'Content-Encoding': header(
        'br or gzip when Accept-Encoding asked for one and the document is 1 KB or more; absent otherwise',
      ),
      Vary: header('Accept-Encoding, on documents of 1 KB or more'),
    };
  }
  responses['304'] = {
    description:
      'Not Modified: If-None-Match matched the ETag of any coding (or, without it, nothing changed since If-Modified-Since); no body',
    headers: { ETag: header('the current ETag of the coding Accept-Encoding selects'), ...RATE_LIMIT_HEADERS },
  };
  operation.parameters ??= [];
  const parameters = operation.parameters;
  parameters.push(
    {
      name: 'If-None-Match',
      in: 'header',
      schema: { type: 'string' },
      description: 'ETags of a copy you hold: 304 when one is current',
    },
    {
      name: 'If-Modified-Since',
      in: 'header',
      schema: { type: 'string' },
      description: 'an HTTP date: 304 when nothing changed since (ignored with If-None-Match)',
    },
    {
      name: 'Accept-Encoding',
      in: 'header',
      schema: { type: 'string' },
      description: 'br, gzip (with q weights): the document compressed, when it is 1 KB or more',
    },
  );
}
const ERROR_BODY_REF = '#/components/schemas/ServerErrorResponse';

/** The codes a route's error responses may list; a route that declares none its kind's scopes' (public, or admin as well). */
function routeCodes(operation: Operation, method: string, kind: RouteKind): (code: ErrorCode) => boolean {
  const own = operation['x-error-codes'];
  if (own === undefined) {
    const scopes = kind === 'admin' ? ['public', 'admin'] : ['public'];
    return (code) => scopes.includes(ERRORS[code].scope);
  }
  const codes = codesOfRoute({ kind, own, method, bodySchema: operation.requestBody !== undefined });
  return (code) => codes.has(code);
}

/** Each error response of a route lists the codes (domain/errors.ts) of its status that the route can give. */
function describeErrorCodes(operation: Operation, method: string, kind: RouteKind): void {
  const among = routeCodes(operation, method, kind);
  delete operation['x-error-codes'];
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const json = response.content?.['application/json'] as { schema?: { $ref?: string } } | undefined;
    const codes = codesOfStatus(Number(status), among);
    if (json?.schema?.$ref !== ERROR_BODY_REF || codes.length === 0) continue;
    json.schema = {
      allOf: [{ $ref: ERROR_BODY_REF }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }],
    } as never;
  }
}

export const ADMIN_PREFIX = '/api/v1/admin';
export const DOCS_PATH = '/docs';
/** The live board page (routes/board.ts); here so that the docs and the security headers can name it. */
export const BOARD_PATH = '/board';

const kindOf = (path: string): RouteKind =>
  path.startsWith(ADMIN_PREFIX) ? 'admin' : path.startsWith(PUBLIC_PREFIX) ? 'public' : 'open';

const SUMMARY =
  'Events, heat scores, odds, futures and same game parlay prices for 30 alternative-sports competitions. ' +
  'Every public route needs an API key in `X-API-KEY` (or `Authorization: Bearer <key>`). ' +
  'Every error body is a ServerErrorResponse. ' +
  "The routes are version 1 of the provider's interface (the `/api/v1/` in their paths); `info.version` is this server's release.";
const page = (file: string) => readFileSync(new URL(`../pages/${file}`, import.meta.url));
const PREAUTHORIZE_SCRIPT = page('docs-preauthorize.js').toString('utf8');
const THEME_CSS = page('docs-theme.css').toString('utf8');
const LOGO_SVG = page('docs-logo.svg');
const FAVICON_SVG = page('docs-favicon.svg');

interface OpenApiOptions {
  version: string;
  demoApiKey?: string | null;
  sgpMaxLegs: number;
}

/**
 * The OpenAPI 3.1 document is generated from the route schemas, so validation, serialisation and the
 * published interface cannot drift apart. Served without a key, with an interactive page at /docs.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance, options: OpenApiOptions) => {
    await app.register(swagger, {
      openapi: documentHead(options.version),
      transformObject: (documentObject) => completed(documentObject, options.sgpMaxLegs),
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
    });
    await registerDocsPage(app, options);
    app.get(`${PUBLIC_PREFIX}/openapi.json`, { schema: { hide: true }, config: { access: 'open' } }, async () =>
      app.swagger(),
    );
    // The site's icon where browsers and bookmarks look for it, for the board and the docs alike.
    app.get('/favicon.ico', { schema: { hide: true }, config: { access: 'open' } }, async (_request, reply) =>
      reply.type('image/svg+xml').send(FAVICON_SVG),
    );
  },
  { name: 'openapi' },
);

/** What the document says before its paths: its title and version, security schemes and tags. */
function documentHead(version: string): NonNullable<FastifyDynamicSwaggerOptions['openapi']> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Alternative Sports Data Public API (altsports)',
      version,
      description: SUMMARY,
    },
    servers: [{ url: '/', description: 'this server' }],
    components: {
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'the same API key as a bearer token' },
        AdminKeyAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-KEY',
          description: 'the ADMIN_API_KEY of the server',
        },
      },
      // The push stream's event data: no route response can carry them (text/event-stream).
      schemas: STREAM_DATA_COMPONENTS as never,
    },
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
    tags: [...OPENAPI_TAGS],
  };
}

/** The document @fastify/swagger generated, with what the route schemas cannot say added to each operation. */
function completed(documentObject: unknown, sgpMaxLegs: number): never {
  const document = (documentObject as { openapiObject: { paths?: Record<string, Record<string, Operation>> } })
    .openapiObject;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      // @fastify/swagger leaves `deprecated` inside a parameter's schema; clients read it on the parameter.
      for (const parameter of operation.parameters ?? []) if (parameter.schema?.deprecated) parameter.deprecated = true;
      if (PARLAY_BODY_PATH.test(path)) documentLegLimit(operation.requestBody, sgpMaxLegs);
      if (path.startsWith(PUBLIC_PREFIX))
        describeLiveHeaders(
          operation,
          method === 'get' && operation.responses?.['200']?.content?.['application/json'] !== undefined,
        );
      describeErrorCodes(operation, method, kindOf(path));
    }
  }
  return document as never;
}

/**
 * The docs page (Swagger UI at /docs). It reads its own copy of the document (/docs/json), which gets
 * a getting-started section and example values chosen from the store as the page loads, so that "Try
 * it out" runs on the data this server holds. The published document stays independent of the store:
 * the client types are generated from it.
 */
async function registerDocsPage(app: FastifyInstance, options: OpenApiOptions) {
  const docsExamples = new WeakMap<FastifyRequest, DocsExamples>();
  const isDocument = (request: FastifyRequest) =>
    routeOf(request).url === `${DOCS_PATH}/json` || routeOf(request).url === `${DOCS_PATH}/yaml`;
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    uiConfig: {
      persistAuthorization: true,
      displayRequestDuration: true,
      tryItOutEnabled: true,
      // Read by docs-preauthorize.js, which authorizes it once the document is rendered.
      ...(options.demoApiKey ? { altsportsDemoKey: options.demoApiKey } : {}),
    } as Record<string, unknown>,
    theme: {
      title: 'altsports API docs',
      js: [{ filename: 'docs-preauthorize.js', content: PREAUTHORIZE_SCRIPT }],
      css: [{ filename: 'docs-theme.css', content: THEME_CSS }],
      favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: FAVICON_SVG }],
    },
    logo: { type: 'image/svg+xml', content: LOGO_SVG, href: DOCS_PATH, target: '_self' },
    uiHooks: {
      preHandler: async (request) => {
        if (!isDocument(request)) return;
        try {
          docsExamples.set(request, await findDocsExamples(app.store));
        } catch (error) {
          // The page still works without examples.
          request.log.warn({ err: error }, 'docs: choosing examples from the store failed');
        }
      },
    },
    transformSpecification: (document, request) => {
      const examples = docsExamples.get(request) ?? { sport: {} };
      // A copy already (transformSpecificationClone defaults to true): written in place.
      const copy = document as DocumentPaths & { info: { description?: string } };
      applyDocsExamples(copy, examples);
      copy.info.description = gettingStarted({
        origin: `${request.protocol}://${request.host}`,
        demoApiKey: options.demoApiKey ?? null,
        examples,
        summary: SUMMARY,
        boardPath: BOARD_PATH,
      });
      return copy;
    },
  });
}
