import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaValidationError,
} from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, badRequest } from '../../domain/errors.ts';
import { isSqliteBusy, isSqliteCorrupt } from '../../store/sqlite-errors.ts';
import { RAW_ANSWER_HEADERS, setSecurityHeaders } from './security-headers.ts';

/**
 * Every failure, whatever raised it, leaves as the specification's ServerErrorResponse (section 7).
 * Client mistakes keep their 4xx status and a message that names what was wrong; anything else is a
 * 500 (or 503 when the store is unreachable) that shows no internals.
 */

export interface ErrorBody {
  message: string;
  statusCode: number;
  timestamp: string;
  metadata: Record<string, unknown>;
  stack: string;
}

export function errorBody(
  statusCode: number,
  message: string,
  metadata: Record<string, unknown> = {},
  stack = '',
): ErrorBody {
  return { message, statusCode, timestamp: new Date().toISOString(), metadata, stack };
}

/** How an error names where a bad value was sent, by Fastify's name for that part of the request. */
export const LOCATIONS: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  body: 'request body field',
  headers: 'header',
};

/** Turns Ajv errors into one ApiError naming the parameter and, for enumerations, the allowed values. */
export function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): ApiError {
  const error = errors[0] as FastifySchemaValidationError & { parentSchema?: { description?: string }; data?: unknown };
  const path = (error.instancePath ?? '').split('/').filter(Boolean);
  let name = path[0] ?? '';
  if (error.keyword === 'required') name = (error.params as { missingProperty: string }).missingProperty;
  if (error.keyword === 'additionalProperties')
    name = (error.params as { additionalProperty: string }).additionalProperty;
  const where = LOCATIONS[dataVar] ?? dataVar;
  const metadata: Record<string, unknown> = { in: dataVar === 'querystring' ? 'query' : dataVar, parameter: name };
  let reason = error.message ?? 'is invalid';
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
    metadata.allowedValues = allowed;
    reason = `must be one of ${allowed.join(', ')}`;
  } else if (error.keyword === 'pattern' && error.parentSchema?.description) {
    reason = `must be ${error.parentSchema.description.replace(/^.*?: /, '')}`;
  } else if (error.keyword === 'required') {
    reason = 'is required';
  }
  if (error.data !== undefined && typeof error.data !== 'object') metadata.value = error.data;
  if (dataVar === 'body' && !name) return badRequest(`Invalid request body: ${reason}`, metadata);
  return badRequest(`Invalid ${where} "${name}": ${reason}`, metadata);
}

/**
 * A route's schema error formatter that says what its body should be when the body as a whole has
 * the wrong shape (a union's first branch would otherwise speak for it: "must be array").
 */
export function expectBody(shape: string) {
  return (errors: FastifySchemaValidationError[], dataVar: string): ApiError =>
    dataVar === 'body' && (errors[0]?.instancePath ?? '') === ''
      ? badRequest(`Invalid request body: send ${shape}`, { in: 'body', expected: shape })
      : formatSchemaErrors(errors, dataVar);
}

/** Messages for Fastify's own client errors, which otherwise leak parser details. */
function frameworkClientError(error: FastifyError): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'Unsupported Content-Type: send application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'Request body is too large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return badRequest('Request body is empty: send a JSON document');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return badRequest('Request body is not valid JSON');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
    return badRequest('Request body is not valid JSON');
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500)
    return new ApiError(error.statusCode, error.message);
  return null;
}

/**
 * Errors meaning the store cannot be reached, answered 503 with Retry-After rather than 500:
 * PostgreSQL stopped, restarting or unreachable, a connection that broke under a query, no connection
 * within the pool's timeout; SQLite busy beyond its timeout. Follows `cause`, and the errors of an
 * AggregateError (a host name resolving to several addresses, each refusing).
 */
export function isStoreUnavailable(error: unknown): boolean {
  // Node socket errors: the host or port cannot be reached, or the connection broke.
  const network = [
    'ECONNREFUSED',
    'ECONNRESET',
    'ECONNABORTED',
    'ETIMEDOUT',
    'EPIPE',
    'EHOSTUNREACH',
    'EHOSTDOWN',
    'ENETUNREACH',
    'ENETDOWN',
    'ENOTFOUND',
    'EAI_AGAIN',
  ];
  // SQLSTATEs meaning the server cannot serve now, not that the query is wrong: class 08 (connection
  // exception), 57P01 admin_shutdown (pg_ctl stop -m fast), 57P02 crash_shutdown, 57P03
  // cannot_connect_now (starting up, shutting down), 57P05 idle_session_timeout, 53300 too_many_connections.
  const sqlState = /^(08[0-9A-Z]{3}|57P0[1235]|53300)$/;
  // What pg raises without a code: the socket closed under it (-m immediate, a crash, the network), a
  // query on a client already broken (the rollback after such a failure), the pool's connect timeout.
  const pgMessage =
    /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect)/;
  const check = (value: unknown, depth: number): boolean => {
    if (typeof value !== 'object' || value === null || depth > 5) return false;
    const { code, message, cause, errors } = value as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (network.includes(code) || sqlState.test(code))) return true;
    if (isSqliteBusy(value)) return true;
    if (typeof message === 'string' && pgMessage.test(message)) return true;
    if (Array.isArray(errors) && errors.some((inner) => check(inner, depth + 1))) return true;
    return check(cause, depth + 1);
  };
  return check(error, 0);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What SQLite said when a read found the file corrupt, once it has; /healthz reports it (issue 42). */
    storeCorruption: string | null;
  }
}

