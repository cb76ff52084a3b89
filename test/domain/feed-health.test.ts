import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  betStopFacts,
  type EventBetStops,
  isFeedStale,
  isScoreChangeSuspended,
  type LiveEventFeed,
  liveBetStops,
  NO_BET_STOPS,
  pricedBeforeLive,
} from '../../src/domain/feed-health.ts';

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

describe('bet stops of a LIVE event: a score just changed, a price older than its start', () => {
  const RULES = { feedStaleSeconds: 30, scoreChangeSeconds: { spr: 10, gsoc: 0 } };
  const feed = (over: Partial<LiveEventFeed> = {}): LiveEventFeed => ({
    lastMessageAt: '2026-06-01T11:59:59.000Z',
    liveSince: null,
    scoreChangedAt: null,
    ...over,
  });

  test('table', () => {
    const table: Array<[Partial<LiveEventFeed>, string, EventBetStops]> = [
      [{}, 'spr', NO_BET_STOPS],
      [{ lastMessageAt: null }, 'spr', { ...NO_BET_STOPS, feedStale: true }],
      [{ scoreChangedAt: '2026-06-01T11:59:50.001Z' }, 'spr', { ...NO_BET_STOPS, scoreChange: true }],
      [{ scoreChangedAt: '2026-06-01T11:59:50.000Z' }, 'spr', NO_BET_STOPS],
      // gsoc: 0 seconds; wsl: not listed. Neither suspends after a score.
      [{ scoreChangedAt: '2026-06-01T11:59:59.000Z' }, 'gsoc', NO_BET_STOPS],
      [{ scoreChangedAt: '2026-06-01T11:59:59.000Z' }, 'wsl', NO_BET_STOPS],
      [{ liveSince: '2026-06-01T11:00:00.000Z' }, 'wsl', { ...NO_BET_STOPS, liveSince: '2026-06-01T11:00:00.000Z' }],
    ];
    for (const [over, competition, expected] of table)
      assert.deepEqual(
        liveBetStops(feed(over), competition, RULES, NOW),
        expected,
        JSON.stringify({ over, competition }),
      );
  });

  test('a price is pre-match when set before the event went LIVE; a market when all its prices are', () => {
    const stops = { ...NO_BET_STOPS, liveSince: '2026-06-01T11:00:00.000Z' };
    const table: Array<[string[], EventBetStops, boolean]> = [
      [['2026-06-01T10:59:59.999Z'], stops, true],
      [['2026-06-01T11:00:00.000Z'], stops, false],
      [['2026-06-01T10:00:00.000Z', '2026-06-01T11:30:00.000Z'], stops, false],
      [['2026-06-01T10:00:00.000Z', '2026-06-01T10:30:00.000Z'], stops, true],
      [[], stops, false],
      [['2026-06-01T10:00:00.000Z'], NO_BET_STOPS, false],
    ];
    for (const [prices, given, expected] of table) {
      assert.equal(betStopFacts(prices, given).pricedBeforeLive, expected, JSON.stringify(prices));
      if (prices.length === 1) assert.equal(pricedBeforeLive(prices[0] as string, given), expected);
    }
  });

  test('properties: suspended after a score exactly for the seconds set, never when none are', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7_200_000 }), fc.integer({ min: 0, max: 3600 }), (agoMs, seconds) => {
        const at = new Date(NOW.getTime() - agoMs).toISOString();
        assert.equal(isScoreChangeSuspended(at, NOW, seconds), seconds > 0 && agoMs < seconds * 1000);
        assert.equal(isScoreChangeSuspended(null, NOW, seconds), false);
      }),
    );
  });
});
