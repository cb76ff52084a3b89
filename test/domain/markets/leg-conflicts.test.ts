import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type ConflictLeg, findConflict } from '../../../src/domain/markets/leg-conflicts.ts';
import type { OverUnderSide, Selection } from '../../../src/domain/markets/selection.ts';
import { settleSelection } from '../../../src/domain/markets/settlement.ts';

const place = (athleteId: string, k: number): Selection => ({ kind: 'place', athleteId, place: k });
const top = (athleteId: string, places: number): Selection => ({ kind: 'top', athleteId, places });
const order = (...athleteIds: string[]): Selection => ({ kind: 'order', athleteIds });
const ahead = (athleteId: string, otherId: string): Selection => ({ kind: 'ahead', athleteId, otherId });
const position = (athleteId: string, side: OverUnderSide, line: number): Selection => ({
  kind: 'overUnder',
  athleteIds: [athleteId],
  measure: 'finishingPosition',
  line,
  side,
});
const points = (side: OverUnderSide): Selection => ({
  kind: 'overUnder',
  athleteIds: ['A'],
  measure: 'points',
  line: 10.5,
  side,
});

/** A leg alone in its own single-winner market unless told otherwise. */
const leg = (id: string, selection: Selection, marketId = `m-${id}`, exclusive = true): ConflictLeg => ({
  id,
  selection,
  marketId,
  exclusive,
});

/** Whether the leg wins when `order` is the finishing order. */
const wins = (selection: Selection, finish: readonly string[]) =>
  settleSelection(selection, { state: 'decided', ranks: new Map(finish.map((id, i) => [id, i + 1])) }).settlement ===
  'WIN';

const permutations = (items: readonly string[]): string[][] =>
  items.length === 0
    ? [[]]
    : items.flatMap((item, i) =>
        permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
      );

