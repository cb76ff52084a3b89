import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { ALL_DOCUMENTS, cacheTagsOfChange, type StoredChange } from '../../domain/changes.ts';
import type { ChangeFeed } from '../../store/change-feed.ts';
import type { Store } from '../../store/database.ts';
import {
  CONTENT_CODINGS,
  type Coding,
  type ContentCoding,
  codingFor,
  encode,
  MIN_COMPRESSED_BYTES,
} from '../content-coding.ts';
import { documentBuilds } from '../document-builds.ts';
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
 * validated before is answered from the last onRequest hook instead, after auth and rate limits: its
 * validation would give the same key again. Every public GET
 * and HEAD answers 304 to a matching If-None-Match (or, without one, to an If-Modified-Since not older than its
 * Last-Modified), cached or not.
 *
 * A cached document of 1 KB or more goes compressed to a client whose Accept-Encoding takes br or gzip
 * (content-coding.ts), with `Vary: Accept-Encoding`. Each coding is made once, by the first request
 * that asks for it, and kept with the entry; its ETag is the document's with `-br` or `-gzip` inside
 * the quotes, and any of the document's tags answers a conditional request for any coding.
 */

/** One coding of a cached document: the bytes sent and its entity tag. */
interface Variant {
  body: Buffer;
  etag: string;
}

interface CachedAnswer {
  /** The document's entity tag: its identity coding's ETag, the stem of the others'. */
  etag: string;
  lastModified: LastModified;
  /** The tags the entry was filed under: removed from each when the entry goes. */
  tags: string[];
  /** Whether the body is large enough to be sent compressed (and so varies with Accept-Encoding). */
  compressible: boolean;
  /** The codings made so far: identity always, br and gzip once first asked for. */
  variants: { identity: Variant } & Partial<Record<ContentCoding, Variant>>;
  /** A Link header (the next page of a list), sent with every 200. */
  link: string | undefined;
}

/**
 * When a document last changed, as far as this process knows, and whether some other change fell in
 * that same second: HTTP dates count whole seconds, so a client holding that second's earlier version
 * could not be told apart from one holding the latest.
 */
export interface LastModified {
  ms: number;
  header: string;
  sharedSecond: boolean;
}

/** A tag's (or the base's) last change, and how many changes fell in that change's second. */
interface ChangeTime {
  ms: number;
  inSecond: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Answered from the response cache: its onSend hook leaves the answer as it is. */
    cacheHit: boolean;
  }
}

const second = (ms: number) => Math.floor(ms / 1000);

const MAX_ENTRIES = 10_000;
/** 10,000 copies of a 100 KB list would be 1 GB: the least recently used go past this many bytes. */
const MAX_BYTES = 256 * 1024 * 1024;
/** Past this many tag times, they are forgotten and every Last-Modified moves to the forget time. */
const MAX_TAG_TIMES = 100_000;
/** Change ids remembered, so that a change that arrives twice (at commit, then through the feed) counts once. */
const MAX_SEEN = 10_000;
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
    request.routeOptions.url,
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
  const schema = request.routeOptions.schema;
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

/** The bytes an entry holds: each of its codings' bodies once (a coding no smaller than identity is the identity body). */
function heldBytes(answer: CachedAnswer): number {
  let bytes = 0;
  for (const body of new Set(Object.values(answer.variants).map((held) => held.body))) bytes += body.length;
  return bytes;
}

export function entityTag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/** The ETag of a document's `coding`: its own tag with the coding's name inside the quotes. */
export function codingTag(etag: string, coding: ContentCoding): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

/** Whether an If-None-Match entry names the document of tag `etag`, in any coding (weak comparison). */
function namesDocument(tag: string, etag: string): boolean {
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  if (opaque === etag) return true;
  return opaque.startsWith(etag.slice(0, -1)) && CONTENT_CODINGS.some((coding) => opaque === codingTag(etag, coding));
}

