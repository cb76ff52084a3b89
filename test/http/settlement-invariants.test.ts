/**
 * A trading desk's settlement invariants, on both stores, through the admin feed and the
 * public routes: a market never pays more winners than it has places, an operator's WIN in a
 * single-winner market loses the rest, a cancelled event voids every market the operator did not
 * settle (heat markets included), an abandoned one what was not decided; and every change of
 * settlement goes out on the change log with the previous settlement and the new one. The invariants
 * are checked as properties over random event lifecycles (results, corrections, cancellations,
 * operator settlements, in any order), besides the findings that first showed them broken.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Store } from '../../src/store/database.ts';
import { ADMIN_KEY, fixtureApp, type TestApp } from '../helpers/app.ts';
import { describeEachStore } from '../helpers/stores.ts';

const EVENT_UUID = '4a4a4a4a-0000-4000-8000-00000000aa01';
const EVENT = `spr:${EVENT_UUID}`;
const RIDERS = ['inv-a', 'inv-b', 'inv-c', 'inv-d'] as const;
const HEATS = ['inv-h1', 'inv-h2'] as const;
const START = Date.parse('2026-07-01T00:00:00.000Z');

/** Places each market pays: how many full winners its outcomes may share. */
const MARKETS = [
  { id: 'inv-win', oddType: 'eventWinner', places: 1 },
  { id: 'inv-second', oddType: 'secondPlace', places: 1 },
  { id: 'inv-top3', oddType: 'raceTop3', places: 3 },
  { id: 'inv-heat1', oddType: 'heatWinner', heatId: 'inv-h1', places: 1 },
  { id: 'inv-heat2', oddType: 'heatWinner', heatId: 'inv-h2', places: 1 },
  { id: 'inv-fast1', oddType: 'fastestLap', heatId: 'inv-h1', places: 1 },
  { id: 'inv-h2h', oddType: 'headToHead', places: 1 },
  { id: 'inv-exacta', oddType: 'eventExacta', places: 1 },
] as const;

/** The outcome ids of a market: one per rider (two for the matchup, two orders for the exacta). */
function outcomesOf(market: (typeof MARKETS)[number]): Array<Record<string, unknown> & { id: string }> {
  if (market.oddType === 'headToHead')
    return RIDERS.slice(0, 2).map((athleteId) => ({ id: `${market.id}-${athleteId}`, athleteId }));
  if (market.oddType === 'eventExacta')
    return [
      { id: `${market.id}-ab`, athleteIds: ['inv-a', 'inv-b'] },
      { id: `${market.id}-ba`, athleteIds: ['inv-b', 'inv-a'] },
    ];
  return RIDERS.map((athleteId) => ({ id: `${market.id}-${athleteId}`, athleteId }));
}

const at = (step: number) => new Date(START + step * 60_000).toISOString();

const eventRow = (eventStatus: string, updatedAt: string, extra: Record<string, unknown> = {}) => ({
  id: EVENT,
  competition: 'spr',
  tourId: 'inv-tour',
  name: 'Invariants SX',
  startDate: '2026-07-02T00:00:00Z',
  endDate: '2026-07-02T06:00:00Z',
  eventNumber: 1,
  eventStatus,
  updatedAt,
  ...extra,
});

/** An UPCOMING supercross event with two heats and the markets above, every outcome priced at 3.0. */
function eventFeed(): Record<string, unknown> {
  const T = at(0);
  return {
    tours: [{ id: 'inv-tour', competition: 'spr', name: 'Invariants tour', updatedAt: T }],
    athletes: RIDERS.map((id) => ({ id, firstName: 'Rider', lastName: id, nationality: 'USA', updatedAt: T })),
    events: [eventRow('UPCOMING', T)],
    rounds: [{ id: 'inv-r1', eventId: EVENT, roundName: 'Main', roundNo: 1, roundStatus: 'UPCOMING', updatedAt: T }],
    heats: HEATS.map((id, i) => ({
      id,
      roundId: 'inv-r1',
      heatName: `Heat ${i + 1}`,
      heatNo: i + 1,
      heatStatus: 'UPCOMING',
      updatedAt: T,
    })),
    eventParticipants: RIDERS.map((athleteId, i) => ({
      id: `inv-p-${athleteId}`,
      eventId: EVENT,
      athleteId,
      seedNo: i + 1,
      updatedAt: T,
    })),
    heatEntries: HEATS.flatMap((heatId) =>
      RIDERS.map((athleteId) => ({ id: `${heatId}-${athleteId}`, heatId, athleteId, updatedAt: T })),
    ),
    markets: MARKETS.map(({ places: _, ...market }) => ({ ...market, eventId: EVENT, updatedAt: T })),
    odds: MARKETS.flatMap((market) =>
      outcomesOf(market).map((outcome) => ({ ...outcome, marketId: market.id, odds: 3, updatedAt: T })),
    ),
  };
}

