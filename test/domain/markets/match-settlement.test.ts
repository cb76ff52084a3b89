import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { Settlement } from '../../../src/domain/enumerations.ts';
import { type ConflictLeg, describeSelection, findConflict } from '../../../src/domain/markets/leg-conflicts.ts';
import type { ScopeResult } from '../../../src/domain/markets/scope-result.ts';
import { matchScopeResult } from '../../../src/domain/markets/scope-results.ts';
import type { Selection } from '../../../src/domain/markets/selection.ts';
import { settleMatchScore, settleSelection } from '../../../src/domain/markets/settlement.ts';

type MatchSelection = Extract<Selection, { kind: 'matchScore' }>;

const ml = (side: 'HOME' | 'AWAY' | 'DRAW', drawOffered?: boolean): MatchSelection => ({
  kind: 'matchScore',
  bet: 'moneyline',
  side,
  line: 0,
  ...(drawOffered === undefined ? {} : { drawOffered }),
});
const spread = (side: 'HOME' | 'AWAY', line: number): MatchSelection => ({
  kind: 'matchScore',
  bet: 'spread',
  side,
  line,
});
const total = (side: 'OVER' | 'UNDER', line: number): MatchSelection => ({
  kind: 'matchScore',
  bet: 'total',
  side,
  line,
});

const decided = (home: number, away: number): ScopeResult => ({
  state: 'decided',
  ranks: new Map(),
  score: { home, away },
});
const settle = (selection: MatchSelection, home: number, away: number): Settlement =>
  settleMatchScore(selection, { home, away }).settlement;

/** Whether a selection wins at a score, straight from the rules in selection.ts (independent of settlement.ts). */
function winsBySpec(s: MatchSelection, home: number, away: number): boolean {
  switch (s.bet) {
    case 'moneyline':
      return s.side === 'HOME' ? home > away : s.side === 'AWAY' ? away > home : home === away;
    case 'spread':
      return s.side === 'HOME' ? home - away + s.line > 0 : away - home - s.line > 0;
    case 'total':
      return s.side === 'OVER' ? home + away > s.line : home + away < s.line;
  }
}

const goals = fc.integer({ min: 0, max: 25 });
const halfLine = fc.integer({ min: -12, max: 12 }).map((k) => k + 0.5);
const wholeLine = fc.integer({ min: -12, max: 12 });
const totalHalfLine = fc.integer({ min: 0, max: 30 }).map((k) => k + 0.5);
const anyLine = fc.oneof(halfLine, wholeLine);
const selection: fc.Arbitrary<MatchSelection> = fc.oneof(
  fc
    .record({ side: fc.constantFrom('HOME', 'AWAY', 'DRAW' as const), drawOffered: fc.boolean() })
    .map(({ side, drawOffered }) => ml(side, drawOffered)),
  fc
    .record({ side: fc.constantFrom('HOME', 'AWAY' as const), line: anyLine })
    .map(({ side, line }) => spread(side, line)),
  fc
    .record({
      side: fc.constantFrom('OVER', 'UNDER' as const),
      line: fc.oneof(totalHalfLine, fc.integer({ min: 0, max: 30 })),
    })
    .map(({ side, line }) => total(side, line)),
);

