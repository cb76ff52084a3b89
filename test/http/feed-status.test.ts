/**
 * GET /api/v1/public/feed-status: per competition the key may read, the last feed message,
 * the LIVE events and the stale ones, derived from stored times (so a second node answers the same).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { COMPETITION_KEYS } from '../../src/domain/competitions.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { FeedStatusItem } from '../../src/shapes/feed-status.ts';
import { ADMIN_KEY, buildTestApp, fixtureApp, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { WSL_LIVE } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const STATUS = '/api/v1/public/feed-status';
const LIVE_ID = `wsl:${WSL_LIVE}`;
/** A score of the live wsl event: a message about it. */
const wslScore = (score: number, updatedAt: string): FeedDocument => ({
  heatEntries: [{ id: 'e-h3-b', heatId: 'h-3', athleteId: 'ath-2', seed: 2, heatScore: score, updatedAt }],
  heats: [],
});

describeEachStore('feed-status', (open) => {
  test('one item per competition the key may read; a LIVE event silent for FEED_STALE_SECONDS is stale until the next message', async () => {
    const store = await open();
    const app = await fixtureApp(store, { FEED_STALE_SECONDS: '60' });
    // A second node on the same store: the staleness is derived from stored times, not a timer.
    const nodeB = await buildTestApp({
      config: loadConfig({
        ADMIN_API_KEY: ADMIN_KEY,
        DEMO_DATA: 'off',
        RATE_LIMIT_PER_MINUTE: '0',
        FEED_STALE_SECONDS: '60',
      }),
      store,
    });
    try {
      // fixtureApp loads the fixture at a fixed time, long past: the feed speaks of the live event now.
      await ingestFeed(store, wslScore(4.2, '2026-06-30T00:00:00.000Z'));
      const read = async (key = TEST_KEY, node = app.app) => {
        const response = await node.inject({ method: 'GET', url: STATUS, headers: { 'x-api-key': key } });
        assert.equal(response.statusCode, 200, response.body);
        return response.json() as FeedStatusItem[];
      };
      const all = await read();
      assert.deepEqual(
        all.map((i) => i.competition),
        COMPETITION_KEYS,
      );
      const wsl = all.find((i) => i.competition === 'wsl') as FeedStatusItem;
      assert.equal(wsl.liveEvents, 1);
      assert.deepEqual(wsl.staleEventIds, [], 'the feed just spoke of it');
      assert.ok(wsl.lastMessageAt !== null && Date.now() - Date.parse(wsl.lastMessageAt) < 60_000);
      const quiet = all.find((i) => i.competition === 'gsoc') as FeedStatusItem;
      assert.deepEqual(quiet, { competition: 'gsoc', lastMessageAt: null, liveEvents: 0, staleEventIds: [] });

      // The last message about the live event was two minutes ago: stale, on both nodes.
      const twoMinutesAgo = new Date(Date.now() - 120_000);
      await ingestFeed(store, wslScore(4.5, '2026-07-01T00:00:00.000Z'), { now: twoMinutesAgo });
      for (const node of [app.app, nodeB]) {
        const stale = (await read(TEST_KEY, node)).find((i) => i.competition === 'wsl') as FeedStatusItem;
        assert.deepEqual(stale.staleEventIds, [LIVE_ID]);
      }
      assert.deepEqual(
        (await read(WSL_ONLY_KEY)).map((i) => i.competition),
        ['wsl'],
        'the wsl-only key sees its competition only',
      );

      // The next message reopens it.
      await ingestFeed(store, wslScore(5.5, '2026-07-01T00:01:00.000Z'));
      const fresh = (await read(TEST_KEY, nodeB)).find((i) => i.competition === 'wsl') as FeedStatusItem;
      assert.deepEqual(fresh.staleEventIds, []);
    } finally {
      await nodeB.close();
      await app.app.close();
    }
  });

  test('401 without a key', async () => {
    const store = await open();
    const app = await fixtureApp(store);
    try {
      const response = await app.app.inject({ method: 'GET', url: STATUS });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().statusCode, 401);
    } finally {
      await app.app.close();
    }
  });
});
