import { type ChildProcess, fork, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/free-port.ts';

/**
 * Servers under test run in child processes, so that they do not share an event loop with the
 * load generator. A child reports `{ port }` over IPC once it listens, and exits when the
 * parent's IPC channel closes (the parent died).
 */

export interface RunningChild {
  port: number;
  /** The child's process id, for its CPU time (bench/load.ts). */
  pid: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

export function startChild(script: string, args: string[], timeoutMs = 120_000): Promise<RunningChild> {
  const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`${script} did not report a port within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(error);
    };
    child.once('exit', (code, signal) =>
      fail(new Error(`${script} exited before listening (code ${code}, signal ${signal})`)),
    );
    child.once('message', (message: { port?: unknown }) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.once('exit', () => running.delete(child));
      if (typeof message.port !== 'number')
        return fail(new Error(`${script} sent an unexpected message: ${JSON.stringify(message)}`));
      resolve({ port: message.port, pid: child.pid as number, stop: () => stopChild(child) });
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * A server that is not ours to fork with IPC (`altsports serve`, json-server): spawned with `env`,
 * ready once `readyUrl` answers 2xx. Its output is kept and shown only if it fails to start; with
 * `logFile`, it is written there instead, as an operator's `npm start > file` would.
 */
export async function spawnServer(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  { timeoutMs = 120_000, logFile }: { timeoutMs?: number; logFile?: string } = {},
): Promise<RunningChild> {
  const log = logFile === undefined ? 'pipe' : openSync(logFile, 'a');
  const child = spawn(command, args, { env, stdio: ['ignore', log, log] });
  if (typeof log === 'number') closeSync(log);
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const port = Number(new URL(readyUrl).port);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `${command} ${args.join(' ')} exited before answering (code ${child.exitCode}, signal ${child.signalCode}):\n${output || tail(logFile)}`,
      );
    const ready = await fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { port, pid: child.pid as number, stop: () => stopChild(child) };
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(
        `${command} ${args.join(' ')} did not answer ${readyUrl} within ${timeoutMs / 1000} s:\n${output || tail(logFile)}`,
      );
    }
    await sleep(100);
  }
}

function tail(file: string | undefined): string {
  return file === undefined ? '' : readFileSync(file, 'utf8').slice(-20_000);
}

/** Rate limits raised only so far that a load run is not throttled; everything else as `npm start` has it. */
export const UNTHROTTLED = '1000000000';

/**
 * `altsports serve` with the defaults a user gets: the request log at info, to `logFile`; rate limits
 * on. Run as `node bin/altsports.js serve`, as `npm start` runs it. `env` names the store (DATA_DIR
 * or DATABASE_URL) and adds what a measurement needs (an admin key).
 */
export async function startAltsports(
  env: Record<string, string>,
  logFile: string,
  nodeOptions: string[] = [],
): Promise<RunningChild> {
  const port = await freePort();
  const bin = fileURLToPath(new URL('../bin/altsports.js', import.meta.url));
  const serveEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    RATE_LIMIT_PER_MINUTE: UNTHROTTLED,
    ...env,
  };
  return spawnServer(process.execPath, [...nodeOptions, bin, 'serve'], serveEnv, `http://127.0.0.1:${port}/healthz`, {
    logFile,
  });
}

/** Synchronous, for `process.on('exit')`: signals every child still running. */
export function killAllChildren(): void {
  for (const child of running) child.kill('SIGTERM');
  running.clear();
}

/** In a child: report the port to the parent, and exit when the parent goes away. */
export function reportPort(port: number): void {
  if (!process.send) throw new Error('this script runs as a child of bench/run.ts (it needs an IPC channel)');
  process.send({ port });
  process.on('disconnect', () => process.exit(0));
}
