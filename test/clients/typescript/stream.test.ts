/**
 * The client's push-stream helper (`subscribe`) against running servers, and its SSE parser on its
 * own. No test waits on a clock: the client's `sleep` (its wait before reconnecting) is replaced by
 * a hook through which the test does what happens "while the client is away".
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import {
  AltsportsApiError,
  createClient,
  type StreamEvent,
  type StreamSubscription,
} from '../../../clients/typescript/src/index.ts';
import { loadConfig } from '../../../src/config.ts';
import { ingestFeed } from '../../../src/ingest/ingest-feed.ts';
import { ADMIN_KEY, buildTestApp, TEST_KEY } from '../../helpers/app.ts';
import { fixtureScoreChanges, WSL_LIVE } from '../../helpers/feed-fixture.ts';
import { recordingFetch, startServer } from './running-server.ts';

const BELLS = `wsl:${WSL_LIVE}`;

const { wslScore, maslGoals } = fixtureScoreChanges();

/** The subscription's next event, failing (not hanging) when none comes. */
async function next(subscription: StreamSubscription, within = 10_000): Promise<StreamEvent> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      subscription.next(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no stream event within ${within} ms`)), within);
      }),
    ]);
    assert.equal(result.done, false, 'the subscription ended');
    return result.value as StreamEvent;
  } finally {
    clearTimeout(timer);
  }
}

describe('typed client: subscribe to the push stream', () => {
  test('receives typed changes through its filters, reconnects after the server closes, and resumes with Last-Event-ID on another node', async () => {
    const nodeA = await startServer();
    // Node B: another app on the same store, as a second process on one database would be.
    const appB = await buildTestApp({
      // Configured as node A (fixtureApp): the fixture is loaded long in the past, and a bet stop on its
      // silence would take change ids this test counts.
      config: loadConfig({
        ADMIN_API_KEY: ADMIN_KEY,
        DEMO_DATA: 'off',
        RATE_LIMIT_PER_MINUTE: '0',
        FEED_STALE_SECONDS: '0',
      }),
      store: nodeA.store,
      logger: false,
    });
    await appB.listen({ port: 0, host: '127.0.0.1' });
    const baseB = `http://127.0.0.1:${(appB.server.address() as AddressInfo).port}`;
    // The load balancer: the client knows one address; it leads to A, then to B.
    let target = nodeA.baseUrl;
    const recorder = recordingFetch((url) => url.replace(nodeA.baseUrl, target));
    const slept: number[] = [];
    const reconnects: Array<{ reason: string; lastEventId: number | null }> = [];
    let whileAway: (() => Promise<void>) | null = null;
    const abort = new AbortController();
    try {
      const client = createClient({
        baseUrl: nodeA.baseUrl,
        apiKey: TEST_KEY,
        fetch: recorder.fetch,
        random: () => 1,
        sleep: async (ms) => {
          slept.push(ms);
          const run = whileAway;
          whileAway = null;
          await run?.();
        },
      });
      const subscription = client.subscribe({
        competition: ['wsl', 'masl'],
        eventId: [BELLS],
        kind: ['heatScore'],
        signal: abort.signal,
        onReconnect: ({ reason, lastEventId }) => reconnects.push({ reason, lastEventId }),
      });

      const ready = await next(subscription);
      assert.equal(ready.type, 'ready');
      assert.equal(typeof ready.id, 'number');
      assert.equal(ready.data.lastEventId, ready.id);
      const opened = new URL(recorder.exchanges[0]?.url ?? '');
      assert.equal(opened.pathname, '/api/v1/public/stream');
      assert.deepEqual(
        [
          opened.searchParams.getAll('competition'),
          opened.searchParams.getAll('eventId'),
          opened.searchParams.getAll('kind'),
        ],
        [['wsl', 'masl'], [BELLS], ['heatScore']],
      );
      assert.equal(
        recorder.exchanges[0]?.requestHeaders.get('last-event-id'),
        null,
        'a fresh subscription sends no Last-Event-ID',
      );

      // The masl change is another event: filtered out by the server; the wsl one comes.
      await nodeA.postFeed(maslGoals(3));
      await nodeA.postFeed(wslScore(6.5));
      const change = await next(subscription);
      assert.equal(change.type, 'heatScore');
      assert.equal(change.id, (ready.id as number) + 2, 'the masl change took the id in between');
      if (change.type !== 'heatScore') return;
      assert.deepEqual(
        Object.keys(change.data).sort(),
        ['competition', 'eventId', 'heatIds', 'publishedAt', 'roundIds', 'updatedAt'],
        'the fields HeatScoreChange declares',
      );
      assert.deepEqual(
        [change.data.eventId, change.data.competition, change.data.heatIds, change.data.roundIds],
        [BELLS, 'wsl', ['h-3'], []],
      );
      assert.equal(subscription.lastEventId, change.id);

      // Node A shuts down (it sends `close`). While the client waits to reconnect, a change is
      // written that it cannot see, and the balancer now leads to B.
      let missedId = 0;
      whileAway = async () => {
        const [missed] = (await ingestFeed(nodeA.store, wslScore(8.25))).changes;
        missedId = missed?.id ?? -1;
        target = baseB;
      };
      await nodeA.app.close();

      const resumed = await next(subscription);
      assert.deepEqual([resumed.type, resumed.id], ['ready', null], 'a resumed stream announces no new position');
      const replayed = await next(subscription);
      assert.deepEqual(
        [replayed.type, replayed.id],
        ['heatScore', missedId],
        'the change made while away is replayed, with no reset',
      );
      assert.equal(missedId, change.id + 1);

      assert.deepEqual(reconnects, [{ reason: 'close', lastEventId: change.id }]);
      // The server's `retry: 2000`, the whole of it with random() = 1.
      assert.deepEqual(slept, [2000]);
      const reconnection = recorder.exchanges[1];
      assert.equal(reconnection?.requestHeaders.get('last-event-id'), String(change.id));
      assert.equal(reconnection?.status, 200);
      assert.equal(recorder.exchanges.length, 2);

      // Aborting ends the iteration quietly.
      abort.abort();
      assert.deepEqual(await subscription.next(), { done: true, value: undefined });
    } finally {
      abort.abort();
      await appB.close();
      await nodeA.close();
    }
  });

  test('a dropped connection is retried with a doubling delay until it reconnects', async () => {
    const server = await startServer();
    // Refuses the first two reconnections as a crashed node would, then lets through.
    let refusals = 0;
    let dropCurrent: (() => void) | null = null;
    const slept: number[] = [];
    const reasons: string[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      apiKey: TEST_KEY,
      random: () => 1,
      sleep: async (ms) => void slept.push(ms),
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        if (dropCurrent && refusals < 2) {
          refusals += 1;
          throw new TypeError('fetch failed');
        }
        const connection = new AbortController();
        const outer = init?.signal;
        outer?.addEventListener('abort', () => connection.abort(), { once: true });
        dropCurrent = () => connection.abort();
        return fetch(input, { ...init, signal: connection.signal });
      }) as typeof fetch,
    });
    const subscription = client.subscribe({
      kind: ['heatScore'],
      reconnect: { initialDelayMs: 500 },
      onReconnect: ({ reason }) => reasons.push(reason),
    });
    try {
      const ready = await next(subscription);
      assert.equal(ready.type, 'ready');
      await server.postFeed(wslScore(4));
      const before = await next(subscription);
      assert.equal(before.type, 'heatScore');
      const beforeId = before.id as number;
      (dropCurrent as (() => void) | null)?.();
      await server.postFeed(wslScore(5));
      // Reconnected with Last-Event-ID: the change is there whether it came before or after the reconnection.
      const resumed = await next(subscription);
      assert.deepEqual([resumed.type, resumed.id], ['ready', null]);
      const missed = await next(subscription);
      assert.deepEqual([missed.type, missed.id], ['heatScore', beforeId + 1]);
      assert.deepEqual(reasons, ['error', 'error', 'error']);
      // The server's retry (2000 ms) doubles with each failed attempt.
      assert.deepEqual(slept, [2000, 4000, 8000]);
    } finally {
      subscription.close();
      await server.close();
    }
  });

  test('a resume the change log no longer reaches gives a reset', async () => {
    // A log of two changes: the fixture's own loading has pushed change 1 out.
    const server = await startServer({ store: { changeLogSize: 2 }, feeds: [wslScore(1), maslGoals(1), wslScore(2)] });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
    const subscription = client.subscribe({ lastEventId: 1 });
    try {
      const ready = await next(subscription);
      assert.deepEqual([ready.type, ready.id], ['ready', null]);
      const reset = await next(subscription);
      assert.equal(reset.type, 'reset');
      if (reset.type !== 'reset') return;
      assert.equal(reset.data.reason, 'resume');
      assert.match(reset.data.message, /no longer in the change log/);
      assert.equal(subscription.lastEventId, reset.id, 'the position moves to where the refetch stands');
      assert.equal(reset.id, ready.type === 'ready' ? ready.data.lastEventId : -1);
    } finally {
      subscription.close();
      await server.close();
    }
  });

  test('catchUp reads what was missed from GET /changes, page by page, then follows the stream from there', async () => {
    const server = await startServer();
    const recorder = recordingFetch((url) => url);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY, fetch: recorder.fetch });
    const start = (await ingestFeed(server.store, maslGoals(1))).changes[0]?.id as number;
    await ingestFeed(server.store, wslScore(2));
    await ingestFeed(server.store, maslGoals(2));
    await ingestFeed(server.store, wslScore(3));
    const subscription = client.catchUp({ after: start, limit: 1, competition: ['wsl'] });
    try {
      const missed = [await next(subscription), await next(subscription)];
      assert.deepEqual(
        missed.map((e) => [e.type, e.id]),
        [
          ['heatScore', start + 1],
          ['heatScore', start + 3],
        ],
      );
      const read = recorder.exchanges.map((e) => new URL(e.url));
      assert.ok(read.every((url) => url.pathname === '/api/v1/public/changes'));
      assert.deepEqual(
        read.map((url) => url.searchParams.get('after')),
        [String(start), String(start + 1)],
      );
      assert.equal(subscription.lastEventId, start + 3);
      const ready = await next(subscription);
      assert.deepEqual([ready.type, ready.id], ['ready', null]);
      const opened = recorder.exchanges.at(-1);
      assert.equal(new URL(opened?.url ?? '').pathname, '/api/v1/public/stream');
      assert.equal(opened?.requestHeaders.get('last-event-id'), String(start + 3));
      await server.postFeed(wslScore(4));
      const live = await next(subscription);
      assert.deepEqual([live.type, live.id], ['heatScore', start + 4]);
      if (live.type === 'heatScore') assert.equal(typeof live.data.publishedAt, 'string');
    } finally {
      subscription.close();
      await server.close();
    }
  });

  test('catchUp from an id the log no longer holds gives a reset, then follows the stream', async () => {
    const server = await startServer({ store: { changeLogSize: 2 }, feeds: [wslScore(1), maslGoals(1), wslScore(2)] });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
    const subscription = client.catchUp({ after: 1 });
    try {
      const reset = await next(subscription);
      assert.equal(reset.type, 'reset');
      if (reset.type !== 'reset') return;
      assert.equal(reset.data.reason, 'resume');
      assert.match(reset.data.message, /re-read the documents/);
      const last = (await ingestFeed(server.store, wslScore(9))).changes[0]?.id as number;
      assert.equal(reset.id, last - 1, 'the position is the end of the log when the 410 came');
      assert.equal((await next(subscription)).type, 'ready');
      assert.deepEqual((await next(subscription)).id, last);
    } finally {
      subscription.close();
      await server.close();
    }
  });

  test('catchUp from an id ahead of the log (a 400 on after) gives a reset saying so, then follows the stream', async () => {
    const server = await startServer({ feeds: [wslScore(1)] });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
    const subscription = client.catchUp({ after: 99_999 });
    try {
      const reset = await next(subscription);
      assert.equal(reset.type, 'reset');
      if (reset.type !== 'reset') return;
      assert.equal(reset.data.reason, 'resume');
      assert.match(reset.data.message, /ahead of the change log/);
      assert.equal((await next(subscription)).type, 'ready');
      const last = (await ingestFeed(server.store, wslScore(9))).changes[0]?.id as number;
      assert.equal(reset.id, last - 1, 'the position is the end of the log when the 400 came');
      assert.deepEqual((await next(subscription)).id, last);
    } finally {
      subscription.close();
      await server.close();
    }
  });

  test('a refused subscription (401, 400) ends the iteration with AltsportsApiError', async () => {
    const server = await startServer();
    try {
      const badKey = createClient({ baseUrl: server.baseUrl, apiKey: 'no-such-key-0123456789' });
      await assert.rejects(
        badKey.subscribe().next(),
        (error: unknown) => error instanceof AltsportsApiError && error.status === 401 && error.requestId !== null,
      );
      const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
      await assert.rejects(
        client.subscribe({ eventId: ['not-an-event-id'] }).next(),
        (error: unknown) =>
          error instanceof AltsportsApiError && error.status === 400 && /not an event id/.test(error.serverMessage),
      );
    } finally {
      await server.close();
    }
  });

  test('close() and break end the subscription and its connection', async () => {
    const server = await startServer();
    try {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
      const seen: string[] = [];
      for await (const event of client.subscribe()) {
        seen.push(event.type);
        break;
      }
      assert.deepEqual(seen, ['ready']);
      const subscription = client.subscribe();
      assert.equal((await next(subscription)).type, 'ready');
      subscription.close();
      assert.deepEqual(await subscription.next(), { done: true, value: undefined });
      // The server sees both connections closed (it learns of it as the sockets close, so wait for it).
      const connected = async () => (await server.app.metrics.streamClients.get()).values[0]?.value;
      for (let tries = 0; tries < 100 && (await connected()) !== 0; tries += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await connected(), 0);
    } finally {
      await server.close();
    }
  });
});

