/**
 * A throwaway Redis for tests: Debian's redis-server on a free loopback port, without persistence,
 * in a temporary directory. Debian's `redis-server` package must be installed; a missing server fails
 * the test rather than skipping it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../scripts/free-port.ts';

const REDIS_SERVER = '/usr/bin/redis-server';

export interface RunningRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** True when a Redis on the port answers PING. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts redis-server and waits until it answers. `port` restarts one on a port used before. */
export async function startRedis(options: { port?: number } = {}): Promise<RunningRedis> {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} is missing: the rate-limit tests need a real Redis (install Debian's redis-server package)`,
    );
  }
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'altsports-redis-'));
  const child = spawn(
    REDIS_SERVER,
    ['--save', '', '--appendonly', 'no', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  // A test that dies before stop() must not leave the server running.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);

  const stop = async () => {
    process.removeListener('exit', kill);
    child.kill('SIGTERM');
    await exited(child);
    rmSync(dir, { recursive: true, force: true });
  };

  // performance.now(): tests may mock Date.
  const deadline = performance.now() + 15_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null || performance.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer on port ${port} (exit code ${child.exitCode}):\n${output}`);
    }
    await sleep(20);
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop };
}
