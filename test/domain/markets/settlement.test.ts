import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { OverUnderSubMarketType } from '../../../src/domain/enumerations.ts';
import type { ScopeResult } from '../../../src/domain/markets/scope-result.ts';
import type { OverUnderSide, Selection } from '../../../src/domain/markets/selection.ts';
import { type Settled, settleSelection } from '../../../src/domain/markets/settlement.ts';

const decided = (
  ranks: Record<string, number | null>,
  measures: Record<string, Partial<Record<OverUnderSubMarketType, number>>> = {},
): ScopeResult => ({
  state: 'decided',
  ranks: new Map(Object.entries(ranks)),
  measures: new Map(Object.entries(measures)),
});

const place = (athleteId: string, k: number): Selection => ({ kind: 'place', athleteId, place: k });
const top = (athleteId: string, places: number): Selection => ({ kind: 'top', athleteId, places });
const order = (...athleteIds: string[]): Selection => ({ kind: 'order', athleteIds });
const ahead = (athleteId: string, otherId: string): Selection => ({ kind: 'ahead', athleteId, otherId });
const overUnder = (
  athleteIds: string[],
  measure: OverUnderSubMarketType,
  side: OverUnderSide,
  line: number,
): Selection => ({
  kind: 'overUnder',
  athleteIds,
  measure,
  line,
  side,
});
const group = (athleteIds: string[], groups: string[][]): Selection => ({ kind: 'group', athleteIds, groups });

const WIN = (deadHeatFactor = 1): Settled => ({ settlement: 'WIN', deadHeatFactor });
const LOSE: Settled = { settlement: 'LOSE', deadHeatFactor: 1 };
const VOID: Settled = { settlement: 'VOID', deadHeatFactor: 1 };
const PUSH: Settled = { settlement: 'PUSH', deadHeatFactor: 1 };
const NOT_SET: Settled = { settlement: 'NOT_SET', deadHeatFactor: 1 };

// A and B dead-heat for first (1, 1, 3); E and F are not classified, so share places 5 and 6.
const tied = decided(
  { A: 1, B: 1, C: 3, D: 4, E: null, F: null },
  { A: { points: 12, gapToLeaders: 0 }, C: { points: 8.5 } },
);
// H, I and J share places 2 to 4.
const threeWay = decided({ G: 1, H: 2, I: 2, J: 2, K: 5 });

/** Competition ranks (1, 1, 3) from scores, lower is better; null stays unclassified. */
const competitionRanks = (scores: ReadonlyArray<number | null>): Map<string, number | null> =>
  new Map(scores.map((s, i) => [`a${i}`, s === null ? null : 1 + scores.filter((o) => o !== null && o < s).length]));

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= 1e-9, `${what}: ${actual} vs ${expected}`);

