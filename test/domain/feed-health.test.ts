import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type EventBetStops,
  inSimulatedSeconds,
  isFeedStale,
  isScoreChangeSuspended,
  type LiveEventFeed,
  liveBetStops,
  NO_BET_STOPS,
  preMatchOddIds,
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
    ];
    for (const [over, competition, expected] of table)
      assert.deepEqual(
        liveBetStops(feed(over), competition, RULES, NOW),
        expected,
        JSON.stringify({ over, competition }),
      );
  });

  test('going LIVE suspends the open prices set before it that the same batch did not send', () => {
    const since = '2026-06-01T11:00:00.000Z';
    const odd = (id: string, status: string, updatedAt: string) => ({ id, status, updatedAt });
    const table: Array<[ReturnType<typeof odd>[], string[], string[]]> = [
      [[odd('a', 'OPEN', '2026-06-01T10:59:59.999Z')], [], ['a']],
      [[odd('a', 'OPEN', '2026-06-01T11:00:00.000Z')], [], []],
      [[odd('a', 'OPEN', '2026-06-01T12:00:00.000Z')], [], []],
      [[odd('a', 'OPEN', '2026-06-01T10:00:00.000Z')], ['a'], []],
      [[odd('a', 'SUSPENDED', '2026-06-01T10:00:00.000Z')], [], []],
      [[odd('a', 'CLOSED', '2026-06-01T10:00:00.000Z')], [], []],
      [[odd('a', 'OPEN', '2026-06-01T10:00:00.000Z'), odd('b', 'OPEN', '2026-06-01T10:30:00.000Z')], ['b'], ['a']],
    ];
    for (const [odds, pricedNow, expected] of table)
      assert.deepEqual(preMatchOddIds(odds, since, new Set(pricedNow)), expected, JSON.stringify({ odds, pricedNow }));
  });

  test('properties: a suspended price was open, set before the start, and not priced in the batch', () => {
    const at = fc
      .integer({ min: 0, max: 7_200_000 })
      .map((ms) => new Date(Date.parse('2026-06-01T10:00:00Z') + ms).toISOString());
    const odds = fc.uniqueArray(
      fc.record({
        id: fc.string({ minLength: 1, maxLength: 3 }),
        status: fc.constantFrom('OPEN', 'SUSPENDED', 'CLOSED'),
        updatedAt: at,
      }),
      { selector: (o) => o.id, maxLength: 12 },
    );
    fc.assert(
      fc.property(odds, at, fc.array(fc.string({ minLength: 1, maxLength: 3 })), (all, since, now) => {
        const pricedNow = new Set(now);
        const suspended = new Set(preMatchOddIds(all, since, pricedNow));
        for (const o of all)
          assert.equal(
            suspended.has(o.id),
            o.status === 'OPEN' && o.updatedAt < since && !pricedNow.has(o.id),
            JSON.stringify(o),
          );
      }),
    );
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

describe('a feed whose clock runs faster than real time (the simulator)', () => {
  test("seconds of the feed's clock become real seconds: speed 60 makes 5 s a twelfth of a second", () => {
    const table: Array<[Record<string, number>, number, Record<string, number>]> = [
      [{ nll: 5, gsoc: 20 }, 1, { nll: 5, gsoc: 20 }],
      [{ nll: 5, gsoc: 20 }, 60, { nll: 5 / 60, gsoc: 20 / 60 }],
      [{ spr: 30 }, 0.5, { spr: 60 }],
      [{}, 3600, {}],
    ];
    for (const [seconds, speed, expected] of table) assert.deepEqual(inSimulatedSeconds(seconds, speed), expected);
    assert.throws(() => inSimulatedSeconds({ nll: 5 }, 0), /speed must be above 0/);
  });

  test('a suspension after a score lasts its simulated seconds whatever the speed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600 }), fc.integer({ min: 1, max: 3600 }), (seconds, speed) => {
        const real = inSimulatedSeconds({ nll: seconds }, speed).nll as number;
        const at = Date.parse('2026-07-01T00:00:00Z');
        const scored = new Date(at).toISOString();
        const justBefore = new Date(at + real * 1000 - 1);
        const after = new Date(at + Math.ceil(real * 1000));
        assert.equal(isScoreChangeSuspended(scored, justBefore, real), true);
        assert.equal(isScoreChangeSuspended(scored, after, real), false);
      }),
    );
  });
});
