import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { RESULTS_FORMATS, type ResultsFormat } from '../../../src/domain/competitions.ts';
import {
  countsPeriodsWon,
  endStatus,
  hammerByEnd,
  hammerNow,
  isMatchFormat,
  JAI_ALAI_SETS_TO_WIN,
  MATCH_FORMATS,
  type MatchSide,
  matchScore,
  matchStatus,
  matchWinner,
  PERIODS_WON_FORMATS,
  type PeriodScore,
  sideAhead,
  TABLE_TENNIS_GAMES_TO_WIN,
} from '../../../src/domain/results/match-score.ts';

const GOAL_FORMATS = ['team-match', 'curling', 'box-lacrosse', 'three-ice'] as const satisfies readonly ResultsFormat[];
const ALL_FORMATS = Object.keys(RESULTS_FORMATS) as ResultsFormat[];
const other = (side: MatchSide): MatchSide => (side === 'home' ? 'away' : 'home');
const swap = <T extends { home: number; away: number }>(s: T): T => ({ ...s, home: s.away, away: s.home });

const p = (home: number, away: number, status?: string): PeriodScore =>
  status === undefined ? { home, away } : { home, away, status };

const points = fc.integer({ min: 0, max: 30 });
const statuses = fc.constantFrom(undefined, 'COMPLETED', 'LIVE', 'UPCOMING', 'CANCELLED', 'NEXT');
const period = fc
  .record({ home: points, away: points, status: statuses })
  .map(({ home, away, status }) => p(home, away, status));
const periods = fc.array(period, { maxLength: 12 });
const endScore = fc.oneof(
  fc.constant({ home: 0, away: 0 }),
  fc.integer({ min: 1, max: 8 }).map((n) => ({ home: n, away: 0 })),
  fc.integer({ min: 1, max: 8 }).map((n) => ({ home: 0, away: n })),
);
const sides = fc.constantFrom<MatchSide>('home', 'away');

describe('format predicates', () => {
  test('isMatchFormat and countsPeriodsWon walk every results format', () => {
    const table: Record<ResultsFormat, [match: boolean, periodsWon: boolean]> = Object.fromEntries(
      ALL_FORMATS.map((f) => [f, [false, false]]),
    ) as Record<ResultsFormat, [boolean, boolean]>;
    for (const f of GOAL_FORMATS) table[f] = [true, false];
    table['table-tennis'] = [true, true];
    table['jai-alai'] = [true, true];
    for (const format of ALL_FORMATS) {
      const [match, periodsWon] = table[format];
      assert.equal(isMatchFormat(format), match, `isMatchFormat(${format})`);
      assert.equal(countsPeriodsWon(format), periodsWon, `countsPeriodsWon(${format})`);
    }
    assert.deepEqual([...MATCH_FORMATS].sort(), [...GOAL_FORMATS, 'table-tennis', 'jai-alai'].sort());
    assert.deepEqual([...PERIODS_WON_FORMATS].sort(), ['jai-alai', 'table-tennis']);
    assert.ok(
      ALL_FORMATS.some((f) => !isMatchFormat(f)),
      'some formats are not matches',
    );
  });

  test('match lengths: best of seven games, best of three sets', () => {
    assert.equal(TABLE_TENNIS_GAMES_TO_WIN, 4);
    assert.equal(JAI_ALAI_SETS_TO_WIN, 2);
  });
});

describe('sideAhead', () => {
  test('walks every case', () => {
    const table: Array<[number, number, MatchSide | null]> = [
      [3, 1, 'home'],
      [1, 3, 'away'],
      [2, 2, null],
      [0, 0, null],
      [1, 0, 'home'],
      [0, 1, 'away'],
      [11, 13, 'away'],
    ];
    for (const [home, away, expected] of table) assert.equal(sideAhead({ home, away }), expected, `${home}-${away}`);
  });

  test('antisymmetric under swapping home and away', () => {
    fc.assert(
      fc.property(points, points, (home, away) => {
        const ahead = sideAhead({ home, away });
        const swapped = sideAhead({ home: away, away: home });
        assert.equal(swapped, ahead === null ? null : other(ahead));
        assert.equal(ahead === null, home === away);
      }),
    );
  });
});

