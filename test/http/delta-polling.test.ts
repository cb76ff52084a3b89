import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { FIXTURE_LOADED_AT, fixtureApp } from '../helpers/app.ts';
import { MASL_GAME, WSL_LIVE, WSL_PAST } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
type Item = { id: string; updatedAt: string; lastChangedAt: string };
const items = (body: string) => JSON.parse(body) as Item[];
/** The feed's own stamp on the new rows: the same for every write, so only the server's clock moves lastChangedAt. */
const T0 = '2026-04-05T00:16:07Z';

describeEachStore('GET /events?updatedSince: every public document of the event counts', (open) => {
  test('a heat score row and an odds change move lastChangedAt, not updatedAt, and updatedSince finds them', async () => {
    const store = await open();
    const { app, get } = await fixtureApp(store);
    const since = (at: string) => get(`${BASE}/events?updatedSince=${at}`).then((res) => items(res.body));
    const write = (feed: FeedDocument, at: string) => ingestFeed(store, feed, { now: new Date(at) });
    try {
      const before = items((await get(`${BASE}/events`)).body);
      for (const item of before) assert.equal(item.lastChangedAt, FIXTURE_LOADED_AT, item.id);
      assert.deepEqual(await since(FIXTURE_LOADED_AT), []);

      // The case delta polling must not miss: a heat score written after the event's own last change.
      await write(
        { heatEntries: [{ id: 'he-1', heatId: 'h-3', athleteId: 'ath-1', heatScore: 7.5, updatedAt: T0 }] },
        '2026-04-05T00:10:00Z',
      );
      assert.deepEqual(
        (await since(FIXTURE_LOADED_AT)).map((e) => [e.id, e.updatedAt, e.lastChangedAt]),
        [[`wsl:${WSL_LIVE}`, '2026-04-02T00:00:00.000Z', '2026-04-05T00:10:00.000Z']],
      );

      // Odds of another event, written later still.
      await write(
        {
          markets: [
            { id: 'm-masl', eventId: MASL_GAME, oddType: 'propBets', proposition: 'A hat-trick?', updatedAt: T0 },
          ],
          odds: [{ id: 'o-masl', marketId: 'm-masl', odds: 1.9, name: 'Yes', updatedAt: T0 }],
        },
        '2026-04-05T00:20:00Z',
      );
      assert.deepEqual(
        (await since(FIXTURE_LOADED_AT)).map((e) => e.id),
        [`masl:${MASL_GAME}`, `wsl:${WSL_LIVE}`],
      );
      const poll = await since('2026-04-05T00:10:00.000Z');
      assert.deepEqual(
        poll.map((e) => [e.id, e.lastChangedAt]),
        [[`masl:${MASL_GAME}`, '2026-04-05T00:20:00.000Z']],
      );

      // A row the feed stamped long ago, written after that poll: the next poll, from the largest
      // lastChangedAt it has seen, finds it (the feed's clock would have hidden it).
      await write(
        {
          heatEntries: [
            { id: 'he-2', heatId: 'h-3', athleteId: 'ath-2', heatScore: 5, updatedAt: '2026-04-03T00:00:00Z' },
          ],
        },
        '2026-04-05T00:30:00Z',
      );
      assert.deepEqual(
        (await since('2026-04-05T00:20:00.000Z')).map((e) => [e.id, e.lastChangedAt]),
        [[`wsl:${WSL_LIVE}`, '2026-04-05T00:30:00.000Z']],
      );

      // A batch carrying an earlier server time (another node's lagging clock) never moves it back.
      await write(
        {
          heatEntries: [
            { id: 'he-2', heatId: 'h-3', athleteId: 'ath-2', heatScore: 6, updatedAt: '2026-04-03T00:01:00Z' },
          ],
        },
        '2026-04-05T00:25:00Z',
      );
      const live = items((await get(`${BASE}/events`)).body).find((e) => e.id === `wsl:${WSL_LIVE}`);
      assert.equal(live?.lastChangedAt, '2026-04-05T00:30:00.000Z');
      assert.equal(
        items((await get(`${BASE}/events`)).body).find((e) => e.id === `wsl:${WSL_PAST}`)?.lastChangedAt,
        FIXTURE_LOADED_AT,
      );
    } finally {
      await app.close();
    }
  });
});
