import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FeedValidationError } from '../../src/ingest/feed-errors.ts';
import { FEED_COLLECTIONS, type FeedDocument } from '../../src/ingest/feed-schema.ts';
import {
  documentLayout,
  feedSlices,
  ingestInSlices,
  ingestSliced,
  NotSliced,
  OutOfOrder,
  rangedSlices,
} from '../../src/ingest/feed-slices.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { feedFileBytes } from '../../src/ingest/read-feed-file.ts';
import type { Store } from '../../src/store/database.ts';
import { tempDir } from '../helpers/cli.ts';
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
function* chunked(text: string | Buffer, size: number): Generator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Bytes `start` to `end` of the text (both included), in chunks of `size`, as a file stream's range gives them. */
function ranged(text: string, size: number) {
  const bytes = Buffer.from(text);
  return (start: number, end: number) => chunked(bytes.subarray(start, end + 1), size);
}

/** The slices' collections joined, each in the order of its items. */
function joined(slices: Record<string, unknown>[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const { updatedAt: _, ...rest } of slices)
    for (const [collection, items] of Object.entries(rest) as Array<[string, unknown[]]>)
      out[collection] = [...(out[collection] ?? []), ...items];
  return out;
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
    [
      'a __proto__ key spelled with escapes',
      JSON.stringify({ tours }).replace('"id"', '"\\u005f\\u005fproto__":{},"id"'),
    ],
    ['a constructor.prototype', JSON.stringify({ tours }).replace('"id"', '"constructor":{"prototype":{}},"id"')],
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

  test('escapes are read as JSON.parse reads them, however the chunks cut them', async () => {
    const escapes = String.raw`\u00e9t\u00e9 \ud83c\udfc4 \ud800 lone \udc00 \u003cb\u003e \"q\" \\ \/ \b\f\n\r\t`;
    const body = JSON.stringify({ tours })
      .replace(/"name":"[^"]*"/, `"name":"${escapes}"`)
      .replace('"id"', String.raw`"\u0069d"`);
    const expected = JSON.parse(body).tours;
    assert.match(JSON.stringify(expected[0]), /été/, 'the escapes are in the document');
    for (const size of [1, 3, 4096]) {
      const slices = await sliced(body, size, 2);
      assert.deepEqual(
        slices.flatMap((slice) => slice.tours as unknown[]),
        expected,
        `chunks of ${size}`,
      );
    }
  });

  test('collections or updatedAt out of order are OutOfOrder: the document may be read again by ranges', async () => {
    await assert.rejects(sliced(JSON.stringify({ events, tours }), 5, 2), OutOfOrder);
    await assert.rejects(sliced(JSON.stringify({ tours, updatedAt: doc.updatedAt }), 5, 2), OutOfOrder);
    await assert.rejects(
      sliced(`{"tours":${JSON.stringify(tours)},"tours":[]}`, 5, 2),
      (e) => !(e instanceof OutOfOrder),
    );
  });

  // Multi-byte characters and escapes move byte offsets away from character offsets.
  const spelled = { ...tours[0], name: 'Tour "é" 🏄\n\\ end' };
  const shuffled: Record<string, unknown> = {};
  for (const collection of [...FEED_COLLECTIONS].reverse()) if (doc[collection]) shuffled[collection] = doc[collection];
  shuffled.tours = [spelled, ...tours.slice(1)];
  shuffled.updatedAt = doc.updatedAt;
  const shuffledText = JSON.stringify(shuffled, null, 1);

  test('documentLayout finds each collection between its brackets, in the order they are written', async () => {
    for (const size of [1, 7, 4096]) {
      const layout = await documentLayout(chunked(shuffledText, size));
      assert.equal(layout.updatedAt, doc.updatedAt);
      assert.equal(layout.inOrder, false);
      assert.equal((await documentLayout(chunked(text, size))).inOrder, true);
      assert.deepEqual(
        layout.ranges.map((r) => r.collection),
        FEED_COLLECTIONS.filter((c) => doc[c]),
      );
      const bytes = Buffer.from(shuffledText);
      for (const { collection, start, end } of layout.ranges)
        assert.deepEqual(JSON.parse(bytes.subarray(start, end + 1).toString()), shuffled[collection], collection);
    }
  });

  test('rangedSlices reads the collections in the order they are written, in slices, every item once', async () => {
    for (const [size, sliceItems] of [
      [1, 1],
      [7, 2],
      [4096, 2000],
    ] as const) {
      const layout = await documentLayout(chunked(shuffledText, size));
      const slices: Record<string, unknown>[] = [];
      for await (const { document } of rangedSlices(ranged(shuffledText, size), layout, sliceItems))
        slices.push(document as Record<string, unknown>);
      for (const slice of slices) {
        assert.equal(slice.updatedAt, doc.updatedAt);
        assert.equal(Object.keys(slice).length, 2, 'one collection a slice');
      }
      const { updatedAt: _, ...collections } = shuffled;
      assert.deepEqual(joined(slices), collections);
      assert.deepEqual(
        Object.keys(joined(slices)),
        FEED_COLLECTIONS.filter((c) => doc[c]),
      );
    }
  });

  const tourText = JSON.stringify(tours);
  const refused: Array<[string, string]> = [
    ['a collection twice, apart', `{"tours":${tourText},"events":[],"tours":${tourText}}`],
    ['updatedAt twice', `{"tours":${tourText},"updatedAt":"a","updatedAt":"b"}`],
    ['a key that is not a collection', `{"tours":${tourText},"extra":[]}`],
    ['updatedAt that is not a string', `{"tours":${tourText},"updatedAt":5}`],
    ['a collection that is not an array', `{"events":5,"tours":${tourText}}`],
    ['a missing colon', `{"events":[],"tours" ${tourText}}`],
    ['a missing comma', `{"events":[] "tours":${tourText}}`],
    ['a comma too many', `{"events":[],,"tours":${tourText}}`],
    ['trailing text', `{"events":[],"tours":${tourText}} {}`],
    ['not an object', `[${tourText}]`],
    ['a document that ends early', `{"events":[],"tours":${tourText}`],
    ['a __proto__ key', `{"events":[],"tours":${tourText.replace('"id"', '"__proto__":{},"id"')}}`],
    [
      'a __proto__ key spelled with escapes',
      `{"events":[],"tours":${tourText.replace('"id"', '"__pr\\u006fto__":{},"id"')}}`,
    ],
  ];
  for (const [name, body] of refused)
    test(`not read by ranges: ${name}`, async () => {
      await assert.rejects(documentLayout(chunked(body, 5)), NotSliced);
    });

  test('a range that does not hold one array exactly is NotSliced', async () => {
    const text = `{"events":[],"tours":${tourText}}`;
    const layout = await documentLayout(chunked(text, 5));
    for (const shift of [
      [1, 0],
      [0, -1],
      [0, 1],
    ] as const) {
      const moved = {
        ...layout,
        ranges: layout.ranges.map((r) => ({ ...r, start: r.start + shift[0], end: r.end + shift[1] })),
      };
      const slices = rangedSlices(ranged(`${text} `, 5), moved, 2);
      await assert.rejects(
        (async () => {
          for await (const _ of slices);
        })(),
        NotSliced,
        `start ${shift[0]}, end ${shift[1]}`,
      );
    }
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
  const source = (text: string, whole: () => void = () => {}, staged = true) => ({
    chunks: () => chunked(text, 64),
    whole: async () => {
      whole();
      return JSON.parse(text);
    },
    ...(staged ? { range: ranged(text, 64) } : {}),
  });
  const now = new Date('2026-03-01T12:00:00.000Z');

  /**
   * `text` through ingestSliced on one store and `expected` through ingestFeed on another: the same rows
   * and the same summary. How the text was read: in slices, or whole.
   */
  async function bothWays(text: string, expected: FeedDocument, staged = true): Promise<'in slices' | 'whole'> {
    const [a, b] = [await open(), await open()];
    let whole = 0;
    const summary = await ingestSliced(
      a,
      source(text, () => whole++, staged),
      { now },
      2,
    );
    const wanted = await ingestFeed(b, expected, { now });
    assert.deepEqual({ ...summary, changes: summary.changes.length }, { ...wanted, changes: wanted.changes.length });
    assert.deepEqual(await snapshot(a), await snapshot(b));
    return whole === 0 ? 'in slices' : 'whole';
  }

  test('writes what ingestFeed writes, and answers the same summary', async () => {
    assert.equal(await bothWays(JSON.stringify(doc), doc), 'in slices');
  });

  const { tours, ...rest } = doc;
  const reversed = { ...rest, tours };

  test('collections out of order, the document staged: read again by ranges, in slices, alike', async () => {
    assert.equal(await bothWays(JSON.stringify(reversed), doc), 'in slices');
  });

  test('collections out of order, only the stream at hand: ingested whole, alike', async () => {
    assert.equal(await bothWays(JSON.stringify(reversed), doc, false), 'whole');
  });

  test('a document refused by ranges (a collection twice) is taken whole, as JSON.parse reads it', async () => {
    const text = `{"tours":[],${JSON.stringify(reversed).slice(1)}`;
    assert.equal(await bothWays(text, JSON.parse(text)), 'whole');
  });

  test('from a file (feedFileBytes): one document in slices, in any order; NDJSON is not one (null, nothing written)', async (t) => {
    const dir = await tempDir('altsports-feed-slices-');
    t.after(() => dir.cleanup());
    const written = join(dir.dir, 'reversed.json');
    await writeFile(written, JSON.stringify(reversed, null, 2));
    const ndjson = join(dir.dir, 'lines.ndjson');
    await writeFile(ndjson, `${JSON.stringify({ tours })}\n${JSON.stringify({ events: doc.events })}\n`);
    const [a, b, c] = [await open(), await open(), await open()];
    const read: number[] = [];
    const summary = await ingestInSlices(
      a,
      feedFileBytes(written, (bytes) => read.push(bytes)),
      { now },
      2,
    );
    const expected = await ingestFeed(b, doc, { now });
    assert.deepEqual(
      { ...summary, changes: summary?.changes.length },
      { ...expected, changes: expected.changes.length },
    );
    assert.deepEqual(await snapshot(a), await snapshot(b));
    assert.ok(read.length > 0, 'the bytes read are reported');
    assert.equal(await ingestInSlices(c, feedFileBytes(ndjson), { now }, 2), null);
    assert.equal((await snapshot(c)).tours?.length, 0, 'nothing written');
  });

  /** The problems `bad` is refused with, through ingestSliced and through ingestFeed: the same, and nothing written. */
  async function refusedAlike(bad: FeedDocument) {
    const [a, b] = [await open(), await open()];
    const [sliceError, wholeError] = await Promise.all([
      ingestSliced(a, source(JSON.stringify(bad)), { now }, 2).catch((e: unknown) => e),
      ingestFeed(b, bad, { now }).catch((e: unknown) => e),
    ]);
    assert.ok(sliceError instanceof FeedValidationError, String(sliceError));
    assert.ok(wholeError instanceof FeedValidationError, String(wholeError));
    assert.deepEqual(sliceError.problems, wholeError.problems);
    assert.deepEqual(await snapshot(a), await snapshot(b));
    assert.equal((await snapshot(a)).events?.length, 0, 'nothing written');
    return sliceError.problems;
  }

  test('a bad item in a document out of order writes nothing, and is named as the whole document names it', async () => {
    await refusedAlike({
      ...reversed,
      futureOdds: (doc.futureOdds ?? []).map((o) => ({ ...o, futureId: 'no-such-future' })),
    });
  });

  test('a bad item in a late slice writes nothing, and is named as the whole document names it', async () => {
    const futureOdds = (doc.futureOdds ?? []).map((o, i, all) =>
      i === all.length - 1 ? { ...o, futureId: 'no-such-future' } : o,
    );
    assert.ok(futureOdds.length >= 2, 'the bad item is in a slice after the first');
    const problems = await refusedAlike({ ...doc, futureOdds });
    assert.equal(problems[0]?.item, `futureOdds[${futureOdds.length - 1}]`);
  });
});
