import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { generateDemoFeeds } from '../../src/demo/generate.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { tempDir } from '../helpers/cli.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

/**
 * A SQLite file store reads through a connection of its own (src/store/sqlite-read-write.ts): a write
 * transaction in progress holds up no read, and a read never sees a batch half written.
 */
describe('SQLite file store: reads beside a write transaction', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let testStore: TestStore;
  let store: Store;

  before(async () => {
    dir = await tempDir('altsports-rw-');
    testStore = await openTestStore('sqlite', { dataDir: dir.dir });
    store = testStore.store;
  });

  after(async () => {
    await testStore.cleanup();
    await dir.cleanup();
  });

  const tours = async () => (await store.db.selectFrom('tours').select('id').execute()).map((row) => row.id);

  test('a read during an open transaction answers at once with the committed data; a write waits its turn', async () => {
    let open!: () => void;
    let finish!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const order: string[] = [];
    const transaction = store.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('tours')
        .values({
          id: 'rw-a',
          referenceId: 1,
          name: 'A',
          competition: 'wsl',
          gender: null,
          updatedAt: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      open();
      await finished;
      order.push('commit');
    });
    await opened;
    assert.deepEqual(await tours(), [], 'the uncommitted row is not seen');
    order.push('read');
    const write = store.db
      .deleteFrom('apiKeys')
      .execute()
      .then(() => order.push('write'));
    await nextTurn();
    finish();
    await Promise.all([transaction, write]);
    assert.deepEqual(order, ['read', 'commit', 'write']);
    assert.deepEqual(await tours(), ['rw-a']);
  });

  test('a feed batch lets reads in while it is written, and they see all of it or none of it', async () => {
    const [feed] = generateDemoFeeds({ now: new Date('2026-11-21T18:00:00Z'), competitions: ['spr'] });
    assert.ok(feed?.events?.length);
    const count = async () =>
      (
        await store.db
          .selectFrom('heatEntries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = Number(await count());
    let done = false;
    const ingest = ingestFeed(store, feed).then((summary) => {
      done = true;
      return summary;
    });
    const seen = new Set<number>();
    let readsDuring = 0;
    while (!done) {
      const n = Number(await count());
      if (!done) {
        readsDuring += 1;
        seen.add(n);
      }
      await nextTurn();
    }
    await ingest;
    const afterwards = Number(await count());
    assert.ok(afterwards > before, 'the batch wrote heat entries');
    assert.ok(readsDuring > 0, 'reads were answered while the batch was written');
    assert.deepEqual([...seen], [before], 'no read saw part of the batch');
  });
});
