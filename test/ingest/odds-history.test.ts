/**
 * The price history as ingest records it: one row per change of an outcome's price or
 * status, in the batch's transaction; nothing for a repeat, a stale tick, another column's change or
 * a refused batch.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { oddsHistoryRepository } from '../../src/store/repositories/odds-history-repository.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';
import { refusedBatch } from '../helpers/feed-problems.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const OPENED = '2026-05-01T03:00:00.000Z';
const at = (minute: number) => `2026-05-01T04:${String(minute).padStart(2, '0')}:00.000Z`;

async function seeded(open: () => Promise<Store>) {
  const store = await open();
  for (const feed of [fixtureFeed(), resultsFeed(), oddsFeed()]) await ingestFeed(store, feed);
  return store;
}

const tick = (updatedAt: string, fields: Record<string, unknown>) => ({
  odds: [{ id: 'o-sx-win-a', marketId: 'm-sx-win', athleteId: 'sx-a', position: 1, odds: 2.5, updatedAt, ...fields }],
});

async function historyOf(store: Store, oddId: string) {
  const rows = await oddsHistoryRepository(store.db).changesOf([oddId]);
  return rows.map((r) => [r.decimalOdds, r.status, r.statusReason, r.changedAt, r.isFirst]);
}

describeEachStore('price history recording', (open) => {
  test('a new odd opens its history; each price or status change adds a row, in order', async () => {
    const store = await seeded(open);
    assert.deepEqual(await historyOf(store, 'o-sx-win-a'), [[2.5, 'OPEN', null, OPENED, 1]]);
    const total = await store.db.selectFrom('oddsHistory').select('oddId').execute();
    const odds = await store.db.selectFrom('odds').select('id').execute();
    assert.equal(total.length, odds.length, 'one opening row per odd');

    await ingestFeed(store, tick(at(1), { odds: 2.2 }));
    await ingestFeed(store, tick(at(2), { odds: 2.2, status: 'SUSPENDED', statusReason: 'SCORE_CHANGE' }));
    await ingestFeed(store, tick(at(3), { odds: 2.4 }));
    await ingestFeed(store, tick(at(4), { odds: 2.4, status: 'CLOSED' }));
    assert.deepEqual(await historyOf(store, 'o-sx-win-a'), [
      [2.5, 'OPEN', null, OPENED, 1],
      [2.2, 'OPEN', null, at(1), 0],
      [2.2, 'SUSPENDED', 'SCORE_CHANGE', at(2), 0],
      [2.4, 'OPEN', null, at(3), 0],
      [2.4, 'CLOSED', 'OPERATOR', at(4), 0],
    ]);
  });

  test('the same price and status again, a stale tick, or another column changing writes nothing', async () => {
    const store = await seeded(open);
    await ingestFeed(store, tick(at(1), { odds: 2.2 }));
    const before = await historyOf(store, 'o-sx-win-a');
    // A newer repeat of the price (its updatedAt moves; the history does not).
    const repeat = await ingestFeed(store, tick(at(2), { odds: 2.2 }));
    assert.equal(repeat.odds.unchanged, 1);
    // An older tick is stale; a settlement or a new position alone is no price change.
    await ingestFeed(store, tick(at(0), { odds: 9 }));
    await ingestFeed(store, tick(at(3), { odds: 2.2, position: 7, settlement: 'WIN' }));
    assert.deepEqual(await historyOf(store, 'o-sx-win-a'), before);
  });

  test('a tick of many prices records each that moved, in one batch', async () => {
    const store = await seeded(open);
    const stored = new Map(
      (await store.db.selectFrom('odds').select(['id', 'decimalOdds']).execute()).map((o) => [o.id, o.decimalOdds]),
    );
    const items = (oddsFeed().odds ?? []).map(({ odds: _o, americanOdds: _a, probability: _p, ...item }) => item);
    const moved = items.filter((_, i) => i % 2 === 0);
    const before = await store.db.selectFrom('oddsHistory').select('oddId').execute();
    await ingestFeed(store, {
      odds: items.map((item) => {
        const price = stored.get(item.id) as number;
        return { ...item, odds: moved.includes(item) ? price + 1 : price, updatedAt: at(5) };
      }),
    });
    const after = await store.db.selectFrom('oddsHistory').select(['oddId', 'changedAt']).execute();
    assert.equal(after.length, before.length + moved.length);
    assert.deepEqual(
      after
        .filter((r) => r.changedAt === at(5))
        .map((r) => r.oddId)
        .sort(),
      moved.map((o) => o.id).sort(),
    );
  });

  test('a refused batch records nothing', async () => {
    const store = await seeded(open);
    await refusedBatch(
      store,
      {
        odds: [
          { id: 'o-sx-win-a', marketId: 'm-sx-win', athleteId: 'sx-a', odds: 2.1, updatedAt: at(1) },
          { id: 'o-bad', marketId: 'm-none', odds: 2, updatedAt: at(1) },
        ],
      },
      ['odds', 'oddsHistory'],
    );
  });

  test('pruning drops rows older than the cut, but keeps each outcome its latest row and its last open one', async () => {
    const store = await seeded(open);
    await ingestFeed(store, tick(at(1), { odds: 2.2 }));
    await ingestFeed(store, tick(at(2), { odds: 2.3 }));
    await ingestFeed(store, tick(at(3), { odds: 2.3, status: 'SUSPENDED' }));
    const pruned = await oddsHistoryRepository(store.db).prune(at(4));
    const odds = await store.db.selectFrom('odds').select('id').execute();
    // o-sx-win-a loses its opening and 2.2; every other odd keeps its only row.
    assert.equal(pruned, 2);
    assert.deepEqual(await historyOf(store, 'o-sx-win-a'), [
      [2.3, 'OPEN', null, at(2), 0],
      [2.3, 'SUSPENDED', 'OPERATOR', at(3), 0],
    ]);
    assert.equal((await store.db.selectFrom('oddsHistory').select('oddId').execute()).length, odds.length + 1);
  });
});
