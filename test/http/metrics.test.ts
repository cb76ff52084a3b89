import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../scripts/free-port.ts';
import { ADMIN_KEY, fixtureApp, TEST_KEY, type TestApp } from '../helpers/app.ts';
import { freezeClock } from '../helpers/clock.ts';
import { fixtureFeed, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { SseStream } from '../helpers/sse.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';

/** The value of one sample of the Prometheus text exposition, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  let store: TestStore;
  let fixture: TestApp;
  const scrape = async () => {
    const response = await fixture.app.inject({ url: '/metrics' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return response.body;
  };
  before(async () => {
    store = await openTestStore('sqlite');
    fixture = await fixtureApp(store.store, { RATE_LIMIT_PER_MINUTE: '5', DOCUMENT_BUILD_COST: '1' });
  });
  after(async () => {
    await fixture.app.close();
    await store.cleanup();
  });

  test('counts requests by route template, method and status, with their latency', async (t) => {
    freezeClock(t);
    await fixture.get(`${BASE}/events/${WSL_LIVE}`);
    await fixture.get(`${BASE}/events/not-an-event`);
    const text = await scrape();
    const route = `${BASE}/events/:eventId`;
    assert.equal(sample(text, 'altsports_http_requests_total', { route, method: 'GET', status: '200' }), 1);
    assert.equal(sample(text, 'altsports_http_requests_total', { route, method: 'GET', status: '404' }), 1);
    assert.equal(sample(text, 'altsports_http_request_duration_seconds_count', { route, method: 'GET' }), 2);
    assert.ok((sample(text, 'altsports_http_request_duration_seconds_sum', { route, method: 'GET' }) ?? 0) > 0);
    assert.ok((sample(text, 'process_resident_memory_bytes') ?? 0) > 0, 'process metrics are included');
  });

  test('counts response cache hits and misses, and rate-limit rejections', async (t) => {
    // Rate limits count by clock minute: this test's requests and the last test's must fall in one.
    freezeClock(t);
    const before = await scrape();
    const hits = sample(before, 'altsports_response_cache_lookups_total', { result: 'hit' }) ?? 0;
    const misses = sample(before, 'altsports_response_cache_lookups_total', { result: 'miss' }) ?? 0;
    await fixture.get(`${BASE}/sports`);
    await fixture.get(`${BASE}/sports`);
    await fixture.get(`${BASE}/sports`);
    const limited = await fixture.get(`${BASE}/sports`);
    assert.equal(limited.statusCode, 429);
    const text = await scrape();
    assert.equal(sample(text, 'altsports_response_cache_lookups_total', { result: 'miss' }), misses + 1);
    assert.equal(sample(text, 'altsports_response_cache_lookups_total', { result: 'hit' }), hits + 2);
    assert.equal(sample(text, 'altsports_rate_limit_rejections_total'), 1);
  });

  test('counts feed rows written by collection and outcome', async () => {
    const feed = fixtureFeed();
    const events = (feed.events ?? []).map((event) =>
      event.id === WSL_LIVE ? { ...event, name: `${event.name} (renamed)`, updatedAt: '2030-01-01T00:00:00Z' } : event,
    );
    const response = await fixture.app.inject({
      method: 'POST',
      url: '/api/v1/admin/feed',
      headers: { 'x-api-key': ADMIN_KEY },
      payload: { events },
    });
    assert.equal(response.statusCode, 200);
    const text = await scrape();
    assert.equal(sample(text, 'altsports_ingest_rows_total', { collection: 'events', outcome: 'updated' }), 1);
    assert.equal(
      sample(text, 'altsports_ingest_rows_total', { collection: 'events', outcome: 'unchanged' }),
      events.length - 1,
    );
    assert.equal(sample(text, 'altsports_ingest_batches_total'), 1);
  });
});

test('the response cache forgets a dropped document under every tag it was filed under', async () => {
  const store = await openTestStore('sqlite');
  const { app, get } = await fixtureApp(store.store);
  const gauges = async () => {
    const text = (await app.inject({ url: '/metrics' })).body;
    return ['entries', 'bytes', 'filings'].map((name) => sample(text, `altsports_response_cache_${name}`));
  };
  try {
    // Distinct polls of the unfiltered list: each is filed under every competition.
    for (let minute = 0; minute < 20; minute += 1)
      assert.equal(
        (await get(`${BASE}/events?updatedSince=2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`)).statusCode,
        200,
      );
    const [entries, bytes, filings] = await gauges();
    assert.equal(entries, 20);
    assert.ok((bytes ?? 0) > 0 && (filings ?? 0) >= 20 * 2, `${bytes} bytes, ${filings} filings`);
    // A coding made for a cached document counts with it.
    const polled = `${BASE}/events?updatedSince=2026-01-01T00:00:00Z`;
    const br = (await get(polled, { 'accept-encoding': 'br' })).rawPayload.length;
    const gzip = (await get(polled, { 'accept-encoding': 'gzip' })).rawPayload.length;
    assert.deepEqual(await gauges(), [20, (bytes ?? 0) + br + gzip, filings]);
    // A change to one competition drops them all: nothing of them may stay filed under the others.
    const events = (fixtureFeed().events ?? [])
      .filter((event) => event.id === WSL_LIVE)
      .map((event) => ({ ...event, name: `${event.name} (renamed)`, updatedAt: '2030-01-01T00:00:00Z' }));
    assert.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1/admin/feed',
          headers: { 'x-api-key': ADMIN_KEY },
          payload: { events },
        })
      ).statusCode,
      200,
    );
    assert.deepEqual(await gauges(), [0, 0, 0]);
  } finally {
    await app.close();
    await store.cleanup();
  }
});

test('the push-stream clients gauge follows connections', async () => {
  const store = await openTestStore('sqlite');
  const fixture = await fixtureApp(store.store, { PORT: String(await freePort()) });
  const origins = await fixture.app.listenAll();
  const clients = async () => sample((await fixture.app.inject({ url: '/metrics' })).body, 'altsports_stream_clients');
  try {
    assert.equal(await clients(), 0);
    const stream = await SseStream.open(`${origins.public}${BASE}/stream`, { 'x-api-key': TEST_KEY });
    await stream.nextEvent();
    assert.equal(await clients(), 1);
    await stream.close();
    for (let i = 0; i < 50 && (await clients()) !== 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await clients(), 0);
  } finally {
    await fixture.app.close();
    await store.cleanup();
  }
});

test('an unexpected failure in the store is counted as an internal store error', async () => {
  const store = await openTestStore('sqlite');
  const { app, get } = await fixtureApp(store.store);
  try {
    // The connection closed under the running app: the next query that is not answered from the cache fails.
    store.store.sqlite?.close();
    const response = await get(`${BASE}/events/${WSL_LIVE}`);
    assert.equal(response.statusCode, 500);
    const text = (await app.inject({ url: '/metrics' })).body;
    assert.equal(sample(text, 'altsports_store_errors_total', { kind: 'internal' }), 1);
    assert.equal(sample(text, 'altsports_store_errors_total', { kind: 'unavailable' }), 0);
  } finally {
    await app.close();
    await store.cleanup();
  }
});

test('METRICS=off: no /metrics route', async () => {
  const store = await openTestStore('sqlite');
  const { app } = await fixtureApp(store.store, { METRICS: 'off' });
  try {
    assert.equal((await app.inject({ url: '/metrics' })).statusCode, 404);
  } finally {
    await app.close();
    await store.cleanup();
  }
});