describe('settleMatchScore', () => {
  test('moneyline walks every case', () => {
    const table: Array<[string, MatchSelection, number, number, Settlement]> = [
      ['home ahead, HOME', ml('HOME'), 3, 1, 'WIN'],
      ['home ahead, AWAY', ml('AWAY'), 3, 1, 'LOSE'],
      ['home ahead, DRAW', ml('DRAW', true), 3, 1, 'LOSE'],
      ['away ahead, AWAY', ml('AWAY'), 0, 1, 'WIN'],
      ['away ahead, HOME', ml('HOME', true), 0, 1, 'LOSE'],
      ['away ahead, DRAW', ml('DRAW', true), 0, 1, 'LOSE'],
      ['level, DRAW offered', ml('DRAW', true), 2, 2, 'WIN'],
      ['level, HOME with a draw offered', ml('HOME', true), 2, 2, 'LOSE'],
      ['level, AWAY with a draw offered', ml('AWAY', true), 2, 2, 'LOSE'],
      ['level, HOME without a draw', ml('HOME', false), 2, 2, 'PUSH'],
      ['level, AWAY without a draw', ml('AWAY'), 0, 0, 'PUSH'],
      ['level, HOME, drawOffered absent', ml('HOME'), 1, 1, 'PUSH'],
      ['level, DRAW even if not flagged', ml('DRAW'), 1, 1, 'WIN'],
      ['line ignored by the moneyline', { ...ml('HOME'), line: -5.5 }, 2, 1, 'WIN'],
    ];
    for (const [name, s, home, away, expected] of table) assert.equal(settle(s, home, away), expected, name);
  });

  test('spread walks every case (line is the home handicap)', () => {
    const table: Array<[string, MatchSelection, number, number, Settlement]> = [
      ['home -1.5, wins by 2', spread('HOME', -1.5), 3, 1, 'WIN'],
      ['home -1.5, wins by 1', spread('HOME', -1.5), 2, 1, 'LOSE'],
      ['away at home -1.5, home wins by 1', spread('AWAY', -1.5), 2, 1, 'WIN'],
      ['away at home -1.5, home wins by 2', spread('AWAY', -1.5), 3, 1, 'LOSE'],
      ['home +1.5, loses by 1', spread('HOME', 1.5), 1, 2, 'WIN'],
      ['home +1.5, loses by 2', spread('HOME', 1.5), 0, 2, 'LOSE'],
      ['away -1.5 (home +1.5), away by 2', spread('AWAY', 1.5), 0, 2, 'WIN'],
      ['away -1.5 (home +1.5), away by 1', spread('AWAY', 1.5), 1, 2, 'LOSE'],
      ['home -2, wins by 2: push', spread('HOME', -2), 4, 2, 'PUSH'],
      ['away at home -2, home by 2: push', spread('AWAY', -2), 4, 2, 'PUSH'],
      ['home -2, wins by 3', spread('HOME', -2), 5, 2, 'WIN'],
      ['away at home -2, home by 3', spread('AWAY', -2), 5, 2, 'LOSE'],
      ['home 0 (draw no bet), level: push', spread('HOME', 0), 1, 1, 'PUSH'],
      ['away 0, level: push', spread('AWAY', 0), 1, 1, 'PUSH'],
      ['home -0.5 is the moneyline', spread('HOME', -0.5), 1, 0, 'WIN'],
      ['home -0.5, level', spread('HOME', -0.5), 1, 1, 'LOSE'],
      ['away at home -0.5, level', spread('AWAY', -0.5), 1, 1, 'WIN'],
    ];
    for (const [name, s, home, away, expected] of table) assert.equal(settle(s, home, away), expected, name);
  });

  test('total walks every case', () => {
    const table: Array<[string, MatchSelection, number, number, Settlement]> = [
      ['over 5.5 at 6', total('OVER', 5.5), 4, 2, 'WIN'],
      ['under 5.5 at 6', total('UNDER', 5.5), 4, 2, 'LOSE'],
      ['over 5.5 at 5', total('OVER', 5.5), 3, 2, 'LOSE'],
      ['under 5.5 at 5', total('UNDER', 5.5), 3, 2, 'WIN'],
      ['over 5 at 5: push', total('OVER', 5), 3, 2, 'PUSH'],
      ['under 5 at 5: push', total('UNDER', 5), 3, 2, 'PUSH'],
      ['over 0.5 at 0-0', total('OVER', 0.5), 0, 0, 'LOSE'],
      ['under 0.5 at 0-0', total('UNDER', 0.5), 0, 0, 'WIN'],
    ];
    for (const [name, s, home, away, expected] of table) assert.equal(settle(s, home, away), expected, name);
  });

  test('dead-heat factor is always 1', () => {
    fc.assert(
      fc.property(selection, goals, goals, (s, home, away) => {
        assert.equal(settleMatchScore(s, { home, away }).deadHeatFactor, 1);
      }),
    );
  });

  test('wins exactly where the rule in selection.ts says; pushes only on a level line or an unoffered draw', () => {
    fc.assert(
      fc.property(selection, goals, goals, (s, home, away) => {
        const result = settle(s, home, away);
        assert.equal(result === 'WIN', winsBySpec(s, home, away));
        const level =
          s.bet === 'moneyline'
            ? home === away && s.side !== 'DRAW' && !s.drawOffered
            : s.bet === 'spread'
              ? home - away + s.line === 0
              : home + away === s.line;
        assert.equal(result === 'PUSH', level);
        assert.ok(['WIN', 'LOSE', 'PUSH'].includes(result));
      }),
    );
  });

  test('at a half line exactly one spread side and exactly one total side wins', () => {
    fc.assert(
      fc.property(goals, goals, halfLine, totalHalfLine, (home, away, line, totalAt) => {
        const spreads = [settle(spread('HOME', line), home, away), settle(spread('AWAY', line), home, away)].sort();
        assert.deepEqual(spreads, ['LOSE', 'WIN']);
        const totals = [settle(total('OVER', totalAt), home, away), settle(total('UNDER', totalAt), home, away)].sort();
        assert.deepEqual(totals, ['LOSE', 'WIN']);
      }),
    );
  });

  test('at a whole line both sides push or exactly one wins', () => {
    fc.assert(
      fc.property(goals, goals, wholeLine, fc.integer({ min: 0, max: 30 }), (home, away, line, totalAt) => {
        for (const pair of [
          [settle(spread('HOME', line), home, away), settle(spread('AWAY', line), home, away)],
          [settle(total('OVER', totalAt), home, away), settle(total('UNDER', totalAt), home, away)],
        ]) {
          const sorted = pair.sort();
          assert.ok(
            (sorted[0] === 'PUSH' && sorted[1] === 'PUSH') || (sorted[0] === 'LOSE' && sorted[1] === 'WIN'),
            `${home}-${away}: ${sorted.join(', ')}`,
          );
        }
        assert.equal(settle(spread('HOME', line), home, away) === 'PUSH', home - away + line === 0);
      }),
    );
  });

  test('a moneyline with the draw offered has exactly one winner; without it, a level score pushes both sides', () => {
    fc.assert(
      fc.property(goals, goals, (home, away) => {
        const three = (['HOME', 'DRAW', 'AWAY'] as const).map((side) => settle(ml(side, true), home, away));
        assert.equal(three.filter((r) => r === 'WIN').length, 1);
        assert.equal(three.filter((r) => r === 'LOSE').length, 2);
        const two = (['HOME', 'AWAY'] as const).map((side) => settle(ml(side, false), home, away));
        if (home === away) assert.deepEqual(two, ['PUSH', 'PUSH']);
        else assert.deepEqual(two.sort(), ['LOSE', 'WIN']);
      }),
    );
  });

  test('the spread at -0.5 settles as the home moneyline with the draw offered, and +0.5 as home-or-draw', () => {
    fc.assert(
      fc.property(goals, goals, (home, away) => {
        assert.equal(settle(spread('HOME', -0.5), home, away), settle(ml('HOME', true), home, away));
        assert.equal(settle(spread('HOME', 0.5), home, away) === 'WIN', settle(ml('AWAY', true), home, away) !== 'WIN');
      }),
    );
  });

  test('swapping home and away: HOME at line L settles as AWAY at line -L', () => {
    fc.assert(
      fc.property(goals, goals, anyLine, (home, away, line) => {
        assert.equal(settle(spread('HOME', line), home, away), settle(spread('AWAY', -line), away, home));
        assert.equal(settle(ml('HOME', true), home, away), settle(ml('AWAY', true), away, home));
      }),
    );
  });
});

