import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import {
  decideRate,
  memoryRateLimiter,
  parseRateSetting,
  type RateDecision,
  type RateLimiter,
  type RateLimitLog,
  type RateLimits,
  rateLimitHeaders,
  windowStart,
} from '../../src/access/rate-limit.ts';
import { redisRateLimiter } from '../../src/access/redis-rate-limit.ts';
import { CodedError } from '../../src/domain/errors.ts';
import { type RunningRedis, startRedis } from '../helpers/redis.ts';

const at = (iso: string) => Date.parse(iso);
// 30 s before the minute ends, 11 h 59 min 30 s (43,170 s) before the UTC day ends.
const NOON = at('2026-03-10T12:00:30Z');
const UNTIL_MIDNIGHT = 43_170;

test('windows start on the clock minute and at UTC midnight', () => {
  assert.equal(windowStart('minute', at('2026-03-10T12:00:59.999Z')), at('2026-03-10T12:00:00Z'));
  assert.equal(windowStart('minute', at('2026-03-10T12:01:00Z')), at('2026-03-10T12:01:00Z'));
  assert.equal(windowStart('day', at('2026-03-10T23:59:59.999Z')), at('2026-03-10T00:00:00Z'));
  assert.equal(windowStart('day', at('2026-03-11T00:00:00Z')), at('2026-03-11T00:00:00Z'));
});

test('decideRate: admission, the binding window and the reset arithmetic', () => {
  type Row = [string, RateLimits, { minute: number; day: number }, number, RateDecision];
  const decision = (
    allowed: boolean,
    window: 'minute' | 'day' | null,
    limit = 0,
    remaining = 0,
    resetSeconds = 0,
    retryAfterSeconds = 0,
  ): RateDecision => ({
    allowed,
    binding: window ? { window, limit, remaining, resetSeconds } : null,
    retryAfterSeconds,
  });
  const table: Row[] = [
    [
      'first request: the minute binds',
      { perMinute: 10, perDay: 1000 },
      { minute: 0, day: 0 },
      NOON,
      decision(true, 'minute', 10, 9, 30),
    ],
    [
      'the day binds when fewer remain in it',
      { perMinute: 10, perDay: 100 },
      { minute: 2, day: 95 },
      NOON,
      decision(true, 'day', 100, 4, UNTIL_MIDNIGHT),
    ],
    [
      'the last request of a minute is allowed',
      { perMinute: 3, perDay: 0 },
      { minute: 2, day: 0 },
      NOON,
      decision(true, 'minute', 3, 0, 30),
    ],
    [
      'minute exhausted',
      { perMinute: 3, perDay: 100 },
      { minute: 3, day: 10 },
      NOON,
      decision(false, 'minute', 3, 0, 30, 30),
    ],
    [
      'day exhausted',
      { perMinute: 10, perDay: 100 },
      { minute: 0, day: 100 },
      NOON,
      decision(false, 'day', 100, 0, UNTIL_MIDNIGHT, UNTIL_MIDNIGHT),
    ],
    [
      'both exhausted: the day, which frees a request last',
      { perMinute: 3, perDay: 3 },
      { minute: 3, day: 3 },
      NOON,
      decision(false, 'day', 3, 0, UNTIL_MIDNIGHT, UNTIL_MIDNIGHT),
    ],
    [
      'a tie in remaining: the later reset',
      { perMinute: 5, perDay: 100 },
      { minute: 0, day: 95 },
      NOON,
      decision(true, 'day', 100, 4, UNTIL_MIDNIGHT),
    ],
    [
      'a count above a lowered limit: remaining stays 0',
      { perMinute: 3, perDay: 0 },
      { minute: 7, day: 7 },
      NOON,
      decision(false, 'minute', 3, 0, 30, 30),
    ],
    [
      '0 per minute: only the day counts',
      { perMinute: 0, perDay: 100 },
      { minute: 5000, day: 10 },
      NOON,
      decision(true, 'day', 100, 89, UNTIL_MIDNIGHT),
    ],
    [
      '0 per day: only the minute counts',
      { perMinute: 10, perDay: 0 },
      { minute: 2, day: 1_000_000 },
      NOON,
      decision(true, 'minute', 10, 7, 30),
    ],
    [
      'no limit at all: no binding window, no headers',
      { perMinute: 0, perDay: 0 },
      { minute: 9, day: 9 },
      NOON,
      decision(true, null),
    ],
    [
      'at the first millisecond of a minute: 60 s',
      { perMinute: 10, perDay: 0 },
      { minute: 0, day: 0 },
      at('2026-03-10T12:01:00Z'),
      decision(true, 'minute', 10, 9, 60),
    ],
    [
      '1 ms before the minute ends: 1 s, never 0',
      { perMinute: 10, perDay: 0 },
      { minute: 10, day: 0 },
      at('2026-03-10T12:00:59.999Z'),
      decision(false, 'minute', 10, 0, 1, 1),
    ],
    [
      'partial seconds round up',
      { perMinute: 10, perDay: 0 },
      { minute: 0, day: 0 },
      at('2026-03-10T12:00:58.999Z'),
      decision(true, 'minute', 10, 9, 2),
    ],
    [
      'at midnight the day has 86,400 s',
      { perMinute: 0, perDay: 10 },
      { minute: 0, day: 0 },
      at('2026-03-11T00:00:00Z'),
      decision(true, 'day', 10, 9, 86_400),
    ],
    [
      'the last second of the day: both reset together, the minute is kept',
      { perMinute: 5, perDay: 100 },
      { minute: 0, day: 95 },
      at('2026-03-10T23:59:59.500Z'),
      decision(true, 'minute', 5, 4, 1),
    ],
    [
      'minute exhausted with the day open, 0.5 s before midnight',
      { perMinute: 1, perDay: 100 },
      { minute: 1, day: 1 },
      at('2026-03-10T23:59:59.500Z'),
      decision(false, 'minute', 1, 0, 1, 1),
    ],
  ];
  for (const [name, limits, used, now, expected] of table)
    assert.deepEqual(decideRate(limits, used, now), expected, name);
});

