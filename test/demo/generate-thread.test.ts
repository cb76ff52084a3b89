import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { generateDemoFeeds } from '../../src/demo/generate.ts';
import { generateInThread } from '../../src/demo/generate-thread.ts';
import { loadDemoData } from '../../src/demo/load-demo.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { NOW } from '../helpers/demo-feeds.ts';
import { openTestStore, STORE_KINDS, type TestStore } from '../helpers/stores.ts';

const COMPETITIONS = ['spr', 'gsoc', 'jaialai'];
const OPTIONS = { now: NOW, seed: 5, competitions: COMPETITIONS, maxEventsPerChunk: 3 };

async function taken(documents: AsyncIterable<FeedDocument>): Promise<FeedDocument[]> {
  const out: FeedDocument[] = [];
  for await (const document of documents) out.push(document);
  return out;
}

describe('the demo generated on a thread of its own', () => {
  test('gives the documents generateDemoFeeds gives, in the same order', async () => {
    const here = [...generateDemoFeeds(OPTIONS)];
    assert.ok(here.length > COMPETITIONS.length, 'several documents per competition');
    assert.deepEqual(await taken(generateInThread(OPTIONS)), here);
  });

  test('a thread that fails rejects the iteration; one left early ends', async () => {
    const failing = generateInThread({ now: new Date(Number.NaN) });
    await assert.rejects(taken(failing), /now must be a valid date/);
    const documents = generateInThread(OPTIONS);
    for await (const _ of documents) break;
    await documents.close();
  });

  for (const dialect of STORE_KINDS) {
    describe(`loaded into ${dialect}`, () => {
      let testStore: TestStore;
      after(async () => testStore?.cleanup());

      test('loadDemoData writes the documents it is handed, as it writes its own', async () => {
        testStore = await openTestStore(dialect);
        const { events } = await loadDemoData(testStore.store, { now: NOW, documents: generateInThread(OPTIONS) });
        const stored = await testStore.store.db.selectFrom('events').select('id').execute();
        assert.equal(stored.length, events);
        assert.equal(events, [...generateDemoFeeds(OPTIONS)].flatMap((d) => d.events ?? []).length);
      });
    });
  }
});
