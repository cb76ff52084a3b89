import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { StoredChange } from '../../domain/changes.ts';
import type { ChangeFeed } from '../../store/change-feed.ts';
import type { Store } from '../../store/database.ts';
import { AnswerCache, type CachedAnswer, entityTag, notModified, type Variant } from '../answer-cache.ts';
import { type Coding, codingFor, MIN_COMPRESSED_BYTES } from '../content-coding.ts';
import { documentBuilds } from '../document-builds.ts';
import { routeOf } from '../route-config.ts';
import { scopeOf } from './auth.ts';

/**
 * Public GET responses as the exact bytes sent, with an ETag and a Last-Modified, reused until a
 * change names one of the tags their route declares (http/cache-tags.ts): a change to one heat drops
 * that event's documents and its competition's lists, nothing else. Changes arrive from this
 * process's writes at once and from other processes through the change feed; while the feed cannot
 * vouch for that (its PostgreSQL listener is down) nothing is served from the cache.
 *
 * A hit is answered from a preHandler hook, after auth, rate limits and validation, like any other answer:
 * Fastify's onSend and onResponse hooks (request id, metrics, logs) run for it too. A URL that has
 * validated before is answered from the last onRequest step instead, after auth and rate limits: its
 * validation would give the same key again. Every public GET
 * and HEAD answers 304 to a matching If-None-Match (or, without one, to an If-Modified-Since not older than its
 * Last-Modified), cached or not.
 *
 * A cached document of 1 KB or more goes compressed to a client whose Accept-Encoding takes br or gzip
 * (content-coding.ts), with `Vary: Accept-Encoding`. Each coding is made once, by the first request
 * that asks for it, and kept with the entry; its ETag is the document's with `-br` or `-gzip` inside
 * the quotes, and any of the document's tags answers a conditional request for any coding.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** Answered from the response cache: its onSend hook leaves the answer as it is. */
    cacheHit: boolean;
  }
}

const CACHE_CONTROL = 'private, no-cache';

/**
 * A document's key: the key's scope, the route, its path parameters and the query parameters the
 * route declares (and `envelope`), as validation left them. Parameters a route does not read, and the
 * spellings of one value (`eventStatus=A,B` or `eventStatus[0]=A&eventStatus[1]=B`), make no entries
 * of their own: a client cannot fill the cache with copies of one document.
 */
function cacheKey(request: FastifyRequest): string {
  const scope = scopeOf(request);
  const query = request.query as Record<string, unknown>;
  const read = keyParameters(request).filter((name) => query[name] !== undefined);
  return JSON.stringify([
    scope === null ? '*' : scope.join(','),
    routeOf(request).url,
    request.params,
    read.map((name) => [name, query[name]]),
  ]);
}

/** The URL as the client sent it, under the key's scope: what a document key is made from before validation. */
function requestedUrl(request: FastifyRequest): string {
  const scope = scopeOf(request);
  return `${scope === null ? '*' : scope.join(',')} ${request.url}`;
}

/** A route's query parameters that make its answers differ, in order; worked out on its first request. */
function keyParameters(request: FastifyRequest): readonly string[] {
  const schema = routeOf(request).schema;
  let names = declaredParameters.get(schema ?? NO_SCHEMA);
  if (names === undefined) {
    const declared = (schema?.querystring as { properties?: object } | undefined)?.properties;
    names = [...Object.keys(declared ?? {}), 'envelope'].sort();
    declaredParameters.set(schema ?? NO_SCHEMA, names);
  }
  return names;
}
const NO_SCHEMA = {};
const declaredParameters = new WeakMap<object, readonly string[]>();

/** A Vary header that names Accept-Encoding, with what another hook put there before (CORS's Origin). */
function withAcceptEncoding(vary: ReturnType<FastifyReply['getHeader']>): string {
  if (vary === undefined) return 'accept-encoding';
  const named = String(vary)
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return named.some((name) => name.toLowerCase() === 'accept-encoding')
    ? named.join(', ')
    : [...named, 'accept-encoding'].join(', ');
}

