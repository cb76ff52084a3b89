import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from './children.ts';

/**
 * Same game parlay latency (route 7, POST /api/v1/public/events/{eventId}/sgp) over real HTTP, one
 * keep-alive connection, one request at a time, for 2 to 6 legs of one priced event:
 * - warm: the same parlay repeated (its event's model and leg bitsets already built);
 * - after an odds change: POST /api/v1/admin/feed re-prices one outcome of the event, then the very
 *   next parlay is timed (the model of the new odds version is built by that request);
 * - the reference: a raw node:http server answering the same bytes (status 201) to the same POST.
 */

export interface ParlayOptions {
  /** altsports, e.g. http://127.0.0.1:1234 */
  baseUrl: string;
  apiKey: string;
  adminKey: string;
  /** The event to price parlays of: spr or f1, still to run, with open markets. */
  eventId: string;
  legCounts: number[];
  /** Warm requests measured per leg count (after WARM_UP unmeasured ones). */
  requests: number;
  /** Odds changes per leg count, each followed by one timed parlay. */
  changes: number;
  /** Where the reference server's body file goes. */
  workDir: string;
  log: (message: string) => void;
}

export interface Latency {
  medianMs: number;
  p99Ms: number;
  samples: number;
}

export interface ParlayRow {
  legs: number;
  bytes: number;
  warm: Latency;
  afterChange: Latency | null;
}

export interface ParlayReport {
  eventId: string;
  legs: Array<{ oddId: string; oddType: string; selection: string; odds: number }>;
  rows: ParlayRow[];
  raw: { legs: number; bytes: number; latency: Latency };
  repriced: string;
  feed: Latency | null;
  requests: number;
  changes: number;
}

const WARM_UP = 20;

export interface Answer {
  status: number;
  body: Buffer;
  contentType: string;
  etag: string | undefined;
  ms: number;
}

/**
 * One HTTP client per target: a single keep-alive socket, so that each timing is one request on a
 * warm connection (also used by bench/growth.ts and the soak). `timeoutMs`: a request without an
 * answer by then fails.
 */
export function client(baseUrl: string, { timeoutMs }: { timeoutMs?: number } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(baseUrl);
  const send = (method: string, path: string, headers: Record<string, string>, payload?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const body = payload === undefined ? undefined : Buffer.from(payload);
      const start = process.hrtime.bigint();
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: body
            ? { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) }
            : headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks),
              contentType: String(res.headers['content-type'] ?? 'application/octet-stream'),
              etag: typeof res.headers.etag === 'string' ? res.headers.etag : undefined,
              ms: Number(process.hrtime.bigint() - start) / 1e6,
            }),
          );
        },
      );
      if (timeoutMs !== undefined)
        req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
      req.on('error', reject);
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}

type Client = ReturnType<typeof client>;

function expect(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status)
    throw new Error(
      `${what} answered ${answer.status} (expected ${status}): ${answer.body.toString('utf8').slice(0, 500)}`,
    );
  return answer;
}

export function latency(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
  const median =
    sorted.length % 2 === 1 ? rank(0.5) : ((sorted[sorted.length / 2 - 1] ?? 0) + (sorted[sorted.length / 2] ?? 0)) / 2;
  return { medianMs: median, p99Ms: rank(0.99), samples: sorted.length };
}

interface Athlete {
  id: string;
}
interface Outcome {
  id: string;
  outcomeId: string;
  referenceId: number;
  marketId: string;
  odds: number;
  status: string;
  position?: number | null;
  athlete?: Athlete | null;
}
interface OverUnderOutcome extends Outcome {
  overUnderSubMarketType: string;
  side: 'OVER' | 'UNDER';
  heatId: string | null;
}
interface HeadToHeadSide {
  id: string;
  odds: number;
  status: string;
  athlete: Athlete | null;
}
interface HeadToHeadItem {
  heatId: string | null;
  eventParticipant1: HeadToHeadSide;
  eventParticipant2: HeadToHeadSide;
}

