/**
 * Runs a command with TEST_DATABASE_URL pointing at a PostgreSQL database.
 *
 *   node scripts/with-postgres.ts -- <command...>
 *
 * When TEST_DATABASE_URL is already set the command just runs with it. Otherwise a throwaway
 * cluster is created in a temp dir (scripts/pg-cluster.ts: trust auth, loopback only, durability off
 * for speed), the command runs against its `altsports_test` database, and the cluster is stopped and
 * deleted afterwards, also on failure and on SIGINT/SIGTERM/SIGHUP. Exits with the command's exit code.
 */
import { spawn, spawnSync } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import { findBinDir, type PgCluster, PgClusterError, startCluster } from './pg-cluster.ts';

const DATABASE = 'altsports_test';
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Shell convention for "killed by signal n". */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (osConstants.signals[signal] ?? 0);
}

function log(message: string): void {
  process.stderr.write(`[with-postgres] ${message}\n`);
}

function fail(message: string): never {
  log(message);
  process.exit(1);
}

const argv = process.argv.slice(2);
const separator = argv.indexOf('--');
const command = separator === -1 ? argv : argv.slice(separator + 1);
if (command.length === 0) fail('usage: node scripts/with-postgres.ts -- <command...>');

let child: ReturnType<typeof spawn> | undefined;

/** Runs the command with inherited stdio; resolves with its exit code (128+n when killed by signal n). */
function runCommand(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const [file, ...args] = command as [string, ...string[]];
    child = spawn(file, args, { stdio: 'inherit', env });
    child.on('error', (error) => {
      log(`cannot run ${file}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? signalExitCode(signal) : 1)));
  });
}

let cluster: PgCluster | undefined;

for (const signal of FORWARDED_SIGNALS) {
  process.on(signal, () => {
    // While the command runs it gets the signal and we clean up when it exits; before that, stop now.
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    else process.exit(signalExitCode(signal));
  });
}
// Synchronous, so that it also runs on process.exit from a signal handler.
process.on('exit', () => cluster?.destroy());

if (process.env.TEST_DATABASE_URL) process.exit(await runCommand(process.env));

let url: string;
let binDir: string;
try {
  binDir = findBinDir();
  cluster = await startCluster({ binDir, log });
  url = await cluster.createDatabase(DATABASE);
} catch (error) {
  fail(error instanceof PgClusterError ? error.message : String((error as Error).stack ?? error));
}
const version = spawnSync(join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.trim();
log(`${version} ready: TEST_DATABASE_URL=${url}`);
const code = await runCommand({ ...process.env, TEST_DATABASE_URL: url });
cluster.destroy();
process.exit(code);
