import autocannon from 'autocannon';

/** One autocannon run's figures. */
export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  /** Connection errors, timeouts and body mismatches. */
  errors: number;
  statusCodes: string;
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
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts + result.mismatches,
    statusCodes: Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}×${count}`)
      .join(' '),
  };
}

/** A warm-up run (discarded) then the measured run, with the same settings. */
export async function measure(url: string, method: string, settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmup > 0) await run(url, method, settings, settings.warmup);
  return run(url, method, settings, settings.duration);
}
