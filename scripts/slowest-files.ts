/**
 * A node:test reporter (loaded through scripts/test-reporter.js), next to the default one: after the run it prints
 * the ten slowest test files, each the wall time of its own process, and records every file's time
 * (scripts/test-durations.ts) so that the next run starts the slowest files first.
 */
import { relative } from 'node:path';
import type { TestEvent } from 'node:test/reporters';
import { recordDurations } from './test-durations.ts';

const SHOWN = 10;

/** The file's own test, which node:test names after the file: its duration spans the file's process. */
function fileDuration(event: TestEvent): [string, number] | undefined {
  if (event.type !== 'test:complete') return undefined;
  const { file, name, details } = event.data;
  return file && name === file ? [sourceOf(relative(process.cwd(), file)), details.duration_ms] : undefined;
}

/** The test file's source: files run compiled, from dist/ (scripts/build.ts). */
function sourceOf(file: string): string {
  return file.startsWith('dist/') ? file.slice('dist/'.length).replace(/\.js$/, '.ts') : file;
}

export default async function* slowestFiles(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const durations = new Map<string, number>();
  for await (const event of source) {
    const entry = fileDuration(event);
    if (entry) durations.set(...entry);
  }
  if (durations.size === 0) return;
  recordDurations(durations);
  const slowest = [...durations].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  yield `# the ${slowest.length} slowest test files (wall time of each file's process):\n`;
  for (const [file, ms] of slowest) yield `#   ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`;
}