describe('findConflict', () => {
  test('walks every rule', () => {
    const table: Array<[string, ConflictLeg[], number, string[] | null]> = [
      [
        'two winners of one market',
        [leg('w1', place('A', 1), 'win'), leg('w2', place('B', 1), 'win')],
        8,
        ['w1', 'w2'],
      ],
      [
        'two outcomes of a market that is not single-winner',
        [leg('t1', top('A', 3), 'top3', false), leg('t2', top('B', 3), 'top3', false)],
        8,
        null,
      ],
      ['two winners of different markets', [leg('w', place('A', 1)), leg('w2', place('B', 1))], 8, ['w', 'w2']],
      ['winner and second', [leg('w', place('A', 1)), leg('s', place('A', 2))], 8, ['w', 's']],
      ['exacta and another winner', [leg('x', order('A', 'B')), leg('w', place('C', 1))], 8, ['x', 'w']],
      ['exacta and its winner', [leg('x', order('A', 'B')), leg('w', place('A', 1))], 8, null],
      ['trifecta and a different second', [leg('t', order('A', 'B', 'C')), leg('s', place('C', 2))], 8, ['t', 's']],
      ['four in the top 3', ['A', 'B', 'C', 'D'].map((a) => leg(a, top(a, 3))), 8, ['A', 'B', 'C', 'D']],
      ['three in the top 3', ['A', 'B', 'C'].map((a) => leg(a, top(a, 3))), 8, null],
      [
        'five in the top 3 names the first four',
        ['A', 'B', 'C', 'D', 'E'].map((a) => leg(a, top(a, 3))),
        8,
        ['A', 'B', 'C', 'D'],
      ],
      ['ahead of the winner', [leg('h', ahead('A', 'B')), leg('w', place('B', 1))], 8, ['h', 'w']],
      ['both sides of a head-to-head', [leg('ab', ahead('A', 'B')), leg('ba', ahead('B', 'A'))], 8, ['ab', 'ba']],
      [
        'a cycle of head-to-heads',
        [leg('ab', ahead('A', 'B')), leg('bc', ahead('B', 'C')), leg('ca', ahead('C', 'A'))],
        8,
        ['ab', 'bc', 'ca'],
      ],
      [
        'a chain of head-to-heads',
        [leg('ab', ahead('A', 'B')), leg('bc', ahead('B', 'C')), leg('cd', ahead('C', 'D'))],
        8,
        null,
      ],
      ['a chain too long for the field', [leg('ab', ahead('A', 'B')), leg('bc', ahead('B', 'C'))], 2, ['ab', 'bc']],
      [
        'a chain behind the winner',
        [leg('ab', ahead('A', 'B')), leg('bc', ahead('B', 'C')), leg('w', place('C', 1))],
        8,
        ['bc', 'w'],
      ],
      [
        'ahead of someone fixed second',
        [leg('ab', ahead('A', 'B')), leg('ca', ahead('C', 'A')), leg('s', place('B', 2))],
        8,
        ['ab', 'ca', 's'],
      ],
      [
        'under and over 2.5',
        [leg('u', position('A', 'UNDER', 2.5)), leg('o', position('A', 'OVER', 2.5))],
        8,
        ['u', 'o'],
      ],
      ['under 3.5 and winner', [leg('u', position('A', 'UNDER', 3.5)), leg('w', place('A', 1))], 8, null],
      ['over 3.5 and top 3', [leg('o', position('A', 'OVER', 3.5)), leg('t', top('A', 3))], 8, ['o', 't']],
      [
        'under 3 (a whole line) and third',
        [leg('u', position('A', 'UNDER', 3)), leg('p', place('A', 3))],
        8,
        ['u', 'p'],
      ],
      ['over 3 (a whole line) and fourth', [leg('o', position('A', 'OVER', 3)), leg('p', place('A', 4))], 8, null],
      ['over the whole field', [leg('o', position('A', 'OVER', 2.5))], 2, ['o']],
      ['top 3 of a 2-runner field', [leg('a', top('A', 3)), leg('b', top('B', 3))], 2, null],
      ['third of a 2-runner field', [leg('p', place('A', 3))], 2, ['p']],
      ['a superfecta in a 3-runner field', [leg('s', order('A', 'B', 'C', 'D'))], 3, ['s']],
      ['an order naming one athlete twice', [leg('x', order('A', 'A'))], 8, ['x']],
      ['points over and under', [leg('o', points('OVER')), leg('u', points('UNDER'))], 8, null],
      [
        'points over and under in one market',
        [leg('o', points('OVER'), 'ou'), leg('u', points('UNDER'), 'ou')],
        8,
        ['o', 'u'],
      ],
      [
        'groups, operator outcomes and a summed position carry no places',
        [
          leg('g', { kind: 'group', athleteIds: ['A'], groups: [['A'], ['B']] }),
          leg('g2', { kind: 'group', athleteIds: ['B'], groups: [['A'], ['B']] }),
          leg('o', { kind: 'operator', name: 'Yes' }),
          leg('o2', { kind: 'operator', name: 'No' }),
          leg('sum', {
            kind: 'overUnder',
            athleteIds: ['A', 'B'],
            measure: 'finishingPosition',
            line: 1.5,
            side: 'UNDER',
          }),
          leg('w', place('A', 1)),
        ],
        8,
        null,
      ],
      [
        'two operator outcomes of one market',
        [leg('y', { kind: 'operator', name: 'Yes' }, 'prop'), leg('n', { kind: 'operator', name: 'No' }, 'prop')],
        8,
        ['y', 'n'],
      ],
      ['no legs', [], 8, null],
    ];
    for (const [name, legs, fieldSize, expected] of table)
      assert.deepEqual(findConflict(legs, fieldSize)?.ids ?? null, expected, name);
  });

  test('reasons are plain', () => {
    const names = new Map([
      ['a1', 'Ana'],
      ['b2', 'Bo'],
    ]);
    const nameOf = (id: string) => names.get(id) ?? id;
    assert.equal(
      findConflict([leg('w1', place('a1', 1)), leg('w2', place('b2', 1))], 8, nameOf)?.reason,
      '"Ana wins" and "Bo wins" cannot both happen',
    );
    assert.equal(
      findConflict([leg('x', order('A', 'B')), leg('s', place('C', 2))], 8)?.reason,
      '"A, B take the first 2 places in that order" and "C finishes 2nd" cannot both happen',
    );
    assert.equal(
      findConflict(
        ['A', 'B', 'C', 'D'].map((a) => leg(a, top(a, 3))),
        8,
      )?.reason,
      'A, B, C and D cannot all finish in the top 3',
    );
    assert.equal(
      findConflict([leg('ab', ahead('A', 'B')), leg('bc', ahead('B', 'C')), leg('ca', ahead('C', 'A'))], 8)?.reason,
      '"A finishes ahead of B", "B finishes ahead of C" and "C finishes ahead of A" cannot all happen',
    );
    assert.equal(findConflict([leg('p', place('A', 3))], 2)?.reason, '"A finishes 3rd" cannot happen');
    assert.equal(findConflict([leg('u', position('A', 'UNDER', 2.5)), leg('t', top('A', 2))], 8), null);
  });

  const ATHLETES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
  /** A random positional leg over the first n athletes, true or not. */
  const anyLeg = (n: number) => {
    const athlete = fc.constantFrom(...ATHLETES.slice(0, n));
    const k = fc.integer({ min: 1, max: n + 1 });
    return fc.oneof(
      fc.tuple(athlete, k).map(([a, p]) => place(a, p)),
      fc.tuple(athlete, k).map(([a, m]) => top(a, m)),
      fc.uniqueArray(athlete, { minLength: 2, maxLength: Math.min(n, 3) }).map((ids) => order(...ids)),
      fc.tuple(athlete, athlete).map(([a, b]) => ahead(a, b)),
      fc
        .tuple(athlete, fc.constantFrom<OverUnderSide>('OVER', 'UNDER'), fc.integer({ min: 1, max: 2 * n }))
        .map(([a, side, half]) => position(a, side, half / 2)),
    );
  };

  test('is exact: null exactly when some finishing order wins every leg, and the legs it names clash and each is needed', () => {
    const field = fc
      .integer({ min: 2, max: 5 })
      .chain((n) => fc.tuple(fc.constant(n), fc.array(anyLeg(n), { maxLength: 5 })));
    fc.assert(
      fc.property(field, ([n, selections]) => {
        const legs = selections.map((s, i) => leg(`l${i}`, s));
        const orders = permutations(ATHLETES.slice(0, n));
        const possible = (chosen: ConflictLeg[]) =>
          orders.some((finish) => chosen.every((l) => wins(l.selection, finish)));
        const found = findConflict(legs, n);
        assert.equal(found === null, possible(legs));
        if (!found) return;
        const named = legs.filter((l) => found.ids.includes(l.id));
        assert.ok(!possible(named), 'the named legs cannot all win');
        for (const l of named) assert.ok(possible(named.filter((o) => o !== l)), `${l.id} is needed`);
      }),
      { numRuns: 400, seed: 3 },
    );
  });

  test('legs true for one finishing order never conflict; adding a different athlete in a taken place does', () => {
    const scenario = fc.integer({ min: 2, max: 7 }).chain((n) =>
      fc.tuple(
        fc.shuffledSubarray(ATHLETES.slice(0, n), { minLength: n, maxLength: n }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.double({ min: 0, max: 1, noNaN: true })), {
          maxLength: 8,
        }),
        fc.nat(),
        fc.nat(),
      ),
    );
    fc.assert(
      fc.property(scenario, ([finish, raw, pickK, pickOther]) => {
        const n = finish.length;
        const at = (i: number) => finish[i % n] as string;
        const positionOf = (a: string) => finish.indexOf(a) + 1;
        // Each raw tuple becomes a leg that the finishing order wins.
        const selections = raw.map(([kind, i, j, u]): Selection => {
          const a = at(i);
          const p = positionOf(a);
          switch (kind % 6) {
            case 0:
              return place(a, p);
            case 1:
              return top(a, p + (j % 3));
            case 2:
              return order(...finish.slice(0, 1 + (j % n)));
            case 3: {
              const b = at(j) === a ? at(i + 1) : at(j);
              return positionOf(b) > p ? ahead(a, b) : ahead(b, a);
            }
            case 4:
              return position(a, 'UNDER', p + 0.5 + Math.floor(u * 2) / 2);
            default:
              return position(a, 'OVER', Math.max(0.5, p - 0.5 - Math.floor(u * 2) / 2));
          }
        });
        const legs = selections.map((s, i) => leg(`l${i}`, s));
        for (const l of legs) assert.ok(wins(l.selection, finish), JSON.stringify(l.selection));
        assert.equal(findConflict(legs, n), null);

        const k = 1 + (pickK % n);
        const other = finish.filter((_, i) => i !== k - 1)[pickOther % (n - 1)] as string;
        const clashing = [...legs, leg('holder', place(at(k - 1), k)), leg('intruder', place(other, k))];
        const found = findConflict(clashing, n);
        assert.ok(found, `${other} in place ${k} of ${finish}`);
        assert.ok(found.ids.includes('intruder'));
      }),
      { numRuns: 300, seed: 9 },
    );
  });
});
