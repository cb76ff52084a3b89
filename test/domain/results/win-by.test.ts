import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { RESULTS_FORMATS, type ResultsFormat } from '../../../src/domain/competitions.ts';
import { WIN_METHODS } from '../../../src/domain/enumerations.ts';
import { heatOutcome, methodExcludesWinner, publishedWinMethod, winBy } from '../../../src/domain/results/win-by.ts';

describe('winBy', () => {
  test('walks every case of section 2.5', () => {
    const table: Array<[string, ResultsFormat, string, string | null, string | null, string | null | undefined]> = [
      ['combat, completed, listed method', 'combat', 'COMPLETED', 'red', 'Unanimous Decision', 'Unanimous Decision'],
      ['input spelt in capitals', 'combat', 'COMPLETED', 'red', 'TECHNICAL SUBMISSION', 'Technical Submission'],
      ['input in snake case', 'combat', 'COMPLETED', 'red', 'split_decision', 'Split Decision'],
      ['input with dots', 'combat', 'COMPLETED', 'red', 't.k.o.', 'TKO'],
      ['input with hyphens and spaces', 'combat', 'COMPLETED', null, '  Majority-Draw ', 'Majority Draw'],
      ['abbreviation UD', 'combat', 'COMPLETED', 'red', 'UD', 'Unanimous Decision'],
      ['abbreviation NC', 'combat', 'COMPLETED', null, 'NC', 'No Contest'],
      ['abbreviation DQ', 'combat', 'COMPLETED', 'red', 'dq', 'Disqualification'],
      ['long form knockout', 'combat', 'COMPLETED', 'red', 'Knockout', 'KO'],
      [
        'a method outside the list, as stored',
        'combat',
        'COMPLETED',
        'red',
        'Doctor Stoppage (cut)',
        'Doctor Stoppage (cut)',
      ],
      ['draw', 'combat', 'COMPLETED', null, 'draw', 'Draw'],
      ['completed without a method', 'combat', 'COMPLETED', 'red', null, null],
      ['completed with a blank method', 'combat', 'COMPLETED', 'red', '  ', null],
      ['live fight', 'combat', 'LIVE', 'red', 'KO', null],
      ['upcoming fight', 'combat', 'UPCOMING', 'red', null, null],
      ['cancelled fight', 'combat', 'CANCELLED', null, 'No Contest', null],
      ['drift battle: absent', 'drift-battle', 'COMPLETED', 'red', 'KO', undefined],
      ['surfing: absent', 'judged-heat', 'COMPLETED', null, null, undefined],
    ];
    for (const [name, format, status, winner, method, expected] of table) {
      assert.equal(winBy(format, status, { winnerAthleteId: winner, method }), expected, name);
    }
    assert.equal(winBy('combat', 'COMPLETED', null), null, 'completed with nothing stored');
  });

  test('every published spelling maps to itself, and outcomes follow the method', () => {
    for (const method of WIN_METHODS) assert.equal(publishedWinMethod(method), method);
    assert.equal(heatOutcome({ winnerAthleteId: null, method: 'Technical Draw' }), 'draw');
    assert.equal(heatOutcome({ winnerAthleteId: 'red', method: 'KO' }), 'win');
    assert.equal(heatOutcome({ winnerAthleteId: null, method: 'KO' }), 'none');
    assert.equal(heatOutcome({ winnerAthleteId: null, method: 'no contest' }), 'none');
    assert.equal(heatOutcome(null), 'none');
    assert.ok(methodExcludesWinner('Unanimous Draw') && methodExcludesWinner('NC'));
    assert.ok(!methodExcludesWinner('Submission'));
  });

  test('any spelling of a listed method publishes the listed spelling; winBy is absent outside combat', () => {
    const noise = fc.constantFrom(' ', '_', '-', '.', '');
    fc.assert(
      fc.property(fc.constantFrom(...WIN_METHODS), fc.array(fc.boolean()), noise, (method, upper, separator) => {
        const spelt = [...method.replace(/ /g, separator)]
          .map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase()))
          .join('');
        assert.equal(winBy('combat', 'COMPLETED', { winnerAthleteId: null, method: spelt }), method);
      }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(RESULTS_FORMATS) as ResultsFormat[])),
        fc.string(),
        (format, method) => {
          const value = winBy(format, 'COMPLETED', { winnerAthleteId: 'x', method });
          assert.equal(value === undefined, format !== 'combat');
        },
      ),
    );
  });
});
