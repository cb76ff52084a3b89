import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../scripts/free-port.ts';
import { type ListenerName, routeListener } from '../../src/http/plugins/listeners.ts';
import { ADMIN_KEY, fixtureApp, TEST_KEY, type TestApp } from '../helpers/app.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

/** The headers every answer carries, on one Node refused before routing it (written by hand there). */
function assertRawHouseHeaders(raw: string): void {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n')).toLowerCase();
  for (const line of [
    'cache-control: no-store',
    'x-content-type-options: nosniff',
    'x-frame-options: deny',
    'referrer-policy: no-referrer',
    "content-security-policy: default-src 'none';frame-ancestors 'none'",
    'connection: close',
  ])
    assert.ok(head.split('\r\n').includes(line), `${line}\n${head}`);
}

test('routeListener: where each kind of route is served, with and without listeners of their own', () => {
  const table: Array<
    [{ access?: string; listener?: 'metrics' | 'any' }, number | null, number | null, ListenerName | 'any']
  > = [
    [{ access: 'public' }, null, null, 'public'],
    [{ access: 'public' }, 4001, 4002, 'public'],
    [{ access: 'open' }, 4001, 4002, 'public'],
    [{ access: 'admin' }, null, null, 'public'],
    [{ access: 'admin' }, 4001, null, 'admin'],
    [{ access: 'admin' }, null, 4002, 'public'],
    [{ access: 'open', listener: 'metrics' }, null, null, 'public'],
    [{ access: 'open', listener: 'metrics' }, 4001, null, 'public'],
    [{ access: 'open', listener: 'metrics' }, null, 4002, 'metrics'],
    [{ access: 'open', listener: 'any' }, 4001, 4002, 'any'],
    [{}, 4001, 4002, 'public'],
  ];
  for (const [route, adminPort, metricsPort, expected] of table) {
    assert.equal(
      routeListener(route, { adminPort, metricsPort }),
      expected,
      JSON.stringify({ route, adminPort, metricsPort }),
    );
  }
});

/** Sends raw bytes on a new connection and returns everything the server sends until it closes. */
async function rawExchange(port: number, bytes: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.write(bytes);
  await once(socket, 'close');
  return received;
}

function bodyOf(raw: string): Record<string, unknown> {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}

// A close that waited out the keep-alive timeout (72 s) fails on the test timeout.
describe('admin and metrics on listeners of their own', { timeout: 30_000 }, () => {
  let store: TestStore;
  let fixture: TestApp;
  let origins: Record<ListenerName, string | null>;
  before(async () => {
    store = await openTestStore('sqlite');
    const [port, adminPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
    fixture = await fixtureApp(store.store, {
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      METRICS_PORT: String(metricsPort),
    });
    origins = await fixture.app.listenAll();
  });
  after(async () => {
    await fixture.app.close();
    await store.cleanup();
  });

  const call = (origin: string | null, path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, init);
  const admin = { method: 'POST', headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' }, body: '{}' };

  test('the admin API answers on its listener only; the public port does not know it, whatever the key', async () => {
    assert.equal((await call(origins.admin, '/api/v1/admin/feed', admin)).status, 200);
    const onPublic = await call(origins.public, '/api/v1/admin/feed', admin);
    assert.equal(onPublic.status, 404);
    const body = (await onPublic.json()) as { statusCode: number; message: string };
    assert.equal(body.statusCode, 404);
    assert.match(body.message, /not found/);
  });

  test('public routes and metrics are not served on the admin listener; metrics only on theirs; health everywhere', async () => {
    const key = { headers: { 'x-api-key': TEST_KEY } };
    assert.equal((await call(origins.public, '/api/v1/public/sports', key)).status, 200);
    assert.equal((await call(origins.admin, '/api/v1/public/sports', key)).status, 404);
    assert.equal((await call(origins.metrics, '/api/v1/public/sports', key)).status, 404);
    assert.equal((await call(origins.metrics, '/metrics')).status, 200);
    assert.equal((await call(origins.public, '/metrics')).status, 404);
    assert.equal((await call(origins.admin, '/metrics')).status, 404);
    for (const origin of [origins.public, origins.admin, origins.metrics])
      assert.equal((await call(origin, '/healthz')).status, 200, `${origin}/healthz`);
  });

  test('malformed HTTP on any listener gets the error body', async () => {
    for (const origin of [origins.public, origins.admin]) {
      const raw = await rawExchange(
        Number(new URL(origin as string).port),
        'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n',
      );
      assert.match(raw, /^HTTP\/1\.1 400 Bad Request/);
      assert.equal(bodyOf(raw).statusCode, 400);
      assertRawHouseHeaders(raw);
    }
  });

  test('a graceful close stops every listener without waiting out an idle keep-alive connection', async () => {
    const { Agent, request } = await import('node:http');
    const agent = new Agent({ keepAlive: true });
    const get = (origin: string | null, path: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        request(`${origin}${path}`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        })
          .on('error', reject)
          .end();
      });
    assert.equal((await get(origins.admin, '/healthz')).status, 200, 'an idle keep-alive connection is left open');
    await fixture.app.closeGracefully({ idleMs: 200, timeoutMs: 60_000 });
    for (const origin of [origins.public, origins.admin, origins.metrics]) {
      await assert.rejects(fetch(`${origin}/healthz`), `${origin} is closed`);
    }
    agent.destroy();
  });

  test('closing the app again is harmless', async () => {
    await fixture.app.close();
    for (const origin of [origins.public, origins.admin, origins.metrics]) {
      await assert.rejects(fetch(`${origin}/healthz`), `${origin} is closed`);
    }
  });
});

// A server that failed to close a connection would leave rawExchange waiting: the timeout turns that into a failure.
describe('timeouts', { timeout: 30_000 }, () => {
  let store: TestStore;
  let fixture: TestApp;
  let port: number;
  before(async () => {
    store = await openTestStore('sqlite');
    port = await freePort();
    fixture = await fixtureApp(store.store, {
      PORT: String(port),
      REQUEST_TIMEOUT_SECONDS: '1',
      KEEP_ALIVE_TIMEOUT_SECONDS: '1',
    });
    await fixture.app.listenAll();
  });
  after(async () => {
    await fixture.app.close();
    await store.cleanup();
  });

  test('a request whose body never finishes arriving gets 408 with the error body, and the connection is closed', async () => {
    const raw = await rawExchange(
      port,
      `POST /api/v1/admin/feed HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${ADMIN_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"events":`,
    );
    assert.match(raw, /^HTTP\/1\.1 408 Request Timeout/);
    const body = bodyOf(raw);
    assert.equal(body.statusCode, 408);
    assert.match(String(body.message), /did not arrive in time/);
    assertRawHouseHeaders(raw);
    assert.match(raw, /\r\nx-request-id: [0-9a-f-]{36}\r\n/i, 'the answer carries a request id');
  });

  test('a request whose headers never finish gets 408 too', async () => {
    const raw = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    assert.match(raw, /^HTTP\/1\.1 408/);
  });

  test('an idle keep-alive connection is closed by the server', async () => {
    const raw = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.match(raw, /^HTTP\/1\.1 200 OK/);
    assert.match(raw, /Keep-Alive: timeout=1/);
  });

  test('headers beyond the size limit get 431 with the error body', async () => {
    const raw = await rawExchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(raw, /^HTTP\/1\.1 431/);
    assert.equal(bodyOf(raw).statusCode, 431);
    assertRawHouseHeaders(raw);
    assert.match(raw, /\r\nx-request-id: [0-9a-f-]{36}\r\n/i, 'the answer carries a request id');
  });
});