const post = async (app: TestApp, payload: object) => {
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/v1/admin/feed',
    headers: { 'x-api-key': ADMIN_KEY },
    payload,
  });
  assert.equal(res.statusCode, 200, res.body);
};

interface Outcome {
  id: string;
  settlement: string;
  settlementReason?: string;
  deadHeatFactor: number;
}

/** Every outcome of the event as GET /odds publishes it, by market (a matchup's two sides included). */
async function published(app: TestApp): Promise<Map<string, Outcome[]>> {
  const res = await app.get(`/api/v1/public/odds?eventId=${EVENT}`);
  assert.equal(res.statusCode, 200, res.body);
  const markets = new Map<string, Outcome[]>();
  for (const market of res.json() as Array<{ marketId: string; outcomes: Array<Record<string, unknown>> }>) {
    const outcomes = market.outcomes.flatMap((item) =>
      'eventParticipant1' in item ? [item.eventParticipant1, item.eventParticipant2] : [item],
    ) as Outcome[];
    markets.set(market.marketId, outcomes);
  }
  return markets;
}

const wins = (outcomes: readonly Outcome[]) =>
  outcomes.filter((o) => o.settlement === 'WIN').reduce((sum, o) => sum + o.deadHeatFactor, 0);

/** Settlement moves on the change log, in order, as `{ id, previous, settlement }`. */
async function settlementMoves(app: TestApp): Promise<Array<{ id: string; previous: Outcome; settlement: Outcome }>> {
  const moves: Array<{ id: string; previous: Outcome; settlement: Outcome }> = [];
  let after = 0;
  for (;;) {
    const res = await app.get(`/api/v1/public/changes?after=${after}&kind=settlement&eventId=${EVENT}&limit=1000`);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json() as {
      changes: Array<{
        id: number;
        data: { outcomes?: Array<{ id: string; previous: Outcome; settlement: Outcome }> };
      }>;
      lastEventId: number;
    };
    for (const change of page.changes) moves.push(...(change.data.outcomes ?? []));
    if (page.changes.length === 0 || page.lastEventId === after) return moves;
    after = page.lastEventId;
  }
}

/** The app over a fresh store holding the event above, for `body`; closed after it. */
async function withEvent(open: () => Promise<Store>, body: (app: TestApp) => Promise<void>): Promise<void> {
  const app = await fixtureApp(await open());
  try {
    await post(app, eventFeed());
    await body(app);
  } finally {
    await app.app.close();
  }
}

