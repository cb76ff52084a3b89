import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { RATE_LIMIT_HEADER_NAMES } from '../../access/rate-limit.ts';
import { ALL_DOCUMENTS, cacheTagsOfChange, type StoredChange } from '../../domain/changes.ts';
import type { AccessScope } from '../../read/access-scope.ts';
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
import { scopeOf } from './auth.ts';

/**
 * Public GET responses as the exact bytes sent, with an ETag and a Last-Modified, reused until a
 * change names one of the tags their route declares (http/cache-tags.ts): a change to one heat drops
 * that event's documents and its competition's lists, nothing else. Changes arrive from this
 * process's writes at once and from other processes through the change feed; while the feed cannot
 * vouch for that (its PostgreSQL listener is down) nothing is served from the cache.
 *
 * Every public GET answers 304 to a matching If-None-Match (or, without one, to an If-Modified-Since
 * not older than its Last-Modified), cached or not. Most hits are answered before Fastify routes the
 * request (plugins/front-door.ts); the onRequest hook below answers the rest.
 *
 * A cached document of 1 KB or more goes compressed to a client whose Accept-Encoding takes br or gzip
 * (content-coding.ts), with `Vary: Accept-Encoding`. Each coding is made once, by the first request
 * that asks for it, and kept with the entry; its ETag is the document's with `-br` or `-gzip` inside
 * the quotes, and any of the document's tags answers a conditional request for any coding.
 */

/** One coding of a cached document: the bytes sent and the headers that go with them, built once. */
export interface Variant {
  coding: Coding;
  body: Buffer;
  etag: string;
  headers: Record<200 | 304, HeaderPairs>;
  /** The entry's hook headers, then `headers`: what the front door sends before the request's own. Null when the entry has none. */
  replayed: Record<200 | 304, HeaderPairs> | null;
}

export interface CachedAnswer {
  /** The cache key, so that a coding made later is counted only while the entry is still held. */
  key: string;
  /** The document's entity tag: its identity coding's ETag, the stem of the others'. */
  etag: string;
  lastModified: LastModified;
  /** The tags the entry was filed under: removed from each when the entry goes. */
  tags: string[];
  /** The route template, for the metrics of an answer sent before routing. */
  route: string;
  /**
   * The headers earlier hooks gave the request that filled the entry (security headers, CORS), less
   * those of that request alone: what the front door sends again. Null when that request came with an
   * Origin, whose CORS headers are not every request's.
   */
  hookHeaders: HeaderPairs | null;
  /** Whether the body is large enough to be sent compressed (and so varies with Accept-Encoding). */
  compressible: boolean;
  /** The codings made so far: identity always, br and gzip once first asked for. */
  variants: { identity: Variant } & Partial<Record<ContentCoding, Variant>>;
  /** A Link header (the next page of a list), sent with every 200. */
  link: string | undefined;
}

/** Headers as `writeHead` takes them flat: name, value, name, value... */
export type HeaderPairs = OutgoingHttpHeader[];

const keepAll = () => true;

/** `headers` as flat pairs, less those without a value and those `keep` turns down. */
export function headerPairs(headers: OutgoingHttpHeaders, keep: (name: string) => boolean = keepAll): HeaderPairs {
  const pairs: HeaderPairs = [];
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && keep(name)) pairs.push(name, value);
  return pairs;
}

