import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { connectionDigests, hashKey, sameCharacters } from '../../src/access/api-keys.ts';

describe('sameCharacters', () => {
  const cases: [string, string, boolean][] = [
    ['', '', true],
    ['ask_abc', 'ask_abc', true],
    ['ask_abc', 'ask_abd', false],
    ['ask_abc', 'bsk_abc', false],
    ['ask_abc', 'ask_ab', false],
    ['ask_ab', 'ask_abc', false],
    ['ask_abc', 'ASK_ABC', false],
    ['é', 'e', false],
    ['\u0100', '\u0000', false],
  ];
  for (const [a, b, equal] of cases) {
    test(`${JSON.stringify(a)} and ${JSON.stringify(b)}: ${equal ? 'equal' : 'different'}`, () => {
      assert.equal(sameCharacters(a, b), equal);
    });
  }

  test('agrees with === on any two strings, and on a string and a one-character change of it', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => sameCharacters(a, b) === (a === b)));
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.nat(), fc.integer({ min: 1, max: 0xffff }), (a, at, delta) => {
        const i = at % a.length;
        const changed = a.slice(0, i) + String.fromCharCode((a.charCodeAt(i) + delta) % 0x10000) + a.slice(i + 1);
        return sameCharacters(a, a) && !sameCharacters(a, changed);
      }),
    );
  });
});

describe('connectionDigests', () => {
  test('a key presented again on its connection gets the digest it had; another key gets its own', () => {
    const digestOf = connectionDigests();
    const connection = {};
    assert.equal(digestOf('ask_first-key-0123456789', connection), hashKey('ask_first-key-0123456789'));
    assert.equal(digestOf('ask_first-key-0123456789', connection), hashKey('ask_first-key-0123456789'));
    assert.equal(digestOf('ask_first-key-0123456780', connection), hashKey('ask_first-key-0123456780'));
    assert.equal(digestOf('ask_first-key-0123456789', {}), hashKey('ask_first-key-0123456789'));
  });

  test('whatever keys are presented on whatever connections, in any order, each digest is its key SHA-256', () => {
    // Keys that differ in one character, or by a prefix, are the ones a remembered digest could be confused with.
    const keys = ['ask_aaaaaaaaaaaaaaaa', 'ask_aaaaaaaaaaaaaaab', 'bsk_aaaaaaaaaaaaaaaa', 'ask_aaaaaaaaaaaaaaa', ''];
    fc.assert(
      fc.property(
        fc.array(fc.record({ connection: fc.nat({ max: 2 }), key: fc.constantFrom(...keys) }), { maxLength: 40 }),
        (presented) => {
          const digestOf = connectionDigests();
          const connections = [{}, {}, {}];
          return presented.every(
            ({ connection, key }) => digestOf(key, connections[connection] as object) === hashKey(key),
          );
        },
      ),
    );
  });
});