describe('subscribe: the stream text, however it is split', () => {
  const STREAM =
    '\uFEFFretry: 1500\n\n: heartbeat 2026-01-01T00:00:00Z\n\nid: 41\nevent: ready\ndata: {"lastEventId":41}\n\n' +
    'id: 42\r\nevent: heatScore\r\ndata: {"eventId":"wsl:x",\r\ndata: "heatIds":[]}\r\n\r\n' +
    'event: ready\rdata: {"lastEventId":42}\r\rid: 43\nevent: future\nfoo: bar\ndata: {}\n\nevent: close\ndata: {}\n\n';

  /** A fetch whose one stream answer arrives in the given pieces. */
  const answering = (pieces: string[]) =>
    (async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
            controller.close();
          },
        }),
        { status: 200, headers: { 'content-type': 'text/event-stream' } },
      )) as unknown as typeof fetch;

  test('events, ids, the retry delay, a BOM, CR and CRLF line ends and unknown fields, cut anywhere', async () => {
    for (let cut = 0; cut <= STREAM.length; cut += 1) {
      const reconnected: Array<{ reason: string; delayMs: number; lastEventId: number | null }> = [];
      const abort = new AbortController();
      const client = createClient({
        baseUrl: 'http://127.0.0.1:1',
        apiKey: TEST_KEY,
        random: () => 1,
        sleep: async () => abort.abort(),
        fetch: answering([STREAM.slice(0, cut), STREAM.slice(cut)]),
      });
      const seen: Array<[string, number | null]> = [];
      for await (const event of client.subscribe({
        signal: abort.signal,
        onReconnect: ({ reason, delayMs, lastEventId }) => reconnected.push({ reason, delayMs, lastEventId }),
      }))
        seen.push([event.type, event.id]);
      assert.deepEqual(
        seen,
        [
          ['ready', 41],
          ['heatScore', 42],
          ['ready', null],
          ['future', 43],
        ],
        `split at ${cut}`,
      );
      assert.deepEqual(reconnected, [{ reason: 'close', delayMs: 1500, lastEventId: 43 }], `split at ${cut}`);
    }
  });
});
