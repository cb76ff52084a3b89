/**
 * The PostgreSQL server goes away while an API process serves requests, then comes back (docs/decisions.md
 * "Faults"). The process must answer 503 with the specification's error body while the store is
 * down (never a 500, never crash: pg emits `error` events on pooled and listening connections), and
 * recover by itself when the server returns: requests succeed again, and the change feed's LISTEN
 * connection reconnects, so that writes from other processes reach stream clients and drop cached
 * documents. A real `altsports serve` process and a PostgreSQL cluster of this test's own, stopped
 * with `pg_ctl stop -m fast` (sessions end with admin_shutdown) and `-m immediate` (a crash).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createApiKey } from '../../src/access/api-keys.ts';
import { isStoreUnavailable } from '../../src/http/plugins/errors.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { openChangeFeed } from '../../src/store/change-feed.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { ADMIN_KEY, TEST_KEY } from '../helpers/app.ts';
import { fixtureFeed, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { type PgCluster, type StopMode, startTestCluster } from '../helpers/pg-cluster.ts';
import { type ServeProcess, startServe, stopServe } from '../helpers/serve.ts';
import { sqliteBusy, sqliteUniqueViolation } from '../helpers/sqlite-errors.ts';
import { SseStream } from '../helpers/sse.ts';

/** Keys used for the first time during an outage, so that verifying them needs the store. */
const FRESH_KEYS = ['fresh-key-fast-0123456789abcdef', 'fresh-key-immediate-0123456789ab'];
/** Bounded waits for recovery (not timing assertions): the listener retries with backoff up to 5 s. */
const RECOVERY_MS = 30_000;
const REQUEST_TIMEOUT_MS = 15_000;

interface Answer {
  what: string;
  status: number;
  headers: Headers;
  text: string;
}

const ERROR_BODY_KEYS = ['code', 'message', 'metadata', 'stack', 'statusCode', 'timestamp'];

/** A 503 that is the specification's ServerErrorResponse, with Retry-After and no internals. */
function assertUnavailable(answer: Answer, cluster: PgCluster): void {
  assert.equal(answer.status, 503, `${answer.what}: ${answer.status} ${answer.text}`);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ERROR_BODY_KEYS, `${answer.what}: ${answer.text}`);
  assert.equal(body.statusCode, 503);
  assert.equal(typeof body.message, 'string');
  assert.ok(!Number.isNaN(Date.parse(body.timestamp as string)), `${answer.what}: timestamp ${String(body.timestamp)}`);
  assert.equal(typeof body.metadata, 'object');
  assert.equal(body.stack, '', `${answer.what}: a stack trace is shown`);
  // No driver internals: error codes, addresses, the port.
  assert.doesNotMatch(
    answer.text,
    /ECONN|57P0|terminat|127\.0\.0\.1|postgres:\/\/|password/i,
    `${answer.what}: internals leak: ${answer.text}`,
  );
  assert.doesNotMatch(answer.text, new RegExp(String(cluster.port)), `${answer.what}: the port leaks`);
  assert.ok(Number(answer.headers.get('retry-after')) >= 1, `${answer.what}: no Retry-After`);
}

let clock = Date.now();
/** The live heat renamed, stamped later than any earlier write (an older item would be ignored as stale). */
function heatRename(name: string): FeedDocument {
  const heat = (fixtureFeed().heats ?? []).find((h) => h.id === 'h-3');
  assert.ok(heat);
  clock = Math.max(clock + 1, Date.now());
  return { heats: [{ ...heat, heatName: name, updatedAt: new Date(clock).toISOString() }] };
}

