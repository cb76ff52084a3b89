import type { TestContext } from 'node:test';

/** Thirty seconds into a minute, at noon UTC: a minute's and a day's rate-limit windows both have room around it. */
export const NOON = Date.parse('2026-03-10T12:00:30Z');

/**
 * Stops `Date` at `now` for one test (node:test's mock timers; timers and performance.now run on).
 * Rate limits count by clock minute and UTC day: a test that counts requests up to a 429 freezes the
 * clock so that its requests cannot straddle two minutes on a slow machine.
 */
export const freezeClock = (t: TestContext, now = NOON) => t.mock.timers.enable({ apis: ['Date'], now });
