import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type SkateboardingScores,
  skateboardingRoundScore,
} from '../../../src/domain/results/skateboarding-round-score.ts';

const scores = (
  lineScore1: number | null,
  lineScore2: number | null,
  ...tricks: (number | null)[]
): SkateboardingScores => ({ lineScore1, lineScore2, tricks });

describe('skateboarding roundScore', () => {
  test('walks every case of section 2.5', () => {
    const table: Array<[string, SkateboardingScores, number | null]> = [
      ['the better run and the two best of four tricks', scores(7.2, 8.1, 9.0, 6.5, 8.4, 3.0), 25.5],
      ['only one run counts, even when both beat every trick', scores(9.5, 9.4, 6.0, 5.0, 4.0, 3.0), 20.5],
      ['tricks alone when they beat the runs', scores(5.0, 6.0, 9.1, 8.7, 9.3, 2.0), 27.1],
      ['finals: six tricks', scores(8.0, 7.0, 9.0, 1.0, 2.0, 3.0, 9.2, 9.4), 27.6],
      ['a perfect round is 30', scores(10, 10, 10, 10, 10, 10), 30],
      ['unscored tricks are skipped', scores(7.0, null, 8.0, null, null, null), 15],
      ['runs only: one run', scores(6.5, 7.5), 7.5],
      ['nothing scored yet', scores(null, null, null, null, null, null), null],
      ['zeros are scores', scores(0, 0, 0, 0, 0, 0), 0],
      ['hundredths are kept exactly', scores(8.7, null, 9.1, 7.3), 25.1],
    ];
    for (const [name, input, expected] of table)
      assert.equal(skateboardingRoundScore('skateboarding', input), expected, name);
    assert.equal(skateboardingRoundScore('judged-heat', scores(9, 9, 9, 9, 9, 9)), null, 'other formats');
  });

  test('is at most 30, at least the best single score, and uses one run at most', () => {
    const score = fc.option(
      fc.integer({ min: 0, max: 100 }).map((n) => n / 10),
      { freq: 4 },
    );
    fc.assert(
      fc.property(score, score, fc.array(score, { minLength: 4, maxLength: 6 }), (l1, l2, tricks) => {
        const total = skateboardingRoundScore('skateboarding', { lineScore1: l1, lineScore2: l2, tricks });
        const all = [l1, l2, ...tricks].filter((s): s is number => s !== null);
        if (all.length === 0) return assert.equal(total, null);
        assert.ok(total !== null && total <= 30 && total >= Math.max(...all) - 1e-9);
        const withoutWorseRun = skateboardingRoundScore('skateboarding', {
          lineScore1: Math.max(l1 ?? -1, l2 ?? -1) < 0 ? null : Math.max(l1 ?? 0, l2 ?? 0),
          lineScore2: null,
          tricks,
        });
        assert.equal(total, withoutWorseRun);
      }),
    );
  });
});