test('isStoreUnavailable: what pg and SQLite raise when the store is down is a 503; a failing query is not', () => {
  const coded = (code: string, message = code) => Object.assign(new Error(message), { code });
  const unavailable = [
    coded('ECONNREFUSED'), // the server is not listening (stopped)
    coded('ECONNRESET'),
    coded('ETIMEDOUT'),
    coded('ENOTFOUND'),
    coded('57P01', 'terminating connection due to administrator command'), // pg_ctl stop -m fast
    coded('57P02'), // crash_shutdown
    coded('57P03', 'the database system is shutting down'), // starting up or shutting down
    coded('08006'), // connection_failure
    coded('08001'),
    coded('53300', 'sorry, too many clients already'),
    sqliteBusy(),
    new Error('Connection terminated unexpectedly'), // pg_ctl stop -m immediate: the socket just closes
    new Error('Client has encountered a connection error and is not queryable'), // a query on a broken client (the rollback)
    new Error('timeout exceeded when trying to connect'), // the pool's connectionTimeoutMillis
    new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed'), // localhost: ::1 and 127.0.0.1
    new Error('wrapped', { cause: coded('57P01') }),
  ];
  for (const error of unavailable)
    assert.equal(isStoreUnavailable(error), true, `${(error as { code?: string }).code ?? ''} ${error.message}`);
  const failing = [
    coded('23505', 'duplicate key value violates unique constraint'),
    coded('42P01', 'relation does not exist'),
    coded('57014', 'canceling statement due to statement timeout'),
    sqliteUniqueViolation(),
    new Error('boom'),
    new TypeError('x is undefined'),
  ];
  for (const error of failing)
    assert.equal(isStoreUnavailable(error), false, `${(error as { code?: string }).code ?? ''} ${error.message}`);
  for (const value of [null, undefined, 'ECONNREFUSED', 42]) assert.equal(isStoreUnavailable(value), false);
});

