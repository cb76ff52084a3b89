/**
 * The change feed across processes: two stores on the same data stand for two processes
 * (SQLite: the same file; PostgreSQL: the same schema). Every committed change reaches every feed,
 * in order and once; the own process's at once; a lost PostgreSQL listener comes back and catches up.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { StoredChange } from '../../src/domain/changes.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import {
  type ChangeFeed,
  type ChangeFeedOptions,
  openChangeFeed,
  VERSION_READ_GAP_MS,
} from '../../src/store/change-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';
import { openTestStore, STORE_KINDS } from '../helpers/stores.ts';

/** Generous: the feed on the other store learns of a write by polling (SQLite) or NOTIFY (PostgreSQL). */
const WAIT_MS = 10_000;

let clock = Date.parse('2026-06-01T00:00:00.000Z');
/** A batch that changes one heat score of the live wsl heat: one heatScore change each time. */
const scoreBatch = (score: number): FeedDocument => {
  clock += 60_000;
  return {
    heatEntries: [
      {
        id: 'e-feed',
        heatId: 'h-3',
        athleteId: 'ath-1',
        heatScore: score,
        updatedAt: new Date(clock).toISOString(),
      },
    ],
  };
};

/** What a feed delivered, in delivery order, and a way to wait for a given change id. */
function record(feed: ChangeFeed) {
  const delivered: StoredChange[] = [];
  const waiters: Array<{ id: number; resolve: () => void }> = [];
  feed.subscribe((changes) => {
    delivered.push(...changes);
    const last = changes.at(-1)?.id ?? 0;
    for (const waiter of waiters.filter((w) => w.id <= last)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  return {
    delivered,
    ids: () => delivered.map((c) => c.id),
    /** Resolves once the change `id` (or a later one) is delivered. */
    until(id: number, what: string): Promise<void> {
      if (delivered.some((c) => c.id >= id)) return Promise.resolve();
      return withTimeout(
        new Promise<void>((resolve) => waiters.push({ id, resolve })),
        `${what}: change ${id} was not delivered (got ${delivered.map((c) => c.id).join(', ') || 'none'})`,
      );
    },
  };
}

function withTimeout<T>(promise: Promise<T>, message: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${message}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function liveChanges(feed: ChangeFeed) {
  const seen: boolean[] = [];
  const waiters: Array<{ value: boolean; resolve: () => void }> = [];
  feed.onLiveChange((live) => {
    seen.push(live);
    for (const waiter of waiters.filter((w) => w.value === live)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  return {
    seen,
    becomes: (value: boolean) =>
      withTimeout(
        new Promise<void>((resolve) => waiters.push({ value, resolve })),
        `live did not become ${value} (went ${seen.join(', ') || 'nowhere'})`,
      ),
  };
}

for (const kind of STORE_KINDS) {
  describe(`change feed [${kind}]`, () => {
    let cleanups: Array<() => Promise<void> | void> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
      cleanups = [];
    });

    /** Two stores on the same data, the fixture loaded through the first. */
    async function twoProcesses(): Promise<{ a: Store; b: Store }> {
      const dir = mkdtempSync(join(tmpdir(), 'altsports-feed-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const opened = await openTestStore(kind, { dataDir: dir });
      cleanups.push(() => opened.cleanup());
      await ingestFeed(opened.store, fixtureFeed());
      return { a: opened.store, b: opened.openTwin() };
    }
    async function feedOn(store: Store, options: ChangeFeedOptions = {}): Promise<ChangeFeed> {
      // Errors are expected (the lost listener); what matters is what the feed delivers.
      const feed = await openChangeFeed(store, { pollMs: 20, onError: () => {}, ...options });
      cleanups.push(() => feed.close());
      return feed;
    }

    test('a write through one store reaches a feed on the other: every change, in order, once', async () => {
      const { a, b } = await twoProcesses();
      const feed = await feedOn(b);
      const got = record(feed);
      const expected: StoredChange[] = [];
      for (const score of [1, 2, 3]) expected.push(...(await ingestFeed(a, scoreBatch(score))).changes);
      // One batch of several changes: they arrive together, in id order.
      expected.push(
        ...(
          await ingestFeed(a, {
            ...scoreBatch(4),
            heats: [
              {
                id: 'h-3',
                roundId: 'r-live-2',
                heatName: 'Heat 1',
                heatNo: 1,
                heatStatus: 'COMPLETED',
                updatedAt: '2026-04-03T00:00:00.000Z',
              },
            ],
          })
        ).changes,
      );
      assert.equal(expected.length, 3 + 2, 'three heatScore changes, then a heatScore and a settlement');
      await got.until((expected.at(-1) as StoredChange).id, 'the writes of the other store');
      // A last write: anything delivered twice, or late, would sit before it.
      const last = (
        await ingestFeed(a, {
          events: [
            {
              ...(fixtureFeed().events?.[1] as NonNullable<FeedDocument['events']>[number]),
              eventStatus: 'COMPLETED',
              updatedAt: '2026-07-01T00:00:00.000Z',
            },
          ],
        })
      ).changes;
      await got.until((last.at(-1) as StoredChange).id, 'the last write');
      assert.deepEqual(got.delivered, [...expected, ...last]);
      assert.equal(feed.lastId, (last.at(-1) as StoredChange).id);
    });

    test("the store's own writes reach its own feed before ingestFeed resolves, and only once", async () => {
      const { a, b } = await twoProcesses();
      const feed = await feedOn(a);
      const got = record(feed);
      const mine: StoredChange[] = [];
      // Many writes: on PostgreSQL each one's own NOTIFY races its commit, and every one must win.
      for (let i = 0; i < 25; i++) {
        const order: string[] = [];
        const unsubscribe = feed.subscribe((changes) => order.push(`delivered ${changes.map((c) => c.id).join(',')}`));
        const summary = await ingestFeed(a, scoreBatch(100 + i));
        order.push('resolved');
        unsubscribe();
        assert.equal(summary.changes.length, 1);
        assert.deepEqual(order, [`delivered ${(summary.changes[0] as StoredChange).id}`, 'resolved'], `write ${i + 1}`);
        mine.push(...summary.changes);
      }
      // The same changes seen again (their NOTIFY, data_version moved by the other store's write) are not delivered again.
      const other = await ingestFeed(b, scoreBatch(200));
      await got.until((other.changes[0] as StoredChange).id, "the other store's write");
      assert.deepEqual(got.delivered, [...mine, ...other.changes]);
    });

    if (kind === 'sqlite') {
      test("catchUp() delivers another process's commit VERSION_READ_GAP_MS after the last read, without waiting for the poll", async () => {
        const { a, b } = await twoProcesses();
        const feed = await feedOn(b, { pollMs: 3_600_000 });
        const got = record(feed);
        const readAt = performance.now();
        assert.equal(feed.catchUp(), null, 'nothing pending before the write');
        // The other process commits a change at once (its connection writes synchronously).
        const at = new Date().toISOString();
        const { lastInsertRowid } = (a.sqlite as NonNullable<Store['sqlite']>)
          .prepare('insert into changes (kind, competition, event_id, data, created_at) values (?, ?, ?, ?, ?)')
          .run('heatScore', 'wsl', 'event-11', JSON.stringify({ heatIds: ['h-11'] }), at);
        // data_version is read at most once in VERSION_READ_GAP_MS: a request within it takes the version read before the commit.
        if (performance.now() - readAt < VERSION_READ_GAP_MS)
          assert.equal(feed.catchUp(), null, 'within the gap: the version read before the commit stands');
        await sleep(VERSION_READ_GAP_MS + 1);
        const pending = feed.catchUp();
        assert.ok(pending, 'the commit of the other process is noticed');
        assert.equal(feed.catchUp(), pending, 'a second request in that turn waits for the same pull');
        await pending;
        assert.deepEqual(
          got.delivered.map((c) => [c.id, c.kind, c.eventId]),
          [[Number(lastInsertRowid), 'heatScore', 'event-11']],
        );
        assert.equal(feed.catchUp(), null, 'nothing pending once caught up');
        assert.equal(feed.live, true);
      });
    }

    if (kind === 'postgres') {
      test('a lost listener: live goes false, then true again, and a change committed meanwhile is delivered', async () => {
        const { a, b } = await twoProcesses();
        // The reconnection waits 1.5 s: long enough to commit while the listener is down.
        const feed = await feedOn(b, { retryMs: 1_500 });
        const got = record(feed);
        const live = liveChanges(feed);
        assert.equal(feed.live, true);
        const before = (await ingestFeed(a, scoreBatch(21))).changes;
        await got.until((before[0] as StoredChange).id, 'a write before the loss');

        const wentDown = live.becomes(false);
        // Only the backend listening on this test's own channel (the channel names the schema).
        const terminated = await sql<{ pid: number; terminated: boolean }>`
          select pid, pg_terminate_backend(pid) as terminated from pg_stat_activity where query = ${`LISTEN "${b.changeChannel}"`}`.execute(
          a.db,
        );
        assert.deepEqual(
          terminated.rows.map((r) => r.terminated),
          [true],
          "the feed's listening backend was found and terminated",
        );
        await wentDown;
        assert.equal(feed.live, false);

        const cameBack = live.becomes(true);
        const deliveredWhenLive: number[] = [];
        feed.onLiveChange((value) => {
          if (value) deliveredWhenLive.push(...got.ids());
        });
        const meanwhile = (await ingestFeed(a, scoreBatch(22))).changes;
        assert.equal(feed.live, false, 'precondition: the change was committed while the listener was down');
        await cameBack;
        assert.ok(
          deliveredWhenLive.includes((meanwhile[0] as StoredChange).id),
          `the change committed while down is delivered (from the log) before the feed says it is live again: ${deliveredWhenLive.join(', ')}`,
        );
        assert.deepEqual(live.seen, [false, true]);

        // Listening again: the next write arrives by NOTIFY.
        const after = (await ingestFeed(a, scoreBatch(23))).changes;
        await got.until((after[0] as StoredChange).id, 'a write after reconnection');
        assert.deepEqual(got.delivered, [...before, ...meanwhile, ...after]);
      });
    }
  });
}