describeEachStore('settlement invariants', (open) => {
  test('the results say runner a won; the operator settles runner b WIN: a loses, b wins (was two winners)', () =>
    withEvent(open, async (app) => {
      await post(app, {
        events: [eventRow('COMPLETED', at(1))],
        eventParticipants: RIDERS.map((athleteId, i) => ({
          id: `inv-p-${athleteId}`,
          eventId: EVENT,
          athleteId,
          place: i + 1,
          updatedAt: at(1),
        })),
      });
      await post(app, {
        odds: [
          {
            id: 'inv-win-inv-b',
            marketId: 'inv-win',
            athleteId: 'inv-b',
            odds: 3,
            settlement: 'WIN',
            updatedAt: at(2),
          },
        ],
      });
      const win = (await published(app)).get('inv-win') ?? [];
      assert.deepEqual(
        win.map((o) => [o.id, o.settlement, o.settlementReason]),
        [
          ['inv-win-inv-a', 'LOSE', 'OPERATOR'],
          ['inv-win-inv-b', 'WIN', 'OPERATOR'],
          ['inv-win-inv-c', 'LOSE', 'RESULT'],
          ['inv-win-inv-d', 'LOSE', 'RESULT'],
        ],
      );
    }));

  test('a cancelled UPCOMING event voids every market, its heat and fastest-lap markets included', () =>
    withEvent(open, async (app) => {
      await post(app, { events: [eventRow('CANCELLED', at(1))] });
      for (const [marketId, outcomes] of await published(app)) {
        assert.ok(outcomes.length > 0, marketId);
        for (const o of outcomes)
          assert.deepEqual([o.id, o.settlement, o.settlementReason], [o.id, 'VOID', 'EVENT_CANCELLED']);
      }
    }));

  test('an abandoned event keeps its decided heat and voids the heat that never ran', () =>
    withEvent(open, async (app) => {
      await post(app, heatResult('inv-h1', [1, 2, 3, 4], 1));
      await post(app, { events: [eventRow('CANCELLED', at(2), { abandoned: true })] });
      const markets = await published(app);
      assert.deepEqual(
        (markets.get('inv-heat1') ?? []).map((o) => [o.settlement, o.settlementReason]),
        [
          ['WIN', 'RESULT'],
          ['LOSE', 'RESULT'],
          ['LOSE', 'RESULT'],
          ['LOSE', 'RESULT'],
        ],
      );
      for (const marketId of ['inv-heat2', 'inv-win', 'inv-top3', 'inv-fast1'])
        for (const o of markets.get(marketId) ?? [])
          assert.deepEqual([o.id, o.settlement, o.settlementReason], [o.id, 'VOID', 'EVENT_ABANDONED']);
    }));

  test('over random lifecycles: winners within places, cancellations void, every move on the change log', () =>
    withEvent(open, async (app) => {
      let step = 1;
      await fc.assert(
        fc.asyncProperty(fc.array(lifecycleStep, { minLength: 1, maxLength: 6 }), async (steps) => {
          // Each run starts from the event UPCOMING with nothing settled, written later than the last run.
          await post(app, restart(step++));
          const operator = new Map<string, { settlement: string; deadHeatFactor: number }>();
          let calledOff: Step['calledOff'] = null;
          for (const next of steps) {
            const batch = next(step++);
            await post(app, batch.payload);
            if (batch.operator) operator.set(batch.operator.id, batch.operator);
            if (batch.calledOff !== undefined) calledOff = batch.calledOff;
            await checkInvariants(app, calledOff, operator);
          }
          await checkChangeLog(app);
        }),
        { numRuns: Number(process.env.SETTLEMENT_RUNS ?? 25), seed: Number(process.env.FC_SEED ?? 4040) },
      );
    }));
});

/** A heat COMPLETED with these places for riders a..d (equal numbers tie). */
function heatResult(heatId: string, places: readonly number[], step: number) {
  return {
    heats: [heatRow(heatId, 'COMPLETED', step)],
    heatEntries: RIDERS.map((athleteId, i) => ({
      id: `${heatId}-${athleteId}`,
      heatId,
      athleteId,
      position: places[i],
      updatedAt: at(step),
    })),
  };
}

const heatRow = (id: string, heatStatus: string, step: number) => ({
  id,
  roundId: 'inv-r1',
  heatName: `Heat ${HEATS.indexOf(id as (typeof HEATS)[number]) + 1}`,
  heatNo: HEATS.indexOf(id as (typeof HEATS)[number]) + 1,
  heatStatus,
  updatedAt: at(step),
});

/** Back to UPCOMING with no results and no operator settlements: the next lifecycle starts clean. */
function restart(step: number) {
  const feed = eventFeed() as { odds: Array<Record<string, unknown>> };
  return {
    events: [eventRow('UPCOMING', at(step))],
    heats: HEATS.map((id) => heatRow(id, 'UPCOMING', step)),
    heatEntries: HEATS.flatMap((heatId) =>
      RIDERS.map((athleteId) => ({
        id: `${heatId}-${athleteId}`,
        heatId,
        athleteId,
        position: null,
        updatedAt: at(step),
      })),
    ),
    eventParticipants: RIDERS.map((athleteId, i) => ({
      id: `inv-p-${athleteId}`,
      eventId: EVENT,
      athleteId,
      seedNo: i + 1,
      place: null,
      updatedAt: at(step),
    })),
    odds: feed.odds.map((odd) => ({ ...odd, settlement: null, updatedAt: at(step) })),
  };
}

interface Step {
  payload: object;
  /** The operator's settlement this step feeds. */
  operator?: { id: string; settlement: string; deadHeatFactor: number };
  /** The event's state after this step, when the step sets it: called off, or not (null). */
  calledOff?: 'cancelled' | 'abandoned' | null;
}

const places = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 4, maxLength: 4 });

