import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { groupBy } from '../../src/domain/group-by.ts';

test('groupBy: rows by key, each group in the rows order', () => {
  const table: Array<[string[], Array<[string, string[]]>]> = [
    [[], []],
    [['a1'], [['a', ['a1']]]],
    [
      ['a1', 'b1', 'a2', 'c1', 'b2'],
      [
        ['a', ['a1', 'a2']],
        ['b', ['b1', 'b2']],
        ['c', ['c1']],
      ],
    ],
  ];
  for (const [rows, groups] of table) assert.deepEqual([...groupBy(rows, (r) => r.slice(0, 1))], groups);
});

test('groupBy properties: the groups hold every row once, under its own key', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 3 })), (rows) => {
      const groups = groupBy(rows, (r) => String(r.length));
      assert.deepEqual([...groups.values()].flat().sort(), [...rows].sort());
      for (const [key, group] of groups) for (const row of group) assert.equal(String(row.length), key);
    }),
  );
});
