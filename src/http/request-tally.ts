/**
 * Requests answered, by route template, method and status, with their latency in histogram buckets,
 * written as Prometheus text (a counter and a histogram) at each scrape.
 *
 * Why not prom-client's Counter and Histogram: they hash the label values into a string key on every
 * count, about 1.3 µs per request, a twentieth of a cached 3.8 KB answer's whole cost (BENCHMARKS.md
 * "Results after session 11"). Here a request is two Map lookups on strings V8 has already hashed
 * (route templates and Node's method names are the same string objects each time) and a few additions.
 */
export interface RequestTallyNames {
  /** Counter: requests by route, method and status. */
  requests: { name: string; help: string };
  /** Histogram: seconds by route and method. */
  duration: { name: string; help: string };
}

interface Series {
  route: string;
  method: string;
  /** Requests by status code. */
  statuses: Map<number, number>;
  /** Observations per bucket, not cumulative: `perBucket[i]` fell in (bounds[i - 1], bounds[i]]; the last slot is above every bound. */
  perBucket: number[];
  sum: number;
}

export class RequestTally {
  private readonly byRoute = new Map<string, Map<string, Series>>();

  /** `bounds`: the buckets' upper bounds in seconds, ascending. */
  constructor(
    private readonly names: RequestTallyNames,
    private readonly bounds: readonly number[],
  ) {}

  count(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    let series = byMethod.get(method);
    if (series === undefined) {
      series = {
        route,
        method,
        statuses: new Map(),
        perBucket: new Array<number>(this.bounds.length + 1).fill(0),
        sum: 0,
      };
      byMethod.set(method, series);
    }
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    const bucket = bucketOf(this.bounds, seconds);
    series.perBucket[bucket] = (series.perBucket[bucket] ?? 0) + 1;
    series.sum += seconds;
  }

  /** Both metrics in the Prometheus text exposition format (0.0.4), without a trailing newline. */
  exposition(): string {
    const { requests, duration } = this.names;
    const counter = [`# HELP ${requests.name} ${escapeHelp(requests.help)}`, `# TYPE ${requests.name} counter`];
    const histogram = [`# HELP ${duration.name} ${escapeHelp(duration.help)}`, `# TYPE ${duration.name} histogram`];
    for (const byMethod of this.byRoute.values()) {
      for (const series of byMethod.values()) {
        const labels = `route="${escapeLabel(series.route)}",method="${escapeLabel(series.method)}"`;
        for (const [status, answered] of series.statuses)
          counter.push(`${requests.name}{${labels},status="${status}"} ${answered}`);
        let cumulative = 0;
        this.bounds.forEach((bound, i) => {
          cumulative += series.perBucket[i] as number;
          histogram.push(`${duration.name}_bucket{le="${bound}",${labels}} ${cumulative}`);
        });
        const count = cumulative + (series.perBucket[this.bounds.length] as number);
        histogram.push(`${duration.name}_bucket{le="+Inf",${labels}} ${count}`);
        histogram.push(`${duration.name}_sum{${labels}} ${series.sum}`);
        histogram.push(`${duration.name}_count{${labels}} ${count}`);
      }
    }
    return `${counter.join('\n')}\n\n${histogram.join('\n')}`;
  }
}

/** The index of the first bound at or above `value` (Prometheus buckets are "less than or equal"), or bounds.length. */
export function bucketOf(bounds: readonly number[], value: number): number {
  let i = 0;
  while (i < bounds.length && value > (bounds[i] as number)) i++;
  return i;
}

/** Label values escape backslash, double quote and line feed (the text format's rule). */
function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** HELP text escapes backslash and line feed. */
function escapeHelp(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}
