/**
 * GET /api/v1/public/stream over real HTTP: a server-sent events stream of the change log,
 * filtered by key, competition, event and kind; resumed with Last-Event-ID; heartbeats; a last
 * `close` when the server shuts down.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { StoredChange } from '../../src/domain/changes.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { changesRepository } from '../../src/store/repositories/changes-repository.ts';
import { ADMIN_KEY, fixtureApp, TEST_KEY, type TestApp, WSL_ONLY_KEY } from '../helpers/app.ts';
import { MASL_GAME, WSL_LIVE, WSL_PAST } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { type SseEvent, SseStream } from '../helpers/sse.ts';
import { describeEachStore, openTestStore, type TestStore } from '../helpers/stores.ts';

const STREAM = '/api/v1/public/stream';
/** The shared store's change log: small, so that a client can fall behind it. */
const LOG_SIZE = 8;

let clock = Date.parse('2026-06-01T00:00:00.000Z');
const later = (): string => {
  clock += 60_000;
  return new Date(clock).toISOString();
};

/** Batches of one change each (one log record), or two where said. */
const changes = {
  /** wsl event A (WSL_LIVE): a surfer's score in heat h-3: heatScore. */
  wslA: (score: number): FeedDocument => ({
    heatEntries: [{ id: 'e-h3-b', heatId: 'h-3', athleteId: 'ath-2', seed: 2, heatScore: score, updatedAt: later() }],
  }),
  /** wsl event B (WSL_PAST): a round: heatScore. */
  wslB: (n: number): FeedDocument => ({
    rounds: [
      {
        id: 'r-past-1',
        eventId: WSL_PAST,
        roundName: `Final ${n}`,
        roundNo: 1,
        roundStatus: 'COMPLETED',
        updatedAt: later(),
      },
    ],
  }),
  /** masl game: a period's score: heatScore. */
  masl: (goals: number): FeedDocument => ({
    roundScores: [{ id: 'rs-1', roundId: 'r-masl-1', teamId: 'sockers', goals, updatedAt: later() }],
  }),
  /** spr event: a price: odds. */
  sprPrice: (price: number): FeedDocument => ({
    odds: [{ id: 'o-sx-win-a', marketId: 'm-sx-win', athleteId: 'sx-a', position: 1, odds: price, updatedAt: later() }],
  }),
  /** spr event: an operator settlement: odds, then settlement. */
  sprSettled: (settlement: 'WIN' | 'LOSE'): FeedDocument => ({
    odds: [{ id: 'o-sx-prop-no', marketId: 'm-sx-prop', name: 'No', odds: 1.3, settlement, updatedAt: later() }],
  }),
  /** An athlete renamed: a reset, which every client gets whatever its filters. */
  reset: (n: number): FeedDocument => ({
    athletes: [
      {
        id: 'ath-1',
        firstName: 'Italo',
        lastName: `Ferreira ${n}`,
        nationality: 'BRA',
        stance: 'Regular',
        updatedAt: later(),
      },
    ],
  }),
};

async function ingest(store: Store, batch: FeedDocument): Promise<StoredChange[]> {
  return (await ingestFeed(store, batch)).changes;
}

/** Ingests a batch of exactly one change. */
async function one(store: Store, batch: FeedDocument): Promise<StoredChange> {
  const logged = await ingest(store, batch);
  assert.equal(logged.length, 1, `one change: ${logged.map((c) => c.kind).join(', ')}`);
  return logged[0] as StoredChange;
}

interface Server {
  testApp: TestApp;
  base: string;
  store: Store;
  open(query?: string, headers?: Record<string, string>): Promise<SseStream>;
}

/** The app over the fixture, its results and odds, listening on a free port. */
async function serve(store: Store, env: Record<string, string> = {}): Promise<Server> {
  const testApp = await fixtureApp(store, env);
  await ingestFeed(store, resultsFeed());
  await ingestFeed(store, oddsFeed());
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  return {
    testApp,
    base,
    store,
    open: (query = '', headers = { 'x-api-key': TEST_KEY }) => SseStream.open(`${base}${STREAM}${query}`, headers),
  };
}

