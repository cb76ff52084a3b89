import { type IncomingMessage, type Server, type ServerOptions, createServer } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { routeNotFound } from './errors.ts';

/**
 * The admin API and the metrics can each be given a listener of their own (ADMIN_PORT, METRICS_PORT),
 * usually on a private interface, so that the public port cannot reach them at all. One Fastify
 * instance serves every listener: each request is marked with the listener it arrived on, and a route
 * answers only on the listener it belongs to (404 elsewhere, as if it did not exist).
 */

export type ListenerName = 'public' | 'admin' | 'metrics';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `metrics`: the metrics route; `any`: served on every listener (health). */
    listener?: 'metrics' | 'any';
  }
  interface FastifyInstance {
    /** Starts the main listener (HOST:PORT) and any admin or metrics listener; returns their origins. */
    listenAll(): Promise<Record<ListenerName, string | null>>;
  }
}

const ARRIVED_ON = Symbol('altsports.listener');

export interface ListenerPorts {
  adminPort: number | null;
  metricsPort: number | null;
}

/** Where a route is served, given which listeners exist. */
export function routeListener(route: { access?: string; listener?: 'metrics' | 'any' }, ports: ListenerPorts): ListenerName | 'any' {
  if (route.listener === 'any') return 'any';
  if (route.listener === 'metrics') return ports.metricsPort === null ? 'public' : 'metrics';
  if (route.access === 'admin') return ports.adminPort === null ? 'public' : 'admin';
  return 'public';
}

export function arrivedOn(request: FastifyRequest): ListenerName {
  return (request.raw as IncomingMessage & { [ARRIVED_ON]?: ListenerName })[ARRIVED_ON] ?? 'public';
}

/** Node HTTP server settings shared by every listener: how long a request and an idle connection may take. */
export function serverTimeouts(config: Pick<Config, 'requestTimeoutSeconds' | 'keepAliveTimeoutSeconds'>): ServerOptions {
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  return {
    requestTimeout,
    headersTimeout: Math.min(requestTimeout, 60_000),
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    // Node checks the two request timeouts this often (30 s by default, longer than a short timeout).
    connectionsCheckingInterval: Math.min(1000, requestTimeout),
  };
}

export const listenersPlugin = fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    const { config } = options;
    const extra = new Map<ListenerName, { port: number; server: Server }>();
    for (const [name, port] of [['admin', config.adminPort], ['metrics', config.metricsPort]] as const) {
      if (port === null) continue;
      const server = createServer(serverTimeouts(config), (req, res) => {
        (req as IncomingMessage & { [ARRIVED_ON]?: ListenerName })[ARRIVED_ON] = name;
        app.routing(req, res);
      });
      server.keepAliveTimeout = config.keepAliveTimeoutSeconds * 1000;
      server.on('clientError', (error, socket) => app.server.emit('clientError', error, socket));
      extra.set(name, { port, server });
    }

    app.addHook('onRequest', async (request) => {
      const served = routeListener(request.routeOptions.config, config);
      if (served !== 'any' && served !== arrivedOn(request) && request.routeOptions.url !== undefined) throw routeNotFound(request);
    });

    // In-flight requests on the extra listeners finish; idle connections close at once.
    app.addHook('onClose', async () => {
      await Promise.all(
        [...extra.values()].map(({ server }) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))),
      );
    });

    app.decorate('listenAll', async () => {
      const origin = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      const origins: Record<ListenerName, string | null> = {
        public: origin(config.host, typeof address === 'object' && address ? address.port : config.port),
        admin: null,
        metrics: null,
      };
      for (const [name, { port, server }] of extra) {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, config.adminHost, () => resolve());
        });
        origins[name] = origin(config.adminHost, port);
      }
      return origins;
    });
  },
  { name: 'listeners' },
);
