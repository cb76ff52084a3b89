import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FeedValidationError } from '../../src/ingest/feed-errors.ts';
import { FEED_COLLECTIONS, type FeedDocument } from '../../src/ingest/feed-schema.ts';
import { feedSlices, ingestSliced, NotSliced } from '../../src/ingest/feed-slices.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

/** The document's collections in the order they are written (FEED_COLLECTIONS), as a feed that streams has them. */
function inOrder(doc: FeedDocument): FeedDocument {
  const { updatedAt, ...collections } = doc as FeedDocument & { updatedAt?: string };
  return Object.fromEntries([
    ...(updatedAt ? [['updatedAt', updatedAt]] : []),
    ...FEED_COLLECTIONS.filter((c) => collections[c]).map((c) => [c, collections[c]]),
  ]) as FeedDocument;
}

/** The text's bytes in chunks of `size`, as a socket or a file stream would give them. */
function* chunked(text: string, size: number): Generator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function sliced(text: string, size: number, sliceItems: number): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const { document } of feedSlices(chunked(text, size), sliceItems))
    out.push(document as Record<string, unknown>);
  return out;
}

describe('a feed document read in slices', () => {
  const doc = { updatedAt: '2026-03-01T10:00:00.000Z', ...inOrder(fixtureFeed()) };
  const text = JSON.stringify(doc);

  test('the slices hold every item once, in order, one collection each, with the document updatedAt', async () => {
    for (const [size, sliceItems] of [
      [1, 1],
      [7, 2],
      [4096, 3],
      [1 << 20, 2000],
    ] as const) {
      const slices = await sliced(text, size, sliceItems);
      const joined: Record<string, unknown[]> = {};
      for (const slice of slices) {
        const { updatedAt, ...rest } = slice;
        assert.equal(updatedAt, doc.updatedAt);
        const entries = Object.entries(rest) as Array<[string, unknown[]]>;
        assert.equal(entries.length, 1, 'one collection a slice');
        const [collection, items] = entries[0] as [string, unknown[]];
        assert.ok(items.length >= 1 && items.length <= sliceItems);
        joined[collection as string] = [...(joined[collection as string] ?? []), ...items];
      }
      const { updatedAt: _, ...collections } = doc;
      assert.deepEqual(joined, collections, `chunks of ${size}, slices of ${sliceItems}`);
      assert.deepEqual(Object.keys(joined), Object.keys(collections), 'collections in the order of the document');
    }
  });

  const events = (doc.events ?? []) as Array<Record<string, unknown>>;
  const tours = (doc.tours ?? []) as Array<Record<string, unknown>>;
  const cases: Array<[string, string]> = [
    ['collections out of order', JSON.stringify({ events, tours })],
    ['updatedAt after the items', JSON.stringify({ tours, updatedAt: '2026-03-01T10:00:00.000Z' })],
    ['a key that is not a collection', JSON.stringify({ tours, extra: [] })],
    ['a collection that is not an array', JSON.stringify({ tours, events: 5 })],
    ['a collection that is an object', JSON.stringify({ tours: { a: tours[0] } })],
    ['a collection twice', `{"tours":${JSON.stringify(tours)},"tours":${JSON.stringify(tours)}}`],
    ['an item that repeats the id of another', JSON.stringify({ tours: [...tours, tours[0]] })],
    ['a __proto__ key', JSON.stringify({ tours }).replace('"id"', '"__proto__":{"x":1},"id"')],
    ['a \\u escape', JSON.stringify({ tours }).replace('"id"', '"\\u0069d"')],
    ['not JSON', `${JSON.stringify({ tours }).slice(0, -5)}]]]]`],
    ['a document that ends early', JSON.stringify({ tours }).slice(0, -1)],
    ['trailing text', `${JSON.stringify({ tours })} x`],
    ['not an object', JSON.stringify([tours])],
    ['no items', JSON.stringify({ tours: [] })],
  ];
  for (const [name, body] of cases)
    test(`taken whole: ${name}`, async () => {
      await assert.rejects(sliced(body, 5, 2), NotSliced);
    });
});

/** Every fact table's rows, in id order, without the columns the clock writes. */
async function snapshot(store: Store) {
  const out: Record<string, unknown[]> = {};
  for (const table of ['tours', 'athletes', 'events', 'heats', 'heatEntries', 'markets', 'odds', 'laps'] as const)
    out[table] = await store.db.selectFrom(table).selectAll().orderBy('id').execute();
  return out;
}

describeEachStore('a large feed document ingested in slices', (open) => {
  const doc = inOrder(fixtureFeed());
  const source = (text: string, whole: () => void = () => {}) => ({
    chunks: () => chunked(text, 64),
    whole: async () => {
      whole();
      return JSON.parse(text);
    },
  });
  const now = new Date('2026-03-01T12:00:00.000Z');

  test('writes what ingestFeed writes, and answers the same summary', async () => {
    const [a, b] = [await open(), await open()];
    let whole = 0;
    const summary = await ingestSliced(
      a,
      source(JSON.stringify(doc), () => whole++),
      { now },
      2,
    );
    const expected = await ingestFeed(b, doc, { now });
    assert.equal(whole, 0, 'read in slices');
    assert.deepEqual(
      { ...summary, changes: summary.changes.length },
      { ...expected, changes: expected.changes.length },
    );
    assert.deepEqual(await snapshot(a), await snapshot(b));
  });

  test('a document it cannot slice (collections out of order) is ingested whole, alike', async () => {
    const [a, b] = [await open(), await open()];
    const { tours, ...rest } = doc;
    const reversed = { ...rest, tours };
    let whole = 0;
    await ingestSliced(
      a,
      source(JSON.stringify(reversed), () => whole++),
      { now },
      2,
    );
    await ingestFeed(b, doc, { now });
    assert.equal(whole, 1, 'read whole');
    assert.deepEqual(await snapshot(a), await snapshot(b));
  });

  test('a bad item in a late slice writes nothing, and is named as the whole document names it', async () => {
    const [a, b] = [await open(), await open()];
    const futureOdds = (doc.futureOdds ?? []).map((o, i, all) =>
      i === all.length - 1 ? { ...o, futureId: 'no-such-future' } : o,
    );
    assert.ok(futureOdds.length >= 2, 'the bad item is in a slice after the first');
    const bad = { ...doc, futureOdds };
    const [sliceError, wholeError] = await Promise.all([
      ingestSliced(a, source(JSON.stringify(bad)), { now }, 2).catch((e: unknown) => e),
      ingestFeed(b, bad, { now }).catch((e: unknown) => e),
    ]);
    assert.ok(sliceError instanceof FeedValidationError, String(sliceError));
    assert.ok(wholeError instanceof FeedValidationError, String(wholeError));
    assert.deepEqual(sliceError.problems, wholeError.problems);
    assert.equal(sliceError.problems[0]?.item, `futureOdds[${futureOdds.length - 1}]`);
    assert.deepEqual(await snapshot(a), await snapshot(b));
    assert.equal((await snapshot(a)).events?.length, 0, 'nothing written');
  });
});
