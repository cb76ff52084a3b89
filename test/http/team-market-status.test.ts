/**
 * Market-level status on the team-match and Jai Alai odds routes: each market carries the
 * status its own facts give it (the operator's word, its result, the event, the feed's silence) and
 * `statusReason` when it is not ACTIVE, as its outcomes do.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { CurlingOdds, JaiAlaiOdds } from '../../src/shapes/sport-events.ts';
import { fixtureApp } from '../helpers/app.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { GSOC_DONE, GSOC_LIVE, JAI_3, teamMatchFeed } from '../helpers/team-match-fixture.ts';

const BASE = '/api/v1/public';
/** Later than every row of the team-match fixture. */
const LATER = '2026-03-16T00:00:00.000Z';

type Market = { marketId: string | number; status: string; statusReason?: string };
type Outcome = { id: string; status: string; statusReason?: string };

const states = (markets: Array<Market & { selection: Outcome[] }>) =>
  markets.map((m) => [m.marketId, m.status, m.statusReason, m.selection.map((o) => [o.status, o.statusReason])]);

describeEachStore('market status on the team-match and Jai Alai routes', (open) => {
  test("a market carries its own status and reason: the operator's, RESULTED once decided, FEED_STALE under a bet stop", async () => {
    const store = await open();
    const app = await fixtureApp(store, { FEED_STALE_SECONDS: '30' });
    try {
      await ingestFeed(store, teamMatchFeed());
      // The operator suspends the live curling match's total after a score.
      await ingestFeed(store, {
        markets: [
          {
            id: 'tm-gl-total',
            eventId: GSOC_LIVE,
            oddType: 'teamMarkets',
            teamMarketType: 'total',
            line: 10.5,
            status: 'SUSPENDED',
            statusReason: 'SCORE_CHANGE',
            updatedAt: LATER,
          },
        ],
      });
      const live = (await app.get(`${BASE}/events/gsoc/${GSOC_LIVE}/odds`)).json() as CurlingOdds;
      assert.deepEqual(states([live.event.moneyLine!, ...live.event.total]), [
        [
          'tm-gl-ml',
          'ACTIVE',
          undefined,
          [
            ['OPEN', undefined],
            ['OPEN', undefined],
          ],
        ],
        [
          'tm-gl-total',
          'SUSPENDED',
          'SCORE_CHANGE',
          [
            ['SUSPENDED', 'SCORE_CHANGE'],
            ['SUSPENDED', 'SCORE_CHANGE'],
          ],
        ],
      ]);

      // A completed match's markets are CLOSED, RESULTED.
      const done = (await app.get(`${BASE}/events/gsoc/${GSOC_DONE}/odds`)).json() as CurlingOdds;
      for (const market of [done.event.moneyLine!, ...done.event.spread, ...done.event.total]) {
        assert.deepEqual([market.status, market.statusReason], ['CLOSED', 'RESULTED'], market.marketId);
        for (const o of market.selection) assert.deepEqual([o.status, o.statusReason], ['CLOSED', 'RESULTED'], o.id);
      }

      // The feed's last word about the live Jai Alai match was two minutes ago: a bet stop.
      await ingestFeed(
        store,
        {
          markets: [
            { id: 'ja3-ml', eventId: JAI_3, oddType: 'teamMarkets', teamMarketType: 'moneyline', updatedAt: LATER },
          ],
          odds: [
            { id: 'ja3-ml-home', marketId: 'ja3-ml', side: 'HOME', odds: 1.7, updatedAt: LATER },
            { id: 'ja3-ml-away', marketId: 'ja3-ml', side: 'AWAY', odds: 2.1, updatedAt: LATER },
          ],
        },
        { now: new Date(Date.now() - 120_000) },
      );
      const jai = (await app.get(`${BASE}/events/jaialai/${JAI_3}/odds`)).json() as JaiAlaiOdds;
      const moneyLine = jai.matchWinner.moneyLine!;
      assert.deepEqual(states([{ ...moneyLine, marketId: moneyLine.id }]), [
        [
          'ja3-ml',
          'SUSPENDED',
          'FEED_STALE',
          [
            ['SUSPENDED', 'FEED_STALE'],
            ['SUSPENDED', 'FEED_STALE'],
          ],
        ],
      ]);
    } finally {
      await app.app.close();
    }
  });
});
