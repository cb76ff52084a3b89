import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { inputProblems, jsonSyntaxProblem, textProblem } from '../../src/domain/text.ts';

test('textProblem: NUL and lone surrogates are refused; any other text, pairs included, is fine', () => {
  const table: Array<[string, RegExp | null]> = [
    ['', null],
    ['Pipe Masters', null],
    ['Gabriel Medina 🇧🇷', null],
    ['عربي', null],
    ['e\u0301', null],
    ['a\u0000b', /NUL/],
    ['\u0000', /NUL/],
    ['\uD800', /lone surrogate/],
    ['a\uDC00', /lone surrogate/],
    ['\uDC00\uD800', /lone surrogate/],
    ['\uD83C\uDDE7', null],
  ];
  for (const [value, problem] of table) {
    const found = textProblem(value);
    if (problem === null) assert.equal(found, null, JSON.stringify(value));
    else assert.match(found ?? '', problem, JSON.stringify(value));
  }
});

test('textProblem (property): agrees with String#isWellFormed and the NUL check', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (value) => {
      const wellFormed = (value as string & { isWellFormed(): boolean }).isWellFormed();
      assert.equal(textProblem(value) === null, wellFormed && !value.includes('\u0000'));
    }),
  );
});

test('inputProblems: every bad string, key and (when asked) non-finite number, by path', () => {
  const input = {
    name: 'a\u0000',
    legs: ['ok', '\uD800'],
    nested: { deep: [{ n: Infinity }] },
    'k\u0000': 1,
    fine: 2,
  };
  assert.deepEqual(
    inputProblems(input).map((p) => p.path),
    ['name', 'legs[1]', 'k\u0000'],
  );
  assert.deepEqual(
    inputProblems(input, { finiteNumbers: true }).map((p) => p.path),
    ['name', 'legs[1]', 'nested.deep[0].n', 'k\u0000'],
  );
  assert.match(inputProblems({ 'k\u0000': 1 })[0]?.problem ?? '', /^has a name that must not contain the NUL/);
  assert.deepEqual(inputProblems(['fine', 1, null, true, { a: -1e308 }], { finiteNumbers: true }), []);
});

test('jsonSyntaxProblem: what is wrong and where, by line and column', () => {
  const cases: Array<[string, string]> = [
    ['{"b": x}', 'unexpected character at line 1, column 7'],
    ['{\n  "a": 1,}', 'a property name in double quotes was expected at line 2, column 10'],
    ['{"a":', 'a value was expected at line 1, column 6'],
    ['', 'a value was expected at line 1, column 1'],
    ['{"a": 1} x', 'unexpected character at line 1, column 10'],
    ['{"a": 1} {}', 'nothing may follow the document at line 1, column 10'],
    ['// note\n{"a": 1}', 'comments are not JSON at line 1, column 1'],
    ['{"a": "b', 'a string is not closed at line 1, column 7'],
    ['[1 2]', "a ',' was expected at line 1, column 4"],
  ];
  for (const [text, expected] of cases) {
    assert.throws(() => JSON.parse(text), SyntaxError, 'JSON.parse refuses it');
    assert.equal(jsonSyntaxProblem(text), expected, JSON.stringify(text));
  }
});
