import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PUBLIC_PREFIX } from '../../read/public-paths.ts';

export { PUBLIC_PREFIX };
export const ADMIN_PREFIX = '/api/v1/admin';
export const DOCS_PATH = '/docs';

/**
 * The OpenAPI 3.1 document is generated from the route schemas, so validation, serialisation and the
 * published interface cannot drift apart. Served without a key, with an interactive page at /docs.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance, options: { version: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Alternative Sports Data Public API (altsports)',
          version: options.version,
          description:
            'Events, heat scores, odds, futures and same game parlay prices for 30 alternative-sports competitions. ' +
            'Every public route needs an API key in `X-API-KEY` (or `Authorization: Bearer <key>`). ' +
            'Every error body is a ServerErrorResponse.',
        },
        servers: [{ url: '/', description: 'this server' }],
        components: {
          securitySchemes: {
            ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
            BearerAuth: { type: 'http', scheme: 'bearer', description: 'the same API key as a bearer token' },
            AdminKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'the ADMIN_API_KEY of the server' },
          },
        },
        security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
        tags: [
          { name: 'sports', description: 'the competition catalogue' },
          { name: 'events', description: 'events with rounds, heats and teams' },
          { name: 'results', description: 'event participants and heat scores, with the derived fields of section 2.5' },
          { name: 'futures', description: 'season-long futures and their odds' },
          { name: 'stream', description: 'changes pushed as server-sent events' },
          { name: 'admin', description: 'operator input (admin key)' },
          { name: 'operations', description: 'health and interface description' },
        ],
      },
      // @fastify/swagger leaves `deprecated` inside a parameter's schema; clients read it on the parameter.
      transformObject: (documentObject) => {
        const document = (documentObject as { openapiObject: { paths?: Record<string, Record<string, { parameters?: Array<{ deprecated?: boolean; schema?: { deprecated?: boolean } }> }>> } }).openapiObject;
        for (const item of Object.values(document.paths ?? {})) {
          for (const operation of Object.values(item)) {
            for (const parameter of operation.parameters ?? []) if (parameter.schema?.deprecated) parameter.deprecated = true;
          }
        }
        return document as never;
      },
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    });
    await app.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      uiConfig: { persistAuthorization: true, displayRequestDuration: true, tryItOutEnabled: true },
    });
    app.get(`${PUBLIC_PREFIX}/openapi.json`, { schema: { hide: true }, config: { access: 'open' } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
