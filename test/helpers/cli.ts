/**
 * Runs the real `altsports` command (bin/altsports.js) as a child process, the way an operator does.
 * The child's environment is this process's minus every altsports setting, plus what the test gives,
 * so that a developer's own PORT or DATABASE_URL never leaks into a test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES } from '../../src/config.ts';

/** The repository root: the CLI runs from here. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(REPO_ROOT, 'bin', 'altsports.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The child's environment: no inherited altsports settings, quiet logs, no demo data, then `env`. */
export function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const [name] of CONFIG_VARIABLES) delete out[name];
  delete out.NODE_TEST_CONTEXT;
  return { ...out, DEMO_DATA: 'off', LOG_LEVEL: 'silent', ...env };
}

/** Starts `altsports ...args` without waiting for it. */
export function spawnCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: REPO_ROOT,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `altsports ...args` to completion (killed after `timeoutMs`). */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `altsports ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A fresh temporary directory, removed by the returned cleanup. */
export async function tempDir(prefix = 'altsports-cli-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Counts of the `altsports import` summary table, by collection. */
export interface ImportCounts {
  received: number;
  inserted: number;
  updated: number;
  unchanged: number;
  stale: number;
}

export function parseImportSummary(stdout: string): {
  collections: Record<string, ImportCounts>;
  changedEvents: number | undefined;
} {
  const collections: Record<string, ImportCounts> = {};
  for (const line of stdout.split('\n')) {
    const match = /^\s+(\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$/.exec(line);
    if (!match) continue;
    const [, name, received, inserted, updated, unchanged, stale] = match;
    collections[name as string] = {
      received: Number(received),
      inserted: Number(inserted),
      updated: Number(updated),
      unchanged: Number(unchanged),
      stale: Number(stale),
    };
  }
  const changed = /(\d+) event document\(s\) changed/.exec(stdout);
  return { collections, changedEvents: changed ? Number(changed[1]) : undefined };
}
