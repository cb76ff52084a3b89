/**
 * SIGTERM under load (docs/decisions.md "Faults"): 50 keep-alive clients hammer cached and uncached GETs and
 * a few push-stream clients listen when `altsports serve` is told to stop. Every request sent before
 * the signal must get a complete, successful answer (none dropped or reset: a request already on the
 * wire of an idle keep-alive connection included); stream clients get a last `event: close`, then
 * the end of the stream; new connections are refused while the process drains; it exits 0.
 * Requests sent after the signal may be answered, refused at connect, or meet a connection the
 * server closed (clients retry those), but never a 500, a cut-off body, or a 503 without the error body.
 */
import assert from 'node:assert/strict';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { connect } from 'node:net';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createThrowawayDatabase } from '../../scripts/throwaway-database.ts';
import { createApiKey } from '../../src/access/api-keys.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { migrateToLatest, openStore } from '../../src/store/database.ts';
import { TEST_KEY } from '../helpers/app.ts';
import { tempDir } from '../helpers/cli.ts';
import { fixtureFeed, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { type ServeProcess, startServe } from '../helpers/serve.ts';
import { SseStream } from '../helpers/sse.ts';
import { STORE_KINDS, type StoreKind } from '../helpers/stores.ts';

const CLIENTS = 50;
const STREAMS = 3;
/** Keep-alive connections left idle, then sending a request just before the signal. */
const LATE = 10;
/** Bounded waits, not timing assertions. */
const EXIT_WITHIN_MS = 30_000;

interface Outcome {
  path: string;
  /** The request was fully written to the socket before SIGTERM was sent. */
  sentBeforeSignal: boolean;
  /** Its answer was complete before SIGTERM was sent. */
  answeredBeforeSignal: boolean;
  status?: number;
  headers?: IncomingHttpHeaders;
  body?: string;
  /** A socket error or an incomplete body. */
  error?: string;
}

const ERROR_BODY_KEYS = ['code', 'message', 'metadata', 'stack', 'statusCode', 'timestamp'];

/** Store setup for one store kind: the fixture feed and an unlimited key; the env that serves it. */
async function prepareStore(kind: StoreKind): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  const seed = async (databaseUrl: string | undefined, dataDir: string | undefined) => {
    const store = openStore({ databaseUrl, dataDir, pgPoolSize: 1 });
    try {
      await migrateToLatest(store);
      await ingestFeed(store, fixtureFeed());
      await createApiKey(store, { name: 'load', key: TEST_KEY, ratePerMinute: 0, ratePerDay: 0 });
    } finally {
      await store.close();
    }
  };
  if (kind === 'sqlite') {
    const { dir, cleanup } = await tempDir('altsports-shutdown-');
    await seed(undefined, dir);
    return { env: { DATA_DIR: dir }, cleanup };
  }
  const testUrl = process.env.TEST_DATABASE_URL;
  if (!testUrl) throw new Error('TEST_DATABASE_URL is not set: run through `npm test`, which starts PostgreSQL');
  const database = await createThrowawayDatabase(testUrl, 'shutdown');
  await seed(database.url, undefined);
  return { env: { DATABASE_URL: database.url }, cleanup: database.drop };
}

