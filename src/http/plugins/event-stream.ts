import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { activeKeyScopes, narrowScope, type VerifiedKey } from '../../access/api-keys.ts';
import { fail } from '../../domain/errors.ts';
import type { Store } from '../../store/database.ts';

/**
 * Server-sent events (text/event-stream) over a hijacked reply: framing, heartbeats that keep
 * proxies from timing the connection out, a bound on what a slow client may leave unread, and a
 * last `close` event to every client when the server shuts down (so that it reconnects elsewhere),
 * or when its key is revoked or reads other competitions than when the stream opened.
 */

/** Why the server ended a stream, in the `close` event's data. */
export type CloseReason = 'shutdown' | 'keyRevoked' | 'keyChanged';

const CLOSE_MESSAGES: Record<CloseReason, string> = {
  shutdown: 'The server is shutting down; reconnect with Last-Event-ID to resume.',
  keyRevoked: 'The API key of this stream was revoked.',
  keyChanged: "The API key's competitions changed; reconnect with Last-Event-ID to resume under them.",
};
export interface EventStream {
  send(event: { id?: number; event: string; data: unknown }): void;
  /** Runs once, when the client goes away or the stream is ended. */
  onClose(listener: () => void): void;
  end(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    openEventStream(request: FastifyRequest, reply: FastifyReply): EventStream;
  }
}

export interface EventStreamOptions {
  heartbeatMs: number;
  /** Streams one API key may hold open at once; the next is refused with a 429. */
  maxPerKey: number;
  /** Past this many unsent bytes the client is too slow: it is disconnected and resumes with Last-Event-ID. */
  maxBufferedBytes?: number;
  /** The reconnection delay suggested to clients (the `retry` field). */
  retryMs?: number;
  /** Where keys are kept, and how often open streams' keys are read again from it. */
  keys: { store: Store; checkMs: number };
}

interface OpenStream {
  stream: EventStream;
  key: VerifiedKey | null;
}

export const eventStreamPlugin = fp(
  async (app: FastifyInstance, options: EventStreamOptions) => {
    const open = new Map<EventStream, OpenStream>();
    const closeWith = (stream: EventStream, reason: CloseReason) => {
      stream.send({ event: 'close', data: { reason, message: CLOSE_MESSAGES[reason] } });
      stream.end();
    };
    const checker = keyChecker(app, open, options.keys, closeWith);
    app.addHook('onClose', () => checker.stop());
    const maxBuffered = options.maxBufferedBytes ?? 4 * 1024 * 1024;

    const openByKey = new Map<string, number>();

    app.decorate('openEventStream', (request: FastifyRequest, reply: FastifyReply): EventStream => {
      const keyId = request.apiKey?.id ?? '';
      const held = openByKey.get(keyId) ?? 0;
      if (held >= options.maxPerKey) {
        throw fail('TOO_MANY_STREAMS', { held }, { openStreams: held, limit: options.maxPerKey });
      }
      openByKey.set(keyId, held + 1);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string | number | string[]>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // nginx would otherwise buffer the stream.
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      res.write(`retry: ${options.retryMs ?? 2000}\n\n`);
      const listeners: Array<() => void> = [];
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        open.delete(stream);
        const left = (openByKey.get(keyId) ?? 1) - 1;
        if (left > 0) openByKey.set(keyId, left);
        else openByKey.delete(keyId);
        app.metrics.streamClients.dec();
        for (const listener of listeners) listener();
      };
      const write = (text: string) => {
        if (closed) return;
        res.write(text);
        if (res.writableLength > maxBuffered) {
          request.log.warn({ buffered: res.writableLength }, 'stream client too slow: disconnected');
          stream.end();
        }
      };
      const heartbeat = setInterval(() => write(`: heartbeat ${new Date().toISOString()}\n\n`), options.heartbeatMs);
      heartbeat.unref();
      const stream: EventStream = {
        send({ id, event, data }) {
          write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        },
        onClose(listener) {
          if (closed) listener();
          else listeners.push(listener);
        },
        end() {
          if (closed) return;
          close();
          res.end();
        },
      };
      res.on('close', close);
      open.set(stream, { stream, key: request.apiKey });
      app.metrics.streamClients.inc();
      return stream;
    });

    app.addHook('preClose', async () => {
      for (const stream of [...open.keys()]) closeWith(stream, 'shutdown');
    });
  },
  { name: 'event-stream', dependencies: ['metrics'] },
);

/**
 * Reads the keys of the open streams from the store every `checkMs`, and ends the streams of a key
 * revoked or rescoped since they opened. The store is what every process writes keys to (the CLI,
 * another node), so this needs no signal of its own; one query a round, for the keys with streams.
 */
function keyChecker(
  app: FastifyInstance,
  open: Map<EventStream, OpenStream>,
  { store, checkMs }: EventStreamOptions['keys'],
  closeWith: (stream: EventStream, reason: CloseReason) => void,
) {
  let running = false;
  const check = async () => {
    const ids = [...new Set([...open.values()].flatMap(({ key }) => (key ? [key.id] : [])))];
    if (ids.length === 0) return;
    const scopes = await activeKeyScopes(store, ids);
    for (const { stream, key } of [...open.values()]) {
      if (!key) continue;
      const scope = scopes.get(key.id);
      if (scope === undefined) closeWith(stream, 'keyRevoked');
      else if (!sameScope(narrowScope(key.tokenCompetitions ?? null, scope), key.competitions))
        closeWith(stream, 'keyChanged');
    }
  };
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    check()
      .catch((error: unknown) => app.log.warn({ err: error }, "stream: checking the streams' keys failed"))
      .finally(() => {
        running = false;
      });
  }, checkMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function sameScope(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((c) => b.includes(c));
}
