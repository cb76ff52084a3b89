/**
 * Runs the test files with node:test, several at a time, each in a process of its own, compiled to
 * JavaScript in dist/ first (scripts/build.ts).
 *
 *   node --import tsx scripts/run-tests.ts [node --test flags...] [test files...]
 *
 * Exists because Node 20's `--test` takes no glob patterns (Node 21+ does) and its default discovery
 * ignores `.ts`; `sh` has no `**` either. Without file arguments it runs every *.test.ts under test/.
 *
 * Files run TEST_CONCURRENCY at a time (default below), slowest first by the times of earlier runs
 * (scripts/test-durations.ts), so that a long file does not start last. Files share nothing: each
 * test store is its own database (test/helpers/stores.ts), servers take free ports, data goes to temp
 * dirs. Unless the flags name reporters, the output is node's default (TAP when piped, with the
 * `# pass N` / `# fail N` summary) followed by the ten slowest files (scripts/slowest-files.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { build } from './build.ts';
import { readDurations } from './test-durations.ts';

/** Measured on 2 cores: most files wait on PostgreSQL, child processes or I/O as much as on the CPU. */
const DEFAULT_CONCURRENCY = 3;
/** Far above the slowest file (a few minutes on a busy 2-core machine). */
const FILE_TIMEOUT_MS = 15 * 60_000;

const args = process.argv.slice(2);
const isFile = (arg: string): boolean => !arg.startsWith('-') && arg.endsWith('.ts') && existsSync(arg);
const flags = args.filter((arg) => !isFile(arg));
let files = args.filter(isFile);

if (files.length === 0) {
  files = readdirSync('test', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join('test', file))
    .sort();
}
if (files.length === 0) {
  process.stderr.write('run-tests: no test/**/*.test.ts files found\n');
  process.exit(1);
}

/** Slowest first; a file never timed (new) counts as slow, so it starts early too. */
function slowestFirst(paths: string[]): string[] {
  const durations = readDurations();
  const time = (file: string) => durations.get(join(file)) ?? Number.POSITIVE_INFINITY;
  return [...paths].sort((a, b) => time(b) - time(a));
}

function concurrencyFlags(): string[] {
  if (flags.some((flag) => flag.startsWith('--test-concurrency'))) return [];
  const concurrency = Number(process.env.TEST_CONCURRENCY) || DEFAULT_CONCURRENCY;
  return [`--test-concurrency=${concurrency}`];
}

/**
 * Node 20 applies --test-timeout to each file's process: the guard against a test that hangs, so that
 * waits for a child process or a server carry no deadlines of their own, which a loaded machine breaks.
 */
function timeoutFlags(): string[] {
  return flags.some((flag) => flag.startsWith('--test-timeout')) ? [] : [`--test-timeout=${FILE_TIMEOUT_MS}`];
}

function reporterFlags(): string[] {
  if (flags.some((flag) => flag.startsWith('--test-reporter'))) return [];
  const slowest = new URL('./test-reporter.js', import.meta.url).href;
  const standard = process.stdout.isTTY ? 'spec' : 'tap';
  return [
    `--test-reporter=${standard}`,
    '--test-reporter-destination=stdout',
    `--test-reporter=${slowest}`,
    '--test-reporter-destination=stdout',
  ];
}

// The files run compiled (scripts/build.ts): loading the app through tsx's hooks cost each file's
// process about 3 s of CPU, and each CLI it starts as much again.
const began = performance.now();
const compiled = build();
process.stdout.write(`# dist/: ${compiled} TypeScript files compiled in ${Math.round(performance.now() - began)} ms\n`);
const child = spawn(
  process.execPath,
  [
    '--enable-source-maps',
    '--test',
    ...concurrencyFlags(),
    ...timeoutFlags(),
    ...reporterFlags(),
    ...flags,
    ...slowestFirst(files).map((file) => join('dist', file.replace(/\.ts$/, '.js'))),
  ],
  { stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 1)));
