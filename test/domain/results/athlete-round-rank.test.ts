import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { ResultsFormat } from '../../../src/domain/competitions.ts';
import { EVENT_STATUSES, WIN_METHODS } from '../../../src/domain/enumerations.ts';
import { athleteRoundRank, type RoundRankInput } from '../../../src/domain/results/athlete-round-rank.ts';

const pair = ['red', 'blue'];
const result = (winnerAthleteId: string | null, method: string | null) => ({ winnerAthleteId, method });
const rank = (over: Partial<RoundRankInput>) =>
  athleteRoundRank({
    format: 'judged-heat',
    heatStatus: 'COMPLETED',
    storedPosition: null,
    athleteId: 'red',
    heatAthleteIds: pair,
    result: null,
    ...over,
  });

describe('athleteRoundRank', () => {
  test('walks every case of section 2.5', () => {
    const table: Array<[string, Partial<RoundRankInput>, number | null]> = [
      // Stored position, every other format.
      ['stored position', { storedPosition: 3 }, 3],
      ['no stored position', { storedPosition: null }, null],
      ['stored 0 means none', { storedPosition: 0 }, null],
      ['stored position while live', { heatStatus: 'LIVE', storedPosition: 2 }, 2],
      ['lap racing uses the stored position', { format: 'supercross-laps', storedPosition: 7 }, 7],
      // Combat.
      ['combat winner', { format: 'combat', result: result('red', 'KO') }, 1],
      ['combat loser', { format: 'combat', athleteId: 'blue', result: result('red', 'KO') }, 2],
      ['combat winner with an unlisted method', { format: 'combat', result: result('red', 'Doctor Stoppage') }, 1],
      ['combat winner without a method', { format: 'combat', athleteId: 'blue', result: result('red', null) }, 2],
      ['combat ignores a stored position', { format: 'combat', storedPosition: 5, result: result('red', 'TKO') }, 1],
      ['combat draw ranks the first fighter 1', { format: 'combat', result: result(null, 'Split Draw') }, 1],
      [
        'combat draw ranks the second fighter 1',
        { format: 'combat', athleteId: 'blue', result: result(null, 'draw') },
        1,
      ],
      ['combat no contest', { format: 'combat', result: result(null, 'No Contest') }, null],
      ['combat no contest spelt NC', { format: 'combat', athleteId: 'blue', result: result(null, 'nc') }, null],
      ['combat completed without a result', { format: 'combat', storedPosition: 1 }, null],
      ['combat not completed', { format: 'combat', heatStatus: 'LIVE', result: result('red', 'KO') }, null],
      ['combat upcoming', { format: 'combat', heatStatus: 'UPCOMING', storedPosition: 1 }, null],
      [
        'combat with three fighters',
        { format: 'combat', heatAthleteIds: ['red', 'blue', 'green'], result: result('red', 'KO') },
        null,
      ],
      [
        'combat with one fighter',
        { format: 'combat', heatAthleteIds: ['red'], result: result('red', 'Forfeit') },
        null,
      ],
      ['combat winner not among the two', { format: 'combat', result: result('green', 'KO') }, null],
      [
        'combat loser when the winner is not among the two',
        { format: 'combat', athleteId: 'blue', result: result('green', 'KO') },
        null,
      ],
      // Drift battles.
      ['drift winner', { format: 'drift-battle', result: result('red', null) }, 1],
      ['drift other driver', { format: 'drift-battle', athleteId: 'blue', result: result('red', null) }, 2],
      [
        'drift winner over a stored position',
        { format: 'drift-battle', storedPosition: 2, result: result('red', null) },
        1,
      ],
      [
        'drift other driver over a stored position',
        { format: 'drift-battle', athleteId: 'blue', storedPosition: 1, result: result('red', null) },
        2,
      ],
      [
        'drift not completed: stored position',
        { format: 'drift-battle', heatStatus: 'LIVE', storedPosition: 2, result: result('red', null) },
        2,
      ],
      [
        'drift winner not a driver: stored position',
        { format: 'drift-battle', storedPosition: 2, result: result('green', null) },
        2,
      ],
      ['drift no result: stored position', { format: 'drift-battle', storedPosition: 4 }, 4],
      ['drift no result, stored 0', { format: 'drift-battle', storedPosition: 0 }, null],
      [
        'drift qualifying session of many: stored position',
        {
          format: 'drift-battle',
          heatAthleteIds: ['red', 'blue', 'green'],
          storedPosition: 3,
          result: result('red', null),
        },
        3,
      ],
      // Drag pairings.
      ['drag winner', { format: 'drag-pairing', result: result('red', null) }, 1],
      ['drag other driver', { format: 'drag-pairing', athleteId: 'blue', result: result('red', null) }, 2],
      [
        'drag winner over a stored position',
        { format: 'drag-pairing', storedPosition: 2, result: result('red', null) },
        1,
      ],
      [
        'drag solo run (bye) winner',
        { format: 'drag-pairing', heatAthleteIds: ['red'], result: result('red', null) },
        1,
      ],
      ['drag no result, stored 1 is published', { format: 'drag-pairing', storedPosition: 1 }, 1],
      ['drag no result, stored 2 is not', { format: 'drag-pairing', athleteId: 'blue', storedPosition: 2 }, null],
      [
        'drag not completed, stored 1',
        { format: 'drag-pairing', heatStatus: 'LIVE', storedPosition: 1, result: result('blue', null) },
        1,
      ],
      [
        'drag winner not a driver, stored 3',
        { format: 'drag-pairing', storedPosition: 3, result: result('green', null) },
        null,
      ],
      // Bull riding.
      ['bull riding with a stored position', { format: 'bull-riding', storedPosition: 1 }, null],
      ['bull riding with a result', { format: 'bull-riding', result: result('red', null) }, null],
    ];
    for (const [name, input, expected] of table) assert.equal(rank(input), expected, name);
  });

  test('combat ranks are 1, 2 or null, and a decided fight ranks its two fighters 1 and 2', () => {
    const fighter = fc.constantFrom('red', 'blue', 'green');
    fc.assert(
      fc.property(
        fc.constantFrom(...EVENT_STATUSES),
        fc.uniqueArray(fighter, { minLength: 1, maxLength: 3 }),
        fc.option(fighter),
        fc.option(fc.oneof(fc.constantFrom(...WIN_METHODS), fc.string())),
        fc.option(fc.integer({ min: 0, max: 40 })),
        (heatStatus, heatAthleteIds, winner, method, storedPosition) => {
          const ranks = heatAthleteIds.map((athleteId) =>
            athleteRoundRank({
              format: 'combat',
              heatStatus,
              storedPosition,
              athleteId,
              heatAthleteIds,
              result: { winnerAthleteId: winner, method },
            }),
          );
          for (const r of ranks) assert.ok(r === null || r === 1 || r === 2);
          if (heatStatus !== 'COMPLETED' || heatAthleteIds.length !== 2)
            assert.deepEqual(
              ranks,
              ranks.map(() => null),
            );
          if (ranks.includes(2)) assert.deepEqual([...ranks].sort(), [1, 2]);
        },
      ),
    );
  });

  test('a completed battle with a winner among its two drivers ranks them 1 and 2 whatever is stored', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ResultsFormat>('drift-battle', 'drag-pairing'),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 9 })),
        (format, redWins, storedPosition) => {
          const winner = redWins ? 'red' : 'blue';
          const ranks = pair.map((athleteId) =>
            athleteRoundRank({
              format,
              heatStatus: 'COMPLETED',
              storedPosition,
              athleteId,
              heatAthleteIds: pair,
              result: { winnerAthleteId: winner, method: null },
            }),
          );
          assert.deepEqual(ranks, redWins ? [1, 2] : [2, 1]);
        },
      ),
    );
  });
});
