/**
 * A listener that cannot start: `altsports serve` stops with exit code 1 and one line
 * naming the setting to change, rather than a stack trace and a process that never exits (which a
 * supervisor would never restart). The wait is bounded by runCli's own limit, not asserted.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { test } from 'node:test';
import { runCli, tempDir } from '../helpers/cli.ts';

async function takenPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

for (const [variable, envOf] of [
  ['PORT', (port: number) => ({ PORT: String(port) })],
  ['ADMIN_PORT', (port: number) => ({ PORT: '0', ADMIN_PORT: String(port) })],
  ['METRICS_PORT', (port: number) => ({ PORT: '0', METRICS_PORT: String(port) })],
] as const)
  test(`${variable} in use: serve exits 1 with one line naming ${variable}`, async () => {
    const { dir, cleanup } = await tempDir('altsports-listen-');
    const { port, server } = await takenPort();
    try {
      const result = await runCli(['serve'], { DATA_DIR: dir, HOST: '127.0.0.1', ...envOf(port) }, 30_000);
      assert.equal(result.code, 1, result.stderr);
      const host = variable === 'PORT' ? 'HOST' : 'ADMIN_HOST';
      assert.equal(
        result.stderr.trim(),
        `altsports serve: cannot listen on ${host}=127.0.0.1 ${variable}=${port}: the address is already in use (EADDRINUSE)`,
      );
    } finally {
      server.close();
      await cleanup();
    }
  });