/** The headers a hit in `coding` carries: its validators, and for a 200 what describes its body. */
function answerHeaders(answer: CachedAnswer, sent: Variant, coding: Coding, status: 200 | 304) {
  const headers: Record<string, string> = {
    etag: sent.etag,
    'last-modified': answer.lastModified.header,
    'cache-control': CACHE_CONTROL,
  };
  if (status === 304) return headers;
  headers['content-type'] = 'application/json; charset=utf-8';
  if (coding !== 'identity' && sent.body !== answer.variants.identity.body) headers['content-encoding'] = coding;
  if (answer.link) headers.link = answer.link;
  return headers;
}

export interface ResponseCacheOptions {
  store: Store;
  feed: ChangeFeed;
  /** Requests a document built afresh costs its key (DOCUMENT_BUILD_COST); a cached answer costs one. */
  buildCost: number;
  /** Documents one key may have built at once (DOCUMENT_BUILDS_PER_KEY); its other misses wait. */
  buildsPerKey: number;
}

export const responseCachePlugin = fp(
  async (app: FastifyInstance, options: ResponseCacheOptions) => {
    const { store, feed } = options;
    const cache = new AnswerCache();
    app.metrics.observeResponseCache(() => cache.size());
    // Own writes drop at commit, before the write's response: a client reads its own write.
    const drop = (changes: StoredChange[]) => cache.drop(changes);
    const unsubscribes = [store.onWrite(drop), feed.subscribe(drop), feed.onLiveChange(() => cache.dropAll())];
    app.addHook('onClose', async () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    });
    // The answer held under `key` once the other processes' writes are known (SQLite's data_version;
    // PostgreSQL's LISTEN is pushed), given to `use`: at once when none is pending, as for most requests.
    const withHeld = <T>(key: string, use: (hit: CachedAnswer | undefined) => T): T | Promise<T> => {
      const read = () => use(feed.live ? cache.get(key) : undefined);
      const pending = feed.catchUp();
      return pending === null ? read() : pending.then(read);
    };
    const held = async (key: string) => withHeld(key, (hit) => hit);

    app.decorateRequest('cacheHit', false);
    // A URL asked before, under the same scope, resolves to the same validated key: its next hit is
    // answered right after auth and rate limits (onRequest steps added earlier), skipping
    // validation and every later hook, which cost a polling client more than the hit itself.
    app.onRequestStep((request, reply) => {
      if (!cacheable(request)) return undefined;
      const key = cache.resolvedKey(requestedUrl(request));
      if (key === undefined) return undefined;
      return withHeld(key, (hit) => {
        if (hit === undefined) return undefined;
        app.metrics.countCacheLookup(true);
        send(cache, request, reply, key, hit);
        return undefined;
      });
    });
    const builds = buildTurns(app, options);
    // After auth, rate limits and validation (the key is made of validated parameters): a hit skips
    // the handler, and the composing of its document.
    app.addHook('preHandler', async (request, reply) => {
      if (routeOf(request).config.builds) return builds.take(request, reply, `request:${request.id}`);
      if (!cacheable(request)) return;
      const key = cacheKey(request);
      cache.resolve(requestedUrl(request), key);
      const hit = await held(key);
      app.metrics.countCacheLookup(hit !== undefined);
      if (hit) return send(cache, request, reply, key, hit);
      if (feed.live && routeOf(request).config.cacheTags) {
        const built = await builds.missed(request, reply, key, () => held(key));
        if (built) return send(cache, request, reply, key, built);
      }
      startedUnder.set(request, cache.generation);
    });
    const startedUnder = new WeakMap<FastifyRequest, number>();
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.cacheHit || !cacheable(request) || reply.statusCode !== 200 || typeof payload !== 'string')
        return done(null, payload);
      // Tags the feed cannot vouch for date the answer from now, and are not filed under.
      const tags = feed.live ? (routeOf(request).config.cacheTags?.(request) ?? null) : null;
      const file = tags !== null && startedUnder.get(request) === cache.generation;
      done(null, composedAnswer(cache, request, reply, payload, tags, file));
    });
  },
  { name: 'response-cache', dependencies: ['request-steps', 'metrics'] },
);

// HEAD asks for a GET's headers: the same validators, the same entry.
const cacheable = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') && routeOf(request).config.access === 'public';

