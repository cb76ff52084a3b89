import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { collectArrayParam, normaliseArrayParam } from '../../src/http/query-params.ts';

test('array parameters are read in every encoding', () => {
  const table: Array<[Record<string, unknown>, string[] | undefined]> = [
    [{}, undefined],
    [{ other: 'x' }, undefined],
    [{ s: 'A' }, ['A']],
    [{ s: ['A', 'B'] }, ['A', 'B']],
    [{ s: 'A,B' }, ['A', 'B']],
    [{ s: ' A , ,B ' }, ['A', 'B']],
    [{ 's[]': ['A', 'B'] }, ['A', 'B']],
    [{ 's[1]': 'B', 's[0]': 'A' }, ['A', 'B']],
    [{ 's[0]': 'A', s: 'B' }, ['A', 'B']],
    [{ s: ['A', 'A'] }, ['A']],
    [{ 's[x]': 'A' }, undefined],
    [{ s: '' }, []],
  ];
  for (const [query, expected] of table)
    assert.deepEqual(collectArrayParam(query, 's'), expected, JSON.stringify(query));
});

test('normalising keeps other parameters and removes the raw encodings', () => {
  assert.deepEqual(normaliseArrayParam({ 's[0]': 'A', 's[1]': 'B', limit: '2' }, 's'), { limit: '2', s: ['A', 'B'] });
  assert.deepEqual(normaliseArrayParam({ limit: '2' }, 's'), { limit: '2' });
});

test('every encoding of the same list reads the same', () => {
  const value = fc.stringMatching(/^[A-Z_]{1,10}$/);
  fc.assert(
    fc.property(fc.uniqueArray(value, { minLength: 1, maxLength: 6 }), (values) => {
      const indexed = Object.fromEntries(values.map((v, i) => [`s[${i}]`, v]));
      const forms = [{ s: values }, { s: values.join(',') }, { 's[]': values }, indexed];
      for (const form of forms) assert.deepEqual(collectArrayParam(form, 's'), values);
    }),
  );
});
