/**
 * settlementReason on priced outcomes: RESULT, DEAD_HEAT with its factor, OPERATOR (and
 * the rest of a single-winner market the operator settled), EVENT_CANCELLED once the event is called off.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { fixtureApp } from '../helpers/app.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

type Outcome = { id: string; settlement: string; settlementReason?: string; deadHeatFactor: number };

describeEachStore('settlement reason', (open) => {
  test('each settled outcome says why; a cancelled event voids its markets with EVENT_CANCELLED', async () => {
    const store = await open();
    const app = await fixtureApp(store);
    try {
      await ingestFeed(store, resultsFeed());
      await ingestFeed(store, oddsFeed());
      const read = async (oddType: string) =>
        ((await app.get(`/api/v1/public/events/spr:${SPR_EVENT}/${oddType}`)).json() as Record<string, Outcome[]>)[
          oddType
        ]?.map((o) => [o.id, o.settlement, o.settlementReason, o.deadHeatFactor]);
      assert.deepEqual(await read('secondPlace'), [
        ['o-sx-second-a', 'LOSE', 'RESULT', 1],
        ['o-sx-second-b', 'WIN', 'DEAD_HEAT', 0.5],
        ['o-sx-second-c', 'WIN', 'DEAD_HEAT', 0.5],
      ]);
      assert.deepEqual(await read('propBets'), [
        ['o-sx-prop-yes', 'WIN', 'OPERATOR', 1],
        ['o-sx-prop-no', 'LOSE', 'OPERATOR', 1],
      ]);
      const cancelled = {
        events: [
          {
            id: `spr:${SPR_EVENT}`,
            competition: 'spr',
            tourId: 'spr-tour',
            name: 'Anaheim 1',
            startDate: '2026-05-01T00:00:00Z',
            endDate: '2026-05-01T06:00:00Z',
            eventNumber: 1,
            eventStatus: 'CANCELLED',
            updatedAt: '2027-01-01T00:00:00.000Z',
          },
        ],
      } as FeedDocument;
      await ingestFeed(store, cancelled);
      const voided = await read('eventWinner');
      assert.ok(voided && voided.length > 0);
      for (const [id, settlement, reason] of voided ?? [])
        assert.deepEqual([settlement, reason], ['VOID', 'EVENT_CANCELLED'], String(id));
    } finally {
      await app.app.close();
    }
  });
});