/** Sends a held answer, in the coding the request takes, or a 304 to a request that has it. */
function send(cache: AnswerCache, request: FastifyRequest, reply: FastifyReply, key: string, answer: CachedAnswer) {
  const coding = codingFor(request.headers['accept-encoding']);
  const sent = cache.variant(key, answer, coding);
  const status = notModified(request.headers, answer.etag, answer.lastModified) ? 304 : 200;
  request.cacheHit = true;
  reply.code(status).headers(answerHeaders(answer, sent, coding, status));
  if (answer.compressible) reply.header('vary', withAcceptEncoding(reply.getHeader('vary')));
  return reply.send(status === 200 ? sent.body : undefined);
}

/**
 * A composed 200 with its validators, or a 304 to a request that has it. `tags`: what it depends on
 * (null: the route has none, or the feed cannot vouch for them). Filed under them unless a change came
 * while it was composed, and then sent in the coding the request takes.
 */
function composedAnswer(
  cache: AnswerCache,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: string,
  tags: string[] | null,
  file: boolean,
): string | Buffer {
  const etag = entityTag(payload);
  const lastModified = cache.lastModified(tags);
  reply.header('etag', etag).header('last-modified', lastModified.header).header('cache-control', CACHE_CONTROL);
  if (tags === null || !file)
    return notModified(request.headers, etag, lastModified) ? notModifiedAnswer(reply) : payload;
  const body = Buffer.from(payload);
  const link = reply.getHeader('link');
  const key = cacheKey(request);
  const compressible = body.length >= MIN_COMPRESSED_BYTES;
  const entry = cache.file(
    key,
    { etag, lastModified, tags, compressible, link: typeof link === 'string' ? link : undefined },
    body,
  );
  const coding = codingFor(request.headers['accept-encoding']);
  const sent = cache.variant(key, entry, coding);
  reply.header('etag', sent.etag);
  if (compressible) reply.header('vary', withAcceptEncoding(reply.getHeader('vary')));
  if (notModified(request.headers, etag, lastModified)) return notModifiedAnswer(reply);
  if (sent === entry.variants.identity) return payload;
  reply.header('content-encoding', coding);
  return sent.body;
}

/**
 * Turns of a key's document builds (DOCUMENT_BUILDS_PER_KEY, http/document-builds.ts): a cache miss
 * takes one, and is charged DOCUMENT_BUILD_COST; identical misses in flight are built once. A turn
 * ends with its answer: Node's response closes once the answer is sent, and also when the client
 * abandons it. Hooked on the misses' own responses rather than by onResponse and onRequestAbort hooks,
 * which every answer crossed, and whose abort hook gave every request a listener of its own.
 */
function buildTurns(app: FastifyInstance, { buildsPerKey, buildCost }: ResponseCacheOptions) {
  const builds = documentBuilds(buildsPerKey);
  const begin = (request: FastifyRequest, reply: FastifyReply, key: string) => {
    const build = builds.begin(request.apiKey?.id ?? '', key);
    // A response already closed (its client gone while the request waited) closes no more.
    if (reply.raw.destroyed) build.end();
    else reply.raw.once('close', build.end);
    return build;
  };
  return {
    /** A turn for a composed answer the cache never holds (the bet builder). */
    async take(request: FastifyRequest, reply: FastifyReply, key: string) {
      await begin(request, reply, key).turn();
    },
    /**
     * A miss: the answer another request is building for the same key once it is held, else a turn to
     * build it. Looked up and registered in one turn: an await between them let identical misses
     * arriving together each find none, and each be built and charged (the hostile-load test, on PostgreSQL).
     */
    async missed(
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      held: () => Promise<CachedAnswer | undefined>,
    ) {
      const building = builds.inFlight(key);
      if (building) {
        await building;
        const built = await held();
        if (built) return built;
      }
      // Registered before anything is awaited, so that an identical miss from now on waits for it.
      const build = begin(request, reply, key);
      await app.chargeRequests(request, reply, buildCost - 1, `a document built afresh costs ${buildCost} requests`);
      await build.turn();
      return undefined;
    },
  };
}

function notModifiedAnswer(reply: FastifyReply): string {
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return '';
}
