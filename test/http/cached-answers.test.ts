import assert from 'node:assert/strict';
import { Agent, get, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../src/access/api-keys.ts';
import { loadConfig } from '../../src/config.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { ADMIN_KEY, buildTestApp, fixtureApp, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { freezeClock } from '../helpers/clock.ts';
import { fixtureFeed, MASL_GAME, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { describeEachStore, openTestStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const EVENT = `${BASE}/events/${WSL_LIVE}`;
const LIMITED_KEY = 'cached-limited-0123456789';
/** Headers that differ between any two answers: the connection's, the clock's and the request's own. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'x-request-id']);

interface Served {
  app: FastifyInstance;
  origin: string;
  /** Requests whose document was composed (their handler ran): a cached answer does not count. */
  composed(): number;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** The app on a real listener, as clients meet it. */
async function listen(app: FastifyInstance): Promise<Served> {
  let composed = 0;
  // preHandler runs for requests that reach their handler: a cache hit is answered in onRequest.
  app.addHook('preHandler', async () => {
    composed += 1;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    app,
    origin,
    composed: () => composed,
    get: (path, headers = {}) => fetch(`${origin}${path}`, { headers: { 'x-api-key': TEST_KEY, ...headers } }),
    close: () => app.close(),
  };
}

const served = async (store: Store, env: Record<string, string> = {}) => listen((await fixtureApp(store, env)).app);

/** A GET as it crosses the wire, coded bytes and all (fetch would decode them). */
function sent(
  server: Served,
  path: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = get(
      `${server.origin}${path}`,
      { headers: { 'x-api-key': TEST_KEY, 'accept-encoding': acceptEncoding } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    request.on('error', reject);
  });
}

function headersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => !PER_ANSWER.has(name)));
}

describeEachStore('cached answers, over real HTTP', (open) => {
  test('a cached GET is answered without composing it, with the bytes and headers of the answer that filled it', async (t) => {
    const server = await served(await open());
    t.after(() => server.close());
    const filled = await server.get(EVENT);
    const filledBody = await filled.text();
    assert.equal(filled.status, 200);
    assert.equal(server.composed(), 1);

    const hit = await server.get(EVENT, { 'x-request-id': 'trace-cached-1' });
    assert.equal(hit.status, 200);
    assert.equal(await hit.text(), filledBody);
    assert.equal(server.composed(), 1, 'the second GET was not composed again');
    assert.deepEqual(headersOf(hit), headersOf(filled));
    assert.equal(hit.headers.get('x-request-id'), 'trace-cached-1');
    assert.match(
      String((await server.get(EVENT)).headers.get('x-request-id')),
      /^[0-9a-f-]{36}$/,
      'a fresh id when the client sends none',
    );

    // A 304 over the wire carries what an injected request's 304 carries.
    const etag = String(filled.headers.get('etag'));
    const notModified = await server.get(EVENT, { 'if-none-match': etag });
    assert.equal(notModified.status, 304);
    assert.equal(await notModified.text(), '');
    // With the Accept-Encoding fetch sent: the 304 names the coding that request would get.
    const injected304 = await server.app.inject({
      url: EVENT,
      headers: { 'x-api-key': TEST_KEY, 'if-none-match': etag, 'accept-encoding': 'gzip, deflate' },
    });
    assert.equal(injected304.statusCode, 304);
    const injectedHeaders = Object.fromEntries(
      Object.entries(injected304.headers)
        .filter(([name]) => !PER_ANSWER.has(name))
        .map(([name, value]) => [name, String(value)]),
    );
    assert.deepEqual(headersOf(notModified), injectedHeaders);
    assert.equal(server.composed(), 1, 'neither 304 was composed');
  });

  test('a cached document goes compressed as Accept-Encoding asks, the same bytes and headers as the composed answer', async (t) => {
    const server = await served(await open());
    t.after(() => server.close());
    const plain = await sent(server, EVENT, 'identity');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'accept-encoding');
    for (const [coding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      // Made by the first request that asks for it; then sent again from the entry.
      const made = await sent(server, EVENT, coding);
      const again = await sent(server, EVENT, coding);
      assert.equal(server.composed(), 1, `${coding}: answered from the cache`);
      for (const answer of [made, again]) {
        assert.equal(answer.status, 200);
        assert.equal(answer.headers['content-encoding'], coding);
        assert.equal(answer.headers.etag, `${String(plain.headers.etag).slice(0, -1)}-${coding}"`);
        assert.equal(Number(answer.headers['content-length']), answer.body.length);
        assert.deepEqual(decode(answer.body), plain.body);
      }
      assert.deepEqual(again.body, made.body);
      // What a miss sends for the same request: the same coded bytes and headers.
      const fresh = await served(await open());
      t.after(() => fresh.close());
      const filled = await sent(fresh, EVENT, coding);
      const hit = await sent(fresh, EVENT, coding);
      assert.equal(fresh.composed(), 1);
      assert.deepEqual(hit.body, filled.body);
      assert.deepEqual(hit.body, made.body);
      const { date, 'x-request-id': _filledId, ...filledHeaders } = filled.headers;
      const { date: _date, 'x-request-id': _hitId, ...hitHeaders } = hit.headers;
      assert.equal(typeof date, 'string');
      assert.deepEqual(hitHeaders, filledHeaders, `${coding}: a hit's headers are the miss's`);
    }
  });

  test('no hit without a valid key, nor for another scope or another query; HEAD shares the GET entry', async (t) => {
    const server = await served(await open());
    t.after(() => server.close());
    await server.get(EVENT);
    const before = server.composed();
    const cases: Array<[string, () => Promise<Response>, number]> = [
      ['no key', () => fetch(`${server.origin}${EVENT}`), 401],
      ['a wrong key', () => server.get(EVENT, { 'x-api-key': 'wrong-key-0123456789abcdef' }), 401],
      ['a key of another scope (its own cache entry)', () => server.get(EVENT, { 'x-api-key': WSL_ONLY_KEY }), 200],
      ['an uncached URL', () => server.get(`${BASE}/events/${MASL_GAME}`), 200],
      ['a query the cache has not seen', () => server.get(`${EVENT}?envelope=data`), 200],
    ];
    const composedBy = cases.filter(([, , status]) => status === 200).length;
    for (const [what, send, status] of cases) {
      const response = await send();
      const body = await response.text();
      assert.equal(response.status, status, what);
      if (status >= 400) {
        const error = JSON.parse(body);
        assert.equal(error.statusCode, status, what);
        assert.equal(typeof error.message, 'string', what);
      }
    }
    assert.equal(server.composed(), before + composedBy, 'each 200 was composed, no 401 was');
    const head = await fetch(`${server.origin}${EVENT}`, { method: 'HEAD', headers: { 'x-api-key': TEST_KEY } });
    assert.equal(head.status, 200);
    assert.equal(server.composed(), before + composedBy, 'HEAD was answered from the GET entry');
    const get = await server.get(EVENT);
    await get.text();
    for (const name of ['etag', 'last-modified', 'cache-control', 'content-length', 'vary'])
      assert.equal(head.headers.get(name), get.headers.get(name), `HEAD's ${name} is GET's`);
    const notModified = await fetch(`${server.origin}${EVENT}`, {
      method: 'HEAD',
      headers: { 'x-api-key': TEST_KEY, 'if-none-match': String(get.headers.get('etag')) },
    });
    assert.equal(notModified.status, 304, 'HEAD honours If-None-Match');
  });

  test('only the parameters a route reads make its key: unknown ones and other spellings share one entry', async (t) => {
    const server = await served(await open());
    t.after(() => server.close());
    const body = async (path: string) => {
      const response = await server.get(path);
      assert.equal(response.status, 200, path);
      return response.text();
    };
    const all = await body(`${BASE}/events`);
    for (let i = 0; i < 5; i++) assert.equal(await body(`${BASE}/events?z${i}=1`), all);
    assert.equal(server.composed(), 1, 'unknown parameters make no entries');
    const wsl = await body(`${BASE}/events?competition=wsl`);
    assert.notEqual(wsl, all);
    for (const spelling of ['competition[]=wsl', 'competition[0]=wsl', 'competition=wsl&z=1'])
      assert.equal(await body(`${BASE}/events?${spelling}`), wsl, spelling);
    const statuses = await body(`${BASE}/events?eventStatus=LIVE,COMPLETED`);
    for (const spelling of ['eventStatus[0]=LIVE&eventStatus[1]=COMPLETED', 'eventStatus=LIVE&eventStatus=COMPLETED'])
      assert.equal(await body(`${BASE}/events?${spelling}`), statuses, spelling);
    assert.equal(server.composed(), 3, 'one entry per document');
    // Two competitions are a list like any list filter, one entry for every spelling.
    const both = await body(`${BASE}/events?competition[]=wsl&competition[]=masl`);
    assert.notEqual(both, wsl);
    for (const spelling of [
      'competition=wsl,masl',
      'competition=wsl&competition=masl',
      'competition[1]=masl&competition[0]=wsl',
    ])
      assert.equal(await body(`${BASE}/events?${spelling}`), both, spelling);
    assert.equal(server.composed(), 4, 'one entry for the list');
  });

  test('every key presented on one keep-alive connection is checked: a key that differs from the last in one character is refused', async (t) => {
    const server = await served(await open());
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    t.after(async () => {
      agent.destroy();
      await server.close();
    });
    const answer = (path: string, key: string) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const request = get(`${server.origin}${path}`, { agent, headers: { 'x-api-key': key } }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
        });
        request.on('error', reject);
      });
    const oneOff = `${TEST_KEY.slice(0, -1)}${TEST_KEY.endsWith('f') ? 'e' : 'f'}`;
    const steps: [string, string, number][] = [
      [EVENT, TEST_KEY, 200],
      [EVENT, TEST_KEY, 200],
      [EVENT, oneOff, 401],
      [EVENT, TEST_KEY, 200],
      [`${BASE}/events/${MASL_GAME}`, WSL_ONLY_KEY, 404],
      [EVENT, WSL_ONLY_KEY, 200],
      [EVENT, oneOff, 401],
      [EVENT, TEST_KEY, 200],
    ];
    for (const [i, [path, key, status]] of steps.entries()) {
      const got = await answer(path, key);
      assert.equal(got.status, status, `step ${i + 1}: ${key} on ${path}`);
      if (i > 0) assert.ok(got.reused, `step ${i + 1} ran on the first connection`);
    }
    assert.ok(server.composed() < steps.length, 'some answers came from the cache');
  });

  test('a write drops the answer: the next GET is composed and carries the change', async (t) => {
    const store = await open();
    const server = await served(store);
    t.after(() => server.close());
    const first = await (await server.get(EVENT)).json();
    await server.get(EVENT);
    assert.equal(server.composed(), 1);
    const event = fixtureFeed().events?.find((e) => e.id.endsWith(WSL_LIVE));
    assert.ok(event);
    await ingestFeed(store, {
      events: [{ ...event, name: 'Renamed', updatedAt: '2026-12-01T00:00:00Z' }],
    });
    const after = await (await server.get(EVENT)).json();
    assert.notEqual(first.name, 'Renamed');
    assert.equal(after.name, 'Renamed');
    assert.equal(server.composed(), 2);
    assert.equal((await (await server.get(EVENT)).json()).name, 'Renamed');
    assert.equal(server.composed(), 2, 'and the new answer is cached again');
  });

  test('rate limits: each cached answer counts, and the 429 over the limit has its body and headers', async (t) => {
    // Rate limits count by clock minute: the requests counted here must fall in one.
    freezeClock(t);
    const store = await open();
    // A miss as one request here: what a document built afresh costs is test/http/document-builds.test.ts's.
    const server = await served(store, { DOCUMENT_BUILD_COST: '1' });
    t.after(() => server.close());
    await createApiKey(store, { name: 'three a minute', key: LIMITED_KEY, ratePerMinute: 3 });
    const remaining: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      const response = await server.get(EVENT, { 'x-api-key': LIMITED_KEY });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-limit'), '3');
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    assert.equal(server.composed(), 1, 'the second and third were answered from the cache');
    const over = await server.get(EVENT, { 'x-api-key': LIMITED_KEY });
    assert.equal(over.status, 429);
    assert.equal(over.headers.get('x-ratelimit-remaining'), '0');
    assert.ok(Number(over.headers.get('retry-after')) > 0);
    const body = await over.json();
    assert.equal(body.statusCode, 429);
    assert.match(body.message, /3 requests per minute/);
    assert.equal(server.composed(), 1, 'the 429 composed nothing');
    const again = await server.get(EVENT, { 'x-api-key': LIMITED_KEY });
    assert.equal(again.status, 429);
    assert.equal(again.headers.get('x-ratelimit-remaining'), '0');
  });

  test('cached answers are counted in the metrics like composed ones', async (t) => {
    const server = await served(await open());
    t.after(() => server.close());
    const series = async (pattern: RegExp) => {
      const text = await (await server.get('/metrics')).text();
      return Number(pattern.exec(text)?.[1] ?? 0);
    };
    const answered =
      /altsports_http_requests_total\{route="\/api\/v1\/public\/events\/:eventId",method="GET",status="200"\} (\d+)/;
    const notModified =
      /altsports_http_requests_total\{route="\/api\/v1\/public\/events\/:eventId",method="GET",status="304"\} (\d+)/;
    const hits = /altsports_response_cache_lookups_total\{result="hit"\} (\d+)/;
    const etag = String((await server.get(EVENT)).headers.get('etag'));
    for (let i = 0; i < 4; i++) await server.get(EVENT);
    await server.get(EVENT, { 'if-none-match': etag });
    assert.equal(server.composed(), 1);
    assert.equal(await series(answered), 5);
    assert.equal(await series(notModified), 1);
    assert.equal(await series(hits), 5);
  });

  test('a cached answer carries the CORS headers of its own request', async (t) => {
    const server = await served(await open(), { CORS_ORIGINS: 'https://board.example' });
    t.after(() => server.close());
    const filled = await server.get(EVENT);
    await filled.text();
    const hit = await server.get(EVENT);
    await hit.text();
    assert.equal(server.composed(), 1);
    assert.deepEqual(headersOf(hit), headersOf(filled));
    assert.match(String(hit.headers.get('vary')), /Origin/);
    const browser = await server.get(EVENT, { origin: 'https://board.example' });
    assert.equal(browser.status, 200);
    assert.equal(browser.headers.get('access-control-allow-origin'), 'https://board.example');
    assert.match(String(browser.headers.get('access-control-expose-headers')), /ETag/);
    assert.equal(server.composed(), 1, 'from the cache');
    // The document's Cache-Control alone, not the hooks' no-store too.
    assert.equal(browser.headers.get('cache-control'), 'private, no-cache');
  });
});

