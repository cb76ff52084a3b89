import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * The first step of a graceful stop, before Fastify's close. Fastify's close (and Node's
 * http.Server#close) stops listening and at once closes keep-alive connections that look idle: a
 * request a client already sent on such a connection (in the socket, not yet read) would be reset.
 * So first: stop listening only (new connections are refused), answer everything with
 * `Connection: close` (clients reconnect, to another node; the listeners plugin's hook adds it), and
 * give idle connections a moment to deliver what is on its way.
 */
export interface Drainer {
  /** Whether the drain has begun: every answer from now on says `Connection: close`. */
  readonly draining: boolean;
  /** Stops accepting connections. */
  begin(): void;
  /**
   * Settles once no connection is left, or after `maxMs`. `closeIdle`: close connections as soon as
   * they are idle (after the moment given to requests on their way).
   */
  settle(maxMs: number, options?: { closeIdle?: boolean }): Promise<void>;
}

export function drainer(server: Server): Drainer {
  let draining = false;
  const openConnections = () =>
    new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
  return {
    get draining() {
      return draining;
    },
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
  };
}