describe('a PostgreSQL outage while the API serves requests', () => {
  let cluster: PgCluster;
  let databaseUrl: string;
  let serve: ServeProcess;

  before(async () => {
    cluster = await startTestCluster();
    databaseUrl = await cluster.createDatabase('altsports_outage');
    const store = openStore({ databaseUrl, pgPoolSize: 2 });
    try {
      await migrateToLatest(store);
      await ingestFeed(store, fixtureFeed());
      await createApiKey(store, { name: 'full', key: TEST_KEY, ratePerMinute: 0, ratePerDay: 0 });
      for (const key of FRESH_KEYS) await createApiKey(store, { name: key, key, ratePerMinute: 0, ratePerDay: 0 });
    } finally {
      await store.close();
    }
    serve = await startServe({
      DATABASE_URL: databaseUrl,
      ADMIN_API_KEY: ADMIN_KEY,
      DEMO_API_KEY: 'off',
      RATE_LIMIT_PER_MINUTE: '0',
      STREAM_HEARTBEAT_SECONDS: '1',
    });
  });

  after(async () => {
    if (serve) await stopServe(serve);
    cluster?.destroy();
  });

  const call = async (what: string, path: string, init: RequestInit = {}, key = TEST_KEY): Promise<Answer> => {
    const response = await fetch(`${serve.base}${path}`, {
      ...init,
      headers: {
        'x-api-key': key,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.headers as Record<string, string>),
      },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { what, status: response.status, headers: response.headers, text: await response.text() };
  };
  const getDoc = (headers: Record<string, string> = {}) =>
    call('GET event', `/api/v1/public/events/${WSL_LIVE}`, { headers });
  const postFeed = (feed: FeedDocument, what = 'POST /admin/feed') =>
    call(what, '/api/v1/admin/feed', { method: 'POST', body: JSON.stringify(feed) }, ADMIN_KEY);
  let uncached = 0;
  /** A public GET no earlier request asked for, so that it cannot be answered from the cache. */
  const getUncached = () =>
    call(
      'GET events (uncached)',
      `/api/v1/public/events?competition=wsl&updatedSince=${new Date(Date.UTC(2020, 0, 1) + 1000 * uncached++).toISOString()}`,
    );

  /** Requests in a loop until stopped: every answer must be a success or a proper 503, and none may fail at the socket. */
  function load(workers: number) {
    const answers: Answer[] = [];
    const failures: string[] = [];
    let running = true;
    let n = 0;
    const loops = Array.from({ length: workers }, async (_, worker) => {
      while (running) {
        n += 1;
        const request =
          worker === 0 && n % 5 === 0
            ? postFeed(heatRename(`Heat 1 (load ${n})`), 'POST /admin/feed (load)')
            : n % 2
              ? getDoc()
              : getUncached();
        try {
          answers.push(await request);
        } catch (error) {
          failures.push(`${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
        }
      }
    });
    return {
      answers,
      async stop() {
        running = false;
        await Promise.all(loops);
        return { answers, failures };
      },
    };
  }

  const waitFor = async (what: string, check: () => Promise<boolean>) => {
    const deadline = performance.now() + RECOVERY_MS;
    while (!(await check().catch(() => false))) {
      if (performance.now() > deadline)
        assert.fail(`${what} within ${RECOVERY_MS} ms\n--- server output ---\n${serve.output()}`);
      await sleep(100);
    }
  };

  for (const [index, mode] of (['fast', 'immediate'] as StopMode[]).entries()) {
    test(`pg_ctl stop -m ${mode}: 503s with the error body while down, then recovery without a restart`, async () => {
      const before = await getDoc();
      assert.equal(before.status, 200, before.text);
      assert.match(before.text, /"heatName"/);
      const stream = await SseStream.open(`${serve.base}/api/v1/public/stream?competition=wsl`, {
        'x-api-key': TEST_KEY,
      });
      assert.equal(stream.status, 200);
      assert.equal((await stream.nextEvent()).event, 'ready');

      // The server goes down under load: requests in flight meet the shutdown (57P01) or the crash.
      const traffic = load(6);
      await waitFor('the load got no answers', async () => traffic.answers.length >= 30);
      await cluster.stop(mode);
      const duringStop = await traffic.stop();
      if (duringStop.failures.length > 0) {
        assert.fail(
          `${duringStop.failures.length} requests failed at the socket (connection reset, process crash?): ${duringStop.failures.slice(0, 3).join('; ')}\n--- server output ---\n${serve.output().slice(-4000)}`,
        );
      }
      for (const answer of duringStop.answers) {
        if (answer.status === 200 || answer.status === 304) continue;
        assertUnavailable(answer, cluster);
      }

      // Down: whatever needs the store is a 503 with the error body.
      assertUnavailable(await getUncached(), cluster);
      assertUnavailable(await call('GET sports (fresh key)', '/api/v1/public/sports', {}, FRESH_KEYS[index]), cluster);
      assertUnavailable(await postFeed(heatRename('Heat 1 (during the outage)')), cluster);
      // Readiness reports the store down (load balancers take the node out).
      assertUnavailable(await call('GET /healthz', '/healthz'), cluster);
      // A cached document may still be served; anything else must be a proper 503.
      const cached = await getDoc();
      if (cached.status === 200) assert.equal(JSON.parse(cached.text).id, JSON.parse(before.text).id);
      else assertUnavailable(cached, cluster);
      assert.equal(serve.child.exitCode, null, `the process exited\n${serve.output()}`);
      // Operators see it: the metrics count the outage as the store being unavailable, not as internal failures.
      const metrics = (await call('GET /metrics', '/metrics')).text;
      assert.ok(
        Number(/^altsports_store_errors_total\{kind="unavailable"\} (\d+)$/m.exec(metrics)?.[1]) >= 3,
        `store errors while down:\n${metrics
          .split('\n')
          .filter((line) => line.startsWith('altsports_store_errors'))
          .join('\n')}`,
      );

      // The server comes back on the same data dir and port: the API recovers by itself.
      await cluster.start();
      await waitFor(
        'GET /healthz did not answer 200 again',
        async () => (await call('GET /healthz', '/healthz')).status === 200,
      );
      await waitFor('a public GET did not succeed again', async () => (await getUncached()).status === 200);

      // A write by another process (NOTIFY) reaches this stream: the LISTEN connection is back.
      const writer = openStore({ databaseUrl, pgPoolSize: 1 });
      try {
        // Waits for the stream to deliver a change with this id (earlier ones, from the load, are skipped).
        const reachesStream = async (changeId: number) => {
          await stream.eventsUntil((event) => Number(event.id) >= changeId, RECOVERY_MS);
        };
        const external = async (name: string) => {
          const { changes } = await ingestFeed(writer, heatRename(name));
          const last = changes.at(-1);
          assert.ok(last, 'the write logged no change');
          return last.id;
        };
        await reachesStream(await external(`Heat 1 (${mode}, from another process)`));
        const fresh = await getDoc();
        assert.equal(fresh.status, 200);
        assert.match(fresh.text, new RegExp(`Heat 1 \\(${mode}, from another process\\)`));

        // A write through the admin API, visible in the document cached just before it.
        const etag = fresh.headers.get('etag');
        assert.ok(etag);
        assert.equal((await getDoc({ 'if-none-match': etag })).status, 304);
        const written = await postFeed(heatRename(`Heat 1 (${mode}, through the API)`));
        assert.equal(written.status, 200, written.text);
        const afterAdmin = await getDoc({ 'if-none-match': etag });
        assert.equal(afterAdmin.status, 200, 'the cached document was not dropped by the write');
        assert.match(afterAdmin.text, new RegExp(`Heat 1 \\(${mode}, through the API\\)`));

        // And another process's write drops the now cached document again (cache invalidation via NOTIFY).
        const etag2 = afterAdmin.headers.get('etag');
        assert.ok(etag2);
        assert.equal((await getDoc({ 'if-none-match': etag2 })).status, 304);
        await reachesStream(await external(`Heat 1 (${mode}, from another process again)`));
        const afterNotify = await getDoc({ 'if-none-match': etag2 });
        assert.equal(afterNotify.status, 200, 'a write from another process did not drop the cached document');
        assert.match(afterNotify.text, new RegExp(`Heat 1 \\(${mode}, from another process again\\)`));
      } finally {
        await writer.close();
        await stream.close();
      }

      assert.equal(serve.child.exitCode, null, `the process exited\n${serve.output()}`);
      // 503s are logged as "store unavailable"; an "unhandled error" would have been a 500.
      assert.doesNotMatch(serve.output(), /unhandled error|uncaught/i, serve.output());
    });
  }

  test('a change feed whose listener reconnects just before the server goes away again stays down, then recovers', async () => {
    const feedDatabase = await cluster.createDatabase('altsports_feed');
    const setup = openStore({ databaseUrl: feedDatabase, pgPoolSize: 1 });
    await migrateToLatest(setup);
    await ingestFeed(setup, fixtureFeed());
    await setup.close();
    const store = openStore({ databaseUrl: feedDatabase, pgPoolSize: 2 });
    // The server stops right after the listener reconnects, before the feed has read what it missed.
    let armed = false;
    let attempts = 0;
    const flaky: Store = {
      ...store,
      listen: async (onNotify, onLost) => {
        attempts += 1;
        const stop = await (store.listen as NonNullable<Store['listen']>)(onNotify, onLost);
        if (armed) {
          armed = false;
          await cluster.stop('fast');
        }
        return stop;
      },
    };
    const feed = await openChangeFeed(flaky, { retryMs: 50, maxRetryMs: 200, onError: () => {} });
    try {
      assert.equal(feed.live, true);
      armed = true;
      const kill = openStore({ databaseUrl: cluster.url(), pgPoolSize: 1 });
      try {
        await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = 'altsports_feed' and query like 'LISTEN%'`.execute(
          kill.db,
        );
      } finally {
        await kill.close();
      }
      // The reconnection that met the stop, then at least one more attempt against the stopped server.
      await waitFor('the feed did not try to reconnect', async () => !armed && attempts >= 3);
      assert.equal(
        feed.live,
        false,
        'live while the server is down: changes committed meanwhile could be missed, stale documents kept',
      );

      await cluster.start();
      await waitFor('the feed did not come back', async () => feed.live);
      const delivered: number[] = [];
      feed.subscribe((changes) => delivered.push(...changes.map((c) => c.id)));
      const writer = openStore({ databaseUrl: feedDatabase, pgPoolSize: 1 });
      try {
        const { changes } = await ingestFeed(writer, heatRename('Heat 1 (after the flapping)'));
        const id = changes.at(-1)?.id;
        assert.ok(id);
        await waitFor('a change from another process was not delivered', async () => delivered.includes(id));
      } finally {
        await writer.close();
      }
    } finally {
      await feed.close();
      await store.close();
    }
    // The API process went through this outage too.
    await waitFor(
      'GET /healthz did not answer 200 again',
      async () => (await call('GET /healthz', '/healthz')).status === 200,
    );
  });

  test('the process still shuts down cleanly after the outages', async () => {
    const { code, signal } = await stopServe(serve);
    assert.equal(signal, null, serve.output());
    assert.equal(code, 0, serve.output());
  });
});