describe('settleSelection on a match scope', () => {
  test('a decided scope settles its matchScore selections from the score', () => {
    const table: Array<[MatchSelection, number, number, Settlement]> = [
      [ml('HOME'), 3, 2, 'WIN'],
      [ml('DRAW', true), 3, 2, 'LOSE'],
      [ml('AWAY'), 2, 2, 'PUSH'],
      [ml('AWAY', true), 2, 2, 'LOSE'],
      [spread('AWAY', 1.5), 1, 3, 'WIN'],
      [spread('HOME', -1), 2, 1, 'PUSH'],
      [total('OVER', 4.5), 3, 2, 'WIN'],
      [total('UNDER', 5), 3, 2, 'PUSH'],
    ];
    for (const [s, home, away, expected] of table) {
      const result = settleSelection(s, decided(home, away));
      assert.deepEqual(
        result,
        { settlement: expected, deadHeatFactor: 1 },
        `${describeSelection(s)} at ${home}-${away}`,
      );
    }
  });

  test('agrees with settleMatchScore for every selection and score', () => {
    fc.assert(
      fc.property(selection, goals, goals, (s, home, away) => {
        assert.deepEqual(settleSelection(s, decided(home, away)), settleMatchScore(s, { home, away }));
      }),
    );
  });

  test('a decided scope without a score settles NOT_SET', () => {
    assert.equal(settleSelection(ml('HOME'), { state: 'decided', ranks: new Map() }).settlement, 'NOT_SET');
  });

  test('matchScopeResult walks every status', () => {
    const score = { home: 2, away: 1 };
    const table: Array<[string, ScopeResult['state'], Settlement]> = [
      ['COMPLETED', 'decided', 'WIN'],
      ['CANCELLED', 'void', 'VOID'],
      ['LIVE', 'pending', 'NOT_SET'],
      ['UPCOMING', 'pending', 'NOT_SET'],
      ['NEXT', 'pending', 'NOT_SET'],
      ['POSTPONED', 'pending', 'NOT_SET'],
      ['completed', 'pending', 'NOT_SET'],
    ];
    for (const [status, state, settlement] of table) {
      const result = matchScopeResult(status, score);
      assert.equal(result.state, state, status);
      assert.equal(result.ranks.size, 0, status);
      assert.equal(settleSelection(ml('HOME'), result).settlement, settlement, status);
    }
    assert.deepEqual(matchScopeResult('COMPLETED', score).score, score);
  });

  test('a cancelled scope voids and a pending one leaves NOT_SET, whatever the selection and score', () => {
    fc.assert(
      fc.property(
        selection,
        goals,
        goals,
        fc.constantFrom('CANCELLED', 'LIVE', 'UPCOMING', 'POSTPONED'),
        (s, home, away, status) => {
          const result = settleSelection(s, matchScopeResult(status, { home, away }));
          assert.deepEqual(result, { settlement: status === 'CANCELLED' ? 'VOID' : 'NOT_SET', deadHeatFactor: 1 });
        },
      ),
    );
  });
});

