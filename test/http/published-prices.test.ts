import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { SgpOptionsResponse, SgpResponse } from '../../src/shapes/odds.ts';
import type { Store } from '../../src/store/database.ts';
import { ADMIN_KEY, fixtureApp, sharedFixture, TEST_KEY } from '../helpers/app.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { NLL_GAME, teamMatchFeed } from '../helpers/team-match-fixture.ts';

/**
 * Prices a bookmaker would publish, as a trading desk checks them on every route:
 * within MIN_DECIMAL_ODDS..MAX_DECIMAL_ODDS, a price at the cap with the cap's probability (never 0),
 * engine prices at two decimals rounded towards the house, and no odds format paying more than the
 * exact price the published probability implies.
 */

const BASE = '/api/v1/public';
const FIELD = '66666666-0000-4000-8000-000000000040';
/** Favourites and two long shots at 3 in 10,000: each long shot's own price is beyond the default cap. */
const WIN = [0.3, 0.2, 0.15, 0.1, 0.08, 0.06, 0.05, 0.03, 0.02, 0.0094, 0.0003, 0.0003];
const FORMATS = ['decimal', 'american', 'fractional', 'hongkong', 'malay', 'indonesian'] as const;
const MAX = 1000;

async function desk(store: Store, env: Record<string, string> = {}) {
  const app = await fixtureApp(store, env);
  await ingestFeed(store, fieldFeed('ld', FIELD, WIN, { overround: 0.05 }));
  await ingestFeed(store, teamMatchFeed());
  // A lopsided lacrosse game priced by the generate route: the engine's team-match prices.
  const generated = await app.app.inject({
    method: 'POST',
    url: `/api/v1/admin/events/nll:${NLL_GAME}/markets/generate`,
    headers: { 'x-api-key': ADMIN_KEY },
    payload: { homeWin: 0.93, expectedTotal: 20, overround: 0.05 },
  });
  assert.equal(generated.statusCode, 200, generated.body);
  const post = async (path: string, oddIds: string[], status: number) => {
    const res = await app.app.inject({
      method: 'POST',
      url: `${BASE}${path}`,
      headers: { 'x-api-key': TEST_KEY },
      payload: { oddIds },
    });
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body) as unknown;
  };
  const json = async (path: string) => {
    const res = await app.get(`${BASE}${path}`);
    assert.equal(res.statusCode, 200, res.body);
    return JSON.parse(res.body) as unknown;
  };
  return { ...app, post, json };
}

const odd = (oddType: string, athlete: number) => `${FIELD}:${oddType}:ld-${athlete}`;

/** The profit per unit staked a format's price shows; NaN when the price shows none (a Malay 0). */
function shownProfit(format: (typeof FORMATS)[number], price: number | string): number {
  const n = Number(price);
  switch (format) {
    case 'decimal':
      return n - 1;
    case 'american':
      return n > 0 ? n / 100 : 100 / -n;
    case 'fractional': {
      const [p, q] = String(price).split('/').map(Number);
      return (p as number) / (q as number);
    }
    case 'hongkong':
      return n;
    case 'malay':
      return n > 0 ? n : n < 0 ? 1 / -n : Number.NaN;
    case 'indonesian':
      return n >= 1 ? n : 1 / -n;
  }
}

interface PricedItem {
  id?: string;
  oddId?: string;
  odds?: number;
  americanOdds?: number;
  decimalOdds?: number;
  probability?: number;
  price?: number | string;
}

/** Every priced item of a document (an object with decimal odds), nested ones included. */
function pricedItems(value: unknown): PricedItem[] {
  if (Array.isArray(value)) return value.flatMap(pricedItems);
  if (value === null || typeof value !== 'object') return [];
  const item = value as PricedItem & Record<string, unknown>;
  const nested = Object.values(item).flatMap(pricedItems);
  return typeof item.odds === 'number' || typeof item.decimalOdds === 'number' ? [item, ...nested] : nested;
}

/** The exact price of an item: the one its probability implies, else its decimal odds. */
function exactOf(item: PricedItem): number {
  const decimal = (item.odds ?? item.decimalOdds) as number;
  return item.probability === undefined ? decimal : Math.max(decimal, 100 / item.probability);
}

/** Whether the engine priced an item: the generated field's and game's outcomes, parlays, quotes. */
function engineMade(item: PricedItem & { id?: unknown; oddId?: unknown }): boolean {
  const id = String(item.id ?? item.oddId ?? FIELD);
  return id.includes(FIELD) || id.includes(NLL_GAME);
}

