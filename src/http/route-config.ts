import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CacheTags } from './cache-tags.ts';

/**
 * Every flag a route may declare in its `config`, with what it means; each is read by the plugin named
 * beside it, and no other file declares one.
 */

/** Who may call a route: `public` an API key, `admin` the ADMIN_API_KEY, `open` anyone (health, docs). */
export type RouteAccess = 'public' | 'admin' | 'open';

/** A route's own listener: `metrics` the metrics route's (METRICS_PORT), `any` every listener's (health). */
export type RouteListener = 'metrics' | 'any';

declare module 'fastify' {
  interface FastifyRequest {
    /** `request.routeOptions` once read (routeOf). */
    routeRead: FastifyRequest['routeOptions'] | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route (plugins/auth.ts); `public` routes are also counted and cached, `admin` ones served on ADMIN_PORT. */
    access?: RouteAccess;
    /** The route also takes a stream token in `?token=` instead of a key, GET /stream (plugins/auth.ts). */
    streamToken?: boolean;
    /** What the route's document depends on: cached until a change names one of its tags (plugins/response-cache.ts). */
    cacheTags?: CacheTags;
    /** A costly answer no cache holds (the bet builder): it takes a turn of its key's document builds (plugins/response-cache.ts). */
    builds?: boolean;
    /** The listener the route is served on, when not its access's (plugins/listeners.ts). */
    listener?: RouteListener;
    /** The route checks its own input (the feed); the guard's numbers and text checks skip it (plugins/input-guard.ts). */
    ownInputChecks?: boolean;
    /** Neither limited nor counted: the usage route answers a key over its limit (plugins/rate-limit.ts). */
    uncounted?: boolean;
    /** The route's documents carry prices: `oddsFormat` in its querystring adds `price` to each (plugins/odds-format.ts). */
    priced?: boolean;
  }
}

/**
 * The route a request matched (`request.routeOptions`: its URL pattern, config, schema and body
 * limit), read once per request: Fastify's getter builds a new object on every read, and the hooks a
 * polling answer crosses read it about fifteen times.
 */
export function routeOf(request: FastifyRequest): FastifyRequest['routeOptions'] {
  request.routeRead ??= request.routeOptions;
  return request.routeRead;
}

/** Gives every request routeOf's field (Fastify wants a request's fields declared before they are set). */
export function declareRouteOf(app: FastifyInstance): void {
  app.decorateRequest('routeRead', null);
}