interface Plan {
  legs: Array<{ oddId: string; oddType: string }>;
  /** The eventWinner outcome each odds change re-prices: the longest price, outside every leg. */
  reprice: Outcome;
}

/**
 * Legs that can all win together, favourites first: A wins, B finishes 2nd, C on the podium, D ahead
 * of E, F's finishing position over its line, G in the top 5 (six different athletes, D and E apart).
 */
async function planLegs(alt: Client, apiKey: string, eventId: string): Promise<Plan> {
  const path = (oddType: string) => `/api/v1/public/events/${encodeURIComponent(eventId)}/${oddType}`;
  const read = async <T>(...oddTypes: string[]): Promise<{ oddType: string; items: T[] } | null> => {
    for (const oddType of oddTypes) {
      const answer = await alt.send('GET', path(oddType), { 'x-api-key': apiKey });
      if (answer.status === 404) continue;
      expect(answer, 200, `GET ${path(oddType)}`);
      const items = (JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>)[oddType] as T[];
      if (items.length > 0) return { oddType, items };
    }
    return null;
  };
  const open = <T extends { status: string }>(items: T[]) => items.filter((o) => o.status === 'OPEN');
  const winners = await read<Outcome>('eventWinner');
  if (!winners) throw new Error(`event ${eventId} has no eventWinner market`);
  const favourites = open(winners.items)
    .filter((o) => o.athlete)
    .sort((a, b) => a.odds - b.odds);
  const used = new Set<string>();
  const take = (id: string) => used.add(id);
  const next = (items: Outcome[]) => {
    const byAthlete = new Map(open(items).flatMap((o) => (o.athlete ? [[o.athlete.id, o] as const] : [])));
    const athlete = favourites.map((f) => f.athlete?.id as string).find((id) => !used.has(id) && byAthlete.has(id));
    if (athlete === undefined) return undefined;
    take(athlete);
    return byAthlete.get(athlete);
  };

  const legs: Array<{ oddId: string; oddType: string } | undefined> = [];
  const a = next(winners.items);
  const headToHead = await read<HeadToHeadItem>('headToHead');
  const pair = headToHead?.items.find(
    (h) =>
      h.heatId === null &&
      [h.eventParticipant1, h.eventParticipant2].every(
        (side) => side.status === 'OPEN' && side.athlete && !used.has(side.athlete.id),
      ),
  );
  const ahead =
    pair &&
    (pair.eventParticipant1.odds <= pair.eventParticipant2.odds ? pair.eventParticipant1 : pair.eventParticipant2);
  for (const side of pair ? [pair.eventParticipant1, pair.eventParticipant2] : []) take(side.athlete?.id as string);
  const second = await read<Outcome>('secondPlace');
  const b = second && next(second.items);
  const podium = await read<Outcome>('podiums', 'raceTop3', 'shows');
  const c = podium && next(podium.items);
  const overUnder = await read<OverUnderOutcome>('overUnder');
  const f = overUnder?.items.find(
    (o) =>
      o.status === 'OPEN' &&
      o.overUnderSubMarketType === 'finishingPosition' &&
      o.heatId === null &&
      o.side === 'OVER' &&
      o.athlete &&
      !used.has(o.athlete.id),
  );
  if (f?.athlete) take(f.athlete.id);
  const top = await read<Outcome>('raceTop5', 'raceTop10');
  const g = top && next(top.items);

  legs.push(a ? { oddId: a.id, oddType: 'eventWinner' } : undefined);
  legs.push(b && second ? { oddId: b.id, oddType: second.oddType } : undefined);
  legs.push(c && podium ? { oddId: c.id, oddType: podium.oddType } : undefined);
  legs.push(ahead ? { oddId: ahead.id, oddType: 'headToHead' } : undefined);
  legs.push(f ? { oddId: f.id, oddType: 'overUnder' } : undefined);
  legs.push(g && top ? { oddId: g.id, oddType: top.oddType } : undefined);
  const found = legs.filter((leg) => leg !== undefined);
  if (found.length < legs.length) {
    const names = ['eventWinner', 'secondPlace', 'podiums', 'headToHead', 'overUnder', 'raceTop5'];
    throw new Error(`event ${eventId}: no open odds for ${names.filter((_, i) => legs[i] === undefined).join(', ')}`);
  }
  const reprice = [...favourites].reverse().find((o) => !used.has(o.athlete?.id as string));
  if (!reprice) throw new Error(`event ${eventId}: every eventWinner outcome is a leg; none left to re-price`);
  return { legs: found, reprice };
}

