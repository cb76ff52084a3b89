import { createHash } from 'node:crypto';
import { type ParsedTokenInfo, Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import type { Store } from '../store/database.ts';
import { FeedValidationError } from './feed-errors.ts';
import { FEED_COLLECTIONS, type FeedCollection } from './feed-schema.ts';
import {
  type IngestOptions,
  type IngestSummary,
  ingestDocuments,
  ingestFeed,
  type NumberedDocument,
} from './ingest-feed.ts';
import { itemKey } from './validate-feed.ts';

/**
 * A large feed document read as it arrives, in slices (issue 25: a 60 MB admin feed took ten times its
 * size in memory, parsed whole). Each slice is a document of its own: one collection's next items, with
 * the document's `updatedAt`; ingestDocuments writes them in one transaction, each validated against
 * what the slices before it wrote, as an NDJSON import's documents are. That is the whole document's
 * answer only when its collections come in the order they are written (FEED_COLLECTIONS), each once,
 * `updatedAt` before them, no key repeated and nothing JSON.parse would take otherwise: any other
 * document throws NotSliced, and its caller takes it whole. @streamparser/json parses the text (about
 * 20 MB a second here, against JSON.parse's 70): what it saves is memory, not time.
 */
export class NotSliced extends Error {}

/** Items of a slice: a few hundred kilobytes of text. */
export const SLICE_ITEMS = 2_000;

/** Text JSON.parse and secure-json-parse treat apart (prototype keys) or that may spell them (escapes). */
const TAKEN_WHOLE = /__proto__|prototype|\\u/;

/** Bytes of the previous chunk looked at again with the next, so that no word is missed across two. */
const OVERLAP = 16;

export async function* feedSlices(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  sliceItems = SLICE_ITEMS,
): AsyncGenerator<NumberedDocument> {
  const slices = sliceMaker(sliceItems);
  const members = topLevelMembers(slices);
  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: ['$.*.*'], keepStack: false });
  tokenizer.onToken = (token) => {
    members.see(token);
    parser.write(token);
  };
  parser.onValue = ({ value, key, stack }) => slices.item(stack[1]?.key as FeedCollection, key, value);
  let tail = '';
  for await (const chunk of chunks) {
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    const seen = tail + text;
    if (TAKEN_WHOLE.test(seen)) throw new NotSliced('a key or escape JSON.parse reads apart');
    tail = seen.slice(-OVERLAP);
    try {
      tokenizer.write(chunk);
    } catch (error) {
      if (error instanceof NotSliced) throw error;
      throw new NotSliced(`not JSON as read: ${(error as Error).message}`);
    }
    yield* slices.ready();
  }
  if (!parser.isEnded) throw new NotSliced('the document ends early');
  yield* slices.finish();
}

/** What the parser's tokens say of the document's own members: collections in order, then updatedAt first. */
function topLevelMembers(slices: ReturnType<typeof sliceMaker>) {
  let depth = 0;
  let key: string | undefined;
  let expect: 'key' | 'colon' | 'value' | 'other' = 'other';
  let last = -1;
  return {
    see({ token, value }: ParsedTokenInfo) {
      if (depth === 1) {
        if (expect === 'key' && token === TokenType.STRING) {
          key = value as string;
          expect = 'colon';
        } else if (expect === 'colon') expect = 'value';
        else if (expect === 'value') {
          member(key as string, token, value);
          expect = 'other';
        } else if (token === TokenType.COMMA) expect = 'key';
      } else if (depth === 0) {
        if (token !== TokenType.LEFT_BRACE) throw new NotSliced('not an object');
        expect = 'key';
      }
      if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) depth += 1;
      else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) depth -= 1;
    },
  };

  function member(name: string, token: TokenType, value: unknown): void {
    if (name === 'updatedAt') {
      if (token !== TokenType.STRING || last >= 0) throw new NotSliced('updatedAt after the items');
      slices.updatedAt(value as string);
      return;
    }
    const at = FEED_COLLECTIONS.indexOf(name as FeedCollection);
    if (at <= last || token !== TokenType.LEFT_BRACKET) throw new NotSliced(`${name} out of order or not a collection`);
    last = at;
  }
}

/** Gathers the parser's items into slices of one collection. */
function sliceMaker(sliceItems: number) {
  const ready: NumberedDocument[] = [];
  // Keys of the current collection's items: each collection comes once (topLevelMembers).
  let seen = new Set<number>();
  let documentUpdatedAt: string | undefined;
  let collection: FeedCollection | undefined;
  let offset = 0;
  let total = 0;
  let items: unknown[] = [];

  const cut = () => {
    if (!collection || items.length === 0) return;
    ready.push({
      document: { ...(documentUpdatedAt === undefined ? {} : { updatedAt: documentUpdatedAt }), [collection]: items },
    });
    offset += items.length;
    items = [];
  };

  return {
    updatedAt(value: string) {
      documentUpdatedAt = value;
    },
    item(top: FeedCollection, key: unknown, value: unknown) {
      if (top !== collection) {
        cut();
        collection = top;
        offset = 0;
        seen = new Set();
      }
      if (key !== offset + items.length) throw new NotSliced(`${collection} is not one array`);
      if (repeats(seen, collection, value)) throw new NotSliced(`an item of ${collection} repeats another's key`);
      items.push(value);
      total += 1;
      if (items.length >= sliceItems) cut();
    },
    *ready() {
      yield* ready.splice(0);
    },
    *finish() {
      cut();
      if (total === 0) throw new NotSliced('no items');
      yield* ready.splice(0);
    },
  };
}
/**
 * True when `value` may have the key of an item of its collection already read (`keys`) (validateFeed's "repeats
 * the id"). Keys are kept as 48 bits of their MD5, not as text (the text of 288,000 keys held 70 MB): a
 * collision, about once in 7,000 documents of that size, only sends the document to be taken whole.
 */
function repeats(keys: Set<number>, collection: FeedCollection, value: unknown): boolean {
  let key: unknown;
  try {
    key = itemKey(collection, value as never).key;
  } catch {
    // An item of the wrong shape: its slice's validation names it.
    return false;
  }
  if (typeof key !== 'string') return false;
  const hashed = createHash('md5').update(key).digest().readUIntBE(0, 6);
  if (keys.has(hashed)) return true;
  keys.add(hashed);
  return false;
}

/** Where a large feed document is read from: as bytes in order, or whole (a document feedSlices cannot take). */
export interface FeedSource {
  chunks(): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  whole(): Promise<unknown>;
}

/**
 * Ingests one large feed document a slice at a time (in one transaction, as ingestFeed would), or
 * whole when it is not one feedSlices answers for; the answer is ingestFeed's either way.
 */
export async function ingestSliced(
  store: Store,
  source: FeedSource,
  options: IngestOptions = {},
  sliceItems = SLICE_ITEMS,
): Promise<IngestSummary> {
  // One clock for every slice: items without updatedAt are stamped alike, as in one document.
  const sliced = { ...options, now: options.now ?? new Date() };
  try {
    return await ingestDocuments(store, feedSlices(source.chunks(), sliceItems), sliced);
  } catch (error) {
    // A slice refused may be one whose references come later in the document; what is wrong with a
    // document, the whole document's validation names, exactly as for a small one.
    if (!(error instanceof NotSliced || error instanceof FeedValidationError)) throw error;
  }
  return ingestFeed(store, await source.whole(), options);
}
