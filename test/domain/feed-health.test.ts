import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { isFeedStale } from '../../src/domain/feed-health.ts';

const NOW = new Date('2026-06-01T12:00:00.000Z');

describe('feed health: a silent LIVE event is stale', () => {
  test('table', () => {
    const table: Array<[string | null, number, boolean]> = [
      ['2026-06-01T12:00:00.000Z', 30, false],
      ['2026-06-01T11:59:30.001Z', 30, false],
      ['2026-06-01T11:59:30.000Z', 30, true],
      ['2026-06-01T11:00:00.000Z', 30, true],
      ['2026-06-01T11:59:00.000Z', 120, false],
      ['2026-06-01T12:00:05.000Z', 30, false],
      [null, 30, true],
      ['not a time', 30, true],
      // FEED_STALE_SECONDS=0: no bet stop on silence, whatever the silence.
      ['2026-06-01T11:00:00.000Z', 0, false],
      [null, 0, false],
    ];
    for (const [last, seconds, stale] of table)
      assert.equal(isFeedStale(last, NOW, seconds), stale, `${last} ${seconds}`);
  });

  test('properties: stale exactly once the silence reaches the threshold, and stays stale as time passes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 3600 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (silenceMs, seconds, moreMs) => {
          const last = new Date(NOW.getTime() - silenceMs).toISOString();
          const stale = isFeedStale(last, NOW, seconds);
          assert.equal(stale, silenceMs >= seconds * 1000);
          if (stale) assert.ok(isFeedStale(last, new Date(NOW.getTime() + moreMs), seconds));
        },
      ),
    );
  });
});