export async function benchParlay(options: ParlayOptions): Promise<ParlayReport> {
  const { baseUrl, apiKey, adminKey, eventId, log } = options;
  const alt = client(baseUrl);
  const sgpPath = `/api/v1/public/events/${encodeURIComponent(eventId)}/sgp`;
  const publicHeaders = { 'x-api-key': apiKey };
  try {
    const plan = await planLegs(alt, apiKey, eventId);
    const bodyOf = (legs: number) => JSON.stringify({ oddIds: plan.legs.slice(0, legs).map((leg) => leg.oddId) });
    const parlay = async (legs: number) =>
      expect(await alt.send('POST', sgpPath, publicHeaders, bodyOf(legs)), 201, `POST ${sgpPath} (${legs} legs)`);

    // Warm: the first request of the first leg count builds the event's model (simulated orders).
    const rows: ParlayRow[] = [];
    const answers = new Map<number, Answer>();
    for (const legs of options.legCounts) {
      log(`parlay: ${legs} legs, ${WARM_UP} unmeasured then ${options.requests} measured`);
      for (let i = 0; i < WARM_UP; i++) answers.set(legs, await parlay(legs));
      const times: number[] = [];
      for (let i = 0; i < options.requests; i++) times.push((await parlay(legs)).ms);
      rows.push({ legs, bytes: (answers.get(legs) as Answer).body.length, warm: latency(times), afterChange: null });
    }
    const largest = Math.max(...options.legCounts);
    const legDocuments = (
      JSON.parse((answers.get(largest) as Answer).body.toString('utf8')) as { legs: ParlayReport['legs'] }
    ).legs;

    // The reference: the same bytes (4 legs, or the nearest measured count) from a raw server, to the same POST.
    const referenceLegs = options.legCounts.includes(4) ? 4 : largest;
    const reference = answers.get(referenceLegs) as Answer;
    const bodyFile = join(options.workDir, 'sgp.body');
    writeFileSync(bodyFile, reference.body);
    const rawServer = await startChild(fileURLToPath(new URL('./raw-server.ts', import.meta.url)), [
      bodyFile,
      reference.contentType,
      '201',
    ]);
    const raw = client(`http://127.0.0.1:${rawServer.port}`);
    let rawLatency: Latency;
    try {
      log(`parlay: the same bytes (${referenceLegs} legs) from the raw node:http server`);
      const times: number[] = [];
      for (let i = 0; i < WARM_UP + options.requests; i++) {
        const answer = expect(await raw.send('POST', sgpPath, publicHeaders, bodyOf(referenceLegs)), 201, 'raw server');
        if (i >= WARM_UP) times.push(answer.ms);
      }
      rawLatency = latency(times);
    } finally {
      raw.close();
      await rawServer.stop();
    }

    // After an odds change: re-price one outcome, then time the very next parlay.
    let feed: Latency | null = null;
    if (options.changes > 0) {
      const adminHeaders = { 'x-api-key': adminKey };
      const { reprice } = plan;
      let last = 0;
      let flip = false;
      const feedTimes: number[] = [];
      const change = async () => {
        last = Math.max(Date.now(), last + 1);
        flip = !flip;
        const item = {
          id: reprice.id,
          referenceId: reprice.referenceId,
          marketId: reprice.marketId,
          athleteId: reprice.athlete?.id,
          // Sent as stored: an omitted field is written as null.
          ...(reprice.position !== undefined && reprice.position !== null ? { position: reprice.position } : {}),
          odds: flip ? Math.round(reprice.odds * 1.25 * 10_000) / 10_000 : reprice.odds,
          updatedAt: new Date(last).toISOString(),
        };
        const answer = expect(
          await alt.send('POST', '/api/v1/admin/feed', adminHeaders, JSON.stringify({ odds: [item] })),
          200,
          'POST /api/v1/admin/feed',
        );
        const updated = (JSON.parse(answer.body.toString('utf8')) as { collections: { odds: { updated: number } } })
          .collections.odds.updated;
        if (updated !== 1)
          throw new Error(
            `POST /api/v1/admin/feed updated ${updated} odds, expected 1: ${answer.body.toString('utf8').slice(0, 500)}`,
          );
        feedTimes.push(answer.ms);
      };
      for (const row of rows) {
        log(`parlay: ${row.legs} legs, ${options.changes} odds changes each followed by one timed parlay`);
        const times: number[] = [];
        for (let i = 0; i < options.changes; i++) {
          await change();
          times.push((await parlay(row.legs)).ms);
        }
        row.afterChange = latency(times);
      }
      feed = latency(feedTimes);
    }

    return {
      eventId,
      legs: legDocuments,
      rows,
      raw: { legs: referenceLegs, bytes: reference.body.length, latency: rawLatency },
      repriced: `${plan.reprice.id} (eventWinner, ${plan.reprice.odds} and ${Math.round(plan.reprice.odds * 1.25 * 10_000) / 10_000} in turn)`,
      feed,
      requests: options.requests,
      changes: options.changes,
    };
  } finally {
    alt.close();
  }
}

