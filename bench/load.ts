import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

/** One autocannon run's figures. */
export interface LoadResult {
  requestsPerSecond: number;
  /** autocannon's latency percentiles, whole milliseconds. */
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  /** Connection errors, timeouts and body mismatches. */
  errors: number;
  statusCodes: string;
  /** Answers by status code. */
  statusCounts: Record<string, number>;
  /**
   * CPU time (user and system) the server process spent during the measured run, in microseconds;
   * null when its process is not given or not readable (/proc is Linux's). Per request it is steadier
   * than req/s on a shared machine, and it does not depend on whether the load generator kept up.
   */
  cpuMicros: number | null;
  /**
   * CPU time the load generator (this process) spent during the measured run, in microseconds. Near a
   * core's worth per second it is the generator, not the server, that bounds req/s: autocannon appends
   * each body to a string, which costs about 20 ns a byte on a compressed (binary) body.
   */
  clientCpuMicros: number;
}

/** Server CPU time per request of a result, in microseconds; null when not measured. */
export const cpuPerRequest = (result: LoadResult): number | null =>
  result.cpuMicros === null || result.requests === 0 ? null : result.cpuMicros / result.requests;
/** The load generator's CPU time per request, in microseconds. */
export const clientCpuPerRequest = (result: LoadResult): number =>
  result.requests === 0 ? 0 : result.clientCpuMicros / result.requests;

let clockTicks: number | undefined;
/**
 * Two CPU-time fields of /proc/<process>/stat added, in microseconds (they count clock ticks): 14 and
 * 15 are the process's user and system time, 16 and 17 those of its children it has reaped.
 */
function statCpuMicros(process: number | 'self', fields: 'own' | 'children'): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  // The command name (field 2) may hold spaces: count from the parenthesis that closes it.
  const values = readFileSync(`/proc/${process}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const first = fields === 'own' ? 11 : 13;
  return ((Number(values[first]) + Number(values[first + 1])) * 1_000_000) / clockTicks;
}

/** User plus system CPU time of a process so far, in microseconds; null when not given or not readable (/proc is Linux's). */
export function processCpuMicros(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    return statCpuMicros(pid, 'own');
  } catch {
    return null;
  }
}

export interface LoadSettings {
  connections: number;
  duration: number;
  warmup: number;
  headers: Record<string, string>;
}

let current: { stop(): void } | undefined;

/** Stops the run in progress, if any (on SIGINT). */
export function stopLoad(): void {
  current?.stop();
}

async function run(
  url: string,
  method: string,
  settings: LoadSettings,
  duration: number,
  pid?: number,
): Promise<LoadResult> {
  const instance = autocannon({
    url,
    method,
    headers: settings.headers,
    connections: settings.connections,
    pipelining: 1,
    duration,
  });
  current = instance;
  const cpuBefore = processCpuMicros(pid);
  const clientBefore = process.cpuUsage();
  const result = await instance;
  const client = process.cpuUsage(clientBefore);
  const cpuAfter = processCpuMicros(pid);
  current = undefined;
  return {
    cpuMicros: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    clientCpuMicros: client.user + client.system,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts + result.mismatches,
    statusCodes: Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}×${count}`)
      .join(' '),
    statusCounts: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}

/** A warm-up run (discarded) then the measured run, with the same settings; `pid`: the server's process, for its CPU time. */
export async function measure(url: string, method: string, settings: LoadSettings, pid?: number): Promise<LoadResult> {
  if (settings.warmup > 0) await run(url, method, settings, settings.warmup);
  return run(url, method, settings, settings.duration, pid);
}

