import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
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
import { type CutHandlers, JsonCutter, NotCut, parseJsonBody } from './large-json.ts';
import { feedFileBytes } from './read-feed-file.ts';
import { itemKey } from './validate-feed.ts';

/**
 * A large feed document read as it arrives, in slices (a 60 MB admin feed took ten times its
 * size in memory, parsed whole). Each slice is a document of its own: one collection's next items, with
 * the document's `updatedAt`; ingestDocuments writes them in one transaction, each validated against
 * what the slices before it wrote, as an NDJSON import's documents are. That is the whole document's
 * answer only when its collections come in the order they are written (FEED_COLLECTIONS), each once,
 * `updatedAt` before them, no key repeated and nothing the cutter cannot read (large-json.ts: a prototype
 * key, text that is not JSON): any other document throws NotSliced, and its caller takes it whole. A
 * document whose collections come in another order (OutOfOrder) is read again from its staged file when
 * it can be: once for where each collection lies, then each collection's bytes in the order they are
 * written (rangedSlices).
 */
export class NotSliced extends Error {}

/** The document's collections (or its updatedAt) are not in the order they are written. */
export class OutOfOrder extends NotSliced {}

/** Items of a slice: a few hundred kilobytes of text. */
export const SLICE_ITEMS = 2_000;

export async function* feedSlices(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  sliceItems = SLICE_ITEMS,
): AsyncGenerator<NumberedDocument> {
  const slices = sliceMaker(sliceItems);
  const cutter = new JsonCutter(orderChecks(slices));
  for await (const chunk of chunks) {
    cutting(() => cutter.write(chunk));
    yield* slices.ready();
  }
  cutting(() => cutter.end());
  yield* slices.finish();
}

/** Runs a step of the cutter; what it cannot read is NotSliced (the whole parse gives JSON.parse's message). */
function cutting(step: () => void): void {
  try {
    step();
  } catch (error) {
    throw error instanceof NotCut ? new NotSliced(error.message) : error;
  }
}

/** The single reading's check of each member: collections in order, each once, updatedAt before them. */
function orderChecks(slices: ReturnType<typeof sliceMaker>): CutHandlers {
  let last = -1;
  return {
    member(name, value) {
      if (name !== 'updatedAt') throw new NotSliced(`${name}: not a collection`);
      if (typeof value !== 'string') throw new NotSliced('updatedAt is not a string');
      if (last >= 0) throw new OutOfOrder('updatedAt after the items');
      slices.updatedAt(value);
    },
    array(name) {
      const at = FEED_COLLECTIONS.indexOf(name as FeedCollection);
      if (at < 0 || at === last) throw new NotSliced(`${name}: not a collection, or twice`);
      if (at < last) throw new OutOfOrder(`${name} after ${FEED_COLLECTIONS[last]}`);
      last = at;
    },
    item: (name, index, value) => slices.item(name as FeedCollection, index, value),
  };
}

