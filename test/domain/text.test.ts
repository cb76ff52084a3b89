import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { textProblem } from '../../src/domain/text.ts';

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
