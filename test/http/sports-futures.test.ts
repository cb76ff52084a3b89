import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMPETITIONS } from '../../src/domain/competitions.ts';
import { fixtureApp, sharedFixture } from '../helpers/app.ts';
import { WSL_FUTURE } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';

describeEachStore('GET /sports', (_open, kind) => {
  // The tests only read.
  const shared = sharedFixture(kind, fixtureApp);

  test('lists all 30 competitions with their supported markets', async () => {
    const { get } = shared();
    const sports = JSON.parse((await get(`${BASE}/sports`)).body);
    assert.equal(sports.length, 30);
    assert.deepEqual(
      sports.map((s: { key: string }) => s.key),
      COMPETITIONS.map((c) => c.key),
    );
    const gsoc = sports.find((s: { key: string }) => s.key === 'gsoc');
    assert.equal(gsoc.name, 'Grand Slam of Curling');
    assert.equal(gsoc.sportName, 'Curling');
    assert.ok(gsoc.supportedMarkets.includes('eventWinner'));
  });
});

describeEachStore('futures', (_open, kind) => {
  // The tests only read.
  const shared = sharedFixture(kind, fixtureApp);

  test('GET /futures lists futures with tour and season', async () => {
    const { get } = shared();
    const futures = JSON.parse((await get(`${BASE}/futures`)).body);
    assert.deepEqual(futures, [
      {
        id: `wsl:${WSL_FUTURE}`,
        referenceId: 1,
        type: 'winner',
        tourId: 'wsl-ct-men',
        numericTournamentId: 1,
        tourName: "Men's Championship Tour",
        startDate: '2026-01-01T00:00:00.000Z',
        endDate: '2026-09-30T00:00:00.000Z',
        year: 2026,
        gender: 'men',
        createdAt: '2026-03-01T00:00:00.000Z',
        updatedAt: '2026-03-01T00:00:00.000Z',
        isMarketOpen: true,
        tourYearId: 'wsl-ct-men-2026',
      },
    ]);
  });

  test('GET /futures/{sportType}/tour/{tourId}/odds/{futureType} publishes decimal and American odds', async () => {
    const { get } = shared();
    const odds = JSON.parse((await get(`${BASE}/futures/wsl/tour/wsl-ct-men/odds/winner`)).body);
    assert.deepEqual(
      odds.map((o: { name: string; odds: unknown[]; publicId: string; futureType: string; sportType: string }) => [
        o.publicId,
        o.sportType,
        o.futureType,
        o.name,
        o.odds,
      ]),
      [
        [
          `wsl:${WSL_FUTURE}`,
          'wsl',
          'winner',
          'Italo Ferreira',
          [{ outcomeName: 'Yes', americanOdds: 250, decimalOdds: 3.5 }],
        ],
        [
          `wsl:${WSL_FUTURE}`,
          'wsl',
          'winner',
          'John John Florence',
          [{ outcomeName: 'Yes', americanOdds: -150, decimalOdds: 1.6667 }],
        ],
      ],
    );
  });

  test('unknown tour or type without odds is a 404; an invalid type or sport is a 400 naming it', async () => {
    const { get } = shared();
    assert.equal((await get(`${BASE}/futures/wsl/tour/nope/odds/winner`)).statusCode, 404);
    assert.equal((await get(`${BASE}/futures/wsl/tour/wsl-ct-men/odds/top5`)).statusCode, 404);
    const badType = await get(`${BASE}/futures/wsl/tour/wsl-ct-men/odds/loser`);
    assert.equal(badType.statusCode, 400);
    assert.match(
      JSON.parse(badType.body).message,
      /"futureType".*winner, top2, top3, top5, top10, makeCut, makePlayOdds/,
    );
    const badSport = await get(`${BASE}/futures/nba/tour/wsl-ct-men/odds/winner`);
    assert.equal(badSport.statusCode, 400);
    assert.match(JSON.parse(badSport.body).message, /"sportType"/);
  });
});
