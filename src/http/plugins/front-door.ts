import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
// The global `performance` is an accessor on globalThis, called on every read.
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type RateDecision, rateLimitHeaders } from '../../access/rate-limit.ts';
import { requestId } from '../request-id.ts';
import { presentedKey } from './auth.ts';
import { PUBLIC_PREFIX } from './openapi.ts';
import { handOverRateDecision } from './rate-limit.ts';
import { type CachedAnswer, headerPairs } from './response-cache.ts';

/**
 * Cached answers sent before Fastify routes the request. A hot public GET is a key check, a rate
 * count and a cached byte buffer; Fastify's request and reply objects, routing and hook chain cost
 * more than that on a small document (a 3.8 KB event at 0.35 to 0.74 of a raw node:http server,
 * BENCHMARKS.md "Live data"), so the main listener's handler answers such a hit itself.
 *
 * It does what the hooks would have done for that request, through the same functions: the key
 * verifier (auth), the rate limiter (rate-limit), the cache and its 304s (response-cache), the request
 * id, the metrics and the request log lines. The headers the hooks set (security headers, CORS) come
 * from the request that filled the entry. Anything else goes to Fastify untouched: a miss, a request
 * with an Origin (its CORS answer is its own), a missing or invalid key (401), anything but GET. A
 * request over its rate limit goes to Fastify with the decision already counted, so that the 429 is
 * Fastify's and the request counts once.
 */

/** Answers a request (true), or leaves it for Fastify (false); either at once or as a promise. */
type Answer = (request: IncomingMessage, response: ServerResponse) => boolean | Promise<boolean>;

export interface FrontDoor {
  /** The main server's request listener: the front door once installed, else (and for what it leaves) Fastify's. */
  listener(fastify: RequestListener): RequestListener;
  install(answer: Answer): void;
}

export function frontDoor(): FrontDoor {
  let answer: Answer | null = null;
  return {
    // No named function is made per request here: tsx keeps names (esbuild's keepNames), which
    // defines `name` on every such function as it is made (docs/decisions.md "Caching").
    listener: (fastify) => (request, response) => {
      let answered: boolean | Promise<boolean>;
      try {
        answered = answer === null ? false : answer(request, response);
      } catch {
        // Failed before answering (the store is down): Fastify answers, with the error body.
        if (!response.headersSent) fastify(request, response);
        return;
      }
      if (answered === true) return;
      if (answered === false) return fastify(request, response);
      answered.then(
        (done) => done || fastify(request, response),
        () => response.headersSent || fastify(request, response),
      );
    },
    install: (next) => {
      answer = next;
    },
  };
}

/**
 * `next(value)`: at once when the value is there, else once it settles. A hot hit finds its key, its
 * answer and its rate count in this process and is sent without waiting for a promise.
 */
function then<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** What Fastify's request serializer reads, for a log line of the same shape as its own. */
const loggedRequest = (request: IncomingMessage) => ({
  method: request.method,
  url: request.url,
  headers: request.headers,
  host: request.headers.host,
  ip: request.socket.remoteAddress,
  socket: request.socket,
});

export const frontDoorPlugin = fp(
  async (app: FastifyInstance, options: { door: FrontDoor }) => {
    let closing = false;
    // A closing app answers through Fastify, which adds `Connection: close`.
    app.addHook('preClose', async () => {
      closing = true;
    });

    // Fastify logs every request at info; without a logger (logger: false) there is no isLevelEnabled.
    const logger = app.log as typeof app.log & { isLevelEnabled?: (level: string) => boolean };
    const logsRequests = () => logger.isLevelEnabled?.('info') === true;

    const sendHit = (
      request: IncomingMessage,
      response: ServerResponse,
      hit: CachedAnswer,
      decision: RateDecision,
      started: number,
    ): boolean => {
      if (!decision.allowed) {
        handOverRateDecision(request, decision);
        return false;
      }
      const id = requestId(request);
      const log = logsRequests() ? app.log.child({ reqId: id }) : null;
      log?.info({ req: loggedRequest(request) }, 'incoming request');
      const perRequest = headerPairs(rateLimitHeaders(decision));
      perRequest.push('x-request-id', id);
      const status = app.responseCache.send(request.headers, response, hit, perRequest, true);
      const milliseconds = performance.now() - started;
      app.metrics.countCacheLookup(true);
      app.metrics.countRequest(hit.route, 'GET', status, milliseconds / 1000);
      log?.info({ res: { statusCode: status }, responseTime: milliseconds }, 'request completed');
      return true;
    };

    const answerFromCache = (
      request: IncomingMessage,
      response: ServerResponse,
      presented: string,
      started: number,
    ): boolean | Promise<boolean> =>
      then(app.verifyApiKey(presented, request.socket), (key) => {
        if (key === null) return false;
        return then(app.responseCache.find(key.competitions, request.url as string), (hit) => {
          if (!hit || hit.hookHeaders === null) return false;
          return then(app.consumeRateLimit(key), (decision) => sendHit(request, response, hit, decision, started));
        });
      });

    options.door.install((request, response) => {
      if (
        closing ||
        request.method !== 'GET' ||
        request.headers.origin !== undefined ||
        !request.url?.startsWith(PUBLIC_PREFIX)
      )
        return false;
      const presented = presentedKey(request.headers);
      return presented ? answerFromCache(request, response, presented, performance.now()) : false;
    });
  },
  { name: 'front-door', dependencies: ['auth', 'rate-limit', 'response-cache', 'metrics'] },
);
