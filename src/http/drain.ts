import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * The first step of a graceful stop, before Fastify's close. Fastify's close (and Node's
 * http.Server#close) stops listening and at once closes keep-alive connections that look idle: a
 * request a client already sent on such a connection (in the socket, not yet read) would be reset.
 * So first: stop listening only (new connections are refused), answer everything with
 * `Connection: close` (clients reconnect, to another node), and give idle connections a moment to
 * deliver what is on its way.
 */
export function drainer(server: Server) {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  server.prependListener('request', (_request, response: ServerResponse) => {
    if (draining) response.setHeader('connection', 'close');
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
  });
  const openConnections = () => new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
  return {
    begin() {
      if (draining) return;
      draining = true;
      for (const response of inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
      // net.Server's close, not http.Server's: stop accepting, leave open connections alone.
      if (server.listening) NetServer.prototype.close.call(server);
    },
    /**
     * Settles once no connection is left, or after `maxMs`. `closeIdle`: close connections as soon as
     * they are idle (after the moment given to requests on their way).
     */
    async settle(maxMs: number, { closeIdle = false } = {}): Promise<void> {
      const deadline = performance.now() + maxMs;
      while (performance.now() < deadline) {
        if (closeIdle) server.closeIdleConnections();
        if ((await openConnections()) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}
