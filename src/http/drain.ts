import { createServer, type RequestListener, type Server, type ServerOptions, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * The first step of a graceful stop, before Fastify's close. Fastify's close (and Node's
 * http.Server#close) stops listening and at once closes keep-alive connections that look idle: a
 * request a client already sent on such a connection (in the socket, not yet read) would be reset.
 * So first: stop listening only (new connections are refused), answer everything with
 * `Connection: close` (clients reconnect, to another node), and give idle connections a moment to
 * deliver what is on its way.
 */
export interface Drainer {
  /** Stops accepting connections; from now on every answer whose headers go out says `Connection: close`. */
  begin(): void;
  /**
   * Settles once no connection is left, or after `maxMs`. `closeIdle`: close connections as soon as
   * they are idle (after the moment given to requests on their way).
   */
  settle(maxMs: number, options?: { closeIdle?: boolean }): Promise<void>;
}

const drainers = new WeakMap<Server, Drainer>();

/**
 * A node:http server that can be drained (`drainerOf`). Its responses check the drain when their
 * headers are written, which covers requests already in flight when it begins as well as later ones,
 * at no cost to each request (a 'request' listener tracking every response cost a few µs each,
 * BENCHMARKS.md "Reading (session 8)").
 */
export function drainableServer(options: ServerOptions, handler: RequestListener): Server {
  let draining = false;
  const server = createServer({ ...options, ServerResponse: responseClass(() => draining) }, handler);
  const openConnections = () =>
    new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
  drainers.set(server, {
    begin() {
      if (draining) return;
      draining = true;
      // net.Server's close, not http.Server's: stop accepting, leave open connections alone.
      if (server.listening) NetServer.prototype.close.call(server);
    },
    async settle(maxMs, { closeIdle = false } = {}) {
      const deadline = performance.now() + maxMs;
      while (performance.now() < deadline) {
        if (closeIdle) server.closeIdleConnections();
        if ((await openConnections()) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  });
  return server;
}

/**
 * The response class: ServerResponse whose writeHead adds `Connection: close` while `draining()`.
 * Written as a function constructor, the way node:http declares ServerResponse itself, not as
 * `class extends ServerResponse`: under load V8 never optimized that class's constructor, nor
 * parserOnIncoming which builds it (each attempt "bailed out due to dependency change", about 800
 * times in 20 s of the bench), and a cached 200 of the 3.8 KB event cost 41 µs of CPU against 25 µs
 * with this one (BENCHMARKS.md "Results after session 10"; test/http/drain.test.ts watches V8's trace).
 * Should node:http ever declare ServerResponse as a class, the call below throws on the first request,
 * and every HTTP test shows it.
 */
function responseClass(draining: () => boolean): typeof ServerResponse {
  const baseConstructor = ServerResponse as unknown as (this: ServerResponse, ...args: unknown[]) => void;
  const baseWriteHead = ServerResponse.prototype.writeHead as (
    this: ServerResponse,
    ...args: unknown[]
  ) => ServerResponse;
  function DrainableResponse(this: ServerResponse, ...args: unknown[]): void {
    baseConstructor.apply(this, args);
  }
  Object.setPrototypeOf(DrainableResponse, ServerResponse);
  DrainableResponse.prototype = Object.create(ServerResponse.prototype, {
    constructor: { value: DrainableResponse, writable: true, configurable: true },
    writeHead: {
      value: function writeHead(this: ServerResponse, ...args: unknown[]): ServerResponse {
        if (draining()) this.setHeader('connection', 'close');
        return baseWriteHead.apply(this, args);
      },
      writable: true,
      configurable: true,
    },
  }) as ServerResponse;
  return DrainableResponse as unknown as typeof ServerResponse;
}

export function drainerOf(server: Server): Drainer {
  const drainer = drainers.get(server);
  if (!drainer) throw new Error('drainerOf: the server was not made by drainableServer');
  return drainer;
}
