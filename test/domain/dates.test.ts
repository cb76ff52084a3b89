import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { laterOf, parseDateParam } from '../../src/domain/dates.ts';

describe('date parameters', () => {
  test('accept a calendar date or a zoned date-time, nothing else', () => {
    const table: Array<[string, string | null, string | null]> = [
      ['2026-02-28', '2026-02-28T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
      ['2024-02-29', '2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
      ['2026-02-29', null, null],
      ['2026-13-01', null, null],
      ['2026-04-01T10:00:00Z', '2026-04-01T10:00:00.000Z', '2026-04-01T10:00:00.001Z'],
      ['2026-04-01T10:00:00+02:00', '2026-04-01T08:00:00.000Z', '2026-04-01T08:00:00.001Z'],
      ['2026-04-01T10:00', null, null],
      ['yesterday', null, null],
      ['', null, null],
    ];
    for (const [input, start, end] of table) {
      const bound = parseDateParam(input);
      assert.equal(bound?.start.toISOString() ?? null, start, input);
      assert.equal(bound?.endExclusive.toISOString() ?? null, end, input);
    }
  });

  test('laterOf is never earlier than either input', () => {
    fc.assert(
      fc.property(fc.option(fc.date({ noInvalidDate: true })), fc.option(fc.date({ noInvalidDate: true })), (a, b) => {
        const later = laterOf(a?.toISOString(), b?.toISOString());
        for (const d of [a, b]) if (d) assert.ok(Date.parse(later as string) >= d.getTime());
        if (!a && !b) assert.equal(later, null);
      }),
    );
  });
});
