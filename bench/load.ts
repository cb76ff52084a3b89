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

async function run(url: string, method: string, settings: LoadSettings, duration: number): Promise<LoadResult> {
  const instance = autocannon({ url, method, headers: settings.headers, connections: settings.connections, pipelining: 1, duration });
  current = instance;
  const result = await instance;
  current = undefined;
  return {
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

/** A warm-up run (discarded) then the measured run, with the same settings. */
export async function measure(url: string, method: string, settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmup > 0) await run(url, method, settings, settings.warmup);
  return run(url, method, settings, settings.duration);
}

/** Several alternated runs of one target as one: mean req/s, median percentiles, summed counts. */
export function combine(results: LoadResult[]): LoadResult {
  if (results.length === 1) return results[0] as LoadResult;
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  };
  const statusCounts: Record<string, number> = {};
  for (const r of results) for (const [code, count] of Object.entries(r.statusCounts)) statusCounts[code] = (statusCounts[code] ?? 0) + count;
  return {
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