const lifecycleStep: fc.Arbitrary<(step: number) => Step> = fc.oneof(
  fc.record({ heat: fc.constantFrom(...HEATS), places }).map(({ heat, places }) => (step: number) => ({
    payload: heatResult(heat, places, step),
  })),
  places.map((places) => (step: number) => ({
    calledOff: null,
    payload: {
      events: [eventRow('COMPLETED', at(step))],
      eventParticipants: RIDERS.map((athleteId, i) => ({
        id: `inv-p-${athleteId}`,
        eventId: EVENT,
        athleteId,
        place: places[i],
        updatedAt: at(step),
      })),
    },
  })),
  fc.constantFrom('LIVE', 'COMPLETED').map((status) => (step: number) => ({
    calledOff: null,
    payload: { events: [eventRow(status, at(step))] },
  })),
  fc.boolean().map((abandoned) => (step: number) => ({
    payload: { events: [eventRow('CANCELLED', at(step), abandoned ? { abandoned: true } : {})] },
    calledOff: abandoned ? ('abandoned' as const) : ('cancelled' as const),
  })),
  fc
    .record({
      market: fc.constantFrom(...MARKETS),
      pick: fc.nat(),
      settlement: fc.constantFrom('WIN', 'LOSE', 'VOID'),
      deadHeatFactor: fc.constantFrom(1, 1, 0.5),
    })
    .map(({ market, pick, settlement, deadHeatFactor }) => (step: number) => {
      const outcomes = outcomesOf(market);
      const outcome = outcomes[pick % outcomes.length] as { id: string };
      const factor = settlement === 'WIN' ? deadHeatFactor : 1;
      return {
        payload: {
          odds: [
            {
              ...outcome,
              marketId: market.id,
              odds: 3,
              settlement,
              ...(settlement === 'WIN' ? { deadHeatFactor: factor } : {}),
              updatedAt: at(step),
            },
          ],
        },
        operator: { id: outcome.id, settlement, deadHeatFactor: factor },
      };
    }),
);

/**
 * The published settlements of every market, after one step: winners' shares within the market's
 * places; an operator's full WIN in a single-winner market leaves no other winner nor open bet; a
 * cancelled event leaves nothing but voids and the operator's own settlements, an abandoned one
 * nothing unsettled.
 */
async function checkInvariants(
  app: TestApp,
  calledOff: Step['calledOff'],
  operator: ReadonlyMap<string, { settlement: string; deadHeatFactor: number }>,
): Promise<void> {
  const markets = await published(app);
  for (const market of MARKETS) {
    const outcomes = markets.get(market.id) ?? [];
    assert.ok(outcomes.length > 0, market.id);
    const paid = wins(outcomes);
    assert.ok(paid <= market.places + 1e-9, `${market.id} pays ${paid} winners: ${JSON.stringify(outcomes)}`);
    const fullOperatorWin = outcomes.some(
      (o) => o.settlement === 'WIN' && o.settlementReason === 'OPERATOR' && o.deadHeatFactor === 1,
    );
    if (market.places === 1 && fullOperatorWin)
      for (const o of outcomes.filter((o) => !operator.has(o.id)))
        assert.ok(['LOSE', 'VOID', 'PUSH'].includes(o.settlement), `${o.id} ${o.settlement} beside an operator's WIN`);
    for (const o of outcomes) {
      if (calledOff === 'cancelled')
        assert.ok(o.settlement === 'VOID' || o.settlementReason === 'OPERATOR', `${o.id}: ${JSON.stringify(o)}`);
      if (calledOff) assert.notEqual(o.settlement, 'NOT_SET', `${o.id} unsettled after the event was called off`);
    }
  }
}

/** Replaying the change log's settlement moves from NOT_SET arrives at every published settlement. */
async function checkChangeLog(app: TestApp): Promise<void> {
  const state = new Map<string, { settlement: string; deadHeatFactor: number }>();
  for (const move of await settlementMoves(app)) {
    const before = state.get(move.id) ?? { settlement: 'NOT_SET', deadHeatFactor: 1 };
    assert.deepEqual(
      [move.previous.settlement, move.previous.deadHeatFactor],
      [before.settlement, before.deadHeatFactor],
      `${move.id}: a move's previous is the settlement published before it`,
    );
    state.set(move.id, move.settlement);
  }
  for (const outcomes of (await published(app)).values())
    for (const o of outcomes) {
      const logged = state.get(o.id) ?? { settlement: 'NOT_SET', deadHeatFactor: 1 };
      assert.deepEqual([o.id, logged.settlement, logged.deadHeatFactor], [o.id, o.settlement, o.deadHeatFactor]);
    }
}
