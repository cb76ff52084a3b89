/**
 * GET /api/v1/public/changes: the stream's messages read without the stream, page by page,
 * with the stream's filters and the key's competitions; a 410 once the log no longer reaches back, a 400
 * for an id ahead of it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { changesRepository } from '../../src/store/repositories/changes-repository.ts';
import { fixtureApp, type TestApp, WSL_ONLY_KEY } from '../helpers/app.ts';
import { fixtureScoreChanges, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { assertStreamData } from '../helpers/stream-data.ts';

const CHANGES = '/api/v1/public/changes';
const LOG_SIZE = 8;

const { wslScore, maslGoals } = fixtureScoreChanges();

interface Page {
  changes: Array<{ id: number; kind: string; publishedAt: string; data: Record<string, unknown> }>;
  lastEventId: number;
  oldestAvailable: number;
  complete: boolean;
}

async function page(app: TestApp, query: string, headers?: Record<string, string>): Promise<Page> {
  const response = await app.get(`${CHANGES}${query}`, headers);
  assert.equal(response.statusCode, 200, `${query}: ${response.body}`);
  return response.json() as Page;
}

async function lastId(store: Store): Promise<number> {
  return (await changesRepository(store.db).bounds()).last;
}

describeEachStore('changes', (open) => {
  test('pages through the log in order with publishedAt and the stream data, until complete', async () => {
    const store = await open();
    const app = await fixtureApp(store);
    try {
      const start = await lastId(store);
      for (let i = 0; i < 5; i++) await ingestFeed(store, i % 2 === 0 ? wslScore(5 + i) : maslGoals(i));
      const first = await page(app, `?after=${start}&limit=2`);
      assert.deepEqual(
        first.changes.map((c) => c.id),
        [start + 1, start + 2],
      );
      assert.equal(first.complete, false);
      assert.equal(first.lastEventId, start + 2);
      for (const change of first.changes) {
        assertStreamData(change.kind, change.data);
        assert.equal(change.data.publishedAt, change.publishedAt, 'data as the stream sends it');
        assert.ok(!Number.isNaN(Date.parse(change.publishedAt)));
      }
      const rest = await page(app, `?after=${first.lastEventId}&limit=10`);
      assert.deepEqual(
        rest.changes.map((c) => c.id),
        [start + 3, start + 4, start + 5],
      );
      assert.equal(rest.complete, true);
      assert.equal(rest.lastEventId, start + 5);
      const caughtUp = await page(app, `?after=${rest.lastEventId}`);
      assert.deepEqual(caughtUp, { ...caughtUp, changes: [], complete: true, lastEventId: start + 5 });
    } finally {
      await app.app.close();
    }
  });

  test("the stream's filters and the key's competitions apply; lastEventId moves past what they leave out", async () => {
    const store = await open();
    const app = await fixtureApp(store);
    try {
      const start = await lastId(store);
      await ingestFeed(store, maslGoals(1));
      await ingestFeed(store, wslScore(6));
      await ingestFeed(store, maslGoals(2));
      const wsl = await page(app, `?after=${start}&competition=wsl`);
      assert.deepEqual(
        wsl.changes.map((c) => [c.id, c.data.competition]),
        [[start + 2, 'wsl']],
      );
      assert.equal(wsl.lastEventId, start + 3, 'the client resumes after the masl change it was not sent');
      assert.equal(wsl.complete, true);
      const byEvent = await page(app, `?after=${start}&eventId=wsl:${WSL_LIVE}&kind=heatScore`);
      assert.deepEqual(
        byEvent.changes.map((c) => c.id),
        [start + 2],
      );
      const scoped = await page(app, `?after=${start}`, { 'x-api-key': WSL_ONLY_KEY });
      assert.deepEqual(
        scoped.changes.map((c) => c.data.competition),
        ['wsl'],
      );
      const refused = await app.get(`${CHANGES}?after=${start}&competition=masl`, { 'x-api-key': WSL_ONLY_KEY });
      assert.equal(refused.statusCode, 403);
      for (const query of ['', '?after=-1', '?after=x', `?after=${start}&limit=0`, `?after=${start}&kind=nope`]) {
        const bad = await app.get(`${CHANGES}${query}`);
        assert.equal(bad.statusCode, 400, query);
        assert.match(bad.json().message, /after|limit|kind/, query);
      }
    } finally {
      await app.app.close();
    }
  });

  test('an after older than the log is a 410 saying to re-read the documents; one past its end a 400', async () => {
    const store = await open({ changeLogSize: LOG_SIZE });
    const app = await fixtureApp(store);
    try {
      const start = await lastId(store);
      for (let i = 0; i < LOG_SIZE + 3; i++) await ingestFeed(store, wslScore(3 + i));
      const last = await lastId(store);
      const oldest = last - LOG_SIZE + 1;
      const ok = await page(app, `?after=${oldest - 1}`);
      assert.equal(ok.changes.length, LOG_SIZE);
      assert.equal(ok.oldestAvailable, oldest);
      const ahead = await app.get(`${CHANGES}?after=${last + 1}`);
      assert.equal(ahead.statusCode, 400);
      assert.match(ahead.json().message, /is ahead of the change log/);
      for (const after of [start, oldest - 2]) {
        const response = await app.get(`${CHANGES}?after=${after}`);
        assert.equal(response.statusCode, 410, `after=${after}`);
        const body = response.json();
        assert.equal(body.statusCode, 410);
        assert.match(body.message, /re-read the documents/);
        assert.deepEqual(body.metadata, {
          parameter: 'after',
          value: after,
          oldestAvailable: oldest,
          lastEventId: last,
        });
      }
    } finally {
      await app.app.close();
    }
  });
});
