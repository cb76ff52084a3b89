import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDemoFeeds } from '../../src/demo/generate.ts';
import { FeedValidationError } from '../../src/ingest/feed-errors.ts';
import { FEED_COLLECTIONS, type FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestDocuments, ingestFeed, type NumberedDocument } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const NOW = new Date('2026-03-10T15:42:17.250Z');

/** Two competitions of the demo (one completed, one live and one upcoming event each), as one document. */
function demoBatch(): FeedDocument {
  const merged: Record<string, unknown[]> = {};
  for (const doc of generateDemoFeeds({ now: NOW, events: 90, competitions: ['spr', 'wsl'] }))
    for (const collection of FEED_COLLECTIONS)
      merged[collection] = [...(merged[collection] ?? []), ...(doc[collection] ?? [])];
  return merged as FeedDocument;
}

/** The same batch as one document per collection, in the order the ingest writes collections. */
function byCollection(feed: FeedDocument): NumberedDocument[] {
  return FEED_COLLECTIONS.filter((c) => (feed[c]?.length ?? 0) > 0).map((c, i) => ({
    document: { [c]: feed[c] },
    line: i + 1,
  }));
}

async function* each(documents: readonly NumberedDocument[]): AsyncGenerator<NumberedDocument> {
  yield* documents;
}

/** Every table the ingest writes, each row as JSON, sorted: what two stores hold, comparable. */
async function contents(store: Store): Promise<Record<string, string[]>> {
  const tables = await store.db.introspection.getTables();
  const out: Record<string, string[]> = {};
  for (const { name } of tables.filter((t) => !/migration|api_key|stream_token_secret|usage|rate/.test(t.name))) {
    const rows = await store.db
      .selectFrom(name as 'events')
      .selectAll()
      .execute();
    out[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

describeEachStore('a batch of many documents (ingestDocuments)', (open) => {
  test('writes what the same items in one document write: rows, reference ids, settlements, change log', async () => {
    const feed = demoBatch();
    const [whole, split] = [await open(), await open()];
    const one = await ingestFeed(whole, feed, { now: NOW });
    const many = await ingestDocuments(split, each(byCollection(feed)), { now: NOW });
    assert.deepEqual(many, one);
    assert.ok(one.changes.length > 0 && one.odds.inserted > 0);
    const settled = await whole.db.selectFrom('settlements').select('oddId').execute();
    assert.ok(settled.length > 0, 'the batch settles nothing: the comparison would not cover settlements');
    assert.deepEqual(await contents(split), await contents(whole));
  });

  test('takes one document at a time: each is written before the next is read', async () => {
    const store = await open();
    const documents = byCollection(fixtureFeed());
    let read = 0;
    const readWhenWritten: Array<[string, number]> = [];
    async function* oneByOne(): AsyncGenerator<NumberedDocument> {
      for (const document of documents) {
        read += 1;
        yield document;
      }
    }
    await ingestDocuments(store, oneByOne(), {
      onCollection: (collection, counts) => {
        if (counts.received > 0) readWhenWritten.push([collection, read]);
      },
    });
    assert.deepEqual(
      readWhenWritten,
      documents.map(({ document }, i) => [Object.keys(document as object)[0], i + 1]),
    );
  });

  test('a bad document writes nothing of the batch, the documents before it included, and names its line', async () => {
    const store = await open();
    const fixture = fixtureFeed();
    const bad = { events: [{ ...fixture.events?.[0], competition: 'nope' }] };
    const documents = [
      ...byCollection({ tours: fixture.tours, tourYears: fixture.tourYears }),
      { document: bad, line: 7 },
    ];
    const error = await ingestDocuments(store, each(documents)).catch((e: unknown) => e);
    assert.ok(error instanceof FeedValidationError, String(error));
    assert.deepEqual(
      error.problems.map((p) => [p.item, p.field]),
      [['events[0] (line 7)', 'competition']],
    );
    assert.match(error.message, /nothing was written/);
    for (const table of ['tours', 'tourYears', 'events', 'changes'] as const) {
      const rows = await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(rows.n), 0, table);
    }
  });

  test('a document may refer to what an earlier one wrote, and an earlier one only', async () => {
    const store = await open();
    const { tours, tourYears, teams, athletes, events } = fixtureFeed();
    const later = await ingestDocuments(store, each(byCollection({ tours, tourYears, teams, athletes, events })));
    assert.equal(later.events.inserted, events?.length);
    const forward = await ingestDocuments(
      await open(),
      each([
        { document: { events }, line: 1 },
        { document: { tours, tourYears, teams, athletes }, line: 2 },
      ]),
    ).catch((e: unknown) => e);
    assert.ok(forward instanceof FeedValidationError, String(forward));
    assert.ok(
      forward.problems.every((p) => p.item.endsWith('(line 1)')),
      JSON.stringify(forward.problems),
    );
  });
});
