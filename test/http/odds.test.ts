import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OddType } from '../../src/domain/enumerations.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { EventOdds, OddItem } from '../../src/shapes/odds.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, sharedFixture } from '../helpers/app.ts';
import { WSL_LIVE } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { BKFC_EVENT, resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const FIELD = '22222222-0000-4000-8000-000000000002';

async function oddsApp(store: Store) {
  const app = await fixtureApp(store);
  await ingestFeed(store, resultsFeed());
  await ingestFeed(store, oddsFeed());
  const odds = async <T extends OddType>(eventId: string, oddType: T, query = '') => {
    const res = await app.get(`${BASE}/events/${eventId}/${oddType}${query}`);
    assert.equal(res.statusCode, 200, res.body);
    const body = JSON.parse(res.body) as EventOdds;
    assert.equal(body.oddType, oddType);
    return body[oddType] as OddItem<T>[];
  };
  return { ...app, odds };
}

const settled = (items: Array<{ id: string; status: string; settlement: string; deadHeatFactor: number }>) =>
  items.map((o) => [o.id, o.status, o.settlement, o.deadHeatFactor]);

describeEachStore('GET /events/{eventId}/{oddType}', (open, kind) => {
  // Tests that only read share one fixture; the one that ingests builds its own.
  const shared = sharedFixture(kind, oddsApp);

  test('an outcome carries its ids, the price in three formats, status, settlement and athlete', async () => {
    const { get, odds } = shared();
    const res = await get(`${BASE}/events/spr:${SPR_EVENT}/eventWinner`);
    const body = JSON.parse(res.body);
    assert.deepEqual(Object.keys(body), ['eventId', 'publicId', 'numericEventId', 'oddType', 'eventWinner']);
    assert.equal(body.eventId, `spr:${SPR_EVENT}`);
    const [first] = body.eventWinner;
    assert.deepEqual(Object.keys(first), [
      'id',
      'outcomeId',
      'referenceId',
      'marketId',
      'odds',
      'americanOdds',
      'probability',
      'status',
      'settlement',
      'deadHeatFactor',
      'updatedAt',
      // What a bet slip shows.
      'selection',
      'position',
      'heatId',
      'athlete',
      // Its result is in: closed, and why.
      'statusReason',
      'settlementReason',
      // How finally and since when (the settlement lifecycle).
      'settlementStatus',
      'settledAt',
    ]);
    assert.equal(first.statusReason, 'RESULTED');
    assert.equal(first.settlementStatus, 'OFFICIAL');
    assert.equal(first.settlementReason, first.deadHeatFactor < 1 ? 'DEAD_HEAT' : 'RESULT');
    assert.equal(first.outcomeId, String(first.referenceId));
    assert.equal(first.athlete.lastName, 'Tomac');
    // Fed as decimal 2.5, probability 40%, American +300 and -120: each published in all three formats.
    assert.deepEqual(
      (await odds(SPR_EVENT, 'eventWinner')).map((o) => [o.athlete!.id, o.odds, o.americanOdds, o.probability]),
      [
        ['sx-a', 2.5, 150, 40],
        ['sx-b', 2.5, 150, 40],
        ['sx-c', 4, 300, 25],
        // Fed as American -120, stored as decimal 1.8333 (four places): its American odds towards the
        // house, since -120 would pay 1.83333, more than the 1.8333 published.
        ['sx-d', 1.8333, -121, 54.5464],
      ],
    );
  });

  test('markets settle from the results once the event completes: wins, losses, dead heats, pushes', async () => {
    const { odds } = shared();
    const spr = `spr:${SPR_EVENT}`;
    assert.deepEqual(settled(await odds(spr, 'eventWinner')), [
      ['o-sx-win-a', 'CLOSED', 'WIN', 1],
      ['o-sx-win-b', 'CLOSED', 'LOSE', 1],
      ['o-sx-win-c', 'CLOSED', 'LOSE', 1],
      ['o-sx-win-d', 'CLOSED', 'LOSE', 1],
    ]);
    // sx-b and sx-c tie for 2nd: a dead heat pays each at half stake; both are on the podium in full.
    assert.deepEqual(
      settled(await odds(spr, 'secondPlace')).map((s) => s.slice(2)),
      [
        ['LOSE', 1],
        ['WIN', 0.5],
        ['WIN', 0.5],
      ],
    );
    assert.deepEqual(
      settled(await odds(spr, 'podiums')).map((s) => s.slice(2)),
      [
        ['WIN', 1],
        ['LOSE', 1],
      ],
    );
    assert.deepEqual(
      settled(await odds(spr, 'eventExacta', '?exactasType=2')).map((s) => s.slice(2)),
      [
        ['WIN', 0.5],
        ['LOSE', 1],
      ],
    );
    assert.deepEqual(
      settled(await odds(spr, 'eventExacta', '?exactasType=3')).map((s) => s.slice(2)),
      [['WIN', 0.5]],
      'b and c tied: two orders are possible',
    );
    assert.equal((await odds(spr, 'eventExacta')).length, 3, 'every exactas type without the filter');
    // Tied riders: the head-to-head and the over/under on an integer line push.
    const [h2h] = await odds(spr, 'headToHead');
    assert.deepEqual(
      [h2h?.eventParticipant1.settlement, h2h?.eventParticipant2.settlement, h2h?.winnerParticipantId, h2h?.betStatus],
      ['PUSH', 'PUSH', null, 'CLOSED'],
    );
    assert.deepEqual(
      (await odds(spr, 'overUnder', '?overUnderSubMarketType=finishingPosition')).map((o) => [
        o.side,
        o.line,
        o.settlement,
      ]),
      [
        ['OVER', 2, 'PUSH'],
        ['UNDER', 2, 'PUSH'],
      ],
    );
    assert.deepEqual(await odds(spr, 'overUnder', '?overUnderSubMarketType=points'), []);
    // Lap statistics: quickest lap (lap 1 excluded in supercross) and the leader after lap 1.
    assert.deepEqual(
      (await odds(spr, 'fastestLap')).map((o) => [o.athlete!.id, o.settlement]),
      [
        ['sx-a', 'WIN'],
        ['sx-b', 'LOSE'],
      ],
    );
    assert.deepEqual(
      (await odds(spr, 'holeShot')).map((o) => [o.athlete!.id, o.settlement]),
      [
        ['sx-a', 'LOSE'],
        ['sx-b', 'WIN'],
      ],
    );
    // The operator settles props; settling one outcome WIN settles the rest of the market LOSE.
    assert.deepEqual(
      (await odds(spr, 'propBets')).map((o) => [o.name, o.proposition, o.settlement, o.betStatus]),
      [
        ['Yes', 'Will a rider crash on lap 1?', 'WIN', 'CLOSED'],
        ['No', 'Will a rider crash on lap 1?', 'LOSE', 'CLOSED'],
      ],
    );
    assert.deepEqual(
      (await odds(spr, 'dreamTeam')).map((o) => [o.name, o.participants.map((a) => a.id), o.settlement]),
      [
        ['Team A', ['sx-a', 'sx-b'], 'WIN'],
        ['Team C', ['sx-c', 'sx-d'], 'LOSE'],
      ],
    );
  });

  test('heat winners are a flat list carrying round and heat; a draw pushes and a no contest voids', async () => {
    const { odds } = shared();
    const items = await odds(`bkfc:${BKFC_EVENT}`, 'heatWinner');
    assert.deepEqual(
      items.map((o) => [o.id, o.heatId, o.heatNo, o.roundName, o.marketStatus, o.settlement]),
      [
        ['o-bk1-red', 'bk-h1', 1, 'Main', 'CLOSE', 'WIN'],
        ['o-bk1-blue', 'bk-h1', 1, 'Main', 'CLOSE', 'LOSE'],
        ['o-bk2-green', 'bk-h2', 2, 'Main', 'CLOSE', 'PUSH'],
        ['o-bk3-red', 'bk-h3', 3, 'Main', 'VOID', 'VOID'],
        ['o-bk4-blue', 'bk-h4', 4, 'Main', 'CLOSE', 'NOT_SET'],
        ['o-bk4-gold', 'bk-h4', 4, 'Main', 'CLOSE', 'NOT_SET'],
      ],
    );
    assert.equal(items[0]?.athlete?.weightClass, 'Cruiserweight');
    const [fight] = await odds(BKFC_EVENT, 'headToHead');
    assert.deepEqual(
      [fight?.heatId, fight?.winnerParticipantId, fight?.eventParticipant1.settlement],
      ['bk-h1', 'bk-red', 'WIN'],
    );
  });

  test('a live event publishes open and suspended outcomes, NOT_SET', async () => {
    const { store, odds } = await oddsApp(await open());
    await ingestFeed(store, fieldFeed('fa', FIELD, [0.4, 0.3, 0.2, 0.1]));
    await ingestFeed(store, {
      markets: [
        {
          id: `${FIELD}:secondPlace`,
          eventId: FIELD,
          oddType: 'secondPlace',
          status: 'SUSPENDED',
          updatedAt: '2026-06-01T01:00:00.000Z',
        },
      ],
    });
    assert.deepEqual(
      new Set((await odds(FIELD, 'eventWinner')).map((o) => `${o.status}/${o.settlement}`)),
      new Set(['OPEN/NOT_SET']),
    );
    assert.deepEqual(new Set((await odds(FIELD, 'secondPlace')).map((o) => o.status)), new Set(['SUSPENDED']));
    const book = (await odds(FIELD, 'eventWinner')).reduce((sum, o) => sum + o.probability, 0);
    assert.ok(Math.abs(book - 100) < 0.01, `fair book ${book}`);
  });

  test('an odd type the competition does not offer is a 404 that says so; a bad value is a 400 naming it', async () => {
    const { get } = shared();
    const offered = await get(`${BASE}/events/spr:${SPR_EVENT}/teamMarkets`);
    assert.equal(offered.statusCode, 404);
    assert.match(JSON.parse(offered.body).message, /Supercross \(spr\) does not offer teamMarkets odds/);
    const unknown = await get(`${BASE}/events/spr:${SPR_EVENT}/trifecta`);
    assert.equal(unknown.statusCode, 400);
    assert.equal(JSON.parse(unknown.body).metadata.parameter, 'oddType');
    for (const [query, parameter] of [
      ['exactasType=5', 'exactasType'],
      ['exactasType=two', 'exactasType'],
      ['overUnderSubMarketType=laps', 'overUnderSubMarketType'],
    ] as Array<[string, string]>) {
      const res = await get(`${BASE}/events/${SPR_EVENT}/eventExacta?${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.equal(JSON.parse(res.body).metadata.parameter, parameter);
    }
    assert.equal((await get(`${BASE}/events/spr:00000000-0000-4000-8000-000000000000/eventWinner`)).statusCode, 404);
    // The literal segments still select routes 4 and 5.
    assert.equal((await get(`${BASE}/events/wsl:${WSL_LIVE}/participants`)).statusCode, 200);
  });

  test('a competition it offers but no market fed yet is an empty list', async () => {
    const { odds } = shared();
    assert.deepEqual(await odds(`spr:${SPR_EVENT}`, 'raceTop10'), []);
  });
});
