import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ODD_TYPES } from '../../../src/domain/enumerations.ts';
import {
  isExclusiveMarket,
  marketProblems,
  oddProblems,
  scopeKey,
  scopeOf,
  selectionOf,
} from '../../../src/domain/markets/market-shape.ts';

const fields = (problems: Array<{ field: string }>) => problems.map((p) => p.field);

describe('market shapes per odd type', () => {
  test('market fields each odd type needs or refuses', () => {
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ oddType: 'eventWinner' }, []],
      [{ oddType: 'heatWinner' }, ['heatId']],
      [{ oddType: 'heatExacta', heatId: 'h', exactasType: 3 }, []],
      [{ oddType: 'holeShot' }, ['heatId']],
      [{ oddType: 'eventWinner', exactasType: 2 }, ['exactasType']],
      [{ oddType: 'overUnder', overUnderSubMarketType: 'finishingPosition', athleteIds: ['a'], line: 3.5 }, []],
      [
        { oddType: 'overUnder', overUnderSubMarketType: 'finishingPosition', athleteIds: ['a', 'b'] },
        ['line', 'athleteIds'],
      ],
      [{ oddType: 'overUnder', overUnderSubMarketType: 'points', athleteIds: ['a'], line: 14.5 }, ['heatId']],
      [
        { oddType: 'multiOverUnder', overUnderSubMarketType: 'finishingPosition', athleteIds: ['a'], line: 5.5 },
        ['athleteIds'],
      ],
      [{ oddType: 'podiums', line: 2.5, overUnderSubMarketType: 'points' }, ['overUnderSubMarketType', 'line']],
      [{ oddType: 'podiums', places: 3 }, ['places']],
      [{ oddType: 'shows', places: 2 }, []],
      [{ oddType: 'propBets' }, ['proposition']],
    ];
    for (const [market, expected] of cases)
      assert.deepEqual(fields(marketProblems(market as never)), expected, JSON.stringify(market));
  });

  test('outcome fields each odd type needs or refuses', () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>, string[]]> = [
      [{ oddType: 'eventWinner' }, { athleteId: 'a' }, []],
      [{ oddType: 'eventWinner' }, {}, ['athleteId']],
      [{ oddType: 'eventExacta', exactasType: 3 }, { athleteIds: ['a', 'b', 'c'] }, []],
      [{ oddType: 'eventExacta', exactasType: 3 }, { athleteIds: ['a', 'b'] }, ['athleteIds']],
      [{ oddType: 'eventExacta', exactasType: 2 }, { athleteIds: ['a', 'a'] }, ['athleteIds']],
      [{ oddType: 'dreamTeam' }, {}, ['athleteIds']],
      [{ oddType: 'overUnder' }, {}, ['side']],
      [{ oddType: 'eventWinner' }, { athleteId: 'a', side: 'OVER' }, ['side']],
      [{ oddType: 'teamMarkets' }, {}, ['teamId']],
      [{ oddType: 'teamMarkets' }, { name: 'Draw' }, []],
      [{ oddType: 'propBets' }, {}, ['name']],
    ];
    for (const [market, odd, expected] of cases)
      assert.deepEqual(fields(oddProblems(market as never, odd as never)), expected, JSON.stringify([market, odd]));
  });

  test('scopes and selections', () => {
    assert.equal(scopeKey(scopeOf({ id: 'm', oddType: 'eventWinner' })), 'event');
    assert.equal(scopeKey(scopeOf({ id: 'm', oddType: 'heatWinner', heatId: 'h' })), 'heat:h');
    assert.equal(scopeKey(scopeOf({ id: 'm', oddType: 'headToHead', heatId: 'h' })), 'heat:h');
    assert.equal(scopeKey(scopeOf({ id: 'm', oddType: 'fastestLap' })), 'fastestLap:event');
    assert.equal(scopeKey(scopeOf({ id: 'm', oddType: 'holeShot', heatId: 'h' })), 'holeShot:h');
    assert.equal(scopeKey(scopeOf({ id: 'm', oddType: 'propBets' })), 'operator:m');
    assert.deepEqual(selectionOf({ oddType: 'secondPlace' }, { athleteId: 'a' }), {
      kind: 'place',
      athleteId: 'a',
      place: 2,
    });
    assert.deepEqual(selectionOf({ oddType: 'shows', places: 2 }, { athleteId: 'a' }), {
      kind: 'top',
      athleteId: 'a',
      places: 2,
    });
    assert.deepEqual(selectionOf({ oddType: 'raceTop10' }, { athleteId: 'a' }), {
      kind: 'top',
      athleteId: 'a',
      places: 10,
    });
    assert.deepEqual(selectionOf({ oddType: 'headToHead' }, { athleteId: 'a' }, { otherAthleteId: 'b' }), {
      kind: 'ahead',
      athleteId: 'a',
      otherId: 'b',
    });
    assert.deepEqual(
      selectionOf(
        { oddType: 'multiOverUnder', athleteIds: ['a', 'b'], line: 7.5, overUnderSubMarketType: 'finishingPosition' },
        { side: 'UNDER' },
      ),
      {
        kind: 'overUnder',
        athleteIds: ['a', 'b'],
        measure: 'finishingPosition',
        line: 7.5,
        side: 'UNDER',
      },
    );
    for (const oddType of ODD_TYPES)
      assert.ok(selectionOf({ oddType }, { athleteId: 'a', athleteIds: ['a'], side: 'OVER', name: 'x' }), oddType);
    assert.equal(isExclusiveMarket('eventWinner'), true);
    assert.equal(isExclusiveMarket('raceTop5'), false);
  });
});
