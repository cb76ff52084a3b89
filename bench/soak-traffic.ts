import { type ClientRequest, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { type Answer, client } from './parlay.ts';
import { type ParlayBody, PUBLIC, type ReadSet, type WriteKind, type WriteTarget } from './soak-fixtures.ts';

/**
 * The soak's clients, all in the soak process, over keep-alive node:http connections (lighter than
 * fetch, so that more of the two cores goes to the server): paced readers, one writer, one parlay
 * client and the push-stream clients. Every answer lands in a Tally; anything but the expected
 * status (200 or 304 for reads, 201 for parlays, 200 for feed batches), a socket error or a timeout
 * is an error.
 */

const REQUEST_TIMEOUT_MS = 30_000;
/** Error details kept for the report (all are counted). */
const KEPT_ERRORS = 20;

/** One keep-alive connection: each client sends one request at a time, as a real poller does. */
export const httpClient = (baseUrl: string) => client(baseUrl, { timeoutMs: REQUEST_TIMEOUT_MS });

export interface KindStats {
  /** Every request, warm-up included. */
  requests: number;
  /** Requests after the warm-up: the rate and the latencies are of these. */
  measured: number;
  ok: number;
  notModified: number;
  /** Sent with If-None-Match. */
  conditional: number;
  errors: number;
  /** Milliseconds, after the warm-up. */
  latencies: number[];
}

export interface ErrorNote {
  /** Seconds since the load started. */
  at: number;
  kind: string;
  what: string;
  detail: string;
}

export class Tally {
  readonly kinds = new Map<string, KindStats>();
  readonly errors: ErrorNote[] = [];
  errorCount = 0;
  /** Set at the end of the warm-up. */
  measuring = false;

  private readonly startedAt: number;

  constructor(startedAt: number) {
    this.startedAt = startedAt;
  }

  stats(kind: string): KindStats {
    let stats = this.kinds.get(kind);
    if (!stats) {
      stats = { requests: 0, measured: 0, ok: 0, notModified: 0, conditional: 0, errors: 0, latencies: [] };
      this.kinds.set(kind, stats);
    }
    return stats;
  }

  /** An answer to a request of `kind`; a status outside `expected` is an error. */
  answer(kind: string, what: string, answer: Answer, expected: readonly number[], conditional = false): boolean {
    const stats = this.stats(kind);
    stats.requests += 1;
    if (conditional) stats.conditional += 1;
    if (this.measuring) {
      stats.measured += 1;
      stats.latencies.push(answer.ms);
    }
    if (answer.status === 304) stats.notModified += 1;
    else if (answer.status >= 200 && answer.status < 300) stats.ok += 1;
    if (expected.includes(answer.status)) return true;
    stats.errors += 1;
    this.note(kind, what, `${answer.status}: ${answer.body.toString('utf8').slice(0, 300)}`);
    return false;
  }

  /** A request that got no answer (socket error, timeout). */
  failure(kind: string, what: string, error: unknown): void {
    const stats = this.stats(kind);
    stats.requests += 1;
    stats.errors += 1;
    this.note(kind, what, error instanceof Error ? error.message : String(error));
  }

  /** An error outside a request's answer (a stream that ended, a change it never got). */
  note(kind: string, what: string, detail: string): void {
    this.errorCount += 1;
    if (this.errors.length < KEPT_ERRORS)
      this.errors.push({ at: (performance.now() - this.startedAt) / 1000, kind, what, detail });
  }
}

/** Runs `step` `ratePerSecond` times a second (as fast as it can with 0) until aborted; a late step is not made up for. */
async function paced(ratePerSecond: number, signal: AbortSignal, step: () => Promise<void>): Promise<void> {
  const interval = ratePerSecond > 0 ? 1000 / ratePerSecond : 0;
  let next = performance.now();
  while (!signal.aborted) {
    const wait = next - performance.now();
    if (wait > 0 && !(await pause(wait, signal))) return;
    await step();
    next += interval;
    // Behind by more than a second (the server stalled): carry on from now rather than burst.
    if (performance.now() - next > 1000) next = performance.now();
  }
}

/** Sleeps; false when aborted meanwhile. */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** A seeded generator (mulberry32): the same --seed makes the same sequence of requests. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ReaderOptions {
  baseUrl: string;
  apiKey: string;
  reads: ReadSet[];
  readers: number;
  /** Reads a second, over all readers; 0: as fast as they can. */
  ratePerSecond: number;
  /** Share of repeated reads sent with If-None-Match: the ETag this reader last got for the path. */
  conditionalShare: number;
  /** Share of reads of a kind that go to its hot paths (documents the writer changes). */
  hotShare: number;
  seed: number;
  tally: Tally;
  signal: AbortSignal;
}

export async function runReaders(options: ReaderOptions): Promise<void> {
  const kinds = options.reads.filter((r) => r.kind === 'polls' || r.paths.length > 0);
  const totalWeight = kinds.reduce((sum, r) => sum + r.weight, 0);
  const reader = async (index: number) => {
    const client = httpClient(options.baseUrl);
    const next = random(options.seed * 1000 + index);
    const etags = new Map<string, string>();
    // A poller asks for what changed since its previous poll: a new URL every time.
    let lastPoll = new Date(Date.now() - 60_000).toISOString();
    const choose = (): ReadSet => {
      let r = next() * totalWeight;
      for (const set of kinds) {
        r -= set.weight;
        if (r < 0) return set;
      }
      return kinds.at(-1) as ReadSet;
    };
    try {
      await paced(options.ratePerSecond / options.readers, options.signal, async () => {
        const set = choose();
        let path: string;
        if (set.kind === 'polls') {
          path = `${PUBLIC}/events?updatedSince=${encodeURIComponent(lastPoll)}`;
          lastPoll = new Date().toISOString();
        } else {
          const from = set.hot.length > 0 && next() < options.hotShare ? set.hot : set.paths;
          path = from[Math.floor(next() * from.length)] as string;
        }
        const etag = etags.get(path);
        const conditional = etag !== undefined && next() < options.conditionalShare;
        const headers: Record<string, string> = {
          'x-api-key': options.apiKey,
          ...(conditional ? { 'if-none-match': etag } : {}),
        };
        try {
          const answer = await client.send('GET', path, headers);
          if (
            options.tally.answer(set.kind, `GET ${path}`, answer, conditional ? [200, 304] : [200], conditional) &&
            answer.etag &&
            set.kind !== 'polls'
          )
            etags.set(path, answer.etag);
        } catch (error) {
          options.tally.failure(set.kind, `GET ${path}`, error);
        }
      });
    } finally {
      client.close();
    }
  };
  await Promise.all(Array.from({ length: options.readers }, (_, i) => reader(i)));
}

export interface WriterOptions {
  baseUrl: string;
  adminKey: string;
  writes: Record<WriteKind, WriteTarget[]>;
  ratePerSecond: number;
  /** Moves the parlay event's winner market every `winnerEverySeconds`; null: never. */
  winnerMove: ((n: number, updatedAt: string) => Record<string, unknown[]>) | null;
  winnerEverySeconds: number;
  tally: Tally;
  signal: AbortSignal;
}

export interface WriterStats {
  batches: Record<string, number>;
  /** Items the server did not update (identical or older): the writer's mistake, not the server's. */
  notUpdated: number;
}

/** Heat scores and odds in turn, futures every tenth batch, and the parlay event's winner price now and then. */
const PATTERN: WriteKind[] = [
  'heatScore',
  'odds',
  'roundScore',
  'odds',
  'heatScore',
  'odds',
  'roundScore',
  'odds',
  'heatScore',
  'futureOdds',
];

export async function runWriter(options: WriterOptions, stats: WriterStats): Promise<void> {
  const client = httpClient(options.baseUrl);
  const headers = { 'x-api-key': options.adminKey };
  const pattern = PATTERN.filter((kind) => options.writes[kind].length > 0);
  const sent: Record<string, number> = {};
  // updatedAt only moves forward: an item older than the stored one would be ignored.
  let last = Date.now();
  const stamp = () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last).toISOString();
  };
  let nextWinnerAt = performance.now() + options.winnerEverySeconds * 1000;
  let winnerMoves = 0;
  let i = 0;
  const post = async (kind: string, feed: Record<string, unknown[]>, collection: string, items: number) => {
    stats.batches[kind] = (stats.batches[kind] ?? 0) + 1;
    try {
      const answer = await client.send('POST', '/api/v1/admin/feed', headers, JSON.stringify(feed));
      if (options.tally.answer('feed', `POST feed (${kind})`, answer, [200])) {
        const counts = (
          JSON.parse(answer.body.toString('utf8')) as {
            collections: Record<string, { updated: number; inserted: number }>;
          }
        ).collections[collection];
        stats.notUpdated += items - ((counts?.updated ?? 0) + (counts?.inserted ?? 0));
      }
    } catch (error) {
      options.tally.failure('feed', `POST feed (${kind})`, error);
    }
  };
  try {
    await paced(options.ratePerSecond, options.signal, async () => {
      if (options.winnerMove && performance.now() >= nextWinnerAt) {
        nextWinnerAt += options.winnerEverySeconds * 1000;
        await post('winnerPrice', options.winnerMove(winnerMoves++, stamp()), 'odds', 1);
        return;
      }
      const kind = pattern[i++ % pattern.length] as WriteKind;
      const targets = options.writes[kind];
      const n = sent[kind] ?? 0;
      sent[kind] = n + 1;
      // Round robin over the targets; the k-th visit of a target moves it to its k-th value.
      const target = targets[n % targets.length] as WriteTarget;
      const { feed, collection, items } = target.batch(Math.floor(n / targets.length), stamp());
      await post(kind, feed, collection, items);
    });
  } finally {
    client.close();
  }
}

