import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The signal a server writes a heap snapshot on: SIGWINCH, which nothing else in the server listens
 * to (close-with-grace shuts `altsports serve` down on SIGUSR2, the usual choice).
 */
const SIGNAL = 'SIGWINCH';

/** Node options that make a server write a heap snapshot into `dir` on SIGNAL (`heapSnapshot` below). */
export function heapSnapshotOptions(dir: string): string[] {
  return [`--heapsnapshot-signal=${SIGNAL}`, `--diagnostic-dir=${dir}`];
}

/**
 * Signals the server (started with `heapSnapshotOptions(dir)`) to write a heap snapshot and waits
 * until the file is complete: the server answers `healthUrl` again once it is written.
 */
export async function heapSnapshot(
  pid: number,
  healthUrl: string,
  dir: string,
  label: string,
  log: (message: string) => void,
): Promise<string | null> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, SIGNAL);
  const deadline = Date.now() + 180_000;
  let lastSize = -1;
  while (Date.now() < deadline) {
    await sleep(1000);
    const file = readdirSync(dir).find((name) => name.endsWith('.heapsnapshot') && !before.has(name));
    if (!file) continue;
    const size = statSync(join(dir, file)).size;
    const answering = await fetch(healthUrl, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (size > 0 && size === lastSize && answering) {
      log(`heap snapshot (${label}): ${join(dir, file)} (${(size / 1024 / 1024).toFixed(1)} MiB)`);
      return join(dir, file);
    }
    lastSize = size;
  }
  log(`heap snapshot (${label}): none written within 180 s`);
  return null;
}