/** Each item within the range, its odds paying at most its probability, each format at most the exact price. */
function assertPublishable(items: PricedItem[], format: (typeof FORMATS)[number] | undefined, where: string) {
  assert.ok(items.length > 0, where);
  for (const item of items) {
    const decimal = (item.odds ?? item.decimalOdds) as number;
    const label = `${where}: ${JSON.stringify(item).slice(0, 200)}`;
    assert.ok(decimal > 1 && decimal <= MAX, `odds within the range, ${label}`);
    if (item.probability !== undefined) {
      assert.ok(item.probability > 0, `a non-zero probability, ${label}`);
      // A fed price's probability is its own 100 / odds to four places, to the nearest.
      const rounding = engineMade(item) ? 0 : 0.00005;
      assert.ok(decimal <= 100 / (item.probability - rounding) + 1e-9, `odds at most 100/probability, ${label}`);
    }
    // The americanOdds field is a format too.
    if (item.americanOdds !== undefined)
      assert.ok(shownProfit('american', item.americanOdds) <= exactOf(item) - 1 + 1e-9, `americanOdds, ${label}`);
    if (format === undefined) continue;
    const profit = shownProfit(format, item.price as number | string);
    assert.ok(profit > 0, `${format} shows a payout, ${label}`);
    assert.ok(profit <= exactOf(item) - 1 + 1e-9, `${format} ${item.price} pays at most the exact price, ${label}`);
  }
}