test('every answer, cached or composed, is logged in one line under the request id it carries', async (t) => {
  const { store, cleanup } = await openTestStore('sqlite');
  t.after(cleanup);
  await ingestFeed(store, fixtureFeed());
  await createApiKey(store, { name: 'full', key: TEST_KEY });
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig({
    ADMIN_API_KEY: ADMIN_KEY,
    DEMO_DATA: 'off',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_DAY: '0',
  });
  const server = await listen(await buildTestApp({ config, store, logger: { level: 'info', stream } }));
  t.after(() => server.close());
  await (await server.get(EVENT, { 'x-request-id': 'composed-1' })).text();
  await (await server.get(EVENT, { 'x-request-id': 'cached-1' })).text();
  assert.equal(server.composed(), 1);
  const of = (id: string) =>
    lines
      .filter((line) => line.reqId === id)
      .map((line) => ({
        msg: line.msg,
        method: (line.req as { method?: string } | undefined)?.method,
        url: (line.req as { url?: string } | undefined)?.url,
        status: (line.res as { statusCode?: number } | undefined)?.statusCode,
      }));
  const expected = (id: string) => {
    assert.deepEqual(of(id), [{ msg: 'request completed', method: 'GET', url: EVENT, status: 200 }], id);
  };
  expected('composed-1');
  expected('cached-1');
  for (const id of ['composed-1', 'cached-1']) {
    const line = lines.find((l) => l.reqId === id);
    assert.equal(typeof line?.responseTime, 'number', id);
    assert.equal((line?.req as { remoteAddress?: string } | undefined)?.remoteAddress, '127.0.0.1', id);
    // The fields and their order are pino's own line's: its level, time and bindings first.
    assert.deepEqual(
      Object.keys(line ?? {}),
      ['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'msg'],
      id,
    );
    assert.equal(line?.level, 30, id);
    assert.equal(line?.pid, process.pid, id);
  }
});