/** PostgreSQL's character_not_in_repertoire and untranslatable_character: text the input checks should have caught. */
function isTextRefusedByStore(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '22021' || code === '22P05';
}

/** What a 503 asks clients to wait: about how long a PostgreSQL restart or failover takes. */
const STORE_RETRY_AFTER_SECONDS = 5;

export const errorsPlugin = fp(
  async (app: FastifyInstance, options: { debugErrors: boolean }) => {
    app.setNotFoundHandler((request, reply) => {
      const notFound = routeNotFound(request);
      reply.code(404).send(errorBody(404, notFound.message, notFound.metadata));
    });

    app.decorate('storeCorruption', null);
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const known = error instanceof ApiError ? error : frameworkClientError(error);
      const stack = options.debugErrors ? (error.stack ?? '') : '';
      if (known) {
        if (known.statusCode === 401) reply.header('www-authenticate', 'Bearer realm="altsports"');
        // A 429 or 503 that knows when to come back says so (parlay simulations, issue 25); a 503 otherwise is the store's.
        const retryAfter = known.metadata.retryAfter;
        if (typeof retryAfter === 'number' && (known.statusCode === 429 || known.statusCode === 503))
          reply.header('retry-after', String(retryAfter));
        else if (known.statusCode === 503) reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
        reply.code(known.statusCode).send(errorBody(known.statusCode, known.message, known.metadata, stack));
        return;
      }
      if (isTextRefusedByStore(error)) {
        reply
          .code(400)
          .send(
            errorBody(
              400,
              'Invalid text: the request holds characters no store accepts (NUL or malformed Unicode)',
              { requestId: request.id },
              stack,
            ),
          );
        return;
      }
      if (isStoreUnavailable(error)) {
        request.log.error({ err: error }, 'store unavailable');
        reply
          .code(503)
          .header('retry-after', String(STORE_RETRY_AFTER_SECONDS))
          .send(
            errorBody(
              503,
              'Service temporarily unavailable: the data store cannot be reached',
              { requestId: request.id },
              stack,
            ),
          );
        return;
      }
      if (isSqliteCorrupt(error) && app.storeCorruption === null) {
        // The request still gets its 500; from now on /healthz says the node is not fit to serve.
        app.storeCorruption = error.message;
        request.log.fatal({ err: error }, 'the store is corrupt: /healthz answers 503 until it is repaired');
      }
      request.log.error({ err: error }, 'unhandled error');
      reply.code(500).send(errorBody(500, 'Internal server error', { requestId: request.id }, stack));
    });
  },
  { name: 'errors' },
);

/**
 * Requests the router refuses before any hook runs: a path that is not valid percent-encoding, a path
 * parameter longer than the router allows. Answered with the error body, like everything else.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [statusCode, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, 'URI too long: a path segment is longer than any id']
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'Invalid URL: the path is not valid percent-encoded UTF-8']
        : [400, 'Bad request'];
  // No hook has run: the headers every answer carries are set here.
  setSecurityHeaders(request.raw, reply.raw);
  reply.code(statusCode).send(errorBody(statusCode, message, { method: request.method }));
}

export function routeNotFound(request: FastifyRequest): ApiError {
  return new ApiError(404, `Route ${request.method} ${request.url.split('?')[0]} not found`, {
    method: request.method,
  });
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout: the request did not arrive in time'],
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large'],
};

/**
 * Requests Node rejects before Fastify sees them (malformed HTTP, headers too large, a request that
 * does not arrive within REQUEST_TIMEOUT_SECONDS) still get the error body; the connection is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [statusCode, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad request: malformed HTTP'];
  const body = JSON.stringify(errorBody(statusCode, message));
  if (socket.writable) {
    const headers = {
      ...RAW_ANSWER_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      // No request was parsed to take an id from: a new one, so the answer can still be quoted.
      'x-request-id': randomUUID(),
      connection: 'close',
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n${lines.join('')}\r\n${body}`);
  }
  socket.destroy();
}
