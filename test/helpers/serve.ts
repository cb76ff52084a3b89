/**
 * `altsports serve` as a child process, the way an operator runs it, for tests of what only a real
 * process shows: that it does not crash, how it exits, what its sockets do.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../scripts/free-port.ts';
import { spawnCli } from './cli.ts';

export interface ServeProcess {
  base: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Settles with the exit code and signal once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Polls `${base}/healthz` until it answers 200, and returns that answer; fails as soon as the process
 * exits. No deadline of its own: with test files running in parallel a start takes what the machine
 * gives it, and the runner's --test-timeout (`npm test`) ends a start that hangs.
 */
export async function waitForHealth(base: string, child: ChildProcess, output: () => string): Promise<Response> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      assert.fail(`altsports serve exited with ${child.exitCode ?? child.signalCode}\n${output()}`);
    const health = await fetch(`${base}/healthz`).catch(() => undefined);
    if (health?.ok) return health;
    await sleep(100);
  }
}

/** Starts `altsports serve` on a free port and waits until /healthz answers 200. */
export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawnCli(['serve'], { HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // A test that dies first must not leave the server running.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  void exited.then(() => process.removeListener('exit', kill));
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, child, () => output);
  return { base, port, child, output: () => output, exited };
}

/** SIGTERM, then the exit status (SIGKILL after `withinMs`, which fails the caller's exit assertions). */
export async function stopServe(
  serve: ServeProcess,
  withinMs = 30_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
  const timer = setTimeout(() => serve.child.kill('SIGKILL'), withinMs);
  try {
    return await serve.exited;
  } finally {
    clearTimeout(timer);
  }
}
