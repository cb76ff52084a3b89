import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';
import { createThrowawayDatabase } from '../scripts/throwaway-database.ts';
import { type RunningChild, startAltsports } from './children.ts';
import { markdownTable, TARGETS, verdict } from './report.ts';
import { seedStore } from './seed-store.ts';
import { ms, type Summary, summarize } from './stats.ts';

/**
 * Write-to-stream latency: stream clients follow `GET /api/v1/public/stream` for one live
 * heat while feed batches, each one heat-score update with a fresh updatedAt and a changed score, go
 * through `POST /api/v1/admin/feed` at a steady rate. A sample is the time from just before a POST is
 * sent to the arrival of its `heatScore` event at one client, matched by the updatedAt the batch
 * carried (the change record repeats it). The clients and the writer share this process's clock.
 */

export interface StreamSettings {
  /** Stream clients per node read from. */
  clients: number;
  /** Measured batches, after WARM_UP unmeasured ones. */
  batches: number;
  ratePerSecond: number;
}

export interface StreamReader {
  label: string;
  baseUrl: string;
  /** The target its p99 is held to. */
  targetMs: number;
}

export interface StreamReport {
  label: string;
  store: string;
  clients: number;
  batches: number;
  ratePerSecond: number;
  latency: Summary;
  /** Deliveries that had not arrived 5 s after the last batch. */
  missing: number;
  /** Batches overtaken by a later one for the same entry (answered `stale`): no change, so no event to wait for. */
  stale: number;
  targetMs: number;
  /** The POSTs' own round trips (validation, ingest, commit, answer). */
  post: Summary;
}

const WARM_UP = 10;
const STRAGGLER_MS = 5_000;

/**
 * One live surf heat of 20 athletes, new ids each run: a store can take the measurement twice. The
 * batches update its entries in turn, so that a batch overtaken by the next one (writes overlap at
 * the open-loop rate) still changes its own entry.
 */
function fixture() {
  const tag = randomBytes(4).toString('hex');
  const eventUuid = randomUUID();
  const now = new Date().toISOString();
  const athletes = Array.from({ length: 20 }, (_, i) => i + 1).map((n) => ({
    id: `bench-stream-${tag}-athlete-${n}`,
    firstName: 'Stream',
    lastName: `Bench ${n}`,
  }));
  const heatId = `bench-stream-${tag}-heat`;
  const entries = athletes.map((athlete, i) => ({
    id: `bench-stream-${tag}-entry-${i + 1}`,
    heatId,
    athleteId: athlete.id,
    seed: i + 1,
    heatScore: 0,
  }));
  const setup = {
    updatedAt: now,
    tours: [{ id: `bench-stream-${tag}-tour`, competition: 'wsl', name: 'Bench Stream Tour' }],
    athletes,
    events: [
      {
        id: `wsl:${eventUuid}`,
        competition: 'wsl',
        tourId: `bench-stream-${tag}-tour`,
        name: 'Bench Stream Pro',
        startDate: now,
        endDate: now,
        eventNumber: 1,
        eventStatus: 'LIVE',
      },
    ],
    rounds: [
      { id: `bench-stream-${tag}-round`, eventId: eventUuid, roundName: 'Round 1', roundNo: 1, roundStatus: 'LIVE' },
    ],
    heats: [{ id: heatId, roundId: `bench-stream-${tag}-round`, heatName: 'Heat 1', heatNo: 1, heatStatus: 'LIVE' }],
    heatEntries: entries,
  };
  return { setup, eventId: `wsl:${eventUuid}`, entries };
}

interface IngestAnswer {
  collections: Record<string, { updated: number; stale: number }>;
}