describe('matchScore', () => {
  test('walks every case', () => {
    const table: Array<[string, ResultsFormat, PeriodScore[], { home: number; away: number }]> = [
      ['no periods, goals', 'box-lacrosse', [], { home: 0, away: 0 }],
      ['no periods, games', 'table-tennis', [], { home: 0, away: 0 }],
      ['lacrosse quarters summed', 'box-lacrosse', [p(3, 2), p(4, 4), p(1, 5), p(2, 0)], { home: 10, away: 11 }],
      [
        'lacrosse overtime included',
        'box-lacrosse',
        [p(3, 3), p(2, 2), p(1, 1), p(2, 2), p(1, 0)],
        { home: 9, away: 8 },
      ],
      ['3ICE periods and overtime', 'three-ice', [p(2, 1), p(0, 1), p(0, 1)], { home: 2, away: 3 }],
      [
        'curling ends with blanks and an extra end',
        'curling',
        [p(2, 0), p(0, 1), p(0, 0), p(0, 3), p(2, 0), p(0, 1), p(1, 0), p(0, 1), p(1, 0)],
        { home: 6, away: 6 },
      ],
      [
        'team match: status ignored by goal formats',
        'team-match',
        [p(1, 0, 'COMPLETED'), p(2, 3, 'LIVE'), p(4, 0, 'UPCOMING')],
        { home: 7, away: 3 },
      ],
      [
        'table tennis counts games won',
        'table-tennis',
        [p(11, 9), p(7, 11), p(12, 10), p(11, 5), p(13, 15), p(11, 8)],
        { home: 4, away: 2 },
      ],
      [
        'table tennis: only completed games when a status is given',
        'table-tennis',
        [p(11, 9, 'COMPLETED'), p(5, 3, 'LIVE'), p(0, 0, 'UPCOMING')],
        { home: 1, away: 0 },
      ],
      [
        'table tennis: a live game ahead counts for nobody',
        'table-tennis',
        [p(9, 11, 'COMPLETED'), p(10, 2, 'LIVE')],
        { home: 0, away: 1 },
      ],
      [
        'table tennis: cancelled games count for nobody',
        'table-tennis',
        [p(11, 1, 'COMPLETED'), p(11, 2, 'CANCELLED')],
        { home: 1, away: 0 },
      ],
      ['table tennis: a tied game is won by nobody', 'table-tennis', [p(5, 5), p(11, 3)], { home: 1, away: 0 }],
      ['jai alai counts sets won', 'jai-alai', [p(15, 12), p(9, 15), p(15, 14)], { home: 2, away: 1 }],
      [
        'jai alai: status mixed with unstated',
        'jai-alai',
        [p(15, 12), p(3, 15, 'COMPLETED'), p(10, 4, 'LIVE')],
        { home: 1, away: 1 },
      ],
      ['jai alai: tied set won by nobody', 'jai-alai', [p(0, 0, 'COMPLETED')], { home: 0, away: 0 }],
    ];
    for (const [name, format, ps, expected] of table) assert.deepEqual(matchScore(format, ps), expected, name);
  });

  test('goal formats: the sums of the period scores, whatever the statuses', () => {
    fc.assert(
      fc.property(fc.constantFrom(...GOAL_FORMATS), periods, (format, ps) => {
        const sum = (side: MatchSide) => ps.reduce((s, x) => s + x[side], 0);
        assert.deepEqual(matchScore(format, ps), { home: sum('home'), away: sum('away') });
      }),
    );
  });

  test('periods-won formats: home + away at most the completed (or unstated) periods, and the count of each side', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PERIODS_WON_FORMATS), periods, (format, ps) => {
        const counted = ps.filter((x) => x.status === undefined || x.status === 'COMPLETED');
        const score = matchScore(format, ps);
        assert.ok(score.home + score.away <= counted.length);
        assert.equal(score.home, counted.filter((x) => x.home > x.away).length);
        assert.equal(score.away, counted.filter((x) => x.away > x.home).length);
        assert.equal(counted.length - score.home - score.away, counted.filter((x) => x.home === x.away).length);
      }),
    );
  });

  test('swapping home and away swaps the match score, in every match format', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MATCH_FORMATS), periods, (format, ps) => {
        const score = matchScore(format, ps);
        assert.deepEqual(matchScore(format, ps.map(swap)), { home: score.away, away: score.home });
      }),
    );
  });
});

