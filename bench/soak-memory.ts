import { readFile } from 'node:fs/promises';

/**
 * The soak's memory figures: the server's RSS from /proc (always there on Linux), and its own view
 * of its V8 heap and external memory from `GET /metrics` when the server has that route; floors and
 * least-squares slopes over the samples after the warm-up, and the verdict on growth.
 */

export interface MemorySample {
  /** Seconds since the load started. */
  t: number;
  /** VmRSS of the server process, MiB. */
  rssMb: number;
  /** `process_resident_memory_bytes`, `nodejs_heap_size_used_bytes` and `nodejs_heap_size_total_bytes` (committed) from GET /metrics, MiB. */
  metricsRssMb?: number;
  heapUsedMb?: number;
  heapTotalMb?: number;
  /** `nodejs_external_memory_bytes`: ArrayBuffers and other memory held for JS objects outside the V8 heap. */
  externalMb?: number;
}

/**
 * Growth is judged on floors, not on single samples: V8 lets the old generation fill for a minute or
 * two between major collections (the heap went from 45 to 130 MiB and back under the default load),
 * so a run that ends on a peak would look like a leak, and one that ends in a trough would hide one.
 * The floor at each sample is the lowest value in the window before it, a window longer than that
 * cycle (the lower envelope), and a leak is what raises the floor. Both limits must be passed: the
 * floor keeps climbing (least-squares slope) and ends well above where it started (ratio: the last
 * window's lowest sample over the first window's), so neither noise in a flat series nor one step
 * decides alone.
 *
 * What is judged is the live set, heap used plus external memory (Buffers: the response cache's
 * bodies), when GET /metrics gives them: what the program holds. RSS is not a floor of that: after a
 * larger collection cycle V8 keeps the pages it committed and malloc the memory freed Buffers came
 * from, so RSS floors climb to the last peaks while the live set stays flat (bench 10-minute run:
 * RSS floors 272 to 305 MiB, heap floors 45 to 48, external 64 to 64). RSS growth past the limits
 * with a flat live set is reported as a warning (native memory, or V8 still sizing its heap: run
 * longer to tell); without /metrics, RSS floors are all there is, and they are judged.
 */
export interface GrowthLimits {
  slopeMbPerMin: number;
  ratio: number;
}
export const GROWTH_LIMITS: GrowthLimits = { slopeMbPerMin: 1, ratio: 1.1 };
/**
 * The floor at a time is the lowest sample of the window before it: a third of the measured time,
 * from 2 to 4 minutes (a major collection came every 60 to 130 s under the default load, so a window
 * holds at least one trough), and at most half of it.
 */
const MIN_WINDOW_S = 120;
const MAX_WINDOW_S = 240;
/** Samples in each end point's median (the raw figures shown beside the floors). */
const END_WINDOW = 5;

const MIB = 1024 * 1024;

export async function readRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`/proc/${pid}/status has no VmRSS line (has the process exited?)`);
  return Number(match[1]) / 1024;
}