async function post(baseUrl: string, adminKey: string, feed: unknown): Promise<IngestAnswer> {
  const response = await fetch(`${baseUrl}/api/v1/admin/feed`, {
    method: 'POST',
    headers: { 'x-api-key': adminKey, 'content-type': 'application/json' },
    body: JSON.stringify(feed),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`POST /api/v1/admin/feed answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as IngestAnswer;
}

/** A server-sent events client that notes when each heatScore event arrived, by the updatedAt it carries. */
function streamClient(url: string, apiKey: string, onHeatScore: (updatedAtMs: number, arrivedAt: number) => void) {
  const controller = new AbortController();
  let readyResolve: () => void = () => {};
  const ready = new Promise<void>((resolve) => (readyResolve = resolve));
  const done = (async () => {
    const response = await fetch(url, {
      headers: { 'x-api-key': apiKey, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (response.status !== 200 || !response.body)
      throw new Error(`GET ${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    // One clock reading per chunk: every event in it arrived together.
    let arrivedAt = 0;
    const parser = createParser({
      onEvent: ({ event, data }) => {
        if (event === 'ready') readyResolve();
        if (event === 'heatScore')
          onHeatScore(Date.parse((JSON.parse(data) as { updatedAt: string }).updatedAt), arrivedAt);
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      arrivedAt = performance.now();
      parser.feed(decoder.decode(chunk, { stream: true }));
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return {
    ready: Promise.race([
      ready,
      done.then(() => Promise.reject(new Error(`stream ${url} ended before its ready event`))),
    ]),
    close: () => controller.abort(),
    done,
  };
}

/** Writes through `writeUrl`, reads through every reader, `settings.clients` stream clients each. */
export async function measureStream(options: {
  writeUrl: string;
  readers: StreamReader[];
  store: string;
  apiKey: string;
  adminKey: string;
  settings: StreamSettings;
  log: (message: string) => void;
}): Promise<StreamReport[]> {
  const { writeUrl, readers, apiKey, adminKey, settings, log } = options;
  const { setup, eventId, entries } = fixture();
  await post(writeUrl, adminKey, setup);

  // sentAt by the batch's updatedAt; arrivals by reader, then by updatedAt, one per client.
  const sentAt = new Map<number, number>();
  const measured = new Set<number>();
  const arrivals = readers.map(() => new Map<number, number[]>());
  const query = `?eventId=${encodeURIComponent(eventId)}&kind=heatScore`;
  const clients = readers.flatMap((reader, r) =>
    Array.from({ length: settings.clients }, () =>
      streamClient(`${reader.baseUrl}/api/v1/public/stream${query}`, apiKey, (updatedAtMs, arrivedAt) => {
        const list = arrivals[r]?.get(updatedAtMs) ?? [];
        list.push(arrivedAt);
        arrivals[r]?.set(updatedAtMs, list);
      }),
    ),
  );
  try {
    await Promise.all(clients.map((c) => c.ready));
    log(
      `stream: ${clients.length} clients ready (${readers.map((r) => `${settings.clients} on ${r.label}`).join(', ')}); ${WARM_UP} unmeasured then ${settings.batches} batches at ${settings.ratePerSecond}/s`,
    );

    const interval = 1000 / settings.ratePerSecond;
    const posts: Array<Promise<{ ms: number; stale: boolean }>> = [];
    let last = Date.now();
    const start = performance.now();
    for (let i = 0; i < WARM_UP + settings.batches; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      last = Math.max(Date.now(), last + 1);
      const updatedAt = new Date(last).toISOString();
      const entry = entries[i % entries.length] as (typeof entries)[number];
      const feed = { heatEntries: [{ ...entry, heatScore: 1 + (i % 900) / 100, updatedAt }] };
      const sent = performance.now();
      sentAt.set(last, sent);
      const key = last;
      if (i >= WARM_UP) measured.add(key);
      // Open loop: the next batch goes out on time whether or not this one has been answered.
      posts.push(
        post(writeUrl, adminKey, feed).then((answer) => {
          const stale = answer.collections.heatEntries?.updated !== 1;
          if (stale) measured.delete(key);
          return { ms: performance.now() - sent, stale };
        }),
      );
    }
    const answers = (await Promise.all(posts)).slice(WARM_UP);
    const postTimes = answers.map((a) => a.ms);
    const stale = answers.filter((a) => a.stale).length;
    const complete = () =>
      readers.every((_, r) => [...measured].every((t) => (arrivals[r]?.get(t)?.length ?? 0) >= settings.clients));
    const deadline = performance.now() + STRAGGLER_MS;
    while (!complete() && performance.now() < deadline) await sleep(20);

    return readers.map((reader, r) => {
      const samples: number[] = [];
      let missing = 0;
      for (const t of measured) {
        const times = arrivals[r]?.get(t) ?? [];
        missing += Math.max(0, settings.clients - times.length);
        for (const arrivedAt of times) samples.push(arrivedAt - (sentAt.get(t) as number));
      }
      return {
        label: reader.label,
        store: options.store,
        clients: settings.clients,
        batches: settings.batches,
        ratePerSecond: settings.ratePerSecond,
        latency: summarize(samples),
        missing,
        stale,
        targetMs: reader.targetMs,
        post: summarize(postTimes),
      };
    });
  } finally {
    for (const client of clients) client.close();
    await Promise.allSettled(clients.map((c) => c.done));
  }
}

/**
 * The cross-node case: a database of its own on the PostgreSQL server of `postgresUrl`, filled with
 * the demo data, and two `altsports serve` processes on it. Batches are written through node A; node
 * A's clients give the one-node PostgreSQL figure, node B's the cross-node one (LISTEN/NOTIFY).
 */
export async function measureStreamAcrossNodes(
  postgresUrl: string,
  adminKey: string,
  settings: StreamSettings,
  log: (message: string) => void,
  workDir: string,
): Promise<StreamReport[]> {
  const database = await createThrowawayDatabase(postgresUrl, 'bench_stream');
  const databaseUrl = database.url;
  const nodes: RunningChild[] = [];
  try {
    log(`stream: PostgreSQL database ${database.name}: loading the demo data`);
    const { apiKey, events } = await seedStore({ databaseUrl, pgPoolSize: 2 });
    log(`stream: ${events} demo events loaded; starting two altsports serve processes on it`);
    for (const name of ['A', 'B']) {
      try {
        nodes.push(
          await startAltsports(
            { DATABASE_URL: databaseUrl, ADMIN_API_KEY: adminKey },
            join(workDir, `serve-${name}.log`),
          ),
        );
      } catch (error) {
        throw new Error(`node ${name}: ${(error as Error).message}`);
      }
    }
    const [a, b] = nodes.map((n) => `http://127.0.0.1:${n.port}`) as [string, string];
    return await measureStream({
      writeUrl: a,
      readers: [
        { label: 'one node (write and read node A)', baseUrl: a, targetMs: TARGETS.streamOneNodeP99Ms },
        { label: 'across nodes (write A, read B)', baseUrl: b, targetMs: TARGETS.streamCrossNodeP99Ms },
      ],
      store: 'postgres',
      apiKey,
      adminKey,
      settings,
      log,
    });
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    await database.drop().catch(() => {});
  }
}

export function formatStream(reports: StreamReport[]): string {
  const header = [
    'store',
    'path',
    'clients',
    'batches',
    'stale',
    'samples',
    'missing',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    'target p99',
    'meets',
    'POST p50 / p99 ms',
  ];
  return markdownTable(
    header,
    reports.map((r) => [
      r.store,
      r.label,
      String(r.clients),
      `${r.batches} at ${r.ratePerSecond}/s`,
      String(r.stale),
      String(r.latency.samples),
      String(r.missing),
      ms(r.latency.p50),
      ms(r.latency.p95),
      ms(r.latency.p99),
      ms(r.latency.max),
      `< ${r.targetMs} ms`,
      verdict(r.missing === 0 && r.latency.p99 < r.targetMs),
      `${ms(r.post.p50)} / ${ms(r.post.p99)}`,
    ]),
  );
}