/** Several alternated runs of one target as one: mean req/s, median percentiles, summed counts. */
export function combine(results: LoadResult[]): LoadResult {
  if (results.length === 1) return results[0] as LoadResult;
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    // To the microsecond: wrk's figures are, and the mean of two would print 0.6699999999999999.
    return sorted.length % 2
      ? (sorted[mid] as number)
      : Math.round((((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2) * 1000) / 1000;
  };
  const statusCounts: Record<string, number> = {};
  for (const r of results)
    for (const [code, count] of Object.entries(r.statusCounts)) statusCounts[code] = (statusCounts[code] ?? 0) + count;
  const cpu = results.map((r) => r.cpuMicros);
  return {
    cpuMicros: cpu.includes(null) ? null : (cpu as number[]).reduce((sum, micros) => sum + micros, 0),
    clientCpuMicros: results.reduce((sum, r) => sum + r.clientCpuMicros, 0),
    requestsPerSecond: results.reduce((sum, r) => sum + r.requestsPerSecond, 0) / results.length,
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    statusCodes: Object.entries(statusCounts)
      .map(([code, count]) => `${code}×${count}`)
      .join(' '),
    statusCounts,
  };
}

export type LoadGenerator = 'autocannon' | 'wrk';

/**
 * Whether wrk (a C load generator; Debian's `wrk` package) is installed. It spends a few µs per answer
 * where autocannon spends 25 µs on a small body and 300 to 450 µs on a 100 KB or compressed one
 * (measured on 2026-11-22; see the history of BENCHMARKS.md), so it shows what the server, rather than the generator, can
 * answer on this 2-core machine. One thread, the same connections and durations as autocannon.
 */
export function wrkInstalled(): boolean {
  return spawnSync('wrk', ['-v'], { stdio: 'ignore' }).error === undefined;
}

const runWrk = promisify(execFile);

/** CPU time of this process's reaped children (wrk, once it has exited), in microseconds. */
const childrenCpuMicros = () => statCpuMicros('self', 'children');

/** wrk's latency figure ("462.00us", "1.23ms", "2.01s") in milliseconds. */
function wrkMilliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text);
  if (!match) throw new Error(`unexpected wrk latency: ${text}`);
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

async function wrkRun(url: string, settings: LoadSettings, seconds: number, pid?: number): Promise<LoadResult> {
  const headers = Object.entries(settings.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const cpuBefore = processCpuMicros(pid);
  const clientBefore = childrenCpuMicros();
  const { stdout } = await runWrk('wrk', [
    '-t1',
    `-c${settings.connections}`,
    `-d${seconds}s`,
    '--latency',
    ...headers,
    url,
  ]);
  const clientCpuMicros = childrenCpuMicros() - clientBefore;
  const cpuAfter = processCpuMicros(pid);
  const figure = (pattern: RegExp) => pattern.exec(stdout)?.[1];
  const requests = Number(figure(/(\d+) requests in/));
  const non2xx = Number(figure(/Non-2xx or 3xx responses: (\d+)/) ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const errors = socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    cpuMicros: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    clientCpuMicros,
    requestsPerSecond: Number(figure(/Requests\/sec:\s+([\d.]+)/)),
    p50Ms: wrkMilliseconds(figure(/\s50%\s+(\S+)/) ?? ''),
    p99Ms: wrkMilliseconds(figure(/\s99%\s+(\S+)/) ?? ''),
    requests,
    non2xx,
    errors,
    // wrk counts answers outside 2xx and 3xx, not each status.
    statusCodes: non2xx > 0 ? `2xx/3xx×${requests - non2xx} other×${non2xx}` : `2xx/3xx×${requests}`,
    statusCounts: {},
  };
}

/** `measure`, with wrk as the load generator. */
export async function measureWrk(url: string, settings: LoadSettings, pid?: number): Promise<LoadResult> {
  if (settings.warmup > 0) await wrkRun(url, settings, settings.warmup);
  return wrkRun(url, settings, settings.duration, pid);
}

/** A GET of `url` measured under `generator`. */
export function measureGet(generator: LoadGenerator, url: string, settings: LoadSettings, pid?: number) {
  return generator === 'wrk' ? measureWrk(url, settings, pid) : measure(url, 'GET', settings, pid);
}
