/**
 * The settlement lifecycle (issue 27): the feed's refusals (a dead-heat share outside (0, 1], an
 * unknown settlement, status or reason, a correction of a result never fed), provisional and
 * official results, each settled outcome's deadHeatFactor, settlementStatus and settledAt.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { ADMIN_KEY, fixtureApp, type TestApp } from '../helpers/app.ts';
import { fixtureFeed, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { storeSnapshot } from '../helpers/hostile-input.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const T = '2026-06-01T00:00:00.000Z';

async function settledApp(store: Parameters<typeof fixtureApp>[0]): Promise<TestApp> {
  const app = await fixtureApp(store);
  await ingestFeed(store, resultsFeed());
  await ingestFeed(store, oddsFeed());
  return app;
}

const post = (app: TestApp, payload: object) =>
  app.app.inject({ method: 'POST', url: '/api/v1/admin/feed', headers: { 'x-api-key': ADMIN_KEY }, payload });

const sprEvent = (extra: Record<string, unknown>) => ({
  id: `spr:${SPR_EVENT}`,
  competition: 'spr',
  tourId: 'spr-tour',
  name: 'Anaheim 1',
  startDate: '2026-05-01T00:00:00Z',
  endDate: '2026-05-01T06:00:00Z',
  eventNumber: 1,
  eventStatus: 'COMPLETED',
  updatedAt: T,
  ...extra,
});

const propOdd = (extra: Record<string, unknown>) => ({
  id: 'o-sx-prop-yes',
  marketId: 'm-sx-prop',
  name: 'Yes',
  odds: 1.8,
  updatedAt: T,
  ...extra,
});

describeEachStore('settlement lifecycle', (open) => {
  test('bad settlement input is a 400 naming the item and field, and writes nothing', async () => {
    const store = await open();
    const app = await settledApp(store);
    try {
      const refused = async (payload: object, item: string, field: string, message: RegExp) => {
        const before = await storeSnapshot(store);
        const res = await post(app, payload);
        assert.equal(res.statusCode, 400, res.body);
        const problems = (res.json() as { metadata: { problems: Array<Record<string, string>> } }).metadata.problems;
        const found = problems.find((p) => p.item === item && p.field === field);
        assert.ok(found, `${item}.${field} in ${JSON.stringify(problems)}`);
        assert.match(found.message ?? '', message);
        assert.deepEqual(await storeSnapshot(store), before, 'a refused batch writes nothing');
      };
      // A dead-heat share outside (0, 1], or on anything but a WIN.
      for (const deadHeatFactor of [0, -0.5, 1.5])
        await refused(
          { odds: [propOdd({ settlement: 'WIN', deadHeatFactor })] },
          'odds[0]',
          'deadHeatFactor',
          /must be/,
        );
      await refused(
        { odds: [propOdd({ settlement: 'LOSE', deadHeatFactor: 0.5 })] },
        'odds[0]',
        'deadHeatFactor',
        /only with settlement WIN/,
      );
      // Unknown words.
      await refused({ odds: [propOdd({ settlement: 'HALF_WIN' })] }, 'odds[0]', 'settlement', /must be one of/);
      await refused({ odds: [propOdd({ status: 'SETTLED' })] }, 'odds[0]', 'status', /must be one of OPEN/);
      await refused(
        { odds: [propOdd({ status: 'SUSPENDED', statusReason: 'WEATHER' })] },
        'odds[0]',
        'statusReason',
        /must be one of/,
      );
      await refused(
        { heatResults: [{ heatId: 'bk-h1', winnerAthleteId: 'bk-red', resultStatus: 'FINAL' }] },
        'heatResults[0]',
        'resultStatus',
        /must be one of PROVISIONAL, OFFICIAL/,
      );
      await refused(
        { events: [sprEvent({ resultStatus: 'UNOFFICIAL' })] },
        'events[0]',
        'resultStatus',
        /must be one of/,
      );
      await refused(
        { events: [sprEvent({ abandoned: true })] },
        'events[0]',
        'abandoned',
        /only with eventStatus CANCELLED/,
      );
      // A correction of a result the store does not hold: a heat still LIVE, an event not COMPLETED.
      await refused(
        { heatResults: [{ heatId: 'bk-h4', winnerAthleteId: 'bk-red', correction: true }] },
        'heatResults[0]',
        'correction',
        /no result was fed for this heat/,
      );
      const live = fixtureFeed().events?.find((e) => e.id.endsWith(WSL_LIVE));
      await refused(
        { events: [{ ...live, updatedAt: T, correction: true }] },
        'events[0]',
        'correction',
        /not COMPLETED/,
      );
      // The same corrections of results the store holds are taken.
      const taken = await post(app, {
        heatResults: [{ heatId: 'bk-h1', winnerAthleteId: 'bk-blue', method: 'knockout', correction: true }],
        events: [sprEvent({ correction: true })],
      });
      assert.equal(taken.statusCode, 200, taken.body);
      // An operator's dead-heat WIN is published with its share.
      const dead = await post(app, { odds: [propOdd({ settlement: 'WIN', deadHeatFactor: 0.5 })] });
      assert.equal(dead.statusCode, 200, dead.body);
      const props = (await app.get(`/api/v1/public/events/spr:${SPR_EVENT}/propBets`)).json() as {
        propBets: Array<{ id: string; settlement: string; deadHeatFactor: number }>;
      };
      assert.deepEqual(
        props.propBets.map((o) => [o.id, o.settlement, o.deadHeatFactor]),
        [
          ['o-sx-prop-yes', 'WIN', 0.5],
          ['o-sx-prop-no', 'LOSE', 1],
        ],
      );
    } finally {
      await app.app.close();
    }
  });
});
