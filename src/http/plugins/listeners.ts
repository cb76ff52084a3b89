import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { CodedError, ERRORS } from '../../domain/errors.ts';
import { type RouteListener, routeOf } from '../route-config.ts';
import { routeNotFound } from './errors.ts';

/**
 * The admin API and the metrics can each be given a listener of their own (ADMIN_PORT, METRICS_PORT),
 * usually on a private interface, so that the public port cannot reach them at all. One Fastify
 * instance serves every listener: each request is marked with the listener it arrived on, and a route
 * answers only on the listener it belongs to (404 elsewhere, as if it did not exist).
 */

export type ListenerName = 'public' | 'admin' | 'metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /** Starts the main listener (HOST:PORT) and any admin or metrics listener; returns their origins. */
    listenAll(): Promise<Record<ListenerName, string | null>>;
    /**
     * Stops every listener gracefully (SIGTERM): new connections are refused at once; every request
     * already sent, even one still in an idle keep-alive connection, is answered with
     * `Connection: close`; stream clients get their last event; then the app closes. Connections still
     * open after `timeoutMs` are cut.
     */
    closeGracefully(options?: { idleMs?: number; timeoutMs?: number }): Promise<void>;
  }
}

const ARRIVED_ON = Symbol('altsports.listener');

/** A listener that could not start, named by the settings that place it. */
export class ListenError extends CodedError {
  constructor(message: string, options: { cause: unknown }) {
    super('LISTEN_FAILED', ERRORS.LISTEN_FAILED.message({ message }));
    this.cause = options.cause;
  }
}

const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use',
  EACCES: 'permission denied (a port below 1024 needs privileges)',
  EADDRNOTAVAIL: 'no interface of this machine has that address',
  ENOTFOUND: 'the host name does not resolve',
};

/** Runs `listen`, turning its failure into a ListenError naming `settings` (`HOST=… PORT=…`). */
async function listening(settings: string, listen: () => Promise<unknown>): Promise<void> {
  try {
    await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code ? `${LISTEN_PROBLEMS[code] ?? (error as Error).message} (${code})` : (error as Error).message;
    throw new ListenError(`cannot listen on ${settings}: ${problem}`, { cause: error });
  }
}

export interface ListenerPorts {
  adminPort: number | null;
  metricsPort: number | null;
}

/** Where a route is served, given which listeners exist. */
export function routeListener(
  route: { access?: string; listener?: RouteListener },
  ports: ListenerPorts,
): ListenerName | 'any' {
  if (route.listener === 'any') return 'any';
  if (route.listener === 'metrics') return ports.metricsPort === null ? 'public' : 'metrics';
  if (route.access === 'admin') return ports.adminPort === null ? 'public' : 'admin';
  return 'public';
}

export function arrivedOn(request: FastifyRequest): ListenerName {
  return (request.raw as IncomingMessage & { [ARRIVED_ON]?: ListenerName })[ARRIVED_ON] ?? 'public';
}

/** Node HTTP server settings shared by every listener: how long a request and an idle connection may take. */
function serverTimeouts(config: Pick<Config, 'requestTimeoutSeconds' | 'keepAliveTimeoutSeconds'>): ServerOptions {
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  return {
    requestTimeout,
    headersTimeout: Math.min(requestTimeout, 60_000),
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    // Node checks the two request timeouts this often (30 s by default, longer than a short timeout).
    connectionsCheckingInterval: Math.min(1000, requestTimeout),
  };
}

/**
 * A node:http server with the settings every listener shares (the main one is made through Fastify's
 * serverFactory). A request that asks `Expect: 100-continue` for a body over BODY_LIMIT_MB gets no 100:
 * it goes straight to the app, whose 413 it gets at once, instead of sending the body first.
 */
export function listenerServer(
  config: Pick<Config, 'requestTimeoutSeconds' | 'keepAliveTimeoutSeconds' | 'bodyLimitBytes'>,
  handler: RequestListener,
): Server {
  const server = createServer(serverTimeouts(config), handler);
  server.keepAliveTimeout = config.keepAliveTimeoutSeconds * 1000;
  server.on('checkContinue', (req, res) => {
    if (!(Number(req.headers['content-length']) > config.bodyLimitBytes)) res.writeContinue();
    handler(req, res);
  });
  return server;
}