/** Gathers the cutter's items into slices of one collection. */
function sliceMaker(sliceItems: number) {
  const ready: NumberedDocument[] = [];
  // Keys of the current collection's items: each collection comes once (orderChecks, documentLayout).
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

/**
 * Where each collection of a document lies in its bytes (the offsets of its `[` and its `]`), in the order
 * collections are written, and the document's updatedAt.
 */
export interface DocumentLayout {
  updatedAt?: string;
  ranges: Array<{ collection: FeedCollection; start: number; end: number }>;
  /** True when the document has them in that order already (updatedAt first): feedSlices' order. */
  inOrder: boolean;
}

/**
 * The first of the two readings of a document whose collections come in another order: its layout. Its
 * items are parsed too, and dropped, so that a document the second reading would refuse (a prototype key,
 * an item that is not JSON) is refused here, before anything is written. NotSliced for a document
 * feedSlices would refuse for any other reason than its order (a key that is not a collection, one twice).
 */
export async function documentLayout(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): Promise<DocumentLayout> {
  const found = new Map<string, { start: number; end: number } | string>();
  const once = (name: string) => {
    if (found.has(name)) throw new NotSliced(`${name} twice`);
  };
  const cutter = new JsonCutter({
    member(name, value) {
      once(name);
      if (name !== 'updatedAt' || typeof value !== 'string') throw new NotSliced(`${name}: not a collection`);
      found.set(name, value);
    },
    array(name, offset) {
      once(name);
      if (!FEED_COLLECTIONS.includes(name as FeedCollection)) throw new NotSliced(`${name}: not a collection`);
      found.set(name, { start: offset, end: -1 });
    },
    item: () => {},
    close(name, offset) {
      (found.get(name) as { end: number }).end = offset;
    },
  });
  for await (const chunk of chunks) cutting(() => cutter.write(chunk));
  cutting(() => cutter.end());
  const updatedAt = found.get('updatedAt') as string | undefined;
  const ranges = FEED_COLLECTIONS.flatMap((collection) => {
    const range = found.get(collection) as { start: number; end: number } | undefined;
    return range ? [{ collection, ...range }] : [];
  });
  const written = [...(updatedAt === undefined ? [] : ['updatedAt']), ...ranges.map((r) => r.collection)];
  const inOrder = [...found.keys()].every((name, i) => name === written[i]);
  return { ...(updatedAt === undefined ? {} : { updatedAt }), ranges, inOrder };
}

/**
 * The second reading: each collection's bytes (`read(start, end)`, both inclusive) in the order they are
 * written, in slices as feedSlices makes them. A range that does not hold one array exactly is NotSliced.
 */
export async function* rangedSlices(
  read: (start: number, end: number) => AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  layout: DocumentLayout,
  sliceItems = SLICE_ITEMS,
): AsyncGenerator<NumberedDocument> {
  const slices = sliceMaker(sliceItems);
  if (layout.updatedAt !== undefined) slices.updatedAt(layout.updatedAt);
  for (const { collection, start, end } of layout.ranges) {
    const cutter = new JsonCutter(
      { item: (_name, index, value) => slices.item(collection, index, value) },
      { array: collection },
    );
    for await (const chunk of read(start, end)) {
      cutting(() => cutter.write(chunk));
      yield* slices.ready();
    }
    cutting(() => cutter.end());
  }
  yield* slices.finish();
}

/**
 * Where a large feed document is read from: its bytes in order and, when it is kept in a file, any range
 * of them (both ends included).
 */
export interface FeedBytes {
  chunks(): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  range?(start: number, end: number): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** FeedBytes, and the document whole (a document the slices cannot take). */
export interface FeedSource extends FeedBytes {
  whole(): Promise<unknown>;
}

/**
 * Ingests one large feed document a slice at a time (in one transaction, as ingestFeed would): read
 * once as it comes, or, its collections out of order and its bytes at hand, twice (documentLayout,
 * rangedSlices); whole when it is not one these answer for. The answer is ingestFeed's either way.
 */
export async function ingestSliced(
  store: Store,
  source: FeedSource,
  options: IngestOptions = {},
  sliceItems = SLICE_ITEMS,
): Promise<IngestSummary> {
  return (await ingestInSlices(store, source, options, sliceItems)) ?? ingestFeed(store, await source.whole(), options);
}

/**
 * ingestSliced's reading in slices: the summary, or null (nothing written) when the bytes are not one
 * document the slices answer for exactly as the whole document would be answered (`altsports import`
 * then reads its file as NDJSON or whole).
 */
export async function ingestInSlices(
  store: Store,
  source: FeedBytes,
  options: IngestOptions = {},
  sliceItems = SLICE_ITEMS,
): Promise<IngestSummary | null> {
  // One clock for every slice: items without updatedAt are stamped alike, as in one document.
  const sliced = { ...options, now: options.now ?? new Date() };
  let outcome = await sliceAttempt(() => ingestDocuments(store, feedSlices(source.chunks(), sliceItems), sliced));
  const { range } = source;
  // Refused for its order, or a slice refused, perhaps for a reference to a collection that came later.
  if ((outcome instanceof OutOfOrder || outcome instanceof FeedValidationError) && range) {
    const layout = await sliceAttempt(() => documentLayout(source.chunks()));
    if (!(layout instanceof Error) && !layout.inOrder)
      outcome = await sliceAttempt(() => ingestDocuments(store, rangedSlices(range, layout, sliceItems), sliced));
  }
  return outcome instanceof Error ? null : outcome;
}

/**
 * The attempt's result, or why the document must be taken whole. A slice refused may be one whose
 * references come later in the document; what is wrong with a document, the whole document's
 * validation names, exactly as for a small one.
 */
async function sliceAttempt<T>(attempt: () => Promise<T>): Promise<T | NotSliced | FeedValidationError> {
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof NotSliced || error instanceof FeedValidationError) return error;
    throw error;
  }
}

/**
 * An admin feed's body as it was received: in memory when small, else kept in a file while it arrived
 * (its bytes already checked: UTF-8, nesting, size).
 */
export type FeedBody = { bytes: Buffer } | { file: string };

/** Ingests a feed body: a small one parsed whole; a large one in slices, or whole when it must be (feed-slices.ts). */
export async function ingestFeedBody(
  store: Store,
  body: FeedBody,
  options: IngestOptions = {},
): Promise<IngestSummary> {
  if ('bytes' in body) return ingestFeed(store, await parseJsonBody(body.bytes), options);
  const { file } = body;
  return ingestSliced(
    store,
    { ...feedFileBytes(file, undefined, { checked: true }), whole: async () => parseJsonBody(await readFile(file)) },
    options,
  );
}
