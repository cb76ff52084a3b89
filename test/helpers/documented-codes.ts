/**
 * Every error a test app answers is held against its OpenAPI document: the body's code must be one the
 * document lists for that route and status, that is one the route declares (its operation's codes,
 * src/http/schemas/) or every route of its kind or method gives (src/http/error-statuses.ts). buildTestApp
 * watches each app it builds, so any test that meets an unlisted code fails, naming route, status and code.
 *
 * Not held: routes and statuses the document leaves out (a HEAD, a 415, a 500), and ROUTE_NOT_FOUND,
 * which a listener answers for a route it does not serve, as if the route did not exist.
 */
import assert from 'node:assert/strict';
import { after, afterEach } from 'node:test';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: ErrorSchema }> }>;
}
interface ErrorSchema {
  allOf?: [unknown, { properties?: { code?: { enum?: string[] } } }];
}

/**
 * The codes listed per `METHOD path status`, and the operations read, for the whole test process:
 * which codes a route lists does not depend on the server's settings. An app with a route the first
 * did not have adds its own.
 */
const listed = new Map<string, ReadonlySet<string>>();
const operations = new Set<string>();
const unlisted: string[] = [];

function readDocument(app: FastifyInstance): void {
  const document = app.swagger() as { paths?: Record<string, Record<string, Operation>> };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      operations.add(`${method.toUpperCase()} ${path}`);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const codes = response.content?.['application/json']?.schema?.allOf?.[1]?.properties?.code?.enum;
        if (codes) listed.set(`${method.toUpperCase()} ${path} ${status}`, new Set(codes));
      }
    }
  }
}

/** The error body's code, when the payload is one this hook can read. */
function codeOf(payload: unknown): string | undefined {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  if (text === null || !text.startsWith('{')) return undefined;
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

function check(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const url = request.routeOptions.url;
  const code = codeOf(payload);
  if (reply.statusCode < 400 || url === undefined || code === undefined || code === 'ROUTE_NOT_FOUND') return;
  // A HEAD is answered by its GET's route.
  const operation = `${request.method === 'HEAD' ? 'GET' : request.method} ${url.replace(/:(\w+)/g, '{$1}')}`;
  if (!operations.has(operation)) readDocument(app);
  const codes = listed.get(`${operation} ${reply.statusCode}`);
  if (codes && !codes.has(code))
    unlisted.push(`${operation} answered ${reply.statusCode} ${code}, which its OpenAPI responses do not list`);
}

/** Holds every error `app` answers against its document (see above). */
export function watchDocumentedCodes(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    check(app, request, reply, payload);
    done(null, payload);
  });
}

const assertAllListed = () => {
  const found = [...new Set(unlisted.splice(0))];
  assert.deepEqual(found, [], "declare the codes in the route's operation (src/http/schemas/)");
};
afterEach(assertAllListed);
// Errors answered in a before or after hook, outside any test.
after(assertAllListed);