describe('matchWinner', () => {
  test('walks every case', () => {
    const table: Array<[string, ResultsFormat, string, PeriodScore[], MatchSide | null]> = [
      ['completed, home ahead on goals', 'box-lacrosse', 'COMPLETED', [p(5, 3), p(2, 2)], 'home'],
      ['completed, away ahead on goals', 'three-ice', 'COMPLETED', [p(1, 2), p(0, 0)], 'away'],
      ['completed level (draw)', 'team-match', 'COMPLETED', [p(2, 2)], null],
      ['live, home ahead', 'box-lacrosse', 'LIVE', [p(5, 0)], null],
      ['upcoming', 'curling', 'UPCOMING', [], null],
      ['cancelled with a score', 'curling', 'CANCELLED', [p(3, 0)], null],
      ['postponed', 'jai-alai', 'POSTPONED', [p(15, 0)], null],
      [
        'table tennis: more games, fewer points',
        'table-tennis',
        'COMPLETED',
        [p(11, 9), p(0, 11), p(11, 9), p(11, 9), p(0, 11), p(11, 9)],
        'home',
      ],
      ['jai alai: sets decide, not points', 'jai-alai', 'COMPLETED', [p(15, 14), p(0, 15), p(14, 15)], 'away'],
      [
        'jai alai: a live set does not count',
        'jai-alai',
        'COMPLETED',
        [p(15, 3, 'COMPLETED'), p(3, 15, 'COMPLETED'), p(14, 2, 'LIVE')],
        null,
      ],
    ];
    for (const [name, format, status, ps, expected] of table)
      assert.equal(matchWinner(format, status, ps), expected, name);
  });

  test('null unless COMPLETED; else the side ahead on the match score', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MATCH_FORMATS),
        fc.constantFrom('COMPLETED', 'LIVE', 'UPCOMING', 'CANCELLED', 'POSTPONED', 'NEXT'),
        periods,
        (format, status, ps) => {
          const winner = matchWinner(format, status, ps);
          if (status !== 'COMPLETED') assert.equal(winner, null);
          else assert.equal(winner, sideAhead(matchScore(format, ps)));
        },
      ),
    );
  });
});

