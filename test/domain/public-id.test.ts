import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { COMPETITION_KEYS } from '../../src/domain/competitions.ts';
import { formatPublicId, parsePublicId } from '../../src/domain/public-id.ts';

describe('public ids', () => {
  const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
  test('reads prefixed and bare ids and refuses everything else', () => {
    const table: Array<[string, ReturnType<typeof parsePublicId>]> = [
      [`wsl:${uuid}`, { competition: 'wsl', uuid }],
      [`3ice:${uuid.toUpperCase()}`, { competition: '3ice', uuid }],
      [uuid, { competition: null, uuid }],
      [`nba:${uuid}`, null],
      ['wsl:not-a-uuid', null],
      [`wsl:${uuid}:x`, null],
      ['', null],
      [`:${uuid}`, null],
    ];
    for (const [input, expected] of table) assert.deepEqual(parsePublicId(input), expected, input);
  });

  test('format then parse gives back the parts', () => {
    fc.assert(
      fc.property(fc.constantFrom(...COMPETITION_KEYS), fc.uuid(), (key, id) => {
        assert.deepEqual(parsePublicId(formatPublicId(key, id)), { competition: key, uuid: id.toLowerCase() });
      }),
    );
  });
});
