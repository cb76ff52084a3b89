import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateMarketsForEvent } from '../../src/ingest/generate-markets.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

/**
 * The operator's generate route on a LIVE event prices it in play from the store's live
 * state: athletes eliminated closed in every market, the rest priced (none suspended), the heat in
 * play's leader favoured by the running order.
 */

const FIELD = '66666666-0000-4000-8000-000000000006';
const WIN = [0.3, 0.2, 0.15, 0.1, 0.08, 0.07, 0.06, 0.04];
const rider = (i: number) => `ip-${i}`;
const NOW = new Date('2026-06-01T01:00:00.000Z');
const T = '2026-06-01T00:00:00.000Z';

/** The field's event, live: riders 6 and 7 out in the heats, the main under way with rider 3 leading and rider 0 last. */
async function liveEvent(store: Store) {
  await ingestFeed(store, fieldFeed('ip', FIELD, WIN));
  const running = [3, 1, 2, 4, 5, 0];
  await ingestFeed(store, {
    rounds: [{ id: 'ip-r0', eventId: FIELD, roundName: 'Heats', roundNo: 0, roundStatus: 'COMPLETED', updatedAt: T }],
    heats: [
      { id: 'ip-h1', roundId: 'ip-r0', heatName: 'Heat 1', heatNo: 1, heatStatus: 'COMPLETED', updatedAt: T },
      {
        id: 'ip-main',
        roundId: 'ip-r1',
        heatName: 'Main Event',
        heatNo: 1,
        heatStatus: 'LIVE',
        startDate: '2026-06-01T00:30:00Z',
        endDate: '2026-06-01T01:10:00Z',
        updatedAt: T,
      },
    ],
    heatEntries: [
      ...[0, 1, 6, 7].map((i, k) => ({ id: `ip-h1-${i}`, heatId: 'ip-h1', athleteId: rider(i), position: k + 1 })),
      ...running.map((i, k) => ({ id: `ip-main-${i}`, heatId: 'ip-main', athleteId: rider(i), position: k + 1 })),
    ],
    eventParticipants: [6, 7].map((i) => ({
      id: `ip-p${i}`,
      eventId: FIELD,
      athleteId: rider(i),
      seedNo: i + 1,
      status: 'ELIMINATED' as const,
      updatedAt: T,
    })),
  });
}

async function generate(store: Store) {
  await generateMarketsForEvent(
    store,
    `spr:${FIELD}`,
    { winProbabilities: Object.fromEntries(WIN.map((p, i) => [rider(i), p])) },
    NOW,
  );
  const markets = await store.db.selectFrom('markets').selectAll().where('eventId', '=', FIELD).execute();
  const odds = await store.db.selectFrom('odds').selectAll().where('eventId', '=', FIELD).execute();
  return { markets, odds };
}

describeEachStore('generate markets on a live event', (open) => {
  test('riders out are closed everywhere, the others priced in play, and the running leader gains', async () => {
    const store = await open();
    await ingestFeed(store, fieldFeed('ip', FIELD, WIN));
    const before = await generate(store);
    await liveEvent(store);
    const { markets, odds } = await generate(store);
    const out = new Set([rider(6), rider(7)]);
    const marketOf = new Map(markets.map((m) => [m.id, m]));
    let opened = 0;
    for (const o of odds) {
      const athletes = [o.athleteId, ...(o.athleteIds ? (JSON.parse(o.athleteIds) as string[]) : [])];
      const market = marketOf.get(o.marketId);
      assert.notEqual(o.status, 'SUSPENDED', o.id);
      assert.notEqual(market?.status, 'SUSPENDED', o.marketId);
      if (athletes.some((id) => id && out.has(id)))
        assert.deepEqual([o.status, o.statusReason], ['CLOSED', 'RESULTED'], o.id);
      if (o.status === 'OPEN') opened++;
    }
    assert.ok(opened > odds.length / 2, `${opened} of ${odds.length} open`);
    const chance = (rows: typeof odds, marketId: string, athleteId: string) =>
      rows.find((o) => o.marketId === marketId && o.athleteId === athleteId)?.probability as number;
    const main = `${FIELD}:heatWinner:ip-main`;
    assert.ok(chance(odds, main, rider(3)) > chance(before.odds, main, rider(3)), 'the leader of the main gains');
    assert.ok(chance(odds, main, rider(0)) < chance(before.odds, main, rider(0)), 'the last loses');
    const winners = odds.filter((o) => o.marketId === `${FIELD}:eventWinner` && o.status === 'OPEN');
    const book = winners.reduce((sum, o) => sum + (o.probability as number), 0);
    assert.ok(book >= 100 && book < 110, `the winners' book: ${book}`);
  });
});