/** Opens a stream and reads up to its `ready` event, checking what comes before. */
async function ready(
  server: Server,
  query = '',
  headers: Record<string, string> = { 'x-api-key': TEST_KEY },
): Promise<{ stream: SseStream; ready: SseEvent }> {
  const stream = await server.open(query, headers);
  assert.equal(stream.status, 200, `${query}: ${stream.status === 200 ? '' : await stream.text()}`);
  const first = await stream.next();
  assert.equal(typeof first.retry, 'number', 'the stream starts with a retry field');
  const event = await stream.nextEvent();
  assert.equal(event.event, 'ready', `${query}: ready comes first`);
  return { stream, ready: event };
}

const idsOf = (events: SseEvent[]) => events.map((e) => [Number(e.id), e.event]);
const expected = (...changes: StoredChange[]) => changes.map((c) => [c.id, c.kind]);

describeEachStore('stream', (open, kind) => {
  // One server for most tests (an app costs about a second to build); heartbeats every second.
  let opened: TestStore;
  let server: Server;
  const streams: SseStream[] = [];
  before(async () => {
    opened = await openTestStore(kind, { changeLogSize: LOG_SIZE });
    // The tests keep their streams open until the end: more than one key's default share.
    server = await serve(opened.store, { STREAM_HEARTBEAT_SECONDS: '1', STREAM_MAX_PER_KEY: '1000' });
  });
  after(async () => {
    for (const stream of streams) await stream.close();
    await server.testApp.app.close();
    await opened.cleanup();
  });
  const track = <T extends { stream: SseStream }>(value: T): T => {
    streams.push(value.stream);
    return value;
  };
  const lastId = async () => (await changesRepository(server.store.db).bounds()).last;

  test('refusals are ordinary JSON errors: 401 without a key, 400 naming the parameter, 403 outside the key', async () => {
    const cases: Array<{ query: string; headers: Record<string, string>; status: number; parameter?: string }> = [
      { query: '', headers: {}, status: 401 },
      { query: '', headers: { 'x-api-key': 'not-a-key-0123456789' }, status: 401 },
      { query: '?eventId=nonsense', headers: { 'x-api-key': TEST_KEY }, status: 400, parameter: 'eventId' },
      {
        query: `?eventId=${WSL_LIVE}&eventId=nonsense`,
        headers: { 'x-api-key': TEST_KEY },
        status: 400,
        parameter: 'eventId',
      },
      { query: '?kind=everything', headers: { 'x-api-key': TEST_KEY }, status: 400, parameter: 'kind' },
      { query: '?competition=nope', headers: { 'x-api-key': TEST_KEY }, status: 400, parameter: 'competition' },
      { query: '?lastEventId=-1', headers: { 'x-api-key': TEST_KEY }, status: 400, parameter: 'lastEventId' },
      {
        query: '',
        headers: { 'x-api-key': TEST_KEY, 'last-event-id': 'abc' },
        status: 400,
        parameter: 'last-event-id',
      },
      {
        query: '?lastEventId=3',
        headers: { 'x-api-key': TEST_KEY, 'last-event-id': '4' },
        status: 400,
        parameter: 'lastEventId',
      },
      { query: '?competition=spr', headers: { 'x-api-key': WSL_ONLY_KEY }, status: 403 },
      { query: '?competition=wsl,spr', headers: { 'x-api-key': WSL_ONLY_KEY }, status: 403 },
      { query: `?eventId=spr:${SPR_EVENT}`, headers: { 'x-api-key': WSL_ONLY_KEY }, status: 403 },
    ];
    for (const c of cases) {
      const what = `${c.query} ${JSON.stringify(c.headers)}`;
      const response = await fetch(`${server.base}${STREAM}${c.query}`, { headers: c.headers });
      assert.equal(response.status, c.status, what);
      assert.match(
        String(response.headers.get('content-type')),
        /^application\/json/,
        `${what}: a JSON error, not a stream`,
      );
      const body = (await response.json()) as {
        statusCode: number;
        message: string;
        metadata: Record<string, unknown>;
      };
      assert.equal(body.statusCode, c.status, what);
      assert.equal(typeof body.message, 'string', what);
      if (c.parameter) {
        assert.equal(body.metadata.parameter, c.parameter, `${what}: names the parameter`);
        assert.ok(body.message.includes(c.parameter), `${what}: the message names the parameter: ${body.message}`);
      }
    }
  });

  test('ready, then a heat change ingested through the admin route arrives as heatScore', async () => {
    const { stream, ready: first } = track(await ready(server));
    assert.match(String(stream.headers.get('content-type')), /^text\/event-stream/);
    assert.match(String(stream.headers.get('cache-control')), /no-cache/);
    const last = await lastId();
    assert.equal(first.id, String(last), 'ready carries the id of the last change');
    assert.deepEqual(first.json, { lastEventId: last });

    const response = await fetch(`${server.base}/api/v1/admin/feed`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(changes.wslA(6.5)),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const [change] = await stream.events(1);
    assert.equal(change?.event, 'heatScore');
    assert.equal(change?.id, String(last + 1));
    const data = change?.json as Record<string, unknown>;
    assert.equal(data.eventId, `wsl:${WSL_LIVE}`, "the event's public id");
    assert.equal(data.competition, 'wsl');
    assert.deepEqual(data.heatIds, ['h-3']);
    assert.deepEqual(data.roundIds, []);
    assert.equal(typeof data.updatedAt, 'string');
  });

  test('filters: competition, eventId (prefixed or bare), kind (repeated or a comma list), and the key', async () => {
    const filters = {
      all: '',
      masl: '?competition=masl',
      wslAndMasl: '?competition=wsl&competition=masl',
      wslCommaMasl: '?competition=wsl,masl',
      prefixed: `?eventId=wsl:${WSL_LIVE}`,
      bare: `?eventId=${WSL_LIVE}`,
      twoEvents: `?eventId=${WSL_LIVE},masl:${MASL_GAME}`,
      settlement: '?kind=settlement',
      oddsComma: '?kind=odds,settlement',
      oddsRepeated: '?kind=odds&kind=settlement',
      sprHeatScore: '?competition=spr&kind=heatScore',
    };
    const opened = Object.fromEntries(
      await Promise.all(
        Object.entries(filters).map(async ([name, query]) => [name, track(await ready(server, query)).stream] as const),
      ),
    );
    const wslOnly = track(await ready(server, '', { 'x-api-key': WSL_ONLY_KEY })).stream;
    const wslOnlyEvent = track(await ready(server, `?eventId=${WSL_PAST}`, { 'x-api-key': WSL_ONLY_KEY })).stream;

    const A = await one(server.store, changes.wslA(7.25));
    const M = await one(server.store, changes.masl(3));
    const P = await one(server.store, changes.sprPrice(2.65));
    const [O, S] = (await ingest(server.store, changes.sprSettled('LOSE'))) as [StoredChange, StoredChange];
    const B = await one(server.store, changes.wslB(1));
    const R = await one(server.store, changes.reset(1));
    assert.deepEqual(
      [A, M, P, O, S, B, R].map((c) => c?.kind),
      ['heatScore', 'heatScore', 'odds', 'odds', 'settlement', 'heatScore', 'reset'],
    );

    const want: Record<keyof typeof filters, StoredChange[]> = {
      all: [A, M, P, O, S, B, R],
      masl: [M, R],
      wslAndMasl: [A, M, B, R],
      wslCommaMasl: [A, M, B, R],
      prefixed: [A, R],
      bare: [A, R],
      twoEvents: [A, M, R],
      settlement: [S, R],
      oddsComma: [P, O, S, R],
      oddsRepeated: [P, O, S, R],
      sprHeatScore: [R],
    };
    const untilReset = (event: SseEvent) => event.event === 'reset';
    for (const [name, stream] of Object.entries(opened)) {
      assert.deepEqual(
        idsOf(await stream.eventsUntil(untilReset)),
        expected(...want[name as keyof typeof filters]),
        `${name}: ${filters[name as keyof typeof filters]}`,
      );
    }
    assert.deepEqual(
      idsOf(await wslOnly.eventsUntil(untilReset)),
      expected(A, B, R),
      'the wsl-only key gets no spr nor masl change',
    );
    assert.deepEqual(idsOf(await wslOnlyEvent.eventsUntil(untilReset)), expected(B, R), 'the wsl-only key, one event');
    // What a change event carries, on every stream alike.
    const seen = opened.all?.received.find((m) => m.id === String(P.id));
    assert.deepEqual(JSON.parse(seen?.data as string), { ...P.data, publishedAt: P.createdAt });
  });

  for (const how of ['the Last-Event-ID header', 'the lastEventId parameter'] as const) {
    test(`resuming with ${how}: exactly the changes after it, then live ones, no duplicate`, async () => {
      const first = track(await ready(server));
      await first.stream.close();
      const c1 = await one(server.store, changes.wslA(8.1));
      const c2 = await one(server.store, changes.masl(4));
      const c3 = await one(server.store, changes.wslB(2));
      const resume: { query: string; headers: Record<string, string> } =
        how === 'the Last-Event-ID header'
          ? { query: '', headers: { 'x-api-key': TEST_KEY, 'last-event-id': String(c1.id) } }
          : { query: `?lastEventId=${c1.id}`, headers: { 'x-api-key': TEST_KEY } };
      const { stream } = track(await ready(server, resume.query, resume.headers));
      assert.deepEqual(
        idsOf(await stream.events(2)),
        expected(c2, c3),
        'the changes after the one given, from the log',
      );
      const c4 = await one(server.store, changes.wslA(8.2));
      const c5 = await one(server.store, changes.masl(5));
      assert.deepEqual(idsOf(await stream.events(2)), expected(c4, c5), 'then live changes, none twice');
      // Resuming from the last change: nothing to replay, live from there.
      const { stream: upToDate } = track(
        await ready(server, '', { 'x-api-key': TEST_KEY, 'last-event-id': String(c5.id) }),
      );
      const c6 = await one(server.store, changes.wslB(3));
      assert.deepEqual(idsOf(await upToDate.events(1)), expected(c6));
    });
  }

  test('resuming while changes keep coming: the replay and the live changes meet without a hole or a duplicate', async () => {
    const { stream: before } = track(await ready(server));
    await before.close();
    const missed = [
      ...(await ingest(server.store, changes.masl(30))),
      ...(await ingest(server.store, changes.wslA(3.3))),
    ];
    const from = (missed[0] as StoredChange).id;
    // Changes committed while the resuming client connects and replays (within the log's reach).
    const writing = (async () => {
      const written: StoredChange[] = [];
      for (let i = 0; i < LOG_SIZE - missed.length; i++)
        written.push(...(await ingest(server.store, i % 2 ? changes.masl(31 + i) : changes.wslB(10 + i))));
      return written;
    })();
    const { stream } = track(await ready(server, '', { 'x-api-key': TEST_KEY, 'last-event-id': String(from) }));
    const written = await writing;
    const all = [...missed.slice(1), ...written];
    assert.deepEqual(idsOf(await stream.events(all.length)), expected(...all));
    const sentinel = await one(server.store, changes.wslA(3.4));
    assert.deepEqual(idsOf(await stream.events(1)), expected(sentinel), 'nothing came twice before the next change');
  });

  test('resuming from further back than the log reaches: a reset (reason resume) carrying the current position, then live changes', async () => {
    const { stream: before } = track(await ready(server));
    const from = await lastId();
    await before.close();
    const logged: StoredChange[] = [];
    for (let i = 0; i < LOG_SIZE + 2; i++) logged.push(...(await ingest(server.store, changes.masl(10 + i))));
    const held = logged.slice(-LOG_SIZE);
    assert.deepEqual(
      (await changesRepository(server.store.db).since(0, 100)).map((c) => c.id),
      held.map((c) => c.id),
      'the log holds only its last entries',
    );

    const { stream } = track(await ready(server, '', { 'x-api-key': TEST_KEY, 'last-event-id': String(from) }));
    const [reset] = await stream.events(1);
    assert.equal(reset?.event, 'reset');
    assert.equal((reset?.json as { reason: string } | undefined)?.reason, 'resume');
    assert.equal(typeof (reset?.json as { message: string } | undefined)?.message, 'string');
    assert.equal(
      reset?.id,
      String((held.at(-1) as StoredChange).id),
      'a reconnection resumes after the refetch, not from the lost id',
    );
    const live = await one(server.store, changes.masl(77));
    assert.deepEqual(idsOf(await stream.events(1)), expected(live), 'no partial replay: the client refetches anyway');

    // Resuming right before the oldest held change is complete: no reset.
    const nowHeld = await changesRepository(server.store.db).since(0, 100);
    const { stream: justInTime } = track(
      await ready(server, '', { 'x-api-key': TEST_KEY, 'last-event-id': String((nowHeld[0] as StoredChange).id - 1) }),
    );
    assert.deepEqual(idsOf(await justInTime.events(nowHeld.length)), expected(...nowHeld));

    // An id the log never had (a client of another server): a reset too, then live changes.
    const { stream: stranger } = track(await ready(server, '', { 'x-api-key': TEST_KEY, 'last-event-id': '999999' }));
    const [strangerReset] = await stranger.events(1);
    assert.equal(strangerReset?.event, 'reset');
    assert.equal((strangerReset?.json as { reason: string } | undefined)?.reason, 'resume');
    assert.equal(strangerReset?.id, String(await lastId()), "its id is this server's position");
    assert.match(
      (strangerReset?.json as { message: string } | undefined)?.message ?? '',
      /^Change id 999999 is ahead of the change log/,
      'it says the id is ahead, not that it expired',
    );
    const next = await one(server.store, changes.wslA(9.5));
    assert.deepEqual(idsOf(await stranger.events(1)), expected(next));
  });

  test('a key holds at most STREAM_MAX_PER_KEY streams: the next is a 429 with the error body, until one closes', async () => {
    const limited = await serve(await open(), { STREAM_MAX_PER_KEY: '2' });
    const held: SseStream[] = [];
    try {
      for (let i = 0; i < 2; i++) held.push((await ready(limited)).stream);
      const refused = await limited.open();
      assert.equal(refused.status, 429);
      const body = JSON.parse(await refused.text());
      assert.equal(body.statusCode, 429);
      assert.match(body.message, /Too many streams: this API key holds 2 open/);
      assert.deepEqual(body.metadata, { openStreams: 2, limit: 2 });
      held.push((await ready(limited, '', { 'x-api-key': WSL_ONLY_KEY })).stream);
      await held.shift()?.close();
      // The server learns of the close when the socket ends: the next open waits for that, boundedly.
      for (let attempt = 0; ; attempt++) {
        const again = await limited.open();
        if (again.status === 200) {
          held.push(again);
          break;
        }
        await again.text();
        assert.ok(attempt < 50, 'a stream slot came free once one closed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      for (const stream of held) await stream.close();
      await limited.testApp.app.close();
    }
  });

  test('a heartbeat comment comes every STREAM_HEARTBEAT_SECONDS', async () => {
    const { stream } = track(await ready(server));
    let message = await stream.next(5_000);
    while (message.comments.length === 0) message = await stream.next(5_000);
    assert.match(message.comments[0] as string, /^heartbeat \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.equal(message.event, undefined, 'a comment, not an event');
    assert.equal(message.id, undefined, 'a heartbeat moves no Last-Event-ID');
  });

  test('the OpenAPI document lists the stream with a text/event-stream response', async () => {
    const response = await server.testApp.app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = JSON.parse(response.body) as {
      paths: Record<
        string,
        {
          get?: {
            description?: string;
            parameters?: Array<{ name: string; in: string }>;
            responses: Record<string, { content?: Record<string, unknown> }>;
          };
        }
      >;
    };
    const operation = document.paths[STREAM]?.get;
    assert.ok(operation, `${STREAM} is documented`);
    assert.ok(operation.responses['200']?.content?.['text/event-stream'], 'a text/event-stream 200 response');
    assert.match(String(operation.description), /Last-Event-ID/);
    const parameters = (operation.parameters ?? []).map((p) => `${p.in}:${p.name}`);
    for (const parameter of [
      'query:competition',
      'query:eventId',
      'query:kind',
      'query:lastEventId',
      'header:last-event-id',
    ]) {
      assert.ok(parameters.includes(parameter), `${parameter} in ${parameters.join(', ')}`);
    }
  });

  test('closing the app sends close to every open stream, then ends it', async () => {
    const own = await openTestStore(kind);
    try {
      const closing = await serve(own.store);
      const one = await ready(closing);
      const two = await ready(closing, '?competition=masl');
      const closed = closing.testApp.app.close();
      for (const { stream } of [one, two]) {
        const [event] = await stream.events(1);
        assert.equal(event?.event, 'close');
        assert.equal(typeof (event?.json as { message: string } | undefined)?.message, 'string');
        await stream.ended;
        await assert.rejects(stream.next(1_000), /ended/, 'nothing after close');
      }
      await closed;
    } finally {
      await own.cleanup();
    }
  });
});
