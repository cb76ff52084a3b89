import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { onSendHookHandler } from 'fastify';
import type { Config } from '../config.ts';
import { routeOf } from './route-config.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The id a request is logged and answered under: the client's `X-Request-ID` when it is sane, else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * Every answer's `x-request-id`, and a public success wrapped in `{status, message, data}` when
 * RESPONSE_ENVELOPE or the request's `envelope=data` asks. It waits for nothing, so it calls `done`
 * rather than return a promise: a polling answer crosses a dozen hooks.
 */
export function requestIdAndEnvelope(config: Config): onSendHookHandler {
  return (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    const wrap =
      config.responseEnvelope === 'data' || (request.query as Record<string, unknown> | undefined)?.envelope === 'data';
    if (wrap && reply.statusCode < 300 && routeOf(request).config.access === 'public' && typeof payload === 'string') {
      return done(null, `{"status":${reply.statusCode},"message":"Success","data":${payload}}`);
    }
    done(null, payload);
  };
}