describe('SIGTERM under load drains: answers every request already sent, closes streams, refuses new connections, exits 0', () => {
  const cleanups: Array<() => Promise<void>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  for (const kind of STORE_KINDS) {
    test(kind, async (t) => {
      const prepared = await prepareStore(kind);
      cleanups.push(prepared.cleanup);
      const serve: ServeProcess = await startServe({
        ...prepared.env,
        RATE_LIMIT_PER_MINUTE: '0',
        DEMO_API_KEY: 'off',
      });
      cleanups.push(async () => void serve.child.kill('SIGKILL'));
      const url = new URL(serve.base);

      const doc = await fetch(`${serve.base}/api/v1/public/events/${WSL_LIVE}`, { headers: { 'x-api-key': TEST_KEY } });
      assert.equal(doc.status, 200);
      const etag = doc.headers.get('etag') ?? '';
      const streams = await Promise.all(
        Array.from({ length: STREAMS }, () =>
          SseStream.open(`${serve.base}/api/v1/public/stream`, { 'x-api-key': TEST_KEY }),
        ),
      );
      for (const stream of streams) assert.equal((await stream.nextEvent()).event, 'ready');

      let signalled = false;
      let exited = false;
      void serve.exited.then(() => (exited = true));
      const outcomes: Outcome[] = [];
      let n = 0;
      let lateWritten = 0;
      // Cached documents (and 304s), and GETs no one asked for before (a distinct updatedSince each).
      const nextPath = (): { path: string; headers: Record<string, string> } => {
        n += 1;
        switch (n % 4) {
          case 0:
            return { path: `/api/v1/public/events/${WSL_LIVE}`, headers: {} };
          case 1:
            return { path: `/api/v1/public/events/${WSL_LIVE}`, headers: { 'if-none-match': etag } };
          case 2:
            return { path: '/api/v1/public/sports', headers: {} };
          default:
            return {
              path: `/api/v1/public/events?updatedSince=${new Date(Date.UTC(2020, 0, 1) + n * 1000).toISOString()}`,
              headers: {},
            };
        }
      };
      const send = (agent: Agent, onWritten?: () => void): Promise<Outcome> =>
        new Promise((resolve) => {
          const { path, headers } = nextPath();
          const outcome: Outcome = { path, sentBeforeSignal: false, answeredBeforeSignal: false };
          const done = (error?: string) => {
            if (error !== undefined && outcome.error === undefined) outcome.error = error;
            resolve(outcome);
          };
          const req = request(
            { host: url.hostname, port: url.port, path, agent, headers: { 'x-api-key': TEST_KEY, ...headers } },
            (res) => {
              outcome.status = res.statusCode;
              outcome.headers = res.headers;
              let body = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (body += chunk));
              res.on('aborted', () => done('response aborted'));
              res.on('error', (error) => done(`response error: ${error.message}`));
              res.on('end', () => {
                outcome.body = body;
                outcome.answeredBeforeSignal = !signalled;
                const length = res.headers['content-length'];
                if (!res.complete || (length !== undefined && Buffer.byteLength(body) !== Number(length)))
                  done('incomplete body');
                else done();
              });
            },
          );
          req.on('finish', () => {
            outcome.sentBeforeSignal = !signalled;
            onWritten?.();
          });
          req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
          req.end();
        });

      // Each client: one keep-alive connection, one request after another, until its first failure
      // after the signal (a refused or closed connection) or the process's exit.
      const clients = Array.from({ length: CLIENTS }, async () => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          for (;;) {
            const outcome = await send(agent);
            outcomes.push(outcome);
            if (exited || (signalled && outcome.error !== undefined)) return;
          }
        } finally {
          agent.destroy();
        }
      });

      // Idle keep-alive connections (one request answered on each) that send a request just before the
      // signal: it is on the wire when the server starts to close, not yet read. Closing "idle"
      // connections at once would reset it; answering it 503 would refuse work already sent.
      const lateAgents = Array.from({ length: LATE }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
      for (const agent of lateAgents) {
        const warmUp = await send(agent);
        assert.equal(warmUp.error, undefined, String(warmUp.error));
      }

      // Under load, then the late requests, then SIGTERM once they are written.
      while (outcomes.length < 1_000 && !exited) await sleep(10);
      assert.equal(exited, false, serve.output());
      const late = lateAgents.map((agent) => send(agent, () => (lateWritten += 1)));
      const writtenBy = performance.now() + 10_000;
      while (lateWritten < LATE && performance.now() < writtenBy) await sleep(0);
      signalled = true;
      const signalledAt = performance.now();
      serve.child.kill('SIGTERM');
      const lateOutcomes = await Promise.all(late);
      for (const agent of lateAgents) agent.destroy();
      outcomes.push(...lateOutcomes);

      // New connections are refused while the process is still draining.
      let refusedWhileAlive = false;
      while (!exited) {
        const refused = await new Promise<boolean>((resolve) => {
          const socket = connect(Number(url.port), url.hostname);
          socket.once('connect', () => {
            socket.destroy();
            resolve(false);
          });
          socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
        });
        if (refused && !exited) {
          refusedWhileAlive = true;
          break;
        }
        await sleep(5);
      }

      const killer = setTimeout(() => serve.child.kill('SIGKILL'), EXIT_WITHIN_MS);
      const { code, signal } = await serve.exited;
      clearTimeout(killer);
      const exitMs = performance.now() - signalledAt;
      await Promise.all(clients);

      // Stream clients: a last `close` event, then the end of the stream.
      for (const [i, stream] of streams.entries()) {
        await stream.ended;
        const last = stream.received.filter((m) => m.event !== undefined).at(-1);
        assert.equal(last?.event, 'close', `stream ${i}: the last event was ${last?.event}`);
      }

      const before = outcomes.filter((o) => o.sentBeforeSignal);
      const inFlight = before.filter((o) => !o.answeredBeforeSignal);
      const afterSignal = outcomes.filter((o) => !o.sentBeforeSignal);
      const tally = (list: Outcome[]) => {
        const counts = new Map<string, number>();
        for (const o of list)
          counts.set(o.error ?? String(o.status), (counts.get(o.error ?? String(o.status)) ?? 0) + 1);
        return [...counts].map(([what, count]) => `${what}: ${count}`).join(', ');
      };
      t.diagnostic(
        `sent before SIGTERM: ${before.length} (${tally(before)}), in flight at it: ${inFlight.length}; after: ${afterSignal.length} (${tally(afterSignal)}); exit ${Math.round(exitMs)} ms after the signal`,
      );
      const show = (o: Outcome) => `${o.path}: ${o.error ?? `${o.status} ${o.body?.slice(0, 200)}`}`;
      // Every request sent before the signal: a complete, successful answer.
      const failedBefore = before.filter((o) => o.error !== undefined || (o.status !== 200 && o.status !== 304));
      assert.deepEqual(
        failedBefore.map(show),
        [],
        `requests sent before SIGTERM were not answered properly (of ${before.length}; ${inFlight.length} in flight at the signal)\n${serve.output().slice(-3000)}`,
      );
      assert.ok(inFlight.length > 0, 'no request was in flight at the signal: the test did not exercise the drain');
      assert.equal(
        lateOutcomes.filter((o) => o.sentBeforeSignal).length,
        LATE,
        'the late requests were not all written before the signal',
      );
      for (const o of before) if (o.status === 200) assert.doesNotThrow(() => JSON.parse(o.body as string), o.path);

      // After the signal: answered, refused, or closed; never a 500, a cut-off body, or a bare 503.
      for (const o of afterSignal) {
        if (o.error !== undefined) {
          assert.ok(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'socket hang up'].includes(o.error), show(o));
          continue;
        }
        if (o.status === 200 || o.status === 304) continue;
        assert.equal(o.status, 503, show(o));
        const body = JSON.parse(o.body as string) as Record<string, unknown>;
        assert.deepEqual(Object.keys(body).sort(), ERROR_BODY_KEYS, show(o));
        assert.equal(body.statusCode, 503);
      }

      assert.ok(refusedWhileAlive, 'a new connection was not refused while the process drained');
      assert.equal(signal, null, serve.output());
      assert.equal(code, 0, serve.output());
    });
  }
});