/**
 * RFC 9110 section 13.1: If-None-Match wins; If-Modified-Since counts only without it, and not in a
 * second that saw two changes.
 */
export function notModified(headers: IncomingHttpHeaders, etag: string, lastModified: LastModified): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) {
    return inm.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || namesDocument(t, etag);
    });
  }
  const ims = headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  if (Number.isNaN(since)) return false;
  return (
    second(lastModified.ms) < second(since) || (second(lastModified.ms) === second(since) && !lastModified.sharedSecond)
  );
}

/** A Vary header that names Accept-Encoding, with what another hook put there before (CORS's Origin). */
function withAcceptEncoding(vary: ReturnType<FastifyReply['getHeader']>): string {
  const named =
    vary === undefined
      ? []
      : String(vary)
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

/** Answers when each change happened, per cache tag: the Last-Modified of what depends on it. */
function changeTimes() {
  let byTag = new Map<string, ChangeTime>();
  // The start, or the last forgetting: what depends on no changed tag dates from then.
  let base: ChangeTime = { ms: Date.now(), inSecond: 1 };
  const moved = (before: ChangeTime | undefined, now: number): ChangeTime => ({
    ms: now,
    inSecond: before && second(before.ms) === second(now) ? before.inSecond + 1 : 1,
  });
  return {
    changed(tag: string, now: number) {
      byTag.set(tag, moved(byTag.get(tag), now));
    },
    /** Forgets every tag's time: count this second as shared, to be safe. */
    forget() {
      byTag = new Map();
      base = { ms: Date.now(), inSecond: 2 };
    },
    get size() {
      return byTag.size;
    },
    lastModified(tags: string[] | null): LastModified {
      // A route without tags, or a feed that cannot vouch for its tags, can only say "now".
      const times =
        tags === null ? [{ ms: Date.now(), inSecond: 2 }] : [base, ...tags.flatMap((t) => byTag.get(t) ?? [])];
      const ms = Math.max(...times.map((t) => t.ms));
      const inSecond = times.filter((t) => second(t.ms) === second(ms)).reduce((sum, t) => sum + t.inSecond, 0);
      return { ms, header: new Date(ms).toUTCString(), sharedSecond: inSecond > 1 };
    },
  };
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
    const { store, feed, buildCost } = options;
    const builds = documentBuilds(options.buildsPerKey);
    const buildEnds = new WeakMap<FastifyRequest, () => void>();
    const keysByTag = new Map<string, Set<string>>();
    const entries = new LRUCache<string, CachedAnswer>({
      max: MAX_ENTRIES,
      maxSize: MAX_BYTES,
      sizeCalculation: heldBytes,
      // An entry leaves every tag it was filed under, or the keys of unchanged tags would pile up; one
      // replaced under its key (a new coding made) keeps them, since its successor has the same tags.
      dispose: (entry, key, reason) => {
        if (reason === 'set') return;
        for (const tag of entry.tags) {
          const keys = keysByTag.get(tag);
          keys?.delete(key);
          if (keys?.size === 0) keysByTag.delete(tag);
        }
      },
    });
    const times = changeTimes();
    // A requested URL and its scope, to the document key it validated to; as many as the documents held.
    const resolvedKeys = new LRUCache<string, string>({ max: MAX_ENTRIES });
    // Moves on every drop: a response is cached only if nothing was dropped while it was composed.
    let generation = 0;
    const startedUnder = new WeakMap<FastifyRequest, number>();

    const dropAll = () => {
      entries.clear();
      times.forget();
      generation += 1;
    };
    const seen = new LRUCache<number, true>({ max: MAX_SEEN });
    const drop = (changes: StoredChange[]) => {
      const fresh = changes.filter((change) => !seen.has(change.id));
      if (fresh.length === 0) return;
      for (const change of fresh) seen.set(change.id, true);
      const now = Date.now();
      generation += 1;
      // One batch is one change of each tag it names, however many records name it.
      const tags = new Set(fresh.flatMap(cacheTagsOfChange));
      if (tags.has(ALL_DOCUMENTS)) return dropAll();
      for (const tag of tags) {
        times.changed(tag, now);
        for (const key of keysByTag.get(tag) ?? []) entries.delete(key);
      }
      if (times.size > MAX_TAG_TIMES) dropAll();
    };
    // What the cache holds, for the metrics: filings are (tag, key) pairs, one per tag of each entry.
    app.metrics.observeResponseCache(() => {
      let filings = 0;
      for (const keys of keysByTag.values()) filings += keys.size;
      return { entries: entries.size, bytes: entries.calculatedSize, filings };
    });
    // Own writes drop at commit, before the write's response: a client reads its own write.
    const unsubscribes = [store.onWrite(drop), feed.subscribe(drop), feed.onLiveChange(dropAll)];
    app.addHook('onClose', async () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    });

    // HEAD asks for a GET's headers: the same validators, the same entry.
    const cacheable = (request: FastifyRequest) =>
      (request.method === 'GET' || request.method === 'HEAD') && request.routeOptions.config.access === 'public';

    /** The variant of `answer` a request's Accept-Encoding asks for; a coding is made on its first request. */
    const variantFor = (key: string, answer: CachedAnswer, coding: Coding): Variant => {
      if (!answer.compressible || coding === 'identity') return answer.variants.identity;
      const made = answer.variants[coding];
      if (made) return made;
      const identity = answer.variants.identity;
      const body = encode(identity.body, coding);
      // One that would not be smaller is the identity bytes.
      const variant = body.length < identity.body.length ? { body, etag: codingTag(answer.etag, coding) } : identity;
      const grown = { ...answer, variants: { ...answer.variants, [coding]: variant } };
      // Set anew, so that the cache counts the new bytes; only while the entry is still held.
      if (entries.peek(key) === answer) entries.set(key, grown);
      return variant;
    };

    const send = (request: FastifyRequest, reply: FastifyReply, key: string, answer: CachedAnswer) => {
      const coding = codingFor(request.headers['accept-encoding']);
      const sent = variantFor(key, answer, coding);
      const status = notModified(request.headers, answer.etag, answer.lastModified) ? 304 : 200;
      request.cacheHit = true;
      reply.code(status).headers(answerHeaders(answer, sent, coding, status));
      if (answer.compressible) reply.header('vary', withAcceptEncoding(reply.getHeader('vary')));
      return reply.send(status === 200 ? sent.body : undefined);
    };

    app.decorateRequest('cacheHit', false);
    // A URL asked before, under the same scope, resolves to the same validated key: its next hit is
    // answered right after auth and rate limits (onRequest hooks registered earlier), skipping
    // validation and every later hook, which cost a polling client more than the hit itself.
    app.addHook('onRequest', async (request, reply) => {
      if (!cacheable(request)) return;
      const key = resolvedKeys.get(requestedUrl(request));
      if (key === undefined) return;
      await feed.catchUp();
      const hit = feed.live ? entries.get(key) : undefined;
      if (hit === undefined) return;
      app.metrics.countCacheLookup(true);
      return send(request, reply, key, hit);
    });
    // After auth, rate limits and validation (the key is made of validated parameters): a hit skips
    // the handler, and the composing of its document.
    app.addHook('preHandler', async (request, reply) => {
      if (request.routeOptions.config.builds) return takeBuildTurn(request, `request:${request.id}`);
      if (!cacheable(request)) return;
      await feed.catchUp();
      const key = cacheKey(request);
      // Validation is a function of the URL: this URL, valid once, resolves to this key from now on.
      resolvedKeys.set(requestedUrl(request), key);
      // After the other processes' writes are known (SQLite's data_version; PostgreSQL's LISTEN is pushed).
      const hit = feed.live ? entries.get(key) : undefined;
      app.metrics.countCacheLookup(hit !== undefined);
      if (hit) return send(request, reply, key, hit);
      if (feed.live && request.routeOptions.config.cacheTags) {
        // Looked up and registered in one turn: an await between them let identical misses arriving
        // together each find none, and each be built and charged (the hostile-load test, on PostgreSQL).
        const building = builds.inFlight(key);
        const built = building && (await builtByAnother(key, building));
        if (built) return send(request, reply, key, built);
        // Registered before anything is awaited, so that an identical miss from now on waits for it.
        const build = builds.begin(request.apiKey?.id ?? '', key);
        buildEnds.set(request, build.end);
        await app.chargeRequests(request, reply, buildCost - 1, `a document built afresh costs ${buildCost} requests`);
        await build.turn();
      }
      startedUnder.set(request, generation);
    });
    /** A turn of the key's builds for a composed answer the cache never holds. */
    const takeBuildTurn = async (request: FastifyRequest, key: string) => {
      const build = builds.begin(request.apiKey?.id ?? '', key);
      buildEnds.set(request, build.end);
      await build.turn();
    };
    // A build's turn ends with its answer, sent or abandoned by the client.
    const endBuild = (request: FastifyRequest) => buildEnds.get(request)?.();
    app.addHook('onResponse', (request, _reply, done) => {
      endBuild(request);
      done();
    });
    app.addHook('onRequestAbort', (request, done) => {
      endBuild(request);
      done();
    });

    /** The same document being built for another request: waited for, then read from the cache. */
    const builtByAnother = async (key: string, building: Promise<void>): Promise<CachedAnswer | undefined> => {
      await building;
      return feed.live ? entries.get(key) : undefined;
    };

    const file = (key: string, tags: string[], described: Omit<CachedAnswer, 'variants'>, body: Buffer) => {
      const entry: CachedAnswer = { ...described, variants: { identity: { body, etag: described.etag } } };
      entries.set(key, entry);
      for (const tag of tags) {
        const keys = keysByTag.get(tag) ?? new Set<string>();
        keys.add(key);
        keysByTag.set(tag, keys);
      }
      return entry;
    };

    /** A composed 200's bytes, filed in the cache when its route has tags; with its validators, or a 304. */
    const fileComposed = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (request.cacheHit || !cacheable(request) || reply.statusCode !== 200 || typeof payload !== 'string')
        return payload;
      const tags = request.routeOptions.config.cacheTags?.(request);
      const etag = entityTag(payload);
      const lastModified = times.lastModified(tags !== undefined && feed.live ? tags : null);
      reply.header('etag', etag).header('last-modified', lastModified.header).header('cache-control', CACHE_CONTROL);
      if (tags === undefined || !feed.live || startedUnder.get(request) !== generation)
        return notModified(request.headers, etag, lastModified) ? notModifiedAnswer(reply) : payload;
      const body = Buffer.from(payload);
      const link = reply.getHeader('link');
      const key = cacheKey(request);
      const entry = file(
        key,
        tags,
        {
          etag,
          lastModified,
          tags,
          compressible: body.length >= MIN_COMPRESSED_BYTES,
          link: typeof link === 'string' ? link : undefined,
        },
        body,
      );
      const coding = codingFor(request.headers['accept-encoding']);
      const sent = variantFor(key, entry, coding);
      reply.header('etag', sent.etag);
      if (entry.compressible) reply.header('vary', withAcceptEncoding(reply.getHeader('vary')));
      if (notModified(request.headers, etag, lastModified)) return notModifiedAnswer(reply);
      if (sent === entry.variants.identity) return payload;
      reply.header('content-encoding', coding);
      return sent.body;
    };
    app.addHook('onSend', (request, reply, payload, done) => done(null, fileComposed(request, reply, payload)));
  },
  { name: 'response-cache', dependencies: ['metrics'] },
);

function notModifiedAnswer(reply: FastifyReply): string {
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return '';
}
