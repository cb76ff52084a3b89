import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { pruneOddsHistory } from '../../src/ingest/odds-history-retention.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const tick = (odds: number, updatedAt: string) => ({
  odds: [{ id: 'o-sx-win-a', marketId: 'm-sx-win', athleteId: 'sx-a', position: 1, odds, updatedAt }],
});

describeEachStore('price history retention', (open) => {
  test('ODDS_HISTORY_DAYS counts back from now; a second prune removes nothing', async () => {
    const store = await open();
    for (const feed of [fixtureFeed(), resultsFeed(), oddsFeed()]) await ingestFeed(store, feed);
    await ingestFeed(store, tick(2.2, '2026-05-10T00:00:00.000Z'));
    await ingestFeed(store, tick(2.3, '2026-06-10T00:00:00.000Z'));
    const now = new Date('2026-06-20T00:00:00.000Z');
    // 30 days back is 2026-05-21: the opening (05-01) and 2.2 (05-10) go, 2.3 stays.
    assert.equal(await pruneOddsHistory(store, 30, now), 2);
    assert.equal(await pruneOddsHistory(store, 30, now), 0);
    const left = await store.db
      .selectFrom('oddsHistory')
      .select(['decimalOdds', 'changedAt'])
      .where('oddId', '=', 'o-sx-win-a')
      .execute();
    assert.deepEqual(left, [{ decimalOdds: 2.3, changedAt: '2026-06-10T00:00:00.000Z' }]);
  });
});
