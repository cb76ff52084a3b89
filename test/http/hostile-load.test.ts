/**
 * The second hostile-client sweep (docs/decisions.md, "Hostile clients, second sweep") held together
 * under load: one server on loopback, and at once a hostile client per item of the sweep, each with
 * a key of its own. Each item has its own
 * test file that shows it alone (stream-key-changes, stream-tokens, document-builds, input-guard,
 * parlay-pricing, cli/serve-listen, the scoped routes' tests); here they run side by side, so that one
 * item's defence is seen not to give way to another's attack. Counts and order, never timings: every
 * client is bounded (a fixed number of requests, or the flood, which ends once the key it floods
 * against has its answers) and the test stops itself.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createApiKey, hashKey, revokeApiKey } from '../../src/access/api-keys.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { type BuildTally, cacheSettled, tallyBuilds } from '../helpers/build-tally.ts';
import { runCli, tempDir } from '../helpers/cli.ts';
import { freezeClock } from '../helpers/clock.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { rawExchange } from '../helpers/raw-http.ts';
import { type SseEvent, SseStream } from '../helpers/sse.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const REVOKED_KEY = 'hostile-revoked-0123456789';
const FLOOD_KEY = 'hostile-flood-0123456789';
const OTHER_KEY = 'hostile-other-0123456789';
const BUSTER_KEY = 'hostile-buster-0123456789';
/** The busting key's requests a minute: ten identical misses (one build, 5) leave 2, short of a second build. */
const BUSTER_PER_MINUTE = 16;
const BUILD_COST = 5;
const uuid = (n: number) => `42424242-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Twenty riders: 400,000 simulated orders a scope, long enough for draws to queue. */
const WIN = Array.from({ length: 20 }, (_, i) => (20 - i) / 210);
/** The flood's events (0 to 5) and the other key's two (6 and 7), none priced before. */
const EVENTS = 8;

interface Answer {
  status: number;
  body: string;
  headers: Headers;
}

/** Two legs a simulation prices: the third favourite wins, and the head-to-head of the favourites. */
function legs(n: number): string[] {
  const headToHead = fieldFeed(`h${n}`, uuid(n), WIN).odds?.find(
    (o) => o.id.includes(':headToHead:') && o.id.endsWith(`:h${n}-0`),
  );
  return [`${uuid(n)}:eventWinner:h${n}-2`, headToHead?.id ?? 'no head-to-head'];
}

/** The server on loopback: `call` sends one request over HTTP and reads its whole answer. */
function client(origin: string) {
  return async (path: string, key: string | null, init: RequestInit = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    if (key) headers['x-api-key'] = key;
    if (init.body) headers['content-type'] = 'application/json';
    const response = await fetch(`${origin}${path}`, { ...init, headers });
    return { status: response.status, body: await response.text(), headers: response.headers };
  };
}
type Call = ReturnType<typeof client>;

const post = (call: Call, key: string, n: number, route: 'sgp' | 'sgp/options') =>
  call(`${BASE}/events/spr:${uuid(n)}/${route}`, key, { method: 'POST', body: JSON.stringify({ oddIds: legs(n) }) });

/** The error body every refusal carries: its status, a message and the time. */
function assertErrorBody(answer: Answer, status: number, message: RegExp): void {
  assert.equal(answer.status, status, answer.body);
  const body = JSON.parse(answer.body) as { statusCode: number; message: string; timestamp: string };
  assert.equal(body.statusCode, status);
  assert.match(body.message, message);
  assert.equal(typeof body.timestamp, 'string');
}

/** Item 1: a revoked key's streams, by key and by token, end with a close that says why. */
async function revokedStreams(origin: string, call: Call, store: Store): Promise<SseEvent[]> {
  const issued = await call(`${BASE}/stream/tokens`, REVOKED_KEY, { method: 'POST' });
  assert.equal(issued.status, 201, issued.body);
  const { token } = JSON.parse(issued.body) as { token: string };
  const streams = [
    await SseStream.open(`${origin}${BASE}/stream`, { 'x-api-key': REVOKED_KEY }),
    await SseStream.open(`${origin}${BASE}/stream?token=${encodeURIComponent(token)}`),
  ];
  try {
    for (const stream of streams) assert.equal((await stream.nextEvent()).event, 'ready');
    const keys = await store.db.selectFrom('apiKeys').select(['id', 'name']).execute();
    await revokeApiKey(store, (keys.find((k) => k.name === 'revoked') as { id: string }).id);
    return await Promise.all(
      streams.map(async (stream) => {
        const events = await stream.eventsUntil((event) => event.event === 'close');
        await stream.ended;
        return events.at(-1) as SseEvent;
      }),
    );
  } finally {
    await Promise.all(streams.map((stream) => stream.close()));
  }
}

/** Item 2: tokens only the server signs. The statuses of a real token's stream and of three forgeries. */
async function forgedTokens(origin: string, call: Call, store: Store): Promise<number[]> {
  const issued = await call(`${BASE}/stream/tokens`, TEST_KEY, { method: 'POST' });
  const { token } = JSON.parse(issued.body) as { token: string };
  const [payload] = token.split('.') as [string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, number | string>;
  const secrets = await store.db.selectFrom('streamTokenSecrets').selectAll().execute();
  const secret = (secrets.find((s) => s.id === claims.s) as { secret: string }).secret;
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const sign = (key: string, text: string) =>
    createHmac('sha256', key).update(`altsports-stream-token:${text}`).digest('base64url');
  const overLong = encode({ ...claims, e: (claims.i as number) + 10 * 365 * 86_400 });
  const byKeyHash = encode({ k: claims.k, c: null, e: claims.e });
  const statuses: number[] = [];
  const real = await SseStream.open(`${origin}${BASE}/stream?token=${encodeURIComponent(token)}`);
  try {
    statuses.push(real.status);
    assert.equal((await real.nextEvent()).event, 'ready');
  } finally {
    await real.close();
  }
  for (const forged of [
    `${token}=`,
    `${overLong}.${sign(secret, overLong)}`,
    `${byKeyHash}.${sign(hashKey(TEST_KEY), byKeyHash)}`,
  ]) {
    const answer = await call(`${BASE}/stream?token=${encodeURIComponent(forged)}`, null);
    assertErrorBody(answer, 401, /stream token/);
    statuses.push(answer.status);
  }
  return statuses;
}

/** Item 3: ten identical misses at once, then a second document the key can no longer afford, then the first again. */
async function bustingMisses(call: Call): Promise<{ misses: Answer[]; unaffordable: Answer; cached: Answer }> {
  const misses = await Promise.all(Array.from({ length: 10 }, () => call(`${BASE}/events?limit=3`, BUSTER_KEY)));
  const unaffordable = await call(`${BASE}/events?limit=4`, BUSTER_KEY);
  const cached = await call(`${BASE}/events?limit=3`, BUSTER_KEY);
  return { misses, unaffordable, cached };
}

/**
 * Item 4: twenty clients of one key post bet-builder and parlay requests on the key's six events, each
 * as soon as its last is answered, until the other key has all its answers: five GET /sports, a bet
 * builder answer and a parlay, each on an event nobody priced (or until `stop`, when another item
 * failed). `log` records the order of answers.
 */
async function flood(call: Call, base: number, stop: AbortSignal) {
  const log: string[] = [];
  const floodAnswers: Answer[] = [];
  let otherDone = false;
  let inFlight = 0;
  let firstRefusal!: () => void;
  const refused = new Promise<void>((resolve) => {
    firstRefusal = resolve;
  });
  const flooder = async (i: number) => {
    for (let k = i; !otherDone && !stop.aborted; k++) {
      // Two events' bet builder (one build at a time) and four events' parlays (one draw in flight).
      const options = k % 3 === 0;
      inFlight += 1;
      const answer = await post(
        call,
        FLOOD_KEY,
        base + (options ? k % 2 : 2 + (k % 4)),
        options ? 'sgp/options' : 'sgp',
      );
      inFlight -= 1;
      floodAnswers.push(answer);
      log.push(`flood:${answer.status}`);
      if (answer.status === 429) firstRefusal();
    }
  };
  const other = async () => {
    await refused;
    const answers: Answer[] = [];
    for (let i = 0; i < 5; i++) answers.push(await call(`${BASE}/sports`, OTHER_KEY));
    answers.push(await post(call, OTHER_KEY, base + 6, 'sgp/options'));
    answers.push(await post(call, OTHER_KEY, base + 7, 'sgp'));
    for (const answer of answers) log.push(`other:${answer.status}`);
    const floodInFlight = inFlight;
    otherDone = true;
    return { answers, floodInFlight };
  };
  const [{ answers, floodInFlight }] = await Promise.all([
    other(),
    ...Array.from({ length: 20 }, (_, i) => flooder(i)),
  ]);
  return { log, floodAnswers, otherAnswers: answers, floodInFlight };
}

/** Item 5: bodies refused before they are read. */
async function bodies(port: number, call: Call): Promise<{ nested: Answer; declared: string[] }> {
  const nested = await call(`${BASE}/events/spr:${uuid(0)}/sgp`, TEST_KEY, {
    method: 'POST',
    body: '['.repeat(3 * 1024 * 1024),
  });
  const declared = await Promise.all(
    [false, true].map((expect) =>
      rawExchange(
        port,
        `POST ${BASE}/events/spr:${uuid(0)}/sgp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${TEST_KEY}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${300 * 1024 * 1024}\r\n${expect ? 'Expect: 100-continue\r\n' : ''}\r\n`,
      ),
    ),
  );
  return { nested, declared };
}

/** Item 6: a second `altsports serve` on the server's port. */
async function secondServe(port: number) {
  const { dir, cleanup } = await tempDir('altsports-hostile-');
  try {
    return await runCli(['serve'], { DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(port) }, 60_000);
  } finally {
    await cleanup();
  }
}

/**
 * Item 7: a key of one competition asks for an event of another, and for an event that does not
 * exist: each answer's body with its id written as <id>.
 */
async function existence(call: Call, base: number): Promise<Array<{ status: number; body: string }>> {
  return Promise.all(
    [`spr:${uuid(base)}`, `spr:${randomUUID()}`].map(async (id) => {
      const answer = await call(`${BASE}/events/${id}`, WSL_ONLY_KEY);
      return { status: answer.status, body: answer.body.replaceAll(id, '<id>') };
    }),
  );
}

async function hostileApp(store: Store, base: number) {
  for (let n = base; n < base + EVENTS; n++) await ingestFeed(store, fieldFeed(`h${n}`, uuid(n), WIN));
  const fixture = await fixtureApp(store, { STREAM_KEY_CHECK_SECONDS: '1', SGP_WORKERS: '2' });
  await createApiKey(store, { name: 'revoked', key: REVOKED_KEY });
  await createApiKey(store, { name: 'flood', key: FLOOD_KEY });
  await createApiKey(store, { name: 'other', key: OTHER_KEY });
  await createApiKey(store, { name: 'buster', key: BUSTER_KEY, ratePerMinute: BUSTER_PER_MINUTE });
  const tally: BuildTally = tallyBuilds(fixture.app);

  await fixture.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (fixture.app.server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const call = client(origin);
  // The events list, as the busting key's documents: built after the last change of the load has come.
  await cacheSettled(tally, (path) => call(`${BASE}${path}`, TEST_KEY), TEST_KEY, '/events?limit=1');
  return { app: fixture.app, port, origin, call, tally };
}

describeEachStore('hostile clients of the second sweep at once', (open, kind) => {
  // Simulations are held by the process: each store's run prices events of its own.
  const base = kind === 'sqlite' ? 0 : 100;
  test('each item holds while the others attack: one server on loopback, a hostile client per item', async (t) => {
    // Rate limits count by clock minute: the busting key's requests must fall in one.
    freezeClock(t);
    const store = await open();
    const { app, port, origin, call, tally } = await hostileApp(store, base);
    // An item that fails stops the flood, which would otherwise go on until the other key's answers.
    const stop = new AbortController();
    const stopping = <T>(item: Promise<T>) =>
      item.catch((error: unknown) => {
        stop.abort();
        throw error;
      });
    try {
      const [closes, tokens, busting, flooded, refusedBodies, serve, scoped] = await Promise.all([
        stopping(revokedStreams(origin, call, store)),
        stopping(forgedTokens(origin, call, store)),
        stopping(bustingMisses(call)),
        flood(call, base, stop.signal),
        stopping(bodies(port, call)),
        stopping(secondServe(port)),
        stopping(existence(call, base)),
      ]);

      // 1: both of the revoked key's streams end with a close naming the revocation.
      for (const close of closes)
        assert.deepEqual(close.json, { reason: 'keyRevoked', message: 'The API key of this stream was revoked.' });

      // 2: the server's token opens a stream; a padded one, one living past STREAM_TOKEN_SECONDS and one signed with the key's hash do not.
      assert.deepEqual(tokens, [200, 401, 401, 401]);

      // 3: ten identical misses build the document once and all get it, charged one build and nine lookups.
      const { misses, unaffordable, cached } = busting;
      assert.deepEqual(
        misses.map((a) => a.status),
        Array(10).fill(200),
      );
      assert.equal(new Set(misses.map((a) => a.body)).size, 1);
      assert.equal(tally.built.get(BUSTER_KEY), 1, 'built once');
      const remaining = Math.min(...misses.map((a) => Number(a.headers.get('x-ratelimit-remaining'))));
      assert.equal(remaining, BUSTER_PER_MINUTE - 10 - (BUILD_COST - 1));
      assertErrorBody(unaffordable, 429, /a document built afresh costs 5 requests/);
      assert.equal(cached.status, 200, 'a cached document still fits');

      // 4: the other key has every answer while the flood goes on; the flood is refused with the error body.
      const { log, floodAnswers, otherAnswers, floodInFlight } = flooded;
      assert.deepEqual(
        otherAnswers.map((a) => a.status),
        [200, 200, 200, 200, 200, 200, 201],
      );
      assert.ok(floodInFlight > 0, 'the flood was still in flight when the other key had its answers');
      const firstOther = log.findIndex((entry) => entry.startsWith('other:'));
      assert.ok(log.slice(0, firstOther).includes('flood:429'), `refused before the other key asked: ${log}`);
      assert.ok(
        floodAnswers.every((a) => a.status === 200 || a.status === 201 || a.status === 429),
        `only answers and refusals: ${[...new Set(floodAnswers.map((a) => a.status))]}`,
      );
      for (const answer of floodAnswers.filter((a) => a.status === 429)) {
        assertErrorBody(answer, 429, /SGP_SIMULATIONS_PER_KEY/);
        assert.match(String(answer.headers.get('retry-after')), /^[1-9]\d*$/);
      }
      assert.equal(tally.most.get(FLOOD_KEY), 1, "one of the flood's bet-builder answers composed at a time");
      // The other key's bet-builder answer is the one a quiet server gives.
      const again = await post(call, OTHER_KEY, base + 6, 'sgp/options');
      assert.equal(again.body, otherAnswers[5]?.body);

      // 5: a body nested past 64 is refused at its 65th byte; a declared length over the limit before its body, without a 100.
      assertErrorBody(refusedBodies.nested, 400, /nested more than 64 deep \(at byte 64\)/);
      for (const answer of refusedBodies.declared) {
        assert.equal(answer.split('\r\n')[0], 'HTTP/1.1 413 Payload Too Large', answer.slice(0, 400));
        assert.doesNotMatch(answer, /100 Continue/);
        assert.match(answer, /connection: close/i);
      }

      // 6: a second server on the port exits 1 naming it; the first goes on answering.
      assert.equal(serve.code, 1, serve.stderr);
      assert.match(serve.stderr, new RegExp(`cannot listen on HOST=127\\.0\\.0\\.1 PORT=${port}: .*EADDRINUSE`));
      assert.equal((await call('/healthz', null)).status, 200);

      // 7: an event of a competition the key cannot read is answered as one that does not exist.
      const [elsewhere, unknown] = scoped;
      assert.equal(elsewhere?.status, 404, String(elsewhere?.body));
      assert.deepEqual(elsewhere, unknown);
    } finally {
      await app.close();
    }
  });
});