describe('curling hammer', () => {
  test('hammerByEnd walks every case', () => {
    const table: Array<[string, MatchSide, Array<{ home: number; away: number }>, MatchSide[]]> = [
      ['no ends played', 'home', [], ['home']],
      ['no ends played, away first', 'away', [], ['away']],
      ['hammer team scores: gives it up', 'home', [{ home: 2, away: 0 }], ['home', 'away']],
      [
        'steal: the team without the hammer scores, the hammer team keeps it',
        'home',
        [{ home: 0, away: 1 }],
        ['home', 'home'],
      ],
      ['blank end keeps it', 'home', [{ home: 0, away: 0 }], ['home', 'home']],
      ['blank end keeps it, away', 'away', [{ home: 0, away: 0 }], ['away', 'away']],
      ['away hammer scores', 'away', [{ home: 0, away: 3 }], ['away', 'home']],
      ['away hammer stolen on', 'away', [{ home: 1, away: 0 }], ['away', 'away']],
      [
        'a sequence',
        'home',
        [
          { home: 2, away: 0 },
          { home: 0, away: 0 },
          { home: 0, away: 1 },
          { home: 0, away: 2 },
          { home: 1, away: 0 },
        ],
        ['home', 'away', 'away', 'home', 'home', 'away'],
      ],
    ];
    for (const [name, first, ends, expected] of table) assert.deepEqual(hammerByEnd(first, ends), expected, name);
  });

  test('the hammer changes exactly after scoring ends, to the team that did not score; never after blanks', () => {
    fc.assert(
      fc.property(sides, fc.array(endScore, { maxLength: 15 }), (first, ends) => {
        const hammers = hammerByEnd(first, ends);
        assert.equal(hammers.length, ends.length + 1);
        assert.equal(hammers[0], first);
        ends.forEach((end, i) => {
          const scored = sideAhead(end);
          if (scored === null) assert.equal(hammers[i + 1], hammers[i], `blank end ${i + 1} keeps the hammer`);
          else assert.equal(hammers[i + 1], other(scored), `end ${i + 1} scored by ${scored}`);
        });
      }),
    );
  });

  test('swapping home and away swaps every hammer', () => {
    fc.assert(
      fc.property(sides, fc.array(endScore, { maxLength: 15 }), (first, ends) => {
        assert.deepEqual(hammerByEnd(other(first), ends.map(swap)), hammerByEnd(first, ends).map(other));
      }),
    );
  });

  test('hammerNow walks every case', () => {
    const table: Array<[string, MatchSide, PeriodScore[], MatchSide]> = [
      ['nothing played', 'home', [], 'home'],
      ['upcoming ends only', 'away', [p(0, 0, 'UPCOMING'), p(0, 0, 'UPCOMING')], 'away'],
      ['one completed scoring end', 'home', [p(2, 0, 'COMPLETED'), p(0, 0, 'UPCOMING')], 'away'],
      ['a completed steal', 'home', [p(0, 1, 'COMPLETED')], 'home'],
      ['a live end with a score passes nothing yet', 'home', [p(2, 0, 'COMPLETED'), p(0, 3, 'LIVE')], 'away'],
      ['a completed blank keeps it', 'away', [p(0, 0, 'COMPLETED'), p(0, 0, 'LIVE')], 'away'],
      [
        'all completed: the end after the last',
        'home',
        [p(1, 0, 'COMPLETED'), p(0, 2, 'COMPLETED'), p(0, 1, 'COMPLETED')],
        'home',
      ],
      ['ends past the first not-completed one are ignored', 'home', [p(0, 0, 'LIVE'), p(3, 0, 'COMPLETED')], 'home'],
      ['an end without a status is not completed', 'home', [p(3, 0)], 'home'],
      [
        'cancelled ends (not endStatus-mapped) stop the run',
        'home',
        [p(2, 0, 'CANCELLED'), p(0, 2, 'COMPLETED')],
        'home',
      ],
    ];
    for (const [name, first, ends, expected] of table) assert.equal(hammerNow(first, ends), expected, name);
  });

  test('hammerNow follows hammerByEnd over the leading run of completed ends', () => {
    fc.assert(
      fc.property(
        sides,
        fc.array(fc.record({ end: endScore, status: fc.constantFrom('COMPLETED', 'COMPLETED', 'LIVE', 'UPCOMING') }), {
          maxLength: 12,
        }),
        (first, rows) => {
          const ends = rows.map(({ end, status }) => p(end.home, end.away, status));
          const run = ends.findIndex((e) => e.status !== 'COMPLETED');
          const completed = run === -1 ? ends : ends.slice(0, run);
          assert.equal(hammerNow(first, ends), hammerByEnd(first, completed)[completed.length]);
        },
      ),
    );
  });
});