export async function runParlays(options: {
  baseUrl: string;
  apiKey: string;
  bodies: ParlayBody[];
  ratePerSecond: number;
  tally: Tally;
  signal: AbortSignal;
}): Promise<void> {
  if (options.bodies.length === 0 || options.ratePerSecond <= 0) return;
  const client = httpClient(options.baseUrl);
  let i = 0;
  try {
    await paced(options.ratePerSecond, options.signal, async () => {
      const parlay = options.bodies[i++ % options.bodies.length] as ParlayBody;
      try {
        options.tally.answer(
          'sgp',
          `POST ${parlay.path} (${parlay.label})`,
          await client.send('POST', parlay.path, { 'x-api-key': options.apiKey }, parlay.body),
          [201],
        );
      } catch (error) {
        options.tally.failure('sgp', `POST ${parlay.path} (${parlay.label})`, error);
      }
    });
  } finally {
    client.close();
  }
}

export interface StreamStats {
  label: string;
  query: string;
  /** Events received by type (`heatScore`, `odds`, ..., `ready`). */
  events: Record<string, number>;
  heartbeats: number;
  connects: number;
  /** Change ids skipped (an unfiltered client must see every one) and repeated. */
  missed: number;
  repeated: number;
  /** Unexpected ends of the stream, and answers other than 200. */
  errors: number;
}

