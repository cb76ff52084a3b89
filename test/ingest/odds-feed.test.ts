import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureFeed, MASL_GAME } from '../helpers/feed-fixture.ts';
import { refusedBatch, tableCounts } from '../helpers/feed-problems.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const T = '2026-05-01T04:00:00.000Z';

const ODDS_TABLES = ['markets', 'odds'] as const;
const counts = (store: Store) => tableCounts(store, ODDS_TABLES);

async function problemsOf(store: Store, feed: unknown) {
  return (await refusedBatch(store, feed, ODDS_TABLES)).map((p) => [p.item, p.field, p.message]);
}

async function seeded(open: () => Promise<Store>) {
  const store = await open();
  await ingestFeed(store, fixtureFeed());
  await ingestFeed(store, resultsFeed());
  await ingestFeed(store, oddsFeed());
  return store;
}

describeEachStore('ingest of markets and odds', (open) => {
  test('writes markets and odds with the event copied onto each odd; a replay is a no-op', async () => {
    const store = await seeded(open);
    assert.deepEqual(await counts(store), { markets: 17, odds: 34 });
    const odd = await store.db.selectFrom('odds').selectAll().where('id', '=', 'o-sx-win-c').executeTakeFirstOrThrow();
    assert.deepEqual([odd.eventId, odd.decimalOdds, odd.status, odd.settlement], [SPR_EVENT, 4, 'OPEN', null]);
    const again = await ingestFeed(store, oddsFeed());
    assert.equal(again.odds.unchanged, again.odds.received);
    assert.equal(again.markets.unchanged, again.markets.received);
  });

  test('a price tick sends one odd of a stored market; an older tick is stale', async () => {
    const store = await seeded(open);
    const tick = await ingestFeed(store, {
      odds: [{ id: 'o-sx-win-b', marketId: 'm-sx-win', athleteId: 'sx-b', americanOdds: -150, updatedAt: T }],
    });
    assert.equal(tick.odds.updated, 1);
    const row = await store.db
      .selectFrom('odds')
      .select(['decimalOdds', 'eventId'])
      .where('id', '=', 'o-sx-win-b')
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.decimalOdds, row.eventId], [1.6667, SPR_EVENT]);
    const stale = await ingestFeed(store, {
      odds: [{ id: 'o-sx-win-b', marketId: 'm-sx-win', athleteId: 'sx-b', odds: 9, updatedAt: '2026-01-01T00:00:00Z' }],
    });
    assert.equal(stale.odds.stale, 1);
  });

  test('a bad batch names the item and field: prices, shapes, odd types the competition lacks, references', async () => {
    const store = await seeded(open);
    const problems = await problemsOf(store, {
      markets: [
        { id: 'm-bad-type', eventId: `masl:${MASL_GAME}`, oddType: 'heatWinner', heatId: 'sx-h1', updatedAt: T },
        { id: 'm-bad-ou', eventId: SPR_EVENT, oddType: 'overUnder', athleteIds: ['sx-a', 'sx-b'], updatedAt: T },
        { id: 'm-no-event', eventId: '99999999-0000-4000-8000-000000000009', oddType: 'eventWinner', updatedAt: T },
      ],
      odds: [
        { id: 'x-two-prices', marketId: 'm-sx-win', athleteId: 'sx-a', odds: 2, americanOdds: 100 },
        { id: 'x-american', marketId: 'm-sx-win', athleteId: 'sx-a', americanOdds: 50 },
        { id: 'x-exacta', marketId: 'm-sx-trifecta', athleteIds: ['sx-a', 'sx-b'], odds: 20 },
        { id: 'x-side', marketId: 'm-sx-ou', odds: 1.9 },
        { id: 'x-market', marketId: 'no-market', athleteId: 'sx-a', odds: 2 },
        { id: 'x-athlete', marketId: 'm-sx-win', athleteId: 'nobody', odds: 2 },
        { id: 'x-pays-more', marketId: 'm-sx-win', athleteId: 'sx-a', odds: 2.1, probability: 50 },
      ],
    });
    assert.deepEqual(problems, [
      ['markets[1]', 'line', 'is required for overUnder markets'],
      ['markets[1]', 'athleteIds', 'must name the one athlete measured'],
      [
        'odds[0]',
        'odds',
        'must give exactly one of odds (decimal), americanOdds and probability, or odds with the probability they were priced from',
      ],
      ['odds[1]', 'americanOdds', 'must be at most -100 or at least +100'],
      ['odds[6]', 'odds', 'pays more than its probability 50% implies (at most 2)'],
      ['odds[2]', 'athleteIds', 'must name 3 different athletes in finishing order (exactasType 3)'],
      ['odds[3]', 'side', 'is required for an outcome of a overUnder market (OVER or UNDER)'],
      [
        'markets[0]',
        'eventId',
        `refers to events "${MASL_GAME}" of competition "masl", which does not offer heatWinner markets`,
      ],
      [
        'markets[2]',
        'eventId',
        'refers to events "99999999-0000-4000-8000-000000000009", which is neither in this batch nor in the store',
      ],
      ['markets[0]', 'heatId', 'refers to heats "sx-h1" of competition "spr", not "masl"'],
      ['odds[4]', 'marketId', 'refers to markets "no-market", which is neither in this batch nor in the store'],
      ['odds[5]', 'athleteId', 'refers to athletes "nobody", which is neither in this batch nor in the store'],
    ]);
  });

  test('the schema names an unknown odd type and a probability out of range', async () => {
    const store = await seeded(open);
    const problems = await problemsOf(store, {
      markets: [{ id: 'm-x', eventId: SPR_EVENT, oddType: 'trifecta' }],
      odds: [{ id: 'o-x', marketId: 'm-sx-win', athleteId: 'sx-a', probability: 100 }],
    });
    assert.deepEqual(
      problems.map(([item, field]) => [item, field]),
      [
        ['markets[0]', 'oddType'],
        ['odds[0]', 'probability'],
      ],
    );
  });
});