describe('endStatus', () => {
  test('walks every case', () => {
    const table: Array<[string, string]> = [
      ['LIVE', 'LIVE'],
      ['COMPLETED', 'COMPLETED'],
      ['CANCELLED', 'COMPLETED'],
      ['UPCOMING', 'UPCOMING'],
      ['NEXT', 'UPCOMING'],
      ['POSTPONED', 'UPCOMING'],
      ['', 'UPCOMING'],
      ['live', 'UPCOMING'],
    ];
    for (const [input, expected] of table) assert.equal(endStatus(input), expected, input);
  });

  test('only LIVE, COMPLETED and CANCELLED are anything but UPCOMING', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const expected = s === 'LIVE' ? 'LIVE' : s === 'COMPLETED' || s === 'CANCELLED' ? 'COMPLETED' : 'UPCOMING';
        assert.equal(endStatus(s), expected);
      }),
    );
  });
});

describe('matchStatus (Jai Alai)', () => {
  test('walks every case', () => {
    const table: Array<[string, string, PeriodScore[], string]> = [
      ['event completed', 'COMPLETED', [], 'COMPLETED'],
      [
        'two sets won while the event is still live',
        'LIVE',
        [p(15, 3, 'COMPLETED'), p(15, 9, 'COMPLETED')],
        'COMPLETED',
      ],
      ['two sets won, unstated statuses', 'UPCOMING', [p(15, 3), p(15, 9)], 'COMPLETED'],
      [
        'away takes two sets',
        'LIVE',
        [p(3, 15, 'COMPLETED'), p(15, 9, 'COMPLETED'), p(2, 15, 'COMPLETED')],
        'COMPLETED',
      ],
      ['one set each, third live', 'LIVE', [p(15, 3, 'COMPLETED'), p(3, 15, 'COMPLETED'), p(4, 4, 'LIVE')], 'LIVE'],
      ['event upcoming but a set is live', 'UPCOMING', [p(1, 0, 'LIVE')], 'LIVE'],
      ['event next but a set is completed', 'NEXT', [p(15, 2, 'COMPLETED'), p(0, 0, 'UPCOMING')], 'LIVE'],
      ['event live, no sets yet', 'LIVE', [], 'LIVE'],
      ['upcoming, sets not begun', 'UPCOMING', [p(0, 0, 'UPCOMING')], 'UPCOMING'],
      ['next', 'NEXT', [], 'NEXT'],
      ['cancelled after a set', 'CANCELLED', [p(15, 2, 'COMPLETED')], 'CANCELLED'],
      ['postponed while a set was live', 'POSTPONED', [p(3, 2, 'LIVE')], 'POSTPONED'],
      [
        'cancelled after two sets won: decided',
        'CANCELLED',
        [p(15, 2, 'COMPLETED'), p(15, 2, 'COMPLETED')],
        'COMPLETED',
      ],
      ['a live set ahead does not count as won', 'LIVE', [p(15, 2, 'COMPLETED'), p(14, 2, 'LIVE')], 'LIVE'],
    ];
    for (const [name, status, sets, expected] of table)
      assert.equal(matchStatus(status, sets, JAI_ALAI_SETS_TO_WIN), expected, name);
    assert.equal(matchStatus('LIVE', [p(15, 2, 'COMPLETED')], 1), 'COMPLETED', 'one set to win');
  });

  test('COMPLETED exactly when the event is completed or a side has the sets it needs', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('COMPLETED', 'LIVE', 'UPCOMING', 'NEXT', 'CANCELLED', 'POSTPONED'),
        fc.array(period, { maxLength: 5 }),
        fc.integer({ min: 1, max: 3 }),
        (status, sets, toWin) => {
          const score = matchScore('jai-alai', sets);
          const decided = status === 'COMPLETED' || Math.max(score.home, score.away) >= toWin;
          const result = matchStatus(status, sets, toWin);
          assert.equal(result === 'COMPLETED', decided);
          if (!decided && (status === 'CANCELLED' || status === 'POSTPONED')) assert.equal(result, status);
        },
      ),
    );
  });
});