describeEachStore('prices a bookmaker would publish', (open, kind) => {
  const shared = sharedFixture(kind, desk);

  test('a long shot to win and another to be second prices at the cap, with a non-zero probability', async () => {
    const { post } = shared();
    const parlay = (await post(
      `/events/${FIELD}/sgp`,
      [odd('eventWinner', 10), odd('secondPlace', 11)],
      201,
    )) as SgpResponse;
    assert.equal(parlay.odds, MAX);
    assert.equal(parlay.combinedOdds, MAX);
    assert.equal(parlay.probability, 100 / MAX);
    assert.equal(parlay.americanOdds, (MAX - 1) * 100);
  });

  test('the bet builder quotes every option within the range, none with probability 0', async () => {
    const { post } = shared();
    const body = (await post(`/events/${FIELD}/sgp/options`, [odd('eventWinner', 10)], 200)) as SgpOptionsResponse;
    const combinable = body.options.filter((o) => o.combinable);
    assert.ok(combinable.length > 10);
    for (const option of combinable) {
      assert.ok((option.odds as number) <= MAX, `${option.oddId} at ${option.odds}`);
      assert.ok((option.probability as number) > 0, `${option.oddId} at probability ${option.probability}`);
      assert.ok((option.odds as number) <= 100 / (option.probability as number) + 1e-9, option.oddId);
    }
  });

  test('generated prices are at two decimals, the outsider at the cap', async () => {
    const { json } = shared();
    const body = (await json(`/events/spr:${FIELD}/eventWinner`)) as { eventWinner: PricedItem[] };
    for (const item of body.eventWinner) {
      const odds = item.odds as number;
      assert.equal(Math.round(odds * 100) / 100, odds, `${odds} at two decimals`);
    }
    assert.equal(Math.max(...body.eventWinner.map((item) => item.odds as number)), MAX);
  });

  for (const format of FORMATS) {
    test(`${format}: no route pays more than the exact price`, async () => {
      const { json, post } = shared();
      const q = `?oddsFormat=${format}`;
      for (const oddType of ['eventWinner', 'secondPlace', 'raceTop3', 'headToHead', 'eventExacta']) {
        const where = `${oddType} ${format}`;
        assertPublishable(pricedItems(await json(`/events/spr:${FIELD}/${oddType}${q}`)), format, where);
      }
      const parlay = await post(`/events/${FIELD}/sgp${q}`, [odd('eventWinner', 0), odd('raceTop3', 3)], 201);
      assertPublishable(pricedItems(parlay), format, `parlay ${format}`);
      const builder = await post(`/events/${FIELD}/sgp/options${q}`, [odd('eventWinner', 1)], 200);
      assertPublishable(pricedItems(builder), format, `bet builder ${format}`);
      const futures = await json(`/futures/wsl/tour/wsl-ct-men/odds/winner${q}`);
      assertPublishable(pricedItems(futures), format, `futures ${format}`);
      const match = await json(`/events/nll/${NLL_GAME}/odds${q}`);
      assertPublishable(pricedItems(match), format, `lacrosse ${format}`);
      // The price history takes no oddsFormat: its decimal, American odds and probability.
      const history = await json(`/events/${FIELD}/odds-history?outcomeId=${odd('eventWinner', 3)}`);
      assertPublishable(pricedItems(history), undefined, 'price history');
    });
  }

  test('an exacta priced on request is capped at the same range', async () => {
    const { json } = shared();
    const body = (await json(
      `/events/spr:${FIELD}/eventExacta?exactasType=2&athleteIds=ld-10,ld-11&oddsFormat=decimal`,
    )) as { eventExacta: PricedItem[] };
    const [item] = body.eventExacta;
    assert.equal(item?.odds, MAX);
    assert.equal(item?.probability, 100 / MAX);
  });

  for (const [ladder, onLadder] of [
    ['exchange', onExchangeLadder],
    ['off', (odds: number) => odds > 1],
    ['decimal2', (odds: number) => Math.round(odds * 100) / 100 === odds],
  ] as const) {
    test(`PRICE_LADDER=${ladder}: generated prices, parlays and quotes on that ladder, within the range`, async () => {
      const { app, json, post } = await desk(await open(), { PRICE_LADDER: ladder });
      try {
        const generate = await app.inject({
          method: 'POST',
          url: `/api/v1/admin/events/spr:${FIELD}/markets/generate`,
          headers: { 'x-api-key': ADMIN_KEY },
          payload: { winProbabilities: Object.fromEntries(WIN.map((p, i) => [`ld-${i}`, p])), overround: 0.05 },
        });
        assert.equal(generate.statusCode, 200, generate.body);
        for (const oddType of ['eventWinner', 'raceTop3', 'eventExacta']) {
          const items = pricedItems(await json(`/events/spr:${FIELD}/${oddType}`));
          for (const item of items) {
            const odds = item.odds as number;
            assert.ok(onLadder(odds) && odds >= 1.01 && odds <= MAX, `${oddType} at ${odds}`);
            assert.ok(odds <= 100 / (item.probability as number) + 1e-9, `${oddType} at ${odds}`);
          }
        }
        const parlay = (await post(
          `/events/${FIELD}/sgp`,
          [odd('eventWinner', 0), odd('raceTop3', 3)],
          201,
        )) as SgpResponse;
        const builder = (await post(
          `/events/${FIELD}/sgp/options`,
          [odd('eventWinner', 2)],
          200,
        )) as SgpOptionsResponse;
        const quotes = builder.options.filter((o) => o.combinable) as Array<{ odds: number; probability: number }>;
        for (const { odds, probability } of [parlay, ...quotes]) {
          assert.ok(onLadder(odds) && odds >= 1.01 && odds <= MAX, `a parlay at ${odds}`);
          assert.ok(odds <= 100 / probability + 1e-9, `a parlay at ${odds}, ${probability}%`);
        }
      } finally {
        await app.close();
      }
    });
  }

  test('a configured range binds the engine: MIN_DECIMAL_ODDS=1.05, MAX_DECIMAL_ODDS=200', async () => {
    const { app, json, post } = await desk(await open(), { MIN_DECIMAL_ODDS: '1.05', MAX_DECIMAL_ODDS: '200' });
    try {
      const parlay = (await post(
        `/events/${FIELD}/sgp`,
        [odd('eventWinner', 10), odd('secondPlace', 11)],
        201,
      )) as SgpResponse;
      assert.deepEqual([parlay.odds, parlay.probability, parlay.americanOdds], [200, 0.5, 19_900]);
      const exacta = (await json(`/events/spr:${FIELD}/eventExacta?exactasType=2&athleteIds=ld-10,ld-11`)) as {
        eventExacta: PricedItem[];
      };
      assert.deepEqual([exacta.eventExacta[0]?.odds, exacta.eventExacta[0]?.probability], [200, 0.5]);
      // A sure thing in the bet builder: the favourite to finish in the top 10 of twelve, at the shortest odds.
      const builder = (await post(`/events/${FIELD}/sgp/options`, [odd('raceTop10', 0)], 200)) as SgpOptionsResponse;
      for (const option of builder.options.filter((o) => o.combinable))
        assert.ok(
          (option.odds as number) >= 1.05 && (option.odds as number) <= 200,
          `${option.oddId} at ${option.odds}`,
        );
    } finally {
      await app.close();
    }
  });
});

/** Whether decimal odds are a step of the common exchange ladder. */
function onExchangeLadder(odds: number): boolean {
  const bands: Array<[number, number, number]> = [
    [1.01, 2, 0.01],
    [2, 3, 0.02],
    [3, 4, 0.05],
    [4, 6, 0.1],
    [6, 10, 0.2],
    [10, 20, 0.5],
    [20, 30, 1],
    [30, 50, 2],
    [50, 100, 5],
    [100, 1000, 10],
  ];
  return bands.some(([lo, hi, step]) => {
    if (odds < lo || odds > hi) return false;
    const ticks = Math.round((odds - lo) / step);
    return Math.abs(lo + ticks * step - odds) < 1e-9;
  });
}
