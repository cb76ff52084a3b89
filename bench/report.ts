import { cpus, release, type as osType } from 'node:os';
import type { LoadResult } from './load.ts';

export interface ComparisonRow {
  route: string;
  path: string;
  bytes: number;
  altsports: LoadResult;
  raw: LoadResult;
}

export function machineInfo(): string[] {
  const cores = cpus();
  return [
    `date:    ${new Date().toISOString()}`,
    `cpu:     ${cores[0]?.model ?? 'unknown'} (${cores.length} cores)`,
    `os:      ${osType()} ${release()}`,
    `node:    ${process.version}`,
  ];
}

export function formatTable(rows: ComparisonRow[]): string {
  const header = ['route', 'bytes', 'altsports req/s', 'raw req/s', 'ratio', 'altsports p99 ms', 'raw p99 ms', 'non-2xx (alt/raw)', 'errors (alt/raw)'];
  const body = rows.map((r) => [
    r.route,
    String(r.bytes),
    r.altsports.requestsPerSecond.toFixed(0),
    r.raw.requestsPerSecond.toFixed(0),
    (r.altsports.requestsPerSecond / r.raw.requestsPerSecond).toFixed(2),
    String(r.altsports.p99Ms),
    String(r.raw.p99Ms),
    `${r.altsports.non2xx}/${r.raw.non2xx}`,
    `${r.altsports.errors}/${r.raw.errors}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}