/** The gauges the soak reads from a Prometheus exposition, when present. */
export function parseMetrics(text: string): Omit<MemorySample, 't' | 'rssMb' | 'metricsRssMb'> & { rssMb?: number } {
  const value = (name: string) => {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})?\\s+([-+0-9.eE]+)`, 'm').exec(text);
    return match ? Number(match[1]) / MIB : undefined;
  };
  const rssMb = value('process_resident_memory_bytes');
  const heapUsedMb = value('nodejs_heap_size_used_bytes');
  const heapTotalMb = value('nodejs_heap_size_total_bytes');
  const externalMb = value('nodejs_external_memory_bytes');
  const found = { rssMb, heapUsedMb, heapTotalMb, externalMb };
  return Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined));
}

/** Least-squares slope of `y` against `x` (per unit of x); NaN with fewer than 3 points. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  if (points.length < 3) return Number.NaN;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export interface SeriesFigures {
  /** Median of the last END_WINDOW samples of the warm-up, and of the run. */
  warmupEndMb: number;
  endMb: number;
  minMb: number;
  peakMb: number;
  /** Least squares over every sample after the warm-up, MiB per minute (sawtooth included). */
  slopeMbPerMin: number;
  /** The floor (lowest value of the `windowS` before) at five points from the end of the first window to the end. */
  floors: number[];
  windowS: number;
  /** Last floor / first floor: the last window's lowest sample over the first window's. */
  floorRatio: number;
  /** Least squares over the floor at every sample, MiB per minute. */
  floorSlopeMbPerMin: number;
}

function series(
  samples: readonly MemorySample[],
  warmupS: number,
  pick: (s: MemorySample) => number | undefined,
): SeriesFigures | null {
  const points = samples.flatMap((s) => {
    const y = pick(s);
    return y === undefined ? [] : [[s.t, y] as const];
  });
  const warm = points.filter(([t]) => t <= warmupS);
  const after = points.filter(([t]) => t >= warmupS);
  if (warm.length === 0 || after.length < 3) return null;
  const measuredS = (after.at(-1) as readonly [number, number])[0] - warmupS;
  // The lower envelope: at each sample, the lowest value of the window before it (after the warm-up).
  const windowS = Math.min(MAX_WINDOW_S, Math.max(MIN_WINDOW_S, measuredS / 3), measuredS / 2);
  const envelope = after.flatMap(([t]) =>
    t < warmupS + windowS - 1e-6
      ? []
      : [[t / 60, Math.min(...after.filter(([u]) => u > t - windowS - 1e-6 && u <= t).map(([, y]) => y))] as const],
  );
  // Five of its points for the report, evenly spread from the first to the last.
  const floors =
    envelope.length < 2
      ? envelope
      : Array.from(
          { length: 5 },
          (_, i) => envelope[Math.round((i * (envelope.length - 1)) / 4)] as readonly [number, number],
        );
  const values = after.map(([, y]) => y);
  const first = envelope[0]?.[1] ?? Number.NaN;
  const last = envelope.at(-1)?.[1] ?? Number.NaN;
  return {
    warmupEndMb: median(warm.slice(-END_WINDOW).map(([, y]) => y)),
    endMb: median(points.slice(-END_WINDOW).map(([, y]) => y)),
    minMb: Math.min(...values),
    peakMb: Math.max(...values),
    slopeMbPerMin: slope(after.map(([t, y]) => [t / 60, y] as const)),
    floors: floors.map(([, y]) => y),
    windowS,
    floorRatio: last / first,
    floorSlopeMbPerMin: slope(envelope),
  };
}

export interface MemoryFigures {
  samples: number;
  rss: SeriesFigures | null;
  /** From GET /metrics, when the server has the route. */
  heapUsed: SeriesFigures | null;
  heapTotal: SeriesFigures | null;
  external: SeriesFigures | null;
  /** Heap used plus external memory, sample by sample. */
  liveSet: SeriesFigures | null;
  /** What the verdict was judged on: the live set when sampled, else RSS. */
  judged: 'live set' | 'RSS' | null;
  /** The judged floors passed both limits after the warm-up. */
  grows: boolean;
  /** RSS floors passed both limits (a failure when RSS is judged, a warning otherwise). */
  rssGrows: boolean;
  limits: GrowthLimits;
}

export function analyseMemory(
  samples: readonly MemorySample[],
  warmupS: number,
  limits: GrowthLimits = GROWTH_LIMITS,
): MemoryFigures {
  const rss = series(samples, warmupS, (s) => s.rssMb);
  const heapUsed = series(samples, warmupS, (s) => s.heapUsedMb);
  const heapTotal = series(samples, warmupS, (s) => s.heapTotalMb);
  const external = series(samples, warmupS, (s) => s.externalMb);
  const liveSet = series(samples, warmupS, (s) =>
    s.heapUsedMb !== undefined && s.externalMb !== undefined ? s.heapUsedMb + s.externalMb : undefined,
  );
  const passes = (s: SeriesFigures | null) =>
    s !== null && s.floorSlopeMbPerMin > limits.slopeMbPerMin && s.floorRatio > limits.ratio;
  const judged = liveSet ? 'live set' : rss ? 'RSS' : null;
  return {
    samples: samples.length,
    rss,
    heapUsed,
    heapTotal,
    external,
    liveSet,
    judged,
    grows: passes(liveSet ?? rss),
    rssGrows: passes(rss),
    limits,
  };
}
