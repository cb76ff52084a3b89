import { COMPETITION_KEYS } from '../src/domain/competitions.ts';
import type { Fetcher, ListedEvent } from './context.ts';
import { type LoadResult, type LoadSettings, measure } from './load.ts';
import { client } from './parlay.ts';
import { markdownTable, TARGETS, verdict } from './report.ts';
import { type BenchContext, resolvePath, type Scenario } from './scenarios.ts';
import { ms, type Summary, summarize } from './stats.ts';

/**
 * Flat as the data grows: the same requests on the small demo dataset and on a large one
 * (`altsports demo --events 100000`), each on a fresh server.
 * - Hot: one cached document per route, asked for again and again: under autocannon's load, then one
 *   request at a time on one keep-alive connection (sub-millisecond timings).
 * - Uncached: the first request for each of K distinct documents per route (a response-cache miss:
 *   the SQL and the serialisation), one at a time.
 * The unfiltered event list is left out: it is the whole dataset, so it grows with it by design; a
 * page of it (`?limit=100`) stands in.
 */

export const growthScenarios: Scenario[] = [
  { name: 'events page', method: 'GET', path: '/api/v1/public/events?limit=100' },
  { name: 'event', method: 'GET', path: '/api/v1/public/events/{eventId}' },
  { name: 'heat', method: 'GET', path: '/api/v1/public/events/{raceId}/heats/{heatId}' },
  { name: 'odds', method: 'GET', path: '/api/v1/public/events/{oddsEventId}/{oddType}' },
];

export interface HotFigures {
  name: string;
  path: string;
  bytes: number;
  probe: Summary;
  load: LoadResult;
}

export interface UncachedFigures {
  name: string;
  request: string;
  latency: Summary;
  meanBytes: number;
}

export interface DatasetFigures {
  label: string;
  events: number;
  hot: HotFigures[];
  uncached: UncachedFigures[];
}

const PROBE_WARM_UP = 100;
const PROBE_REQUESTS = 1_000;

/** K items spread evenly over the list (not its ends, which the scenarios use). */
function spread<T>(items: readonly T[], k: number): T[] {
  if (items.length <= k) return [...items];
  return Array.from({ length: k }, (_, j) => items[Math.floor(((j + 0.5) * items.length) / k)] as T);
}

export async function measureDataset(options: {
  label: string;
  events: number;
  baseUrl: string;
  headers: Record<string, string>;
  api: Fetcher;
  context: BenchContext;
  settings: LoadSettings;
  documents: number;
  log: (message: string) => void;
}): Promise<DatasetFigures> {
  const { label, baseUrl, headers, api, context, settings, log } = options;
  const http = client(baseUrl);
  const timed = async (path: string) => {
    const answer = await http.send('GET', path, headers);
    return { ...answer, ok: answer.status === 200 };
  };
  try {
    // Uncached first: nothing has asked for these documents yet (the scenarios' own ones are left out).
    await timed('/healthz');
    const skip = new Set([context.eventId, context.raceId, context.oddsEventId]);
    const uncached: UncachedFigures[] = [];
    const record = async (name: string, request: string, paths: string[]) => {
      const times: number[] = [];
      let bytes = 0;
      for (const path of paths) {
        const answer = await timed(path);
        if (!answer.ok) continue;
        times.push(answer.ms);
        bytes += answer.body.length;
      }
      uncached.push({
        name,
        request,
        latency: summarize(times),
        meanBytes: times.length ? Math.round(bytes / times.length) : 0,
      });
      return times.length;
    };
    log(`${label}: uncached first requests, ${options.documents} documents per route`);
    await record(
      'events page',
      'GET /events?competition={c}&limit=5, each competition',
      COMPETITION_KEYS.map((c) => `/api/v1/public/events?competition=${c}&limit=5`),
    );
    const listStarted = performance.now();
    const completed = (await api.json<ListedEvent[]>('/api/v1/public/events?eventStatus=COMPLETED')).filter(
      (e) => !skip.has(e.id),
    );
    log(
      `${label}: ${completed.length} completed events listed in ${((performance.now() - listStarted) / 1000).toFixed(1)} s`,
    );
    const sampled = spread(completed, options.documents);
    const eventPaths = sampled.map((e) => `/api/v1/public/events/${e.id}`);
    const heatPaths: string[] = [];
    const eventTimes: number[] = [];
    let eventBytes = 0;
    for (const path of eventPaths) {
      const answer = await timed(path);
      if (!answer.ok) continue;
      eventTimes.push(answer.ms);
      eventBytes += answer.body.length;
      const heat = (
        JSON.parse(answer.body.toString('utf8')) as { rounds: Array<{ heats: Array<{ id: string }> }> }
      ).rounds
        .flatMap((r) => r.heats)
        .at(-1);
      if (heat) heatPaths.push(`${path}/heats/${encodeURIComponent(heat.id)}`);
    }
    uncached.push({
      name: 'event',
      request: 'GET /events/{eventId}, completed events',
      latency: summarize(eventTimes),
      meanBytes: eventTimes.length ? Math.round(eventBytes / eventTimes.length) : 0,
    });
    await record('heat', 'GET /events/{eventId}/heats/{heatId}, their last heats', heatPaths);
    // Upcoming events in an even spread, four candidates a document: team sports have no eventWinner market, and their 404s are not counted.
    const upcoming = (await api.json<ListedEvent[]>('/api/v1/public/events?eventStatus=UPCOMING')).filter(
      (e) => !skip.has(e.id),
    );
    const oddsTimes: number[] = [];
    let oddsBytes = 0;
    for (const event of spread(upcoming, options.documents * 4)) {
      if (oddsTimes.length >= options.documents) break;
      const answer = await timed(`/api/v1/public/events/${encodeURIComponent(event.id)}/eventWinner`);
      if (!answer.ok) continue;
      oddsTimes.push(answer.ms);
      oddsBytes += answer.body.length;
    }
    uncached.push({
      name: 'odds',
      request: 'GET /events/{eventId}/eventWinner, upcoming events',
      latency: summarize(oddsTimes),
      meanBytes: oddsTimes.length ? Math.round(oddsBytes / oddsTimes.length) : 0,
    });

    const hot: HotFigures[] = [];
    for (const scenario of growthScenarios) {
      const path = resolvePath(scenario, context);
      const first = await timed(path);
      if (!first.ok) throw new Error(`${label}: GET ${path} answered ${first.status}`);
      log(
        `${label}: ${scenario.name}: ${path} (${first.body.length} bytes), autocannon, then ${PROBE_REQUESTS} requests one at a time`,
      );
      // Under load first: it also warms the server's code for the hot path, as long use has on a running server.
      const load = await measure(baseUrl + path, 'GET', settings);
      const times: number[] = [];
      for (let i = 0; i < PROBE_WARM_UP + PROBE_REQUESTS; i++) {
        const answer = await timed(path);
        if (!answer.ok) throw new Error(`${label}: GET ${path} answered ${answer.status}`);
        if (i >= PROBE_WARM_UP) times.push(answer.ms);
      }
      hot.push({ name: scenario.name, path, bytes: first.body.length, probe: summarize(times), load });
    }
    return { label, events: options.events, hot, uncached };
  } finally {
    http.close();
  }
}

