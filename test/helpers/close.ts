import assert from 'node:assert/strict';

/** Asserts that a number is within `tolerance` of the expected one. */
export const close = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} vs ${expected} (tolerance ${tolerance})`);
