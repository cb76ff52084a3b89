import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { EVENT_STATUSES } from '../../../src/domain/enumerations.ts';
import {
  competitionRanks,
  eventScopeResult,
  heatScopeResult,
  lapStatisticResult,
  operatorScopeResult,
} from '../../../src/domain/markets/scope-results.ts';

const row = (
  athleteId: string,
  athleteRoundRank: number | null,
  extra: Partial<{ athleteHeatScore: number | null; athleteLapTime: number | null; athleteLapStatus: string }> = {},
) => ({
  athleteId,
  athleteRoundRank,
  athleteHeatScore: null,
  athleteLapTime: null,
  athleteLapStatus: 'ACT',
  ...extra,
});

describe('reading results for settlement', () => {
  test('competition ranking: ties share a rank and the next skips; lower is better unless told', () => {
    const values = new Map<string, number | null>([
      ['a', 47.5],
      ['b', 47.5],
      ['c', 48],
      ['d', null],
    ]);
    assert.deepEqual(
      [...competitionRanks(values)],
      [
        ['a', 1],
        ['b', 1],
        ['c', 3],
        ['d', null],
      ],
    );
    assert.deepEqual(
      [...competitionRanks(values, true)],
      [
        ['a', 2],
        ['b', 2],
        ['c', 1],
        ['d', null],
      ],
    );
  });

  test('event: pending until completed with places; withdrawn athletes are out of it; cancelled is void', () => {
    const participants = [
      { athleteId: 'a', status: 'ACTIVE', place: 1 },
      { athleteId: 'b', status: 'ELIMINATED', place: 5 },
      { athleteId: 'c', status: 'INJURED', place: null },
      { athleteId: 'd', status: 'WITHDRAWN', place: null },
    ];
    assert.equal(eventScopeResult('LIVE', participants).state, 'pending');
    assert.equal(
      eventScopeResult(
        'COMPLETED',
        participants.map((p) => ({ ...p, place: null })),
      ).state,
      'pending',
    );
    assert.equal(eventScopeResult('CANCELLED', participants).state, 'void');
    const decided = eventScopeResult('COMPLETED', participants);
    assert.equal(decided.state, 'decided');
    assert.deepEqual(
      [...decided.ranks],
      [
        ['a', 1],
        ['b', 5],
        ['c', null],
      ],
    );
  });

  test('a market the operator settles: void once its event is cancelled, else the operator decides', () => {
    const table: Array<[string, 'void' | undefined]> = EVENT_STATUSES.map((status) => [
      status,
      status === 'CANCELLED' ? 'void' : undefined,
    ]);
    for (const [status, state] of table) assert.equal(operatorScopeResult(status)?.state, state, status);
    fc.assert(
      fc.property(fc.constantFrom(...EVENT_STATUSES), (status) => {
        const result = operatorScopeResult(status);
        return result === undefined ? status !== 'CANCELLED' : result.state === eventScopeResult(status, []).state;
      }),
    );
  });

  test('heat: ranks are athleteRoundRank; draws push, no contests and cancellations void; DNS did not take part', () => {
    const rows = [
      row('a', 1, { athleteHeatScore: 15.5, athleteLapTime: 600 }),
      row('b', 2, { athleteHeatScore: 12.1, athleteLapTime: 604.25 }),
      row('c', null, { athleteLapStatus: 'DNS' }),
    ];
    assert.equal(heatScopeResult('LIVE', rows).state, 'pending');
    assert.equal(heatScopeResult('CANCELLED', rows).state, 'void');
    assert.equal(heatScopeResult('COMPLETED', rows, 'draw').state, 'push');
    assert.equal(heatScopeResult('COMPLETED', rows, 'none').state, 'void');
    assert.equal(
      heatScopeResult(
        'COMPLETED',
        rows.map((r) => ({ ...r, athleteRoundRank: null })),
      ).state,
      'pending',
    );
    const decided = heatScopeResult('COMPLETED', rows, 'win');
    assert.deepEqual(
      [...decided.ranks],
      [
        ['a', 1],
        ['b', 2],
      ],
    );
    assert.deepEqual(decided.measures?.get('b'), { points: 12.1, gapToLeaders: 4.25 });
  });

  test('lap statistics decide once their heats complete', () => {
    assert.equal(lapStatisticResult(false, new Map([['a', 47.5]])).state, 'pending');
    assert.equal(lapStatisticResult(true, new Map([['a', null]])).state, 'pending');
    assert.deepEqual(
      [
        ...lapStatisticResult(
          true,
          new Map([
            ['a', 48],
            ['b', 47.5],
          ]),
        ).ranks,
      ],
      [
        ['a', 2],
        ['b', 1],
      ],
    );
  });

  test('property: ranks are between 1 and the number classified, and a best value ranks 1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }), { minLength: 1, maxLength: 12 }),
        (values) => {
          const ranks = competitionRanks(new Map(values.map((v, i) => [`x${i}`, v])));
          const classified = values.filter((v) => v !== null) as number[];
          for (const [id, rank] of ranks) {
            const value = values[Number(id.slice(1))];
            if (value === null) assert.equal(rank, null);
            else {
              assert.ok((rank as number) >= 1 && (rank as number) <= classified.length);
              if (value === Math.min(...classified)) assert.equal(rank, 1);
            }
          }
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });
});
