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
import { CodedError, type ErrorCode, fail } from '../../domain/errors.ts';
import { isSqliteBusy, isSqliteCorrupt } from '../../store/sqlite-errors.ts';
import { statusOf } from '../error-statuses.ts';
import { RAW_ANSWER_HEADERS, setSecurityHeaders } from './security-headers.ts';

/**
 * Every failure, whatever raised it, leaves as the specification's ServerErrorResponse (section 7)
 * with the catalogue's `code` added (domain/errors.ts). Client mistakes keep their 4xx status and a
 * message that names what was wrong; anything else is a 500 (or 503 when the store is unreachable)
 * that shows no internals.
 */

export interface ErrorBody {
  message: string;
  statusCode: number;
  code: ErrorCode;
  timestamp: string;
  metadata: Record<string, unknown>;
  stack: string;
}

/** The body of a coded error; `statusCode` only where the framework chose it (REQUEST_REFUSED). */
export function errorBody(error: CodedError, stack = '', statusCode = statusOf(error.code)): ErrorBody {
  const { code, message, metadata } = error;
  return { message, statusCode, code, timestamp: new Date().toISOString(), metadata, stack };
}

/** How an error names where a bad value was sent, by Fastify's name for that part of the request. */
export const LOCATIONS: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  body: 'request body field',
  headers: 'header',
};

/** Turns Ajv errors into one coded error naming the parameter and, for enumerations, the allowed values. */
export function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): CodedError {
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
  if (dataVar === 'body' && !name) return fail('INVALID_BODY', { reason }, metadata);
  return fail('INVALID_PARAMETER', { where, name, reason }, metadata);
}

/**
 * A route's schema error formatter that says what its body should be when the body as a whole has
 * the wrong shape (a union's first branch would otherwise speak for it: "must be array").
 */
export function expectBody(shape: string) {
  return (errors: FastifySchemaValidationError[], dataVar: string): CodedError =>
    dataVar === 'body' && (errors[0]?.instancePath ?? '') === ''
      ? fail('INVALID_BODY', { reason: `send ${shape}` }, { in: 'body', expected: shape })
      : formatSchemaErrors(errors, dataVar);
}

/** Fastify's own client errors by their codes: ours say it without the parser's details. */
const FRAMEWORK_ERRORS: Record<string, () => CodedError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => fail('UNSUPPORTED_MEDIA_TYPE'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => fail('BODY_TOO_LARGE', {}),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => fail('BODY_EMPTY'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => fail('BODY_NOT_JSON', {}),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => fail('BODY_NOT_JSON', {}),
};

/** A Fastify client error as a coded one, with the status Fastify chose for the rest; null for a server error. */
function frameworkClientError(error: FastifyError): { error: CodedError; statusCode: number } | null {
  const known = FRAMEWORK_ERRORS[error.code]?.() ?? (error instanceof SyntaxError ? fail('BODY_NOT_JSON', {}) : null);
  if (known) return { error: known, statusCode: statusOf(known.code) };
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500)
    return { error: fail('REQUEST_REFUSED', { reason: error.message }), statusCode: error.statusCode };
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
    /** What SQLite said when a read found the file corrupt, once it has; /healthz reports it. */
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
      reply.code(404).send(errorBody(routeNotFound(request)));
    });

    app.decorate('storeCorruption', null);
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const known =
        error instanceof CodedError ? { error, statusCode: statusOf(error.code) } : frameworkClientError(error);
      const stack = options.debugErrors ? (error.stack ?? '') : '';
      if (known) {
        const { statusCode } = known;
        if (statusCode === 401) reply.header('www-authenticate', 'Bearer realm="altsports"');
        // A 429 or 503 that knows when to come back says so (parlay simulations); a 503 otherwise is the store's.
        const retryAfter = known.error.metadata.retryAfter;
        if (typeof retryAfter === 'number' && (statusCode === 429 || statusCode === 503))
          reply.header('retry-after', String(retryAfter));
        else if (statusCode === 503) reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
        reply.code(statusCode).send(errorBody(known.error, stack, statusCode));
        return;
      }
      if (isTextRefusedByStore(error)) {
        reply.code(400).send(errorBody(fail('INVALID_TEXT', { requestId: request.id }), stack));
        return;
      }
      if (isStoreUnavailable(error)) {
        request.log.error({ err: error }, 'store unavailable');
        reply
          .code(503)
          .header('retry-after', String(STORE_RETRY_AFTER_SECONDS))
          .send(errorBody(fail('STORE_UNAVAILABLE', {}, { requestId: request.id }), stack));
        return;
      }
      if (isSqliteCorrupt(error) && app.storeCorruption === null) {
        // The request still gets its 500; from now on /healthz says the node is not fit to serve.
        app.storeCorruption = error.message;
        request.log.fatal({ err: error }, 'the store is corrupt: /healthz answers 503 until it is repaired');
      }
      request.log.error({ err: error }, 'unhandled error');
      reply.code(500).send(errorBody(fail('INTERNAL_ERROR', { requestId: request.id }), stack));
    });
  },
  { name: 'errors' },
);

/**
 * Requests the router refuses before any hook runs: a path that is not valid percent-encoding, a path
 * parameter longer than the router allows. Answered with the error body, like everything else.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const metadata = { method: request.method };
  const refusal =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? fail('URI_TOO_LONG', metadata)
      : error.code === 'FST_ERR_BAD_URL'
        ? fail('INVALID_URL', metadata)
        : fail('MALFORMED_HTTP', {}, metadata);
  // No hook has run: the headers every answer carries are set here.
  setSecurityHeaders(request.raw, reply.raw);
  reply.code(statusOf(refusal.code)).send(errorBody(refusal));
}

export function routeNotFound(request: FastifyRequest): CodedError {
  return fail(
    'ROUTE_NOT_FOUND',
    { method: request.method, path: request.url.split('?')[0] ?? '' },
    { method: request.method },
  );
}

const CLIENT_ERRORS: Record<string, () => CodedError> = {
  ERR_HTTP_REQUEST_TIMEOUT: () => fail('REQUEST_TIMEOUT'),
  HPE_HEADER_OVERFLOW: () => fail('HEADERS_TOO_LARGE'),
};

/**
 * Requests Node rejects before Fastify sees them (malformed HTTP, headers too large, a request that
 * does not arrive within REQUEST_TIMEOUT_SECONDS) still get the error body; the connection is closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = CLIENT_ERRORS[error.code ?? '']?.() ?? fail('MALFORMED_HTTP', { detail: 'malformed HTTP' });
  const statusCode = statusOf(refusal.code);
  const body = JSON.stringify(errorBody(refusal));
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