test('rateLimitHeaders: three headers, Retry-After on a rejection, none without limits', () => {
  assert.deepEqual(rateLimitHeaders(decideRate({ perMinute: 10, perDay: 0 }, { minute: 4, day: 0 }, NOON)), {
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '5',
    'x-ratelimit-reset': '30',
  });
  assert.deepEqual(rateLimitHeaders(decideRate({ perMinute: 10, perDay: 0 }, { minute: 10, day: 0 }, NOON)), {
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': '30',
    'retry-after': '30',
  });
  assert.deepEqual(rateLimitHeaders(decideRate({ perMinute: 0, perDay: 0 }, { minute: 10, day: 0 }, NOON)), {});
});

test('parseRateSetting: whole numbers, unlimited (0) and default (null)', () => {
  const table: Array<[string, number | null]> = [
    ['600', 600],
    [' 0 ', 0],
    ['unlimited', 0],
    ['Unlimited', 0],
    ['default', null],
    ['1000000000', 1_000_000_000],
  ];
  for (const [text, expected] of table) assert.equal(parseRateSetting(text, '--per-minute'), expected, text);
  for (const text of ['-1', '1.5', 'abc', '', '1e3', '1000000001']) {
    assert.throws(
      () => parseRateSetting(text, '--per-day'),
      (error: unknown) => error instanceof CodedError && /--per-day must be a whole number/.test(error.message),
      text,
    );
  }
});

test('decideRate (property): remaining within [0, limit], reset within the window, Retry-After only on a rejection', () => {
  const limit = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 }));
  const now = fc.integer({ min: at('2020-01-01T00:00:00Z'), max: at('2040-01-01T00:00:00Z') });
  fc.assert(
    fc.property(limit, limit, fc.nat(80), fc.nat(80), now, (perMinute, perDay, minute, day, nowMs) => {
      const d = decideRate({ perMinute, perDay }, { minute, day }, nowMs);
      if (perMinute === 0 && perDay === 0)
        return assert.deepEqual(d, { allowed: true, binding: null, retryAfterSeconds: 0 });
      assert.ok(d.binding);
      assert.ok(d.binding.remaining >= 0 && d.binding.remaining <= d.binding.limit);
      assert.ok(d.binding.resetSeconds >= 1 && d.binding.resetSeconds <= (d.binding.window === 'minute' ? 60 : 86_400));
      assert.equal(d.allowed, (perMinute === 0 || minute < perMinute) && (perDay === 0 || day < perDay));
      if (d.allowed) assert.equal(d.retryAfterSeconds, 0);
      else assert.ok(d.binding.remaining === 0 && d.retryAfterSeconds === d.binding.resetSeconds);
    }),
  );
});

