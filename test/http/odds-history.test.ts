import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { pruneOddsHistory } from '../../src/ingest/odds-history-retention.ts';
import type { OutcomePriceHistory } from '../../src/shapes/odds-history.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, WSL_ONLY_KEY } from '../helpers/app.ts';
import { WSL_LIVE } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const OPENED = '2026-05-01T03:00:00.000Z';
const at = (minute: number) => `2026-05-01T04:${String(minute).padStart(2, '0')}:00.000Z`;
const LIVE = `wsl:${WSL_LIVE}`;

/** The fixture, the settled supercross and fight odds, and a winner market on the LIVE surf event. */
async function historyApp(store: Store) {
  const app = await fixtureApp(store);
  for (const feed of [resultsFeed(), oddsFeed()]) await ingestFeed(store, feed);
  const win = (odds: number, updatedAt: string, extra: Record<string, unknown> = {}) => ({
    odds: [{ id: 'o-wsl-1', marketId: 'm-wsl-win', athleteId: 'ath-1', odds, updatedAt, ...extra }],
  });
  await ingestFeed(store, {
    markets: [{ id: 'm-wsl-win', eventId: LIVE, oddType: 'eventWinner', updatedAt: OPENED }],
    odds: [
      { id: 'o-wsl-1', marketId: 'm-wsl-win', athleteId: 'ath-1', odds: 2.5, updatedAt: OPENED },
      { id: 'o-wsl-2', marketId: 'm-wsl-win', athleteId: 'ath-2', odds: 1.6, updatedAt: OPENED },
    ],
  });
  await ingestFeed(store, win(2.2, at(1)));
  await ingestFeed(store, win(2.2, at(2), { status: 'SUSPENDED', statusReason: 'SCORE_CHANGE' }));
  await ingestFeed(store, win(2.4, at(3)));
  const history = async (eventId: string, query = '') => {
    const res = await app.get(`${BASE}/events/${eventId}/odds-history${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return { items: JSON.parse(res.body) as OutcomePriceHistory[], link: res.headers.link as string | undefined };
  };
  return { ...app, history };
}

const price = (odds: number, americanOdds: number, probability: number, at: string) => ({
  odds,
  americanOdds,
  probability,
  at,
});

describeEachStore('GET /events/{eventId}/odds-history', (open) => {
  test('an open outcome: opening, no closing, every price and status change in order', async () => {
    const { history } = await historyApp(await open());
    const { items } = await history(LIVE, '?outcomeId=o-wsl-1');
    assert.deepEqual(items, [
      {
        outcomeId: 'o-wsl-1',
        oddType: 'eventWinner',
        marketId: 'm-wsl-win',
        opening: price(2.5, 150, 40, OPENED),
        openingRetained: true,
        closing: null,
        changes: [
          { ...price(2.5, 150, 40, OPENED), status: 'OPEN' },
          { ...price(2.2, 120, 45.4545, at(1)), status: 'OPEN' },
          { ...price(2.2, 120, 45.4545, at(2)), status: 'SUSPENDED', statusReason: 'SCORE_CHANGE' },
          { ...price(2.4, 140, 41.6667, at(3)), status: 'OPEN' },
        ],
      },
    ]);
  });

  test('since and until cut the changes, not the opening; an outcome is found by its outcomeId too', async () => {
    const { history, store } = await historyApp(await open());
    const odd = await store.db
      .selectFrom('odds')
      .select('referenceId')
      .where('id', '=', 'o-wsl-1')
      .executeTakeFirstOrThrow();
    const { items } = await history(LIVE, `?outcomeId=${odd.referenceId}&since=${at(1)}&until=${at(2)}`);
    assert.equal(items.length, 1);
    assert.deepEqual(items[0]?.opening, price(2.5, 150, 40, OPENED));
    assert.deepEqual(
      items[0]?.changes.map((c) => [c.at, c.status]),
      [
        [at(1), 'OPEN'],
        [at(2), 'SUSPENDED'],
      ],
    );
    const day = await history(LIVE, '?outcomeId=o-wsl-1&since=2026-05-02');
    assert.deepEqual(day.items[0]?.changes, []);
  });

  test('a market closed for good has its closing: the last price it was open at', async () => {
    const { history } = await historyApp(await open());
    // The supercross main is over: every market of it is closed by its result.
    const { items } = await history(`spr:${SPR_EVENT}`, '?oddType=eventWinner');
    // oddType takes a list like every list filter: the union of its odd types' outcomes.
    const second = (await history(`spr:${SPR_EVENT}`, '?oddType=secondPlace')).items;
    const both = (await history(`spr:${SPR_EVENT}`, '?oddType=eventWinner,secondPlace')).items;
    assert.deepEqual(both.map((i) => i.outcomeId).sort(), [...items, ...second].map((i) => i.outcomeId).sort());
    assert.deepEqual(
      items.map((i) => [i.outcomeId, i.closing?.odds]),
      [
        ['o-sx-win-a', 2.5],
        ['o-sx-win-b', 2.5],
        ['o-sx-win-c', 4],
        ['o-sx-win-d', 1.8333],
      ],
    );
    for (const item of items) assert.deepEqual(item.closing, item.opening);
    // An empty list (`oddType=`) names no odd type: no outcomes, on both stores (PostgreSQL refused
    // the empty `in ()` it made, a 500 the fuzz test found).
    assert.deepEqual((await history(`spr:${SPR_EVENT}`, '?oddType=')).items, []);
  });

  test('closed by the operator: the closing is the price before it left OPEN; a suspension gives none', async () => {
    const { history, store } = await historyApp(await open());
    assert.equal((await history(LIVE, '?outcomeId=o-wsl-1')).items[0]?.closing, null);
    await ingestFeed(store, {
      odds: [
        { id: 'o-wsl-1', marketId: 'm-wsl-win', athleteId: 'ath-1', odds: 2.4, status: 'SUSPENDED', updatedAt: at(4) },
      ],
    });
    assert.equal((await history(LIVE, '?outcomeId=o-wsl-1')).items[0]?.closing, null);
    await ingestFeed(store, {
      odds: [{ id: 'o-wsl-1', marketId: 'm-wsl-win', athleteId: 'ath-1', odds: 9, status: 'CLOSED', updatedAt: at(5) }],
    });
    assert.deepEqual((await history(LIVE, '?outcomeId=o-wsl-1')).items[0]?.closing, price(2.4, 140, 41.6667, at(3)));
  });

  test('past the retention, opening is the oldest price retained and openingRetained is false', async () => {
    const { history, store } = await historyApp(await open());
    // 30 days before 2026-05-31T04:02 is 04:02 on the 1st: the opening (03:00) and 2.2 (04:01) go.
    await pruneOddsHistory(store, 30, new Date(`2026-05-31T04:02:00.000Z`));
    const [item] = (await history(LIVE, '?outcomeId=o-wsl-1')).items;
    assert.equal(item?.openingRetained, false);
    assert.deepEqual(item?.opening, price(2.2, 120, 45.4545, at(2)));
    assert.deepEqual(
      item?.changes.map((c) => c.at),
      [at(2), at(3)],
    );
  });

  test('paged by limit and cursor, with a Link header while more remain', async () => {
    const { history } = await historyApp(await open());
    const all = await history(`spr:${SPR_EVENT}`);
    assert.ok(all.items.length > 20);
    assert.equal(all.link, undefined);
    const seen: string[] = [];
    let next: string | undefined = `${BASE}/events/spr:${SPR_EVENT}/odds-history?limit=10`;
    while (next) {
      const page = await history(`spr:${SPR_EVENT}`, next.slice(next.indexOf('?')));
      assert.ok(page.items.length <= 10);
      seen.push(...page.items.map((i) => i.outcomeId));
      next = page.link?.match(/^<([^>]+)>; rel="next"$/)?.[1];
    }
    assert.deepEqual(
      seen,
      all.items.map((i) => i.outcomeId),
    );
  });

  test('errors: unknown event or outcome 404, bad parameters name themselves, the key scope applies', async () => {
    const { get } = await historyApp(await open());
    const error = async (url: string, status: number, headers: Record<string, string> = {}) => {
      const res = await get(url, headers);
      assert.equal(res.statusCode, status, `${url}: ${res.body}`);
      const body = JSON.parse(res.body);
      assert.equal(body.statusCode, status);
      return body as { message: string; metadata?: Record<string, unknown> };
    };
    await error(`${BASE}/events/wsl:99999999-0000-4000-8000-000000000009/odds-history`, 404);
    const outcome = await error(`${BASE}/events/${LIVE}/odds-history?outcomeId=o-none`, 404);
    assert.match(outcome.message, /Outcome "o-none" not found/);
    const bad: Array<[string, string]> = [
      ['since=yesterday', 'since'],
      ['until=2026-13-01', 'until'],
      [`since=${at(3)}&until=${at(1)}`, 'until'],
      ['cursor=nonsense', 'cursor'],
      ['limit=0', 'limit'],
      ['oddType=nothing', 'oddType'],
    ];
    for (const [query, name] of bad) {
      const body = await error(`${BASE}/events/${LIVE}/odds-history?${query}`, 400);
      assert.match(body.message, new RegExp(name), query);
    }
    await error(`${BASE}/events/spr:${SPR_EVENT}/odds-history`, 404, { 'x-api-key': WSL_ONLY_KEY });
  });
});
