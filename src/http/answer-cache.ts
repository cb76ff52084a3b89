import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { LRUCache } from 'lru-cache';
import { ALL_DOCUMENTS, cacheTagsOfChange, type StoredChange } from '../domain/changes.ts';
import { CONTENT_CODINGS, type Coding, type ContentCoding, encode } from './content-coding.ts';
import type { ResponseCacheSize } from './plugins/metrics.ts';

/**
 * The answers the response cache holds (plugins/response-cache.ts), without Fastify: documents by key
 * as the exact bytes sent in each coding, with their validators, filed under the cache tags their
 * route declares (http/cache-tags.ts) and dropped when a change names one of them. Also when each
 * tag last changed (their Last-Modified), and which requested URL validated to which key.
 */

/** One coding of a cached document: the bytes sent and its entity tag. */
export interface Variant {
  body: Buffer;
  etag: string;
}

export interface CachedAnswer {
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

const second = (ms: number) => Math.floor(ms / 1000);

const MAX_ENTRIES = 10_000;
/** 10,000 copies of a 100 KB list would be 1 GB: the least recently used go past this many bytes. */
const MAX_BYTES = 256 * 1024 * 1024;
/** Past this many tag times, they are forgotten and every Last-Modified moves to the forget time. */
const MAX_TAG_TIMES = 100_000;
/** Change ids remembered, so that a change that arrives twice (at commit, then through the feed) counts once. */
const MAX_SEEN = 10_000;
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
  // A polling client sends back the one tag it was given: no list to take apart.
  if (inm === etag) return true;
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

export class AnswerCache {
  readonly #keysByTag = new Map<string, Set<string>>();
  readonly #entries = new LRUCache<string, CachedAnswer>({
    max: MAX_ENTRIES,
    maxSize: MAX_BYTES,
    sizeCalculation: heldBytes,
    // An entry leaves every tag it was filed under, or the keys of unchanged tags would pile up; one
    // replaced under its key (a new coding made) keeps them, since its successor has the same tags.
    dispose: (entry, key, reason) => {
      if (reason === 'set') return;
      for (const tag of entry.tags) {
        const keys = this.#keysByTag.get(tag);
        keys?.delete(key);
        if (keys?.size === 0) this.#keysByTag.delete(tag);
      }
    },
  });
  readonly #times = changeTimes();
  // A requested URL and its scope, to the document key it validated to; as many as the documents held.
  readonly #resolvedKeys = new LRUCache<string, string>({ max: MAX_ENTRIES });
  readonly #seen = new LRUCache<number, true>({ max: MAX_SEEN });
  /** Moves on every drop: an answer is filed only if nothing was dropped while it was composed. */
  generation = 0;

  get(key: string): CachedAnswer | undefined {
    return this.#entries.get(key);
  }

  /** The key a requested URL (under its scope) validated to before, if any. */
  resolvedKey(url: string): string | undefined {
    return this.#resolvedKeys.get(url);
  }

  /** Validation is a function of the URL: this URL, valid once, resolves to this key from now on. */
  resolve(url: string, key: string): void {
    this.#resolvedKeys.set(url, key);
  }

  /** When the documents depending on these tags last changed; null (no tags, or none vouched for): now. */
  lastModified(tags: string[] | null): LastModified {
    return this.#times.lastModified(tags);
  }

  /** Files a composed document under its tags, in its identity coding. */
  file(key: string, described: Omit<CachedAnswer, 'variants'>, body: Buffer): CachedAnswer {
    const entry: CachedAnswer = { ...described, variants: { identity: { body, etag: described.etag } } };
    this.#entries.set(key, entry);
    for (const tag of described.tags) {
      const keys = this.#keysByTag.get(tag) ?? new Set<string>();
      keys.add(key);
      this.#keysByTag.set(tag, keys);
    }
    return entry;
  }

  /** The variant of `answer` an Accept-Encoding asks for; a coding is made on its first request. */
  variant(key: string, answer: CachedAnswer, coding: Coding): Variant {
    if (!answer.compressible || coding === 'identity') return answer.variants.identity;
    const made = answer.variants[coding];
    if (made) return made;
    const identity = answer.variants.identity;
    const body = encode(identity.body, coding);
    // One that would not be smaller is the identity bytes.
    const variant = body.length < identity.body.length ? { body, etag: codingTag(answer.etag, coding) } : identity;
    const grown = { ...answer, variants: { ...answer.variants, [coding]: variant } };
    // Set anew, so that the cache counts the new bytes; only while the entry is still held.
    if (this.#entries.peek(key) === answer) this.#entries.set(key, grown);
    return variant;
  }

  /** Drops what the changes name; a change that arrives twice (at commit, then through the feed) counts once. */
  drop(changes: StoredChange[]): void {
    const fresh = changes.filter((change) => !this.#seen.has(change.id));
    if (fresh.length === 0) return;
    for (const change of fresh) this.#seen.set(change.id, true);
    const now = Date.now();
    this.generation += 1;
    // One batch is one change of each tag it names, however many records name it.
    const tags = new Set(fresh.flatMap(cacheTagsOfChange));
    if (tags.has(ALL_DOCUMENTS)) {
      this.dropAll();
      return;
    }
    for (const tag of tags) {
      this.#times.changed(tag, now);
      for (const key of this.#keysByTag.get(tag) ?? []) this.#entries.delete(key);
    }
    if (this.#times.size > MAX_TAG_TIMES) this.dropAll();
  }

  dropAll(): void {
    this.#entries.clear();
    this.#times.forget();
    this.generation += 1;
  }

  /** The documents held, for the metrics: filings are (tag, key) pairs, one per tag of each entry. */
  size(): ResponseCacheSize {
    let filings = 0;
    for (const keys of this.#keysByTag.values()) filings += keys.size;
    return { entries: this.#entries.size, bytes: this.#entries.calculatedSize, filings };
  }
}