/** A reference model: admitted requests per window, rejected ones not counted. */
function model() {
  const counts = new Map<string, number>();
  return (limits: RateLimits, nowMs: number): boolean => {
    const m = `m${windowStart('minute', nowMs)}`;
    const d = `d${windowStart('day', nowMs)}`;
    const allowed =
      (limits.perMinute === 0 || (counts.get(m) ?? 0) < limits.perMinute) &&
      (limits.perDay === 0 || (counts.get(d) ?? 0) < limits.perDay);
    if (allowed) for (const k of [m, d]) counts.set(k, (counts.get(k) ?? 0) + 1);
    return allowed;
  };
}

/** Request times: steps of up to 40 s from a start, so that runs cross minute and (sometimes) day boundaries. */
const requestTimes = fc
  .tuple(
    fc.integer({ min: at('2026-03-10T23:55:00Z'), max: at('2026-03-11T00:05:00Z') }),
    fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 60 }),
  )
  .map(([start, steps]) => steps.map((_, i) => start + steps.slice(0, i + 1).reduce((a, b) => a + b, 0)));
const someLimits = fc.record({
  perMinute: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 6 })),
  perDay: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20 })),
});

test('charge: counts all its points in both windows, or none of them', async () => {
  const limiter = memoryRateLimiter();
  const limits = { perMinute: 20, perDay: 30 };
  assert.equal((await limiter.consume('k', limits, NOON)).binding?.remaining, 19);
  const charged = await limiter.charge('k', limits, 9, NOON);
  assert.deepEqual([charged.allowed, charged.binding?.remaining], [true, 10]);
  const refused = await limiter.charge('k', limits, 11, NOON);
  assert.equal(refused.allowed, false);
  assert.ok(refused.retryAfterSeconds >= 1);
  assert.equal(refused.binding?.remaining, 10, 'a refused charge is given back');
  // The next minute has room, but the day has 20 left: a charge of 25 is refused there, and given back.
  const nextMinute = at('2026-03-10T12:01:30Z');
  assert.equal((await limiter.charge('k', limits, 25, nextMinute)).allowed, false);
  assert.equal((await limiter.consume('k', limits, nextMinute)).binding?.remaining, 19);
  assert.deepEqual(await limiter.charge('k', { perMinute: 0, perDay: 0 }, 50, NOON), {
    allowed: true,
    binding: null,
    retryAfterSeconds: 0,
  });
});

test('memory limiter (property): admits exactly what the windows allow; rejected requests never count', async () => {
  await fc.assert(
    fc.asyncProperty(someLimits, requestTimes, async (limits, times) => {
      const limiter = memoryRateLimiter();
      const expected = model();
      for (const now of times) {
        const d = await limiter.consume('key', limits, now);
        assert.equal(d.allowed, expected(limits, now), new Date(now).toISOString());
        if (d.binding) assert.ok(d.binding.remaining >= 0);
      }
    }),
  );
});

describe('memory limiter', () => {
  test('a client throttled per minute keeps its daily quota for later minutes', async () => {
    const limiter = memoryRateLimiter();
    const limits = { perMinute: 2, perDay: 5 };
    const run = async (minute: string, n: number) => {
      const out: boolean[] = [];
      for (let i = 0; i < n; i++)
        out.push((await limiter.consume('k', limits, at(`2026-03-10T12:${minute}:10Z`) + i)).allowed);
      return out;
    };
    assert.deepEqual(await run('00', 4), [true, true, false, false]);
    assert.deepEqual(await run('01', 3), [true, true, false]);
    assert.deepEqual(await run('02', 2), [true, false]);
    const last = await limiter.consume('k', limits, at('2026-03-10T12:03:00Z'));
    assert.deepEqual(last.binding, { window: 'day', limit: 5, remaining: 0, resetSeconds: 43_020 });
    assert.equal(last.retryAfterSeconds, 43_020);
    assert.equal((await limiter.consume('k', limits, at('2026-03-11T00:00:00Z'))).allowed, true, 'a new UTC day');
  });

  test('keys count separately', async () => {
    const limiter = memoryRateLimiter();
    const limits = { perMinute: 1, perDay: 0 };
    assert.equal((await limiter.consume('a', limits, NOON)).allowed, true);
    assert.equal((await limiter.consume('a', limits, NOON)).allowed, false);
    assert.equal((await limiter.consume('b', limits, NOON)).allowed, true);
  });
});