export function formatParlay(report: ParlayReport): string {
  const ms = (value: number) => value.toFixed(2);
  const ratio = (value: number) => (value / report.raw.latency.medianMs).toFixed(1);
  const header = [
    'legs',
    'bytes',
    'warm median ms',
    'warm p99 ms',
    'median / raw',
    'after odds change median ms',
    'after odds change p99 ms',
  ];
  const body = [
    ...report.rows.map((r) => [
      String(r.legs),
      String(r.bytes),
      ms(r.warm.medianMs),
      ms(r.warm.p99Ms),
      ratio(r.warm.medianMs),
      r.afterChange ? ms(r.afterChange.medianMs) : '-',
      r.afterChange ? ms(r.afterChange.p99Ms) : '-',
    ]),
    [
      `raw (${report.raw.legs} legs' bytes)`,
      String(report.raw.bytes),
      ms(report.raw.latency.medianMs),
      ms(report.raw.latency.p99Ms),
      '1.0',
      '-',
      '-',
    ],
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [
    `same game parlay (POST /api/v1/public/events/${report.eventId}/sgp; one keep-alive connection, one request at a time):`,
    ...report.legs.map((leg, i) => `  leg ${i + 1}: ${leg.oddType.padEnd(11)} ${leg.selection} (${leg.odds})`),
    `  warm: ${WARM_UP} unmeasured then ${report.requests} measured per leg count; raw: the same bytes and status (201) from node:http, same request`,
    report.feed
      ? `  after odds change: ${report.changes} × (POST /api/v1/admin/feed re-pricing ${report.repriced}, then one timed parlay) per leg count; p99 of ${report.changes} is their maximum; feed POST median ${ms(report.feed.medianMs)} ms, p99 ${ms(report.feed.p99Ms)} ms`
      : '  after odds change: skipped (--parlay-changes 0)',
    '',
    line(header),
    rule,
    ...body.map(line),
  ].join('\n');
}
