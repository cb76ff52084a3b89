import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { migrateToLatest, openStore } from '../../src/store/database.ts';
import { fixtureApp } from '../helpers/app.ts';
import { MASL_GAME, fixtureFeed } from '../helpers/feed-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'altsports-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// The fixture's arena-soccer game under a new name, as a later feed would send it.
const rename = (name: string, updatedAt: string) => ({
  events: [{ ...(fixtureFeed().events?.find((e) => e.id.endsWith(MASL_GAME)) as NonNullable<FeedDocument['events']>[number]), name, updatedAt }],
});

test('cached responses follow writes by this process and by another process on the same SQLite file', async () => {
  const store = openStore({ dataDir: dir });
  await migrateToLatest(store);
  const { app, get } = await fixtureApp(store);
  const name = async () => JSON.parse((await get(`/api/v1/public/events/${MASL_GAME}`)).body).name as string;
  const listed = async () => JSON.parse((await get('/api/v1/public/events?competition=masl&limit=1')).body)[0].name as string;

  assert.equal(await name(), 'San Diego Sockers vs Milwaukee Wave');
  assert.equal(await name(), 'San Diego Sockers vs Milwaukee Wave');
  assert.equal(await listed(), 'San Diego Sockers vs Milwaukee Wave');

  await ingestFeed(store, rename('Renamed here', '2026-02-21T00:00:00Z'));
  assert.equal(await name(), 'Renamed here');
  assert.equal(await listed(), 'Renamed here');

  // A second connection stands for `altsports import` running in another process.
  const other = openStore({ dataDir: dir });
  await ingestFeed(other, rename('Renamed elsewhere', '2026-02-22T00:00:00Z'));
  await other.close();
  assert.equal(await name(), 'Renamed elsewhere');
  assert.equal(await listed(), 'Renamed elsewhere');

  // A cached page keeps its Link header, and the envelope still wraps a cached body.
  const first = await get('/api/v1/public/events?limit=1');
  const again = await get('/api/v1/public/events?limit=1');
  assert.equal(again.body, first.body);
  assert.equal(again.headers.link, first.headers.link);
  assert.match(String(again.headers.link), /rel="next"/);
  assert.equal(again.headers['content-type'], first.headers['content-type']);
  assert.equal(Number(again.headers['content-length']), Buffer.byteLength(first.body));
  const traced = await get('/api/v1/public/events?limit=1', { 'x-request-id': 'trace-me-42' });
  assert.equal(traced.headers['x-request-id'], 'trace-me-42', 'a cache hit still answers with the request id');
  for (let i = 0; i < 2; i++) {
    const wrapped = JSON.parse((await get('/api/v1/public/events?limit=1&envelope=data')).body);
    assert.deepEqual(wrapped.data, JSON.parse(first.body), `envelope, request ${i + 1}`);
  }

  // Keys with different scopes never share an entry.
  const scoped = await get('/api/v1/public/events?limit=1', { 'x-api-key': 'wsl-only-key-0123456789abcdef' });
  assert.equal(JSON.parse(scoped.body)[0].competition, 'wsl');
  await app.close();
  await store.close();
});