export function formatGrowth(small: DatasetFigures, large: DatasetFigures, connections: number): string {
  const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
  // Mean latency under autocannon's closed loop is connections / req/s (Little's law): an average over
  // every request of the run, steadier than a percentile of 1,000 sub-millisecond timings.
  const hot = markdownTable(
    [
      'route (hot, cached)',
      'bytes small / large',
      'req/s small',
      'req/s large',
      'mean ms under load small / large',
      'large/small',
      `≤ ${TARGETS.growthRatio}`,
      'one at a time p50 ms small / large',
      'p99 ms small / large',
    ],
    small.hot.map((s) => {
      const l = large.hot.find((h) => h.name === s.name);
      if (!l) return [s.name, '-', '-', '-', '-', '-', '-', '-', '-'];
      const meanMs = (r: HotFigures) => (connections / r.load.requestsPerSecond) * 1000;
      const growth = ratio(meanMs(l), meanMs(s));
      return [
        s.name,
        `${s.bytes} / ${l.bytes}`,
        s.load.requestsPerSecond.toFixed(0),
        l.load.requestsPerSecond.toFixed(0),
        `${ms(meanMs(s), 3)} / ${ms(meanMs(l), 3)}`,
        growth.toFixed(2),
        verdict(growth <= TARGETS.growthRatio),
        `${ms(s.probe.p50, 3)} / ${ms(l.probe.p50, 3)}`,
        `${ms(s.probe.p99)} / ${ms(l.probe.p99)}`,
      ];
    }),
  );
  const uncached = markdownTable(
    [
      'route (uncached, first request)',
      'documents small / large',
      'mean bytes small / large',
      'p50 ms small',
      'p50 ms large',
      'p50 large/small',
      `≤ ${TARGETS.growthRatio}`,
      'p95 ms small / large',
      'max ms small / large',
    ],
    small.uncached.map((s) => {
      const l = large.uncached.find((u) => u.name === s.name);
      if (!l) return [s.name, '-', '-', '-', '-', '-', '-', '-', '-'];
      const p50 = ratio(l.latency.p50, s.latency.p50);
      return [
        `${s.name}: ${s.request}`,
        `${s.latency.samples} / ${l.latency.samples}`,
        `${s.meanBytes} / ${l.meanBytes}`,
        ms(s.latency.p50),
        ms(l.latency.p50),
        p50.toFixed(2),
        verdict(p50 <= TARGETS.growthRatio),
        `${ms(s.latency.p95)} / ${ms(l.latency.p95)}`,
        `${ms(s.latency.max)} / ${ms(l.latency.max)}`,
      ];
    }),
  );
  return [
    `dataset growth: ${small.label} (${small.events} events) against ${large.label} (${large.events} events); hot: autocannon as above, then ${PROBE_REQUESTS} requests one at a time on one keep-alive connection after ${PROBE_WARM_UP}; the targets are held to the mean latency under load (hot) and the p50 (uncached)`,
    '',
    hot,
    '',
    uncached,
  ].join('\n');
}
