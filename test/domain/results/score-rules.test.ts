import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { RESULTS_FORMATS, type ResultsFormat } from '../../../src/domain/competitions.ts';
import { compareHeatRows } from '../../../src/domain/results/heat-row-order.ts';
import { scoreUpdatedAt } from '../../../src/domain/results/score-updated-at.ts';
import { teamEventFields, teamIsHome } from '../../../src/domain/results/team-event-fields.ts';

const FORMATS = Object.keys(RESULTS_FORMATS) as ResultsFormat[];

describe('updatedAt of a score row', () => {
  test("is the later of the score's date and the heat's dates", () => {
    const table: Array<[string, string, (string | null)[], string]> = [
      ['score later', '2026-04-02T10:00:00.000Z', ['2026-04-02T09:00:00.000Z'], '2026-04-02T10:00:00.000Z'],
      ['heat later', '2026-04-02T10:00:00.000Z', ['2026-04-02T11:00:00.000Z'], '2026-04-02T11:00:00.000Z'],
      ['equal', '2026-04-02T10:00:00.000Z', ['2026-04-02T10:00:00.000Z'], '2026-04-02T10:00:00.000Z'],
      [
        'a lap record later than both',
        '2026-04-02T10:00:00.000Z',
        ['2026-04-02T09:00:00.000Z', '2026-04-02T10:30:00.000Z'],
        '2026-04-02T10:30:00.000Z',
      ],
      ['no result stored', '2026-04-02T10:00:00.000Z', ['2026-04-02T09:00:00.000Z', null], '2026-04-02T10:00:00.000Z'],
    ];
    for (const [name, score, heat, expected] of table) assert.equal(scoreUpdatedAt(score, heat), expected, name);
  });

  test('is never earlier than either source date, and is one of them', () => {
    const date = fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
    fc.assert(
      fc.property(date, fc.array(fc.option(date), { maxLength: 4 }), (score, heat) => {
        const at = scoreUpdatedAt(score, heat);
        for (const d of [score, ...heat]) if (d) assert.ok(Date.parse(at) >= Date.parse(d));
        assert.ok([score, ...heat].includes(at));
      }),
    );
  });
});

describe('team-event fields', () => {
  const game = { eventType: 'Team Series', homeTeamId: 'home', awayTeamId: 'away' };
  test('are present exactly for bull riding', () => {
    assert.deepEqual(teamEventFields('bull-riding', game), { isTeamEvent: true, eventType: 'Team Series' });
    assert.deepEqual(teamEventFields('bull-riding', { ...game, eventType: null }), {
      isTeamEvent: true,
      eventType: null,
    });
    assert.deepEqual(teamEventFields('bull-riding', null), { isTeamEvent: false, eventType: null });
    for (const format of FORMATS.filter((f) => f !== 'bull-riding'))
      assert.deepEqual(teamEventFields(format, game), {}, format);
  });

  test('isHomeTeam only for a team of a bull-riding team game', () => {
    const table: Array<[string, ResultsFormat, typeof game | null, string | null, boolean | undefined]> = [
      ['home team', 'bull-riding', game, 'home', true],
      ['away team', 'bull-riding', game, 'away', false],
      ['a team not in the game', 'bull-riding', game, 'other', undefined],
      ['no team', 'bull-riding', game, null, undefined],
      ['not a team game', 'bull-riding', null, 'home', undefined],
      ['another sport', 'team-match', game, 'home', undefined],
    ];
    for (const [name, format, g, team, expected] of table) assert.equal(teamIsHome(format, g, team), expected, name);
  });
});

describe('heat row order', () => {
  test('rank, then seed, nulls last, then reference id', () => {
    const rows = [
      { athleteRoundRank: null, athleteRoundSeed: 1, referenceId: 1 },
      { athleteRoundRank: 2, athleteRoundSeed: 1, referenceId: 2 },
      { athleteRoundRank: 1, athleteRoundSeed: null, referenceId: 3 },
      { athleteRoundRank: 1, athleteRoundSeed: 4, referenceId: 4 },
      { athleteRoundRank: null, athleteRoundSeed: null, referenceId: 5 },
      { athleteRoundRank: null, athleteRoundSeed: null, referenceId: 0 },
    ];
    assert.deepEqual(
      [...rows].sort(compareHeatRows).map((r) => r.referenceId),
      [4, 3, 2, 1, 0, 5],
    );
  });

  test('is a total order that does not depend on the input order', () => {
    const n = fc.option(fc.integer({ min: 1, max: 5 }));
    const rows = fc.uniqueArray(
      fc.record({ athleteRoundRank: n, athleteRoundSeed: n, referenceId: fc.integer({ min: 1, max: 1000 }) }),
      { selector: (r) => r.referenceId },
    );
    fc.assert(
      fc.property(rows, (list) => {
        const a = [...list].sort(compareHeatRows);
        const b = [...list].reverse().sort(compareHeatRows);
        assert.deepEqual(a, b);
      }),
    );
  });
});
