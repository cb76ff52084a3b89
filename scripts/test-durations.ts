/**
 * How long each test file took last time it ran, kept in node_modules/.cache (per machine, never
 * committed): scripts/run-tests.ts starts the slowest files first so that no long file starts last.
 * A fresh clone, which has no record yet, orders by scripts/test-durations.json instead: times from
 * a full run on the 2-core machine, committed (refresh it by copying the cache after a full run).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const CACHE = join('node_modules', '.cache', 'altsports', 'test-durations.json');

/** Milliseconds by test file path (relative to the repository root); empty when nothing was recorded. */
export function readDurations(): Map<string, number> {
  return new Map([...readTimes(SEED), ...readTimes(CACHE)]);
}

const SEED = join('scripts', 'test-durations.json');

function readTimes(file: string): Array<[string, number]> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return [];
    return Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number');
  } catch {
    return [];
  }
}

/** Merges this run's times into the record (a run of a few files keeps the others' times). */
export function recordDurations(durations: ReadonlyMap<string, number>): void {
  const merged = readDurations();
  for (const [file, ms] of durations) merged.set(file, Math.round(ms));
  try {
    mkdirSync(dirname(CACHE), { recursive: true });
    writeFileSync(CACHE, `${JSON.stringify(Object.fromEntries([...merged].sort()), null, 1)}\n`);
  } catch {
    // Only an ordering hint: a read-only checkout runs the files in their plain order.
  }
}