describe('describeSelection for match scores', () => {
  test('walks every case', () => {
    const table: Array<[MatchSelection, string]> = [
      [ml('HOME'), 'home wins'],
      [ml('AWAY', true), 'away wins'],
      [ml('DRAW', true), 'draw'],
      [spread('HOME', -1.5), 'home -1.5'],
      [spread('HOME', 2.5), 'home +2.5'],
      [spread('AWAY', 1.5), 'away -1.5'],
      [spread('AWAY', -1.5), 'away +1.5'],
      [spread('HOME', 0), 'home 0'],
      [spread('AWAY', 0), 'away 0'],
      [total('OVER', 5.5), 'total over 5.5'],
      [total('UNDER', 10), 'total under 10'],
    ];
    for (const [s, expected] of table) assert.equal(describeSelection(s), expected);
  });

  test('a spread reads as the side and its own handicap', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('HOME', 'AWAY' as const),
        anyLine.filter((l) => l !== 0),
        (side, line) => {
          const own = side === 'HOME' ? line : -line;
          assert.equal(describeSelection(spread(side, line)), `${side.toLowerCase()} ${own > 0 ? '+' : ''}${own}`);
        },
      ),
    );
  });
});

describe('findConflict on match-score legs', () => {
  const leg = (id: string, selection: MatchSelection, marketId = `m-${id}`, exclusive = true): ConflictLeg => ({
    id,
    selection,
    marketId,
    exclusive,
  });

  test('walks every case', () => {
    const table: Array<[string, ConflictLeg[], string[] | null, string | null]> = [
      [
        'home wins and away -1.5',
        [leg('h', ml('HOME')), leg('a', spread('AWAY', 1.5))],
        ['h', 'a'],
        '"home wins" and "away -1.5" cannot both happen',
      ],
      ['home wins and over 5.5', [leg('h', ml('HOME')), leg('o', total('OVER', 5.5))], null, null],
      ['home wins and home -1.5', [leg('h', ml('HOME')), leg('s', spread('HOME', -1.5))], null, null],
      ['home wins and away +1.5', [leg('h', ml('HOME')), leg('s', spread('AWAY', -1.5))], null, null],
      [
        'away wins and home -0.5',
        [leg('a', ml('AWAY')), leg('s', spread('HOME', -0.5))],
        ['a', 's'],
        '"away wins" and "home -0.5" cannot both happen',
      ],
      [
        'home wins and total under 0.5 (only 0-0)',
        [leg('h', ml('HOME')), leg('u', total('UNDER', 0.5))],
        ['h', 'u'],
        '"home wins" and "total under 0.5" cannot both happen',
      ],
      ['draw and total over 2.5 (2-2)', [leg('d', ml('DRAW', true)), leg('o', total('OVER', 2.5))], null, null],
      [
        'draw with a total of exactly 3 (over 2.5, under 3.5): an odd total is never level',
        [leg('d', ml('DRAW', true)), leg('o', total('OVER', 2.5)), leg('u', total('UNDER', 3.5))],
        ['d', 'o', 'u'],
        '"draw", "total over 2.5" and "total under 3.5" cannot all happen',
      ],
      [
        'over 5.5 and under 4.5',
        [leg('o', total('OVER', 5.5)), leg('u', total('UNDER', 4.5))],
        ['o', 'u'],
        '"total over 5.5" and "total under 4.5" cannot both happen',
      ],
      ['over 5.5 and under 6.5', [leg('o', total('OVER', 5.5)), leg('u', total('UNDER', 6.5))], null, null],
      [
        'a push is not a win: over 5 and under 6',
        [leg('o', total('OVER', 5)), leg('u', total('UNDER', 6))],
        ['o', 'u'],
        '"total over 5" and "total under 6" cannot both happen',
      ],
      [
        'home -2 (home by 3+) and away +1 (home by 0 or less)',
        [leg('h', spread('HOME', -2)), leg('a', spread('AWAY', -1))],
        ['h', 'a'],
        '"home -2" and "away +1" cannot both happen',
      ],
      [
        'home -1.5 and away +2.5 (home by 2)',
        [leg('h', spread('HOME', -1.5)), leg('a', spread('AWAY', -2.5))],
        null,
        null,
      ],
      [
        'the clash is named without the leg it does not need',
        [leg('h', ml('HOME')), leg('o', total('OVER', 5.5)), leg('a', spread('AWAY', 1.5))],
        ['h', 'a'],
        '"home wins" and "away -1.5" cannot both happen',
      ],
      [
        'two exclusive outcomes of one market',
        [leg('o', total('OVER', 5.5), 'tot'), leg('u', total('UNDER', 6.5), 'tot')],
        ['o', 'u'],
        '"total over 5.5" and "total under 6.5" cannot both happen',
      ],
      [
        'two outcomes of one market not exclusive',
        [leg('o', total('OVER', 5.5), 'tot', false), leg('u', total('UNDER', 6.5), 'tot', false)],
        null,
        null,
      ],
      [
        'exclusive legs in different markets that can both win',
        [leg('h', ml('HOME'), 'ml'), leg('s', spread('HOME', -1.5), 'sp')],
        null,
        null,
      ],
      ['one leg alone', [leg('h', ml('HOME'))], null, null],
    ];
    for (const [name, legs, ids, reason] of table) {
      const conflict = findConflict(legs, 2);
      if (ids === null) assert.equal(conflict, null, name);
      else {
        assert.ok(conflict, name);
        assert.deepEqual(conflict.ids, ids, name);
        assert.equal(conflict.reason, reason, name);
      }
    }
  });

  test('legs of one exclusive market always conflict, whatever they bet on', () => {
    fc.assert(
      fc.property(selection, selection, (a, b) => {
        const conflict = findConflict([leg('a', a, 'same'), leg('b', b, 'same')], 2);
        assert.ok(conflict);
        assert.deepEqual(conflict.ids, ['a', 'b']);
        assert.equal(conflict.reason, `"${describeSelection(a)}" and "${describeSelection(b)}" cannot both happen`);
      }),
    );
  });

  test('two legs of different markets conflict exactly when no score wins both', () => {
    fc.assert(
      fc.property(selection, selection, (a, b) => {
        let possible = false;
        for (let home = 0; home <= 40 && !possible; home++)
          for (let away = 0; away <= 40 && !possible; away++)
            possible = winsBySpec(a, home, away) && winsBySpec(b, home, away);
        const conflict = findConflict([leg('a', a), leg('b', b)], 2);
        assert.equal(conflict !== null, !possible, `${describeSelection(a)} / ${describeSelection(b)}`);
        if (conflict)
          assert.ok(
            conflict.reason.includes(`"${describeSelection(a)}"`) ||
              conflict.reason.includes(`"${describeSelection(b)}"`),
          );
      }),
      { numRuns: 300 },
    );
  });
});