declare module 'fastify' {
  interface FastifyInstance {
    responseCache: {
      /**
       * The cached answer to a public GET of `url` by a key of `scope`, once other processes' writes
       * are known; undefined on a miss. Counts nothing: the caller counts the lookup it answers.
       */
      find(scope: AccessScope, url: string): CachedAnswer | undefined | Promise<CachedAnswer | undefined>;
      /**
       * Writes a cached answer: a 304 when the request's validators match it, else its bytes, in the
       * coding the request's Accept-Encoding prefers; `headers` go after its own. With `replay`, the
       * entry's hook headers go first (the front door's case: it runs no hooks of its own).
       */
      send(
        requestHeaders: IncomingHttpHeaders,
        response: ServerResponse,
        answer: CachedAnswer,
        headers: HeaderPairs,
        replay?: boolean,
      ): 200 | 304;
    };
  }
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

const second = (ms: number) => Math.floor(ms / 1000);

const MAX_ENTRIES = 10_000;
/** Past this many cached bytes, everything is dropped: 10,000 copies of a 100 KB list would be 1 GB. */
const MAX_BYTES = 256 * 1024 * 1024;
/** Past this many tag times, they are forgotten and every Last-Modified moves to the forget time. */
const MAX_TAG_TIMES = 100_000;
const CACHE_CONTROL = 'private, no-cache';
/** Headers of one request alone, never replayed from an entry. */
const PER_REQUEST = new Set<string>(['x-request-id', 'connection', 'date', ...RATE_LIMIT_HEADER_NAMES]);
/** Headers `send` sets from the entry itself. */
const ENTRY_HEADERS = new Set([
  'etag',
  'last-modified',
  'cache-control',
  'content-type',
  'content-length',
  'content-encoding',
  'link',
]);
const MAX_SEEN = 10_000;

function cacheKey(scope: AccessScope, url: string): string {
  return `${scope === null ? '*' : scope.join(',')} ${url}`;
}

/** The headers of an answer that every answer of the same document may carry again. */
function replayableHeaders(headers: OutgoingHttpHeaders): HeaderPairs {
  return headerPairs(headers, (name) => !PER_REQUEST.has(name) && !ENTRY_HEADERS.has(name));
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

/**
 * `answer`'s document in `coding`, with the headers that every answer of it carries, built once: a hit
 * then adds its own to one list (Node writes a string value as it is; a number it converts each time).
 */
function variant(
  answer: Pick<CachedAnswer, 'etag' | 'lastModified' | 'compressible' | 'link' | 'hookHeaders'>,
  coding: Coding,
  body: Buffer,
): Variant {
  const etag = coding === 'identity' ? answer.etag : codingTag(answer.etag, coding);
  const validators = [
    'etag',
    etag,
    'last-modified',
    answer.lastModified.header,
    'cache-control',
    CACHE_CONTROL,
    ...(answer.compressible ? ['vary', 'accept-encoding'] : []),
  ];
  const content = [
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(body.length),
    ...(coding === 'identity' ? [] : ['content-encoding', coding]),
  ];
  const headers = { 200: [...validators, ...content, ...(answer.link ? ['link', answer.link] : [])], 304: validators };
  const hook = answer.hookHeaders;
  return {
    coding,
    body,
    etag,
    headers,
    replayed: hook === null ? null : { 200: hook.concat(headers[200]), 304: hook.concat(headers[304]) },
  };
}

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
    // A poller sends back the one tag it was given.
    if (inm === etag || namesDocument(inm, etag)) return true;
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

export const responseCachePlugin = fp(
  async (app: FastifyInstance, options: { store: Store; feed: ChangeFeed }) => {
    const { store, feed } = options;
    const entries = new Map<string, CachedAnswer>();
    const keysByTag = new Map<string, Set<string>>();
    // When each tag last changed, as this process learnt it: the Last-Modified of what depends on it.
    const tagChangedAt = new Map<string, ChangeTime>();
    // The start, or the last drop of everything: what depends on no changed tag dates from then.
    let base: ChangeTime = { ms: Date.now(), inSecond: 1 };
    const moved = (before: ChangeTime | undefined, now: number): ChangeTime => ({
      ms: now,
      inSecond: before && second(before.ms) === second(now) ? before.inSecond + 1 : 1,
    });
    // Moves on every drop: a response is cached only if nothing was dropped while it was composed.
    let generation = 0;
    const startedUnder = new WeakMap<FastifyRequest, number>();

    let cachedBytes = 0;
    const dropAll = () => {
      entries.clear();
      keysByTag.clear();
      cachedBytes = 0;
      // The tags' times are forgotten: count this second as shared, to be safe.
      tagChangedAt.clear();
      base = { ms: Date.now(), inSecond: 2 };
      generation += 1;
    };
    // An entry leaves every tag it was filed under, or the keys of unchanged tags would pile up.
    const removeEntry = (key: string) => {
      const entry = entries.get(key);
      if (!entry) return;
      entries.delete(key);
      cachedBytes -= heldBytes(entry);
      for (const tag of entry.tags) {
        const keys = keysByTag.get(tag);
        keys?.delete(key);
        if (keys?.size === 0) keysByTag.delete(tag);
      }
    };
    // Own writes arrive twice (at commit, and through the feed): each change counts once.
    const seen = new Set<number>();
    const drop = (changes: StoredChange[]) => {
      const fresh = changes.filter((change) => !seen.has(change.id));
      if (fresh.length === 0) return;
      for (const change of fresh) seen.add(change.id);
      for (const id of seen) {
        if (seen.size <= MAX_SEEN) break;
        seen.delete(id);
      }
      const now = Date.now();
      generation += 1;
      // One batch is one change of each tag it names, however many records name it.
      const tags = new Set(fresh.flatMap(cacheTagsOfChange));
      if (tags.has(ALL_DOCUMENTS)) return dropAll();
      for (const tag of tags) {
        tagChangedAt.set(tag, moved(tagChangedAt.get(tag), now));
        for (const key of keysByTag.get(tag) ?? []) removeEntry(key);
        keysByTag.delete(tag);
      }
      if (tagChangedAt.size > MAX_TAG_TIMES) dropAll();
    };
    // What the cache holds, for the metrics: filings are (tag, key) pairs, one per tag of each entry.
    app.metrics.observeResponseCache(() => {
      let filings = 0;
      for (const keys of keysByTag.values()) filings += keys.size;
      return { entries: entries.size, bytes: cachedBytes, filings };
    });
    // Own writes drop at commit, before the write's response: a client reads its own write.
    const unsubscribes = [store.onWrite(drop), feed.subscribe(drop), feed.onLiveChange(dropAll)];
    app.addHook('onClose', async () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    });

    const lastModifiedOf = (tags: string[] | undefined): LastModified => {
      // A route without tags, or a feed that cannot vouch for its tags, can only say "now".
      const times =
        tags === undefined || !feed.live
          ? [{ ms: Date.now(), inSecond: 2 }]
          : [base, ...tags.flatMap((tag) => tagChangedAt.get(tag) ?? [])];
      const ms = Math.max(...times.map((t) => t.ms));
      const inSecond = times.filter((t) => second(t.ms) === second(ms)).reduce((sum, t) => sum + t.inSecond, 0);
      return { ms, header: new Date(ms).toUTCString(), sharedSecond: inSecond > 1 };
    };

    const cacheable = (request: FastifyRequest) =>
      request.method === 'GET' && request.routeOptions.config.access === 'public';

    // After the other processes' writes are known (SQLite's data_version; PostgreSQL's LISTEN is pushed).
    const held = (scope: AccessScope, url: string) => (feed.live ? entries.get(cacheKey(scope, url)) : undefined);
    const find = (scope: AccessScope, url: string): CachedAnswer | undefined | Promise<CachedAnswer | undefined> => {
      const pending = feed.catchUp();
      return pending ? pending.then(() => held(scope, url)) : held(scope, url);
    };
    // A coding is made on the first request for it; one that would not be smaller is the identity bytes.
    const encoded = (answer: CachedAnswer, coding: ContentCoding): Variant => {
      const identity = answer.variants.identity;
      const body = encode(identity.body, coding);
      const made = body.length < identity.body.length ? variant(answer, coding, body) : identity;
      answer.variants[coding] = made;
      if (made !== identity && entries.get(answer.key) === answer) cachedBytes += body.length;
      return made;
    };
    const variantFor = (answer: CachedAnswer, requestHeaders: IncomingHttpHeaders): Variant => {
      if (!answer.compressible) return answer.variants.identity;
      const coding = codingFor(requestHeaders['accept-encoding']);
      return coding === 'identity' ? answer.variants.identity : (answer.variants[coding] ?? encoded(answer, coding));
    };
    const send = (
      requestHeaders: IncomingHttpHeaders,
      response: ServerResponse,
      answer: CachedAnswer,
      headers: HeaderPairs,
      replay = false,
    ): 200 | 304 => {
      const sent = variantFor(answer, requestHeaders);
      const status = notModified(requestHeaders, answer.etag, answer.lastModified) ? 304 : 200;
      const own = replay ? sent.replayed?.[status] : sent.headers[status];
      if (own === undefined) throw new Error(`the cached answer for ${answer.key} has no hook headers to replay`);
      response.writeHead(status, own.concat(headers));
      response.end(status === 200 ? sent.body : undefined);
      return status;
    };
    app.decorate('responseCache', { find, send });

    // onRequest (after auth and rate limits): the hits the front door leaves to Fastify (requests with
    // an Origin, app.inject) skip parsing and validation, which the cached answer already passed.
    app.addHook('onRequest', async (request, reply) => {
      if (!cacheable(request)) return;
      const hit = await find(scopeOf(request), request.url);
      startedUnder.set(request, generation);
      app.metrics.countCacheLookup(hit !== undefined);
      if (!hit) return;
      // The cached bytes are final (registered after the envelope hook), so a hit skips the rest of
      // the lifecycle; onResponse hooks (request logs, metrics) still run. The headers earlier hooks
      // set for this request (security headers, rate limits, CORS) go out with it.
      reply.hijack();
      // Less the headers the entry sets itself: writeHead would send both (the hooks' Cache-Control: no-store too).
      send(
        request.headers,
        reply.raw,
        hit,
        headerPairs(
          { ...(reply.getHeaders() as OutgoingHttpHeaders), 'x-request-id': request.id },
          (name) => !ENTRY_HEADERS.has(name),
        ),
      );
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (!cacheable(request) || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const tagsOf = request.routeOptions.config.cacheTags;
      const tags = tagsOf?.(request);
      const etag = entityTag(payload);
      const lastModified = lastModifiedOf(tags);
      reply.header('etag', etag).header('last-modified', lastModified.header).header('cache-control', CACHE_CONTROL);
      // The answer a later hit gets, when this one is cached; else the composed bytes as they are.
      let sent: Variant | undefined;
      if (tags !== undefined && feed.live && startedUnder.get(request) === generation) {
        if (entries.size >= MAX_ENTRIES || cachedBytes >= MAX_BYTES) dropAll();
        const key = cacheKey(scopeOf(request), request.url);
        const link = reply.getHeader('link');
        removeEntry(key);
        const body = Buffer.from(payload);
        cachedBytes += body.length;
        const described = {
          key,
          etag,
          lastModified,
          tags,
          route: request.routeOptions.url ?? request.url,
          hookHeaders:
            request.headers.origin === undefined ? replayableHeaders(reply.getHeaders() as OutgoingHttpHeaders) : null,
          compressible: body.length >= MIN_COMPRESSED_BYTES,
          link: typeof link === 'string' ? link : undefined,
        };
        const entry: CachedAnswer = { ...described, variants: { identity: variant(described, 'identity', body) } };
        entries.set(key, entry);
        for (const tag of tags) {
          const keys = keysByTag.get(tag) ?? new Set<string>();
          keys.add(key);
          keysByTag.set(tag, keys);
        }
        sent = variantFor(entry, request.headers);
        reply.header('etag', sent.etag);
        if (entry.compressible) reply.header('vary', withAcceptEncoding(reply.getHeader('vary')));
      }
      if (notModified(request.headers, etag, lastModified)) {
        reply.code(304);
        reply.removeHeader('content-type');
        reply.removeHeader('content-length');
        return '';
      }
      if (sent === undefined || sent.coding === 'identity') return payload;
      reply.header('content-encoding', sent.coding);
      return sent.body;
    });
  },
  { name: 'response-cache', dependencies: ['metrics'] },
);
