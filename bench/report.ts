import { cpus, loadavg, type as osType, release } from 'node:os';
import { cpuPerRequest, type LoadResult } from './load.ts';

export interface ComparisonRow {
  route: string;
  path: string;
  bytes: number;
  altsports: LoadResult;
  raw: LoadResult;
  /** The plain Fastify app of bench/fastify-peer.ts, same bytes. */
  peer: LoadResult;
}

/** The same route asked with `If-None-Match: <its ETag>`, on altsports and on a raw server answering the same 304. */
export interface NotModifiedRow {
  route: string;
  etag: string;
  altsports: LoadResult;
  raw: LoadResult;
  peer: LoadResult;
  /** altsports's cached 200 on the same route, from the same run. */
  cached: LoadResult;
}

/** The aims of the caching and push work, printed next to the figures (benches print, tests assert). */
export const TARGETS = {
  streamOneNodeP99Ms: 50,
  streamCrossNodeP99Ms: 100,
  jsonServerRatio: 10,
  growthRatio: 1.5,
} as const;

export function machineInfo(): string[] {
  const cores = cpus();
  return [
    `date:    ${new Date().toISOString()}`,
    `cpu:     ${cores[0]?.model ?? 'unknown'} (${cores.length} cores)`,
    `os:      ${osType()} ${release()}`,
    `node:    ${process.version}`,
    `load:    ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1, 5, 15 min averages, at the end of the run)`,
  ];
}

export const verdict = (ok: boolean) => (ok ? 'yes' : 'NO');

/** A Markdown table: the first column left-aligned, the others right-aligned. */
export function markdownTable(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

const latencies = (r: LoadResult) => `${r.p50Ms} / ${r.p99Ms}`;

/** Server CPU time per request, altsports / the others, in µs ("-" where not measured). */
function cpuPair(altsports: LoadResult, ...others: LoadResult[]): string {
  const micros = (r: LoadResult) => cpuPerRequest(r)?.toFixed(1) ?? '-';
  return [altsports, ...others].map(micros).join(' / ');
}

/** req/s of `r` against the raw server's, in the same run. */
const toRaw = (r: LoadResult, raw: LoadResult) => r.requestsPerSecond / raw.requestsPerSecond;

export function formatTable(rows: ComparisonRow[]): string {
  const header = [
    'route',
    'bytes',
    'altsports req/s',
    'fastify req/s',
    'raw req/s',
    'ratio to raw (alt / fastify)',
    '≥ fastify',
    'server CPU µs/request (alt / fastify / raw)',
    'altsports p50 / p99 ms',
    'raw p50 / p99 ms',
    'non-2xx (alt/fastify/raw)',
    'errors (alt/fastify/raw)',
  ];
  return markdownTable(
    header,
    rows.map((r) => [
      r.route,
      String(r.bytes),
      r.altsports.requestsPerSecond.toFixed(0),
      r.peer.requestsPerSecond.toFixed(0),
      r.raw.requestsPerSecond.toFixed(0),
      `${toRaw(r.altsports, r.raw).toFixed(2)} / ${toRaw(r.peer, r.raw).toFixed(2)}`,
      verdict(toRaw(r.altsports, r.raw) >= toRaw(r.peer, r.raw)),
      cpuPair(r.altsports, r.peer, r.raw),
      latencies(r.altsports),
      latencies(r.raw),
      `${r.altsports.non2xx}/${r.peer.non2xx}/${r.raw.non2xx}`,
      `${r.altsports.errors}/${r.peer.errors}/${r.raw.errors}`,
    ]),
  );
}

/**
 * Answers other than `status`, plus connection errors and timeouts. wrk counts no statuses, only the
 * answers outside 2xx and 3xx: for its runs, those.
 */
export function wrongAnswers(result: LoadResult, status: number): number {
  const counts = Object.entries(result.statusCounts);
  const wrong =
    counts.length === 0
      ? result.non2xx
      : counts.reduce((sum, [code, count]) => (Number(code) === status ? sum : sum + count), 0);
  return wrong + result.errors;
}

export function formatNotModifiedTable(rows: NotModifiedRow[]): string {
  const header = [
    'route',
    'altsports 304 req/s',
    'fastify 304 req/s',
    'raw 304 req/s',
    'ratio to raw (alt / fastify)',
    '≥ fastify',
    'server CPU µs/304 (alt / fastify / raw)',
    'altsports 200 req/s',
    '304 / 200',
    'faster',
    'altsports 304 p50 / p99 ms',
    'raw 304 p50 / p99 ms',
    'not 304 (alt/fastify/raw)',
  ];
  return markdownTable(
    header,
    rows.map((r) => {
      const faster = r.altsports.requestsPerSecond / r.cached.requestsPerSecond;
      return [
        r.route,
        r.altsports.requestsPerSecond.toFixed(0),
        r.peer.requestsPerSecond.toFixed(0),
        r.raw.requestsPerSecond.toFixed(0),
        `${toRaw(r.altsports, r.raw).toFixed(2)} / ${toRaw(r.peer, r.raw).toFixed(2)}`,
        verdict(toRaw(r.altsports, r.raw) >= toRaw(r.peer, r.raw)),
        cpuPair(r.altsports, r.peer, r.raw),
        r.cached.requestsPerSecond.toFixed(0),
        faster.toFixed(2),
        verdict(faster > 1),
        latencies(r.altsports),
        latencies(r.raw),
        `${wrongAnswers(r.altsports, 304)}/${wrongAnswers(r.peer, 304)}/${wrongAnswers(r.raw, 304)}`,
      ];
    }),
  );
}
