/**
 * A node:test reporter, next to the standard one (`npm test`): after the run it prints the ten slowest
 * test files, each with the time its tests took (the sum of its top-level tests: node:test reports no
 * event for a file as a whole), so that a file that grew slow shows in every run.
 */
import { relative } from 'node:path';
import type { TestEvent } from 'node:test/reporters';

const SHOWN = 10;

/** A top-level test's file and duration. */
function topLevel(event: TestEvent): [string, number] | undefined {
  if (event.type !== 'test:complete' || event.data.nesting !== 0 || !event.data.file) return undefined;
  return [relative(process.cwd(), event.data.file), event.data.details.duration_ms];
}

export default async function* slowestFiles(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const durations = new Map<string, number>();
  for await (const event of source) {
    const entry = topLevel(event);
    if (entry) durations.set(entry[0], (durations.get(entry[0]) ?? 0) + entry[1]);
  }
  if (durations.size === 0) return;
  const slowest = [...durations].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  yield `# the ${slowest.length} slowest test files (the time of their tests):\n`;
  for (const [file, ms] of slowest) yield `#   ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`;
}