export interface StreamOptions {
  baseUrl: string;
  apiKey: string;
  label: string;
  /** Query string of the stream URL, e.g. `?competition=wsl&kind=heatScore`; '' for every change. */
  query: string;
  /** Every change must arrive, each once and in order (true only without filters). */
  contiguous: boolean;
  /** Disconnect every this many seconds, wait `churnPauseSeconds`, resume with Last-Event-ID; 0: stay connected. */
  churnEverySeconds: number;
  churnPauseSeconds: number;
  tally: Tally;
  signal: AbortSignal;
}

/** A push-stream client: counts what arrives, checks ids when unfiltered, reconnects with Last-Event-ID when dropped. */
export function streamClient(options: StreamOptions): { stats: StreamStats; done: Promise<void> } {
  const stats: StreamStats = {
    label: options.label,
    query: options.query,
    events: {},
    heartbeats: 0,
    connects: 0,
    missed: 0,
    repeated: 0,
    errors: 0,
  };
  const url = new URL(`${options.baseUrl}${PUBLIC}/stream${options.query}`);
  let lastId: number | null = null;
  const fail = (detail: string) => {
    stats.errors += 1;
    options.tally.note('stream', `${options.label} stream`, detail);
  };

  const onEvent = (message: EventSourceMessage, resumed: boolean) => {
    const event = message.event ?? 'message';
    const id = message.id === undefined ? undefined : Number(message.id);
    stats.events[event] = (stats.events[event] ?? 0) + 1;
    if (event === 'reset') fail(`reset after id ${lastId}: the change log no longer reached back`);
    if (id === undefined) return;
    // A fresh connection's ready event says where it starts; a resumed one's carries no id.
    if (event === 'ready' && !resumed) {
      lastId = id;
      return;
    }
    if (lastId !== null && options.contiguous) {
      if (id <= lastId) {
        stats.repeated += 1;
        fail(`change ${id} came again or out of order (after ${lastId})`);
      } else if (id > lastId + 1) {
        stats.missed += id - lastId - 1;
        fail(`changes ${lastId + 1} to ${id - 1} never arrived`);
      }
    }
    if (lastId === null || id > lastId) lastId = id;
  };

  /** One connection; resolves when it ends (by us or by the server), with whether we ended it. */
  const connect = (): Promise<'aborted' | 'churn' | 'ended'> =>
    new Promise((resolve) => {
      const resumed = lastId !== null;
      const headers: Record<string, string> = {
        'x-api-key': options.apiKey,
        accept: 'text/event-stream',
        ...(resumed ? { 'last-event-id': String(lastId) } : {}),
      };
      let ending: 'aborted' | 'churn' | null = null;
      let req: ClientRequest;
      const finish = (how: 'aborted' | 'churn' | 'ended') => {
        clearTimeout(churnTimer);
        options.signal.removeEventListener('abort', onAbort);
        resolve(how);
      };
      const stop = (how: 'aborted' | 'churn') => {
        ending = how;
        req.destroy();
      };
      const onAbort = () => stop('aborted');
      const churnTimer =
        options.churnEverySeconds > 0 ? setTimeout(() => stop('churn'), options.churnEverySeconds * 1000) : undefined;
      options.signal.addEventListener('abort', onAbort, { once: true });
      req = request(url, { headers, agent: false }, (res) => {
        const ok = res.statusCode === 200;
        res.on('error', () => {});
        res.on('close', () => {
          if (ok && !ending) fail('the stream ended');
          finish(ending ?? 'ended');
        });
        if (!ok) {
          fail(`GET ${url.pathname}${url.search} answered ${res.statusCode}`);
          res.resume();
          return;
        }
        stats.connects += 1;
        res.setEncoding('utf8');
        const parser = createParser({
          onEvent: (message) => onEvent(message, resumed),
          onComment: (comment) => {
            if (comment.trimStart().startsWith('heartbeat')) stats.heartbeats += 1;
          },
        });
        res.on('data', (chunk: string) => parser.feed(chunk));
      });
      req.on('error', (error) => {
        if (ending) return finish(ending);
        fail(`stream request failed: ${error.message}`);
        finish('ended');
      });
      req.end();
      if (options.signal.aborted) stop('aborted');
    });

  const done = (async () => {
    while (!options.signal.aborted) {
      const how = await connect();
      if (how === 'aborted') return;
      // Dropped or churned: come back after a pause, resuming from the last id seen.
      await pause(how === 'churn' ? options.churnPauseSeconds * 1000 : 1000, options.signal);
    }
  })();
  return { stats, done };
}
