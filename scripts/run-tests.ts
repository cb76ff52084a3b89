/**
 * Runs the test files with node:test, one file at a time (--test-concurrency=1).
 *
 *   node --import tsx scripts/run-tests.ts [node --test flags...] [test files...]
 *
 * Exists because Node 20's `--test` takes no glob patterns (Node 21+ does) and its default discovery
 * ignores `.ts`; `sh` has no `**` either. Without file arguments it runs every *.test.ts under test/.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';

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

const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...flags, ...files], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 1)));
