import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from '../scripts/free-port.ts';
import { type RunningChild, spawnServer } from './children.ts';
import { clientCpuPerRequest, cpuPerRequest, type LoadGenerator, type LoadResult } from './load.ts';
import { markdownTable, TARGETS, verdict } from './report.ts';

/**
 * json-server 0.17 (the npm `latest`; 1.0 is a beta that asks for Node 22.12) serving a db.json of the
 * same events document altsports answers, so that `GET /events` there returns the array that
 * `GET /api/v1/public/events` returns here, and `GET /events?_limit=100` its first 100 events as
 * `?limit=100` does. Started with `--quiet` (no log line per request) and otherwise its defaults: it
 * re-serialises the array on every request, indented by 2.
 */

export interface JsonServerRow {
  generator: LoadGenerator;
  /** The load's Accept-Encoding, if any; the byte counts are of the body as sent (coded). */
  acceptEncoding: string | undefined;
  altsportsPath: string;
  altsports: LoadResult;
  altsportsBytes: number;
  jsonServerPath: string;
  jsonServer: LoadResult;
  jsonServerBytes: number;
}

export async function startJsonServer(events: unknown[], workDir: string): Promise<RunningChild & { version: string }> {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('json-server/package.json');
  const manifest = require(manifestPath) as { version: string; bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : (manifest.bin['json-server'] as string);
  const dbFile = join(workDir, 'db.json');
  writeFileSync(dbFile, JSON.stringify({ events }));
  const port = await freePort();
  const server = await spawnServer(
    process.execPath,
    [join(dirname(manifestPath), bin), dbFile, '--port', String(port), '--host', '127.0.0.1', '--quiet'],
    process.env,
    `http://127.0.0.1:${port}/events`,
  );
  return { ...server, version: manifest.version };
}

export function formatJsonServer(rows: JsonServerRow[], version: string): string {
  const latency = (r: LoadResult) => `${r.p50Ms} / ${r.p99Ms}`;
  const micros = (r: LoadResult) => cpuPerRequest(r)?.toFixed(0) ?? '-';
  return markdownTable(
    [
      'load generator',
      'Accept-Encoding',
      'altsports request',
      'bytes',
      'req/s',
      'p50 / p99 ms',
      `json-server ${version} request`,
      'bytes',
      'req/s',
      'p50 / p99 ms',
      'ratio',
      `≥ ${TARGETS.jsonServerRatio}`,
      'server CPU µs/request (alt / json-server)',
      'requests per CPU-second, ratio',
      'its CPU µs/request (alt)',
    ],
    rows.map((r) => {
      const ratio = r.altsports.requestsPerSecond / r.jsonServer.requestsPerSecond;
      const ours = cpuPerRequest(r.altsports);
      const theirs = cpuPerRequest(r.jsonServer);
      return [
        r.generator,
        r.acceptEncoding ?? '(none)',
        `GET ${r.altsportsPath}`,
        String(r.altsportsBytes),
        r.altsports.requestsPerSecond.toFixed(0),
        latency(r.altsports),
        `GET ${r.jsonServerPath}`,
        String(r.jsonServerBytes),
        r.jsonServer.requestsPerSecond.toFixed(0),
        latency(r.jsonServer),
        `${ratio.toFixed(1)}x`,
        verdict(ratio >= TARGETS.jsonServerRatio),
        `${micros(r.altsports)} / ${micros(r.jsonServer)}`,
        ours && theirs ? `${(theirs / ours).toFixed(1)}x` : '-',
        clientCpuPerRequest(r.altsports).toFixed(0),
      ];
    }),
  );
}
