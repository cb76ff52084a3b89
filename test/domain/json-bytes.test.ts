import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JSON_MAX_DEPTH, jsonBytesChecker } from '../../src/domain/json-bytes.ts';

/** The checker's verdict on `bytes` cut into chunks at `cuts`: null, or the message of its refusal. */
function verdict(bytes: Uint8Array, cuts: number[] = [], maxDepth = JSON_MAX_DEPTH): string | null {
  const checker = jsonBytesChecker(maxDepth);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  try {
    let at = 0;
    for (const point of [...points, bytes.length]) {
      checker.push(bytes.subarray(at, point));
      at = point;
    }
    checker.end();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

test('UTF-8: what a fatal TextDecoder refuses, wherever the chunks are cut', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 64 }),
        // Valid text with one byte changed: the sequences random bytes seldom form.
        fc
          .tuple(fc.string({ unit: 'binary', maxLength: 16 }), fc.nat(), fc.integer({ min: 0, max: 255 }))
          .map(([text, at, byte]) => {
            const data = new Uint8Array(Buffer.from(text));
            if (data.length > 0) data[at % data.length] = byte;
            return data;
          }),
      ),
      fc.array(fc.nat(), { maxLength: 4 }),
      (data, cuts) => {
        let valid = true;
        try {
          new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
        } catch {
          valid = false;
        }
        // Brackets are not what this property looks at: none nests past the limit in 64 bytes.
        assert.equal(verdict(data, cuts) === null, valid);
      },
    ),
    { numRuns: 2000 },
  );
});

test('the offset named is where the bad sequence starts', () => {
  for (const [input, offset] of [
    [bytes('"ab', [0xff], '"'), 3],
    [bytes('"ab', [0xc0, 0xaf], '"'), 3],
    [bytes('"é', [0xed, 0xa0, 0x80], '"'), 3],
    [bytes('"', [0xf4, 0x90, 0x80, 0x80], '"'), 1],
    [bytes('"', [0xe2, 0x82]), 1],
  ] as const)
    assert.match(verdict(input) ?? '', new RegExp(`not valid UTF-8 at byte ${offset}:`), input.toString('hex'));
  assert.equal(verdict(bytes('"é€😀"')), null);
});

test('nesting: counted outside strings only, refused at the first bracket past the limit', () => {
  assert.equal(verdict(bytes('['.repeat(4), ']'.repeat(4)), [], 4), null);
  assert.match(verdict(bytes('[{"a":[[[', ']]]}]'), [], 4) ?? '', /nested more than 4 deep \(at byte 8\)/);
  assert.equal(verdict(bytes('["[[[[[[", "\\"[[[[[", {"{{{{": 1}]'), [3, 9], 4), null);
  assert.equal(verdict(bytes('[[]]'.repeat(100)), [], 2), null, 'depth goes back down');
  assert.match(verdict(bytes('['.repeat(10_000)), [5, 500]) ?? '', /nested more than 64 deep \(at byte 64\)/);
});
