import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { fixtureApp } from '../helpers/app.ts';
import { MASL_GAME, WSL_LIVE, WSL_PAST } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
type Item = { id: string; updatedAt: string; lastChangedAt: string };
const items = (body: string) => JSON.parse(body) as Item[];

describeEachStore('GET /events?updatedSince: every public document of the event counts (issue 28)', (open) => {
  test('a heat score row and an odds change move lastChangedAt, not updatedAt, and updatedSince finds them', async () => {
    const store = await open();
    const { app, get } = await fixtureApp(store);
    try {
      const before = items((await get(`${BASE}/events`)).body);
      for (const item of before) assert.ok(item.lastChangedAt >= item.updatedAt, item.id);
      assert.deepEqual(items((await get(`${BASE}/events?updatedSince=2026-04-05T00:16:00Z`)).body), []);

      // The case: a heat score imported after the event's own last change.
      await ingestFeed(store, {
        heatEntries: [
          { id: 'he-1', heatId: 'h-3', athleteId: 'ath-1', heatScore: 7.5, updatedAt: '2026-04-05T00:16:07Z' },
        ],
      });
      const scored = items((await get(`${BASE}/events?updatedSince=2026-04-05T00:16:00Z`)).body);
      assert.deepEqual(
        scored.map((e) => [e.id, e.updatedAt, e.lastChangedAt]),
        [[`wsl:${WSL_LIVE}`, '2026-04-02T00:00:00.000Z', '2026-04-05T00:16:07.000Z']],
      );

      // Odds of another event, later still.
      await ingestFeed(store, {
        markets: [
          {
            id: 'm-masl',
            eventId: MASL_GAME,
            oddType: 'propBets',
            proposition: 'A hat-trick?',
            updatedAt: '2026-04-05T00:20:00Z',
          },
        ],
        odds: [{ id: 'o-masl', marketId: 'm-masl', odds: 1.9, name: 'Yes', updatedAt: '2026-04-05T00:20:00Z' }],
      });
      assert.deepEqual(
        items((await get(`${BASE}/events?updatedSince=2026-04-05T00:16:00Z`)).body).map((e) => e.id),
        [`masl:${MASL_GAME}`, `wsl:${WSL_LIVE}`],
      );
      assert.deepEqual(
        items((await get(`${BASE}/events?updatedSince=2026-04-05T00:19:00Z`)).body).map((e) => [e.id, e.lastChangedAt]),
        [[`masl:${MASL_GAME}`, '2026-04-05T00:20:00.000Z']],
      );
      // An older row arriving late never moves lastChangedAt back.
      await ingestFeed(store, {
        heatEntries: [
          { id: 'he-2', heatId: 'h-3', athleteId: 'ath-2', heatScore: 5, updatedAt: '2026-04-03T00:00:00Z' },
        ],
      });
      const live = items((await get(`${BASE}/events`)).body).find((e) => e.id === `wsl:${WSL_LIVE}`);
      assert.equal(live?.lastChangedAt, '2026-04-05T00:16:07.000Z');
      assert.equal(
        items((await get(`${BASE}/events`)).body).find((e) => e.id === `wsl:${WSL_PAST}`)?.lastChangedAt,
        '2026-02-08T00:00:00.000Z',
      );
    } finally {
      await app.close();
    }
  });
});
