import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { ADMIN_KEY, fixtureApp } from '../helpers/app.ts';
import { describeEachStore } from '../helpers/stores.ts';

/** The operator's generate route for team matches: the score model fitted to homeWin (and expectedTotal). */

const GAME = '5a5a5a5a-0000-4000-8000-00000000aa01';
const T = '2026-03-01T00:00:00.000Z';

function lacrosseGame(): FeedDocument {
  return {
    tours: [{ id: 'gen-nll-tour', competition: 'nll', name: 'NLL', updatedAt: T }],
    teams: [
      { id: 'gen-nll-home', competition: 'nll', name: 'Home Lacrosse', updatedAt: T },
      { id: 'gen-nll-away', competition: 'nll', name: 'Away Lacrosse', updatedAt: T },
    ],
    events: [
      {
        id: `nll:${GAME}`,
        competition: 'nll',
        tourId: 'gen-nll-tour',
        name: 'Away Lacrosse at Home Lacrosse',
        startDate: '2026-03-05T00:00:00Z',
        endDate: '2026-03-05T03:00:00Z',
        eventNumber: 1,
        eventStatus: 'UPCOMING',
        teams: [
          { teamId: 'gen-nll-home', isHomeTeam: true },
          { teamId: 'gen-nll-away', isHomeTeam: false },
        ],
        updatedAt: T,
      },
    ],
    rounds: [1, 2, 3, 4].map((q) => ({
      id: `gen-q${q}`,
      eventId: GAME,
      roundName: `Q${q}`,
      roundNo: q,
      roundStatus: 'UPCOMING',
      updatedAt: T,
    })),
  };
}

describeEachStore('POST /admin/events/{eventId}/markets/generate for a team match', (open) => {
  test('fits the score model to homeWin and expectedTotal; the odds route shows a coherent moneyline, spread and total', async () => {
    const store = await open();
    const { app, get } = await fixtureApp(store);
    await ingestFeed(store, lacrosseGame());
    const generate = (payload: object) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/admin/events/nll:${GAME}/markets/generate`,
        headers: { 'x-api-key': ADMIN_KEY },
        payload,
      });

    const res = await generate({ homeWin: 0.65, expectedTotal: 20, overround: 0.05, marginMethod: 'multiplicative' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(JSON.parse(res.body).marketsGenerated, 3, 'lacrosse: the match moneyline, spread and total');

    const odds = JSON.parse((await get(`/api/v1/public/events/nll/${GAME}/odds`)).body);
    const fair = (market: { selection: Array<{ side: string; probability: number }> }, side: string) =>
      (market.selection.find((o) => o.side === side)?.probability ?? 0) /
      market.selection.reduce((sum, o) => sum + o.probability, 0);
    assert.ok(
      Math.abs(fair(odds.event.moneyLine, 'HOME') - 0.65) < 0.002,
      'the moneyline is the fitted home win chance',
    );
    const [spread] = odds.event.spread;
    const [total] = odds.event.total;
    assert.ok(spread.line < 0, `a favourite gives goals: ${spread.line}`);
    assert.ok(Math.abs(total.line - 20) <= 1, `a total line near the expected total: ${total.line}`);
    assert.ok(Math.abs(fair(total, 'OVER') - 0.5) < 0.1, 'the main total line is near even');
    const book = odds.event.moneyLine.selection.reduce(
      (sum: number, o: { probability: number }) => sum + o.probability,
      0,
    );
    assert.ok(Math.abs(book - 105) < 0.1, `a 5% book: ${book}`);

    const again = await generate({ homeWin: 0.4, expectedTotal: 22 });
    assert.equal(JSON.parse(again.body).collections.odds.updated, 6, 're-prices the same odd ids');
  });

  test('refuses athlete inputs for a match, a missing total, and homeWin for a race', async () => {
    const store = await open();
    const { app } = await fixtureApp(store);
    await ingestFeed(store, lacrosseGame());
    const post = (eventId: string, payload: object) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/admin/events/${eventId}/markets/generate`,
        headers: { 'x-api-key': ADMIN_KEY },
        payload,
      });
    const field = async (eventId: string, payload: object) => {
      const res = await post(eventId, payload);
      assert.equal(res.statusCode, 400, res.body);
      return JSON.parse(res.body).metadata.field;
    };
    assert.equal(await field(`nll:${GAME}`, { homeWin: 0.6 }), 'expectedTotal');
    assert.equal(await field(`nll:${GAME}`, { ratings: { 'gen-nll-home': 1500, 'gen-nll-away': 1400 } }), 'homeWin');
    const masl = await field('masl:b2b2b2b2-0000-4000-8000-000000000003', { homeWin: 0.6 });
    assert.equal(masl, 'homeWin', 'arena soccer takes no match model');
  });
});
