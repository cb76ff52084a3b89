/**
 * The settlement lifecycle: the feed's refusals (a dead-heat share outside (0, 1], an
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
import { BKFC_EVENT, resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { GSOC_DONE, teamMatchFeed } from '../helpers/team-match-fixture.ts';

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
      // An operator's dead-heat WIN is published with its share; the other outcome awaits the
      // operator's word on who shares the rest (only a full WIN loses the rest).
      const dead = await post(app, { odds: [propOdd({ settlement: 'WIN', deadHeatFactor: 0.5 })] });
      assert.equal(dead.statusCode, 200, dead.body);
      const props = (await app.get(`/api/v1/public/events/spr:${SPR_EVENT}/propBets`)).json() as {
        propBets: Array<{ id: string; settlement: string; deadHeatFactor: number }>;
      };
      assert.deepEqual(
        props.propBets.map((o) => [o.id, o.settlement, o.deadHeatFactor]),
        [
          ['o-sx-prop-yes', 'WIN', 0.5],
          ['o-sx-prop-no', 'NOT_SET', 1],
        ],
      );
    } finally {
      await app.app.close();
    }
  });

  test('a provisional result, corrected, then made official: each outcome says how, since when and why', async () => {
    const store = await open();
    const app = await fixtureApp(store);
    try {
      const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 0, minute));
      await ingestFeed(store, resultsFeed(), { now: at(1) });
      await ingestFeed(store, oddsFeed(), { now: at(2) });
      type Outcome = {
        id: string;
        settlement: string;
        settlementReason?: string;
        deadHeatFactor: number;
        settlementStatus?: string;
        settledAt?: string;
      };
      const read = async () =>
        (
          (await app.get(`/api/v1/public/events/bkfc:${BKFC_EVENT}/heatWinner`)).json() as {
            heatWinner: Outcome[];
          }
        ).heatWinner
          .filter((o) => o.id.startsWith('o-bk1-'))
          .map((o) => [o.id, o.settlement, o.settlementReason, o.settlementStatus, o.settledAt]);
      // Settled when its odds arrived (the result was in already).
      assert.deepEqual(await read(), [
        ['o-bk1-red', 'WIN', 'RESULT', 'OFFICIAL', at(2).toISOString()],
        ['o-bk1-blue', 'LOSE', 'RESULT', 'OFFICIAL', at(2).toISOString()],
      ]);
      // The result changes, provisionally: both outcomes settle again.
      const fight = (resultStatus: string, minute: number) => ({
        heatResults: [
          {
            heatId: 'bk-h1',
            winnerAthleteId: 'bk-blue',
            method: 'split decision',
            resultStatus,
            correction: true,
            updatedAt: at(minute).toISOString(),
          },
        ],
      });
      const changed = await ingestFeed(store, fight('PROVISIONAL', 3), { now: at(3) });
      assert.deepEqual(await read(), [
        ['o-bk1-red', 'LOSE', 'RESULT_CHANGED', 'PROVISIONAL', at(3).toISOString()],
        ['o-bk1-blue', 'WIN', 'RESULT_CHANGED', 'PROVISIONAL', at(3).toISOString()],
      ]);
      const settled = changed.changes.find((c) => c.kind === 'settlement');
      const outcomes = (settled?.data.outcomes ?? []) as Array<{ id: string; previous: unknown; settlement: unknown }>;
      assert.deepEqual(
        outcomes.filter((o) => o.id === 'o-bk1-red'),
        [
          {
            id: 'o-bk1-red',
            marketId: 'm-bk-1',
            previous: {
              settlement: 'WIN',
              settlementReason: 'RESULT',
              deadHeatFactor: 1,
              settlementStatus: 'OFFICIAL',
              settledAt: at(2).toISOString(),
            },
            settlement: {
              settlement: 'LOSE',
              settlementReason: 'RESULT_CHANGED',
              deadHeatFactor: 1,
              settlementStatus: 'PROVISIONAL',
              settledAt: at(3).toISOString(),
            },
          },
        ],
      );
      // Made official: the settlement stands, since the same write; only its status moves.
      const official = await ingestFeed(store, fight('OFFICIAL', 4), { now: at(4) });
      assert.deepEqual(await read(), [
        ['o-bk1-red', 'LOSE', 'RESULT_CHANGED', 'OFFICIAL', at(3).toISOString()],
        ['o-bk1-blue', 'WIN', 'RESULT_CHANGED', 'OFFICIAL', at(3).toISOString()],
      ]);
      const confirmed = official.changes.find((c) => c.kind === 'settlement')?.data.outcomes as Array<{
        id: string;
        previous: { settlementStatus: string };
        settlement: { settlementStatus: string };
      }>;
      assert.deepEqual(
        confirmed.map((o) => [o.id, o.previous.settlementStatus, o.settlement.settlementStatus]),
        [
          ['o-bk-h2h-blue', 'PROVISIONAL', 'OFFICIAL'],
          ['o-bk-h2h-red', 'PROVISIONAL', 'OFFICIAL'],
          ['o-bk1-blue', 'PROVISIONAL', 'OFFICIAL'],
          ['o-bk1-red', 'PROVISIONAL', 'OFFICIAL'],
        ],
      );
      // GET /changes replays the same messages, previous and new settlement included.
      const replay = (
        await app.get(`/api/v1/public/changes?after=${(changed.changes[0]?.id ?? 1) - 1}&kind=settlement`)
      ).json() as { changes: Array<{ id: number; data: { outcomes?: unknown[] } }> };
      assert.deepEqual(
        replay.changes.map((c) => c.data.outcomes?.length),
        [4, 4],
      );
      // The head-to-head sides carry the same fields.
      const h2h = (
        (await app.get(`/api/v1/public/events/bkfc:${BKFC_EVENT}/headToHead`)).json() as {
          headToHead: Array<{ id: string; athlete1: Outcome; athlete2: Outcome }>;
        }
      ).headToHead;
      assert.ok(JSON.stringify(h2h).includes('"settlementReason":"RESULT_CHANGED"'), JSON.stringify(h2h));
    } finally {
      await app.app.close();
    }
  });

  test('an abandoned event voids its markets with EVENT_ABANDONED, a cancelled one with EVENT_CANCELLED', async () => {
    const store = await open();
    const app = await fixtureApp(store);
    try {
      await ingestFeed(store, resultsFeed());
      await ingestFeed(store, oddsFeed());
      const read = async () =>
        (
          (await app.get(`/api/v1/public/events/spr:${SPR_EVENT}/eventWinner`)).json() as {
            eventWinner: Array<{ settlement: string; settlementReason?: string; settledAt?: string }>;
          }
        ).eventWinner.map((o) => [o.settlement, o.settlementReason, o.settledAt]);
      const now = new Date('2026-06-02T00:00:00.000Z');
      await ingestFeed(
        store,
        { events: [sprEvent({ eventStatus: 'CANCELLED', abandoned: true, updatedAt: '2026-06-02T00:00:00Z' })] },
        { now },
      );
      const abandoned = await read();
      assert.ok(abandoned.length > 0);
      for (const outcome of abandoned) assert.deepEqual(outcome, ['VOID', 'EVENT_ABANDONED', now.toISOString()]);
      // Sent again without the flag: a plain cancellation.
      await ingestFeed(store, { events: [sprEvent({ eventStatus: 'CANCELLED', updatedAt: '2026-06-03T00:00:00Z' })] });
      for (const [settlement, reason] of await read())
        assert.deepEqual([settlement, reason], ['VOID', 'EVENT_CANCELLED']);
    } finally {
      await app.app.close();
    }
  });

  test("a team match's provisional score settles its markets PROVISIONAL on the team-match odds route", async () => {
    const store = await open();
    const app = await fixtureApp(store);
    try {
      const feed = teamMatchFeed();
      await ingestFeed(store, feed, { now: new Date('2026-06-01T00:00:00.000Z') });
      const done = feed.events?.find((e) => e.id.endsWith(GSOC_DONE));
      assert.ok(done);
      const now = new Date('2026-06-01T00:10:00.000Z');
      await ingestFeed(
        store,
        { events: [{ ...done, resultStatus: 'PROVISIONAL', updatedAt: now.toISOString() }] },
        { now },
      );
      type Odds = {
        event: {
          moneyLine: {
            selection: Array<{
              settlement: string;
              settlementReason?: string;
              deadHeatFactor: number;
              settlementStatus?: string;
              settledAt?: string;
            }>;
          };
        };
      };
      const read = async () =>
        ((await app.get(`/api/v1/public/events/gsoc/${GSOC_DONE}/odds`)).json() as Odds).event.moneyLine.selection.map(
          (o) => [o.settlement, o.settlementReason, o.deadHeatFactor, o.settlementStatus, o.settledAt],
        );
      const settledAt = '2026-06-01T00:00:00.000Z';
      const provisional = await read();
      assert.ok(provisional.length > 0);
      for (const [settlement, ...rest] of provisional) {
        assert.notEqual(settlement, 'NOT_SET');
        assert.deepEqual(rest, ['RESULT', 1, 'PROVISIONAL', settledAt]);
      }
      const later = new Date('2026-06-01T00:20:00.000Z');
      await ingestFeed(
        store,
        { events: [{ ...done, resultStatus: 'OFFICIAL', updatedAt: later.toISOString() }] },
        { now: later },
      );
      for (const [, ...rest] of await read()) assert.deepEqual(rest, ['RESULT', 1, 'OFFICIAL', settledAt]);
    } finally {
      await app.app.close();
    }
  });
});