export const listenersPlugin = fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    const { config } = options;
    const extra = extraServers(app, config);
    // With one listener, every route is served where every request arrives: nothing to check.
    if (extra.size > 0)
      app.onRequestStep((request) => {
        const served = routeListener(routeOf(request).config, config);
        if (served !== 'any' && served !== arrivedOn(request) && routeOf(request).url !== undefined)
          throw routeNotFound(request);
        return undefined;
      });

    const servers = [app.server, ...[...extra.values()].map(({ server }) => server)];
    const drainers = servers.map(drainer);
    // Once the drain begins, every answer still to be sent asks its client to reconnect (elsewhere).
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (drainers.some((drain) => drain.draining)) reply.header('connection', 'close');
      done(null, payload);
    });
    // Fastify closes its own server; the extra ones stop listening, then their requests finish.
    app.addHook('onClose', async () => {
      await Promise.all(
        drainers.slice(1).map(async (drain) => {
          drain.begin();
          await drain.settle(Number.POSITIVE_INFINITY, { closeIdle: true });
        }),
      );
    });
    app.decorate('closeGracefully', (options?: { idleMs?: number; timeoutMs?: number }) =>
      closeGracefully(app, servers, drainers, options),
    );
    app.decorate('listenAll', () => listenAll(app, config, extra));
  },
  { name: 'listeners', dependencies: ['request-steps'] },
);

type ExtraServers = Map<ListenerName, { port: number; server: Server }>;

/** The admin and metrics listeners configured on ports of their own, routed into the app. */
function extraServers(app: FastifyInstance, config: Config): ExtraServers {
  const extra: ExtraServers = new Map();
  for (const [name, port] of [
    ['admin', config.adminPort],
    ['metrics', config.metricsPort],
  ] as const) {
    if (port === null) continue;
    const server = listenerServer(config, (req, res) => {
      (req as IncomingMessage & { [ARRIVED_ON]?: ListenerName })[ARRIVED_ON] = name;
      app.routing(req, res);
    });
    server.on('clientError', (error, socket) => app.server.emit('clientError', error, socket));
    extra.set(name, { port, server });
  }
  return extra;
}

/** `app.closeGracefully`: every listener drains, then the app closes; connections still open are closed at `timeoutMs`. */
async function closeGracefully(
  app: FastifyInstance,
  servers: Server[],
  drainers: ReturnType<typeof drainer>[],
  { idleMs = 1_000, timeoutMs = 30_000 } = {},
): Promise<void> {
  // A request that never ends (a client reading a large answer very slowly) must not keep the process up.
  const force = setTimeout(() => {
    app.log.warn({ afterMs: timeoutMs }, 'shutting down: closing the connections still open');
    for (const server of servers) server.closeAllConnections();
  }, timeoutMs);
  let sweep: NodeJS.Timeout | undefined;
  try {
    for (const drain of drainers) drain.begin();
    await Promise.all(drainers.map((drain) => drain.settle(idleMs)));
    // Then a connection whose last answer went out as keep-alive (a stream, an answer begun before
    // the signal) is closed once idle, rather than at the keep-alive timeout.
    sweep = setInterval(() => {
      for (const server of servers) server.closeIdleConnections();
    }, 100);
    await app.close();
  } finally {
    clearTimeout(force);
    clearInterval(sweep);
  }
}

/** `app.listenAll`: the public listener and the extra ones; where each listens. */
async function listenAll(app: FastifyInstance, config: Config, extra: ExtraServers) {
  const origin = (host: string, port: number) =>
    `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  await listening(`HOST=${config.host} PORT=${config.port}`, () =>
    app.listen({ host: config.host, port: config.port }),
  );
  const address = app.server.address();
  const origins: Record<ListenerName, string | null> = {
    public: origin(config.host, typeof address === 'object' && address ? address.port : config.port),
    admin: null,
    metrics: null,
  };
  for (const [name, { port, server }] of extra) {
    await listening(
      `ADMIN_HOST=${config.adminHost} ${name === 'admin' ? 'ADMIN_PORT' : 'METRICS_PORT'}=${port}`,
      () =>
        new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, config.adminHost, () => resolve());
        }),
    );
    origins[name] = origin(config.adminHost, port);
  }
  return origins;
}

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