describe('settleSelection', () => {
  test('walks every rule', () => {
    const table: Array<[string, Selection, ScopeResult, Settled]> = [
      // States other than decided.
      ['pending', place('A', 1), { ...tied, state: 'pending' }, NOT_SET],
      ['void', place('A', 1), { ...tied, state: 'void' }, VOID],
      ['push', place('A', 1), { ...tied, state: 'push' }, PUSH],
      ['operator', { kind: 'operator', name: 'Over 2.5 crashes' }, tied, NOT_SET],
      // Place, with a dead heat for first.
      ['dead heat for first', place('A', 1), tied, WIN(1 / 2)],
      ['other half of the dead heat', place('B', 1), tied, WIN(1 / 2)],
      ['tied first also holds second', place('A', 2), tied, WIN(1 / 2)],
      ['third does not win', place('C', 1), tied, LOSE],
      ['nobody else is second', place('C', 2), tied, LOSE],
      ['plain third', place('C', 3), tied, WIN()],
      ['unclassified share fifth', place('E', 5), tied, WIN(1 / 2)],
      ['unclassified share sixth', place('F', 6), tied, WIN(1 / 2)],
      ['unclassified are behind the classified', place('E', 4), tied, LOSE],
      ['absent athlete', place('Z', 1), tied, VOID],
      ['three-way dead heat for second', place('I', 3), threeWay, WIN(1 / 3)],
      // Top.
      ['top 1 with a dead heat for first', top('A', 1), tied, WIN(1 / 2)],
      ['top 2 holds the whole tie', top('B', 2), tied, WIN()],
      ['top 2 misses third', top('C', 2), tied, LOSE],
      ['top 3', top('C', 3), tied, WIN()],
      ['top 2 with a three-way tie from second', top('H', 2), threeWay, WIN(1 / 3)],
      ['top 3 with a three-way tie from second', top('J', 3), threeWay, WIN(2 / 3)],
      ['top 4 holds the three-way tie', top('H', 4), threeWay, WIN()],
      ['top 5 with unclassified sharing fifth', top('E', 5), tied, WIN(1 / 2)],
      ['top 6 holds the unclassified', top('F', 6), tied, WIN()],
      ['top 4 misses the unclassified', top('E', 4), tied, LOSE],
      ['top of an absent athlete', top('Z', 3), tied, VOID],
      // Order.
      // A tie is a random order among the tied: k named places in a tie of t pay (t - k)! / t!.
      ['exacta of the dead heat', order('A', 'B'), tied, WIN(1 / 2)],
      ['exacta the other way', order('B', 'A'), tied, WIN(1 / 2)],
      ['exacta missing second', order('A', 'C'), tied, LOSE],
      ['trifecta', order('B', 'A', 'C'), tied, WIN(1 / 2)],
      ['trifecta into a three-way tie', order('G', 'H', 'I'), threeWay, WIN(1 / 6)],
      ['exacta into a three-way tie', order('G', 'J'), threeWay, WIN(1 / 3)],
      ['wrong first', order('C', 'A'), tied, LOSE],
      ['order with an absent athlete', order('A', 'Z'), tied, VOID],
      // Ahead.
      ['dead heat is a push', ahead('A', 'B'), tied, PUSH],
      ['ahead', ahead('A', 'C'), tied, WIN()],
      ['behind', ahead('C', 'A'), tied, LOSE],
      ['classified ahead of unclassified', ahead('D', 'E'), tied, WIN()],
      ['unclassified behind classified', ahead('E', 'D'), tied, LOSE],
      ['both unclassified', ahead('E', 'F'), tied, PUSH],
      ['ahead of an absent athlete', ahead('A', 'Z'), tied, VOID],
      ['absent ahead', ahead('Z', 'A'), tied, VOID],
      // Over/under.
      ['position under', overUnder(['A'], 'finishingPosition', 'UNDER', 1.5), tied, WIN()],
      ['position over', overUnder(['A'], 'finishingPosition', 'OVER', 1.5), tied, LOSE],
      ['position on the line', overUnder(['C'], 'finishingPosition', 'UNDER', 3), tied, PUSH],
      [
        'unclassified position is after the classified',
        overUnder(['E'], 'finishingPosition', 'OVER', 4.5),
        tied,
        WIN(),
      ],
      ['summed positions on the line', overUnder(['A', 'C'], 'finishingPosition', 'OVER', 4), tied, PUSH],
      ['summed positions under', overUnder(['A', 'C'], 'finishingPosition', 'UNDER', 4.5), tied, WIN()],
      ['position of an absent athlete', overUnder(['Z'], 'finishingPosition', 'OVER', 1.5), tied, VOID],
      ['points over', overUnder(['A'], 'points', 'OVER', 10.5), tied, WIN()],
      ['points under', overUnder(['A'], 'points', 'UNDER', 10.5), tied, LOSE],
      ['points on the line', overUnder(['A'], 'points', 'OVER', 12), tied, PUSH],
      ['summed points', overUnder(['A', 'C'], 'points', 'OVER', 20), tied, WIN()],
      ['gap to the leaders', overUnder(['A'], 'gapToLeaders', 'UNDER', 0.5), tied, WIN()],
      ['missing measure', overUnder(['C'], 'gapToLeaders', 'UNDER', 0.5), tied, VOID],
      ['no measures for the athlete', overUnder(['D'], 'points', 'OVER', 0.5), tied, VOID],
      ['one measure missing from a sum', overUnder(['A', 'D'], 'points', 'OVER', 0.5), tied, VOID],
      ['no measures at all', overUnder(['A'], 'points', 'OVER', 0.5), decided({ A: 1 }), VOID],
      // Groups: positions 1, 1, 3, 4, 5, 5.
      [
        'lowest group total',
        group(
          ['A', 'C'],
          [
            ['A', 'C'],
            ['B', 'D'],
            ['E', 'F'],
          ],
        ),
        tied,
        WIN(),
      ],
      [
        'higher group total',
        group(
          ['B', 'D'],
          [
            ['A', 'C'],
            ['B', 'D'],
            ['E', 'F'],
          ],
        ),
        tied,
        LOSE,
      ],
      [
        'tied lowest group totals',
        group(
          ['A', 'E'],
          [
            ['A', 'E'],
            ['B', 'F'],
            ['C', 'D'],
          ],
        ),
        tied,
        WIN(1 / 2),
      ],
      [
        'the other tied group',
        group(
          ['B', 'F'],
          [
            ['A', 'E'],
            ['B', 'F'],
            ['C', 'D'],
          ],
        ),
        tied,
        WIN(1 / 2),
      ],
      [
        'above tied groups',
        group(
          ['C', 'D'],
          [
            ['A', 'E'],
            ['B', 'F'],
            ['C', 'D'],
          ],
        ),
        tied,
        LOSE,
      ],
      [
        'absent member of another group',
        group(
          ['A', 'C'],
          [
            ['A', 'C'],
            ['B', 'Z'],
          ],
        ),
        tied,
        VOID,
      ],
      [
        'absent member of the group',
        group(
          ['A', 'Z'],
          [
            ['A', 'Z'],
            ['B', 'C'],
          ],
        ),
        tied,
        VOID,
      ],
    ];
    for (const [name, selection, result, expected] of table)
      assert.deepEqual(settleSelection(selection, result), expected, name);
  });

  test('with distinct ranks, each place has one winner, top m has min(m, n) and head-to-head sides never both win', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 8 })
          .chain((n) => fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n })),
        (positions) => {
          const n = positions.length;
          const result = decided(Object.fromEntries(positions.map((p, i) => [`a${i}`, p + 1])));
          const ids = [...result.ranks.keys()];
          const wins = (selection: (id: string) => Selection) =>
            ids.filter((id) => settleSelection(selection(id), result).settlement === 'WIN').length;
          for (let k = 1; k <= n; k++)
            assert.equal(
              wins((id) => place(id, k)),
              1,
              `place ${k}`,
            );
          for (let m = 1; m <= n + 2; m++)
            assert.equal(
              wins((id) => top(id, m)),
              Math.min(m, n),
              `top ${m}`,
            );
          for (const a of ids) {
            for (const b of ids) {
              if (a === b) continue;
              const sides = [
                settleSelection(ahead(a, b), result).settlement,
                settleSelection(ahead(b, a), result).settlement,
              ];
              assert.ok(!sides.every((s) => s === 'WIN'), `${a} and ${b}`);
            }
          }
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });

  test('with ties and unclassified athletes, dead-heat factors of place k sum to 1 and of top m to min(m, n)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }), { minLength: 1, maxLength: 9 }),
        (scores) => {
          const result: ScopeResult = { state: 'decided', ranks: competitionRanks(scores) };
          const n = scores.length;
          const paid = (selection: (id: string) => Selection) =>
            [...result.ranks.keys()]
              .map((id) => settleSelection(selection(id), result))
              .reduce((sum, s) => sum + (s.settlement === 'WIN' ? s.deadHeatFactor : 0), 0);
          for (let k = 1; k <= n; k++)
            close(
              paid((id) => place(id, k)),
              1,
              `place ${k} of ${scores}`,
            );
          for (let m = 1; m <= n + 1; m++)
            close(
              paid((id) => top(id, m)),
              Math.min(m, n),
              `top ${m} of ${scores}`,
            );
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });
});