describe('Redis limiter (a real redis-server)', () => {
  let redis: RunningRedis;
  const limiters: RateLimiter[] = [];
  const open = (log?: RateLimitLog) => {
    const limiter = redisRateLimiter(redis.url, log);
    limiters.push(limiter);
    return limiter;
  };
  let key = 0;
  const freshKey = () => `key-${process.pid}-${++key}`;

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const limiter of limiters) await limiter.close();
    await redis?.stop();
  });

  test('decides exactly as the memory limiter on the same requests', async () => {
    const limiter = open();
    await fc.assert(
      fc.asyncProperty(someLimits, requestTimes, async (limits, times) => {
        const id = freshKey();
        const memory = memoryRateLimiter();
        for (const now of times)
          assert.deepEqual(await limiter.consume(id, limits, now), await memory.consume(id, limits, now));
      }),
      { numRuns: 40 },
    );
  });

  test('two limiters on one Redis share the counts', async () => {
    const [a, b] = [open(), open()];
    const id = freshKey();
    const limits = { perMinute: 3, perDay: 0 };
    assert.equal((await a.consume(id, limits, NOON)).binding?.remaining, 2);
    assert.equal((await b.consume(id, limits, NOON)).binding?.remaining, 1);
    assert.equal((await a.consume(id, limits, NOON)).binding?.remaining, 0);
    const rejected = await b.consume(id, limits, NOON);
    assert.equal(rejected.allowed, false);
    assert.equal(rejected.retryAfterSeconds, 30);
    assert.equal((await a.consume(id, limits, at('2026-03-10T12:01:00Z'))).allowed, true, 'the next minute');
  });

  test('window keys expire with their window', async () => {
    const id = freshKey();
    await open().consume(id, { perMinute: 5, perDay: 50 }, Date.now());
    const client = new Redis(redis.url);
    try {
      const keys = (await client.keys(`altsports:rl:{${id}}:*`)).sort();
      assert.deepEqual(
        keys.map((k) => k.replace(/\d+$/, 'N')),
        [`altsports:rl:{${id}}:d:N`, `altsports:rl:{${id}}:m:N`],
      );
      const [dayTtl, minuteTtl] = await Promise.all(keys.map((k) => client.pttl(k)));
      assert.ok(minuteTtl !== undefined && minuteTtl > 0 && minuteTtl <= 65_000, `minute key ttl ${minuteTtl}`);
      assert.ok(dayTtl !== undefined && dayTtl > 0 && dayTtl <= 86_405_000, `day key ttl ${dayTtl}`);
    } finally {
      client.disconnect();
    }
  });

  test('while Redis is down each process counts by itself, with one warning; shared counts resume when it is back', async () => {
    const own = await startRedis();
    const warnings: string[] = [];
    const notes: string[] = [];
    const log: RateLimitLog = {
      warn: (_, message) => warnings.push(message),
      info: (_, message) => notes.push(message),
    };
    const limiter = redisRateLimiter(own.url, log);
    let restarted: RunningRedis | undefined;
    try {
      const limits = { perMinute: 2, perDay: 0 };
      assert.equal((await limiter.consume('outage', limits, NOON)).binding?.remaining, 1);
      await own.stop();
      // Fails open to per-process counts: allowed and limited, never an error.
      const during = [];
      for (let i = 0; i < 3; i++) during.push((await limiter.consume('outage', limits, NOON)).allowed);
      assert.deepEqual(during, [true, true, false]);
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(warnings[0] ?? '', /Redis does not answer/);

      restarted = await startRedis({ port: own.port });
      const deadline = performance.now() + 20_000;
      while (notes.length === 0) {
        if (performance.now() > deadline) assert.fail('the limiter did not use Redis again within 20 s');
        await limiter.consume('probe', { perMinute: 1_000_000, perDay: 0 }, NOON);
        await sleep(50);
      }
      assert.match(notes[0] ?? '', /Redis answers again/);
      const other = redisRateLimiter(restarted.url);
      limiters.push(other);
      assert.equal((await limiter.consume('after', limits, NOON)).binding?.remaining, 1);
      assert.equal((await other.consume('after', limits, NOON)).binding?.remaining, 0, 'counts are shared again');
      assert.equal(warnings.length, 1, 'one warning for the one outage');
    } finally {
      await limiter.close();
      await restarted?.stop();
    }
  });
});
