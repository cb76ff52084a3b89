import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import { fixtureApp, type TestApp, WSL_ONLY_KEY } from '../helpers/app.ts';
import { fixtureFeed, MASL_GAME, WSL_LIVE, WSL_PAST } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore, openTestStore, type TestStore } from '../helpers/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'altsports-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// The fixture's arena-soccer game under a new name, as a later feed would send it.
const rename = (name: string, updatedAt: string) => ({
  events: [
    {
      ...(fixtureFeed().events?.find((e) => e.id.endsWith(MASL_GAME)) as NonNullable<FeedDocument['events']>[number]),
      name,
      updatedAt,
    },
  ],
});

test('cached responses follow writes by this process and by another process on the same SQLite file', async () => {
  const store = openStore({ dataDir: dir });
  await migrateToLatest(store);
  const { app, get } = await fixtureApp(store);
  const name = async () => JSON.parse((await get(`/api/v1/public/events/${MASL_GAME}`)).body).name as string;
  const listed = async () =>
    JSON.parse((await get('/api/v1/public/events?competition=masl&limit=1')).body)[0].name as string;

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
  // Its commit reaches this process's requests through I/O, in a later turn of the event loop (the
  // turn in which SQLite's data_version is read again).
  await setImmediate();
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

const BASE = '/api/v1/public';
const A = `wsl:${WSL_LIVE}`;
const B = `wsl:${WSL_PAST}`;

/** Update times later than the fixtures', each later than the one before. */
let clock = Date.parse('2026-06-01T00:00:00.000Z');
const later = (): string => {
  clock += 60_000;
  return new Date(clock).toISOString();
};

/**
 * A change to one heat of event A (the live wsl event): its name `Heat 1 (v<n>)`, shown by the event
 * document, and a surfer's score `<n>.25`, shown by the heat's document.
 */
const heatOfA = (n: number): FeedDocument => {
  const updatedAt = later();
  return {
    heats: [{ id: 'h-3', roundId: 'r-live-2', heatName: `Heat 1 (v${n})`, heatNo: 1, heatStatus: 'LIVE', updatedAt }],
    heatEntries: [{ id: 'e-h3-b', heatId: 'h-3', athleteId: 'ath-2', seed: 2, heatScore: n + 0.25, updatedAt }],
  };
};
/** Whether a response shows the change `heatOfA(n)`: its heat name or its score. */
const showsChange = (response: LightMyRequestResponse, n: number): boolean =>
  response.body.includes(`"Heat 1 (v${n})"`) || response.body.includes(`"athleteHeatScore":${n + 0.25}`);
/** A change to event B (the past wsl event) that leaves its own row alone: a round added. */
const roundOfB = (roundName: string): FeedDocument => ({
  rounds: [{ id: 'r-past-1', eventId: B, roundName, roundNo: 1, roundStatus: 'COMPLETED', updatedAt: later() }],
});

/** The app over the fixture, its results (participants, heats) and odds. */
async function loadedApp(store: Store): Promise<TestApp> {
  const testApp = await fixtureApp(store);
  await ingestFeed(store, resultsFeed());
  await ingestFeed(store, oddsFeed());
  return testApp;
}

const withApp = async (store: Store, fn: (app: TestApp) => Promise<void>): Promise<void> => {
  const testApp = await loadedApp(store);
  try {
    await fn(testApp);
  } finally {
    await testApp.app.close();
  }
};

/** One public GET route each, as documents with their own cache entries. */
const PUBLIC_DOCUMENTS = [
  `${BASE}/sports`,
  `${BASE}/events`,
  `${BASE}/events?competition=wsl`,
  `${BASE}/events/${A}`,
  `${BASE}/events/${WSL_LIVE}`,
  `${BASE}/events/${A}/participants`,
  `${BASE}/events/${A}/heats/h-3`,
  `${BASE}/events/spr:${SPR_EVENT}/eventWinner`,
  `${BASE}/futures`,
  `${BASE}/futures/wsl/tour/wsl-ct-men/odds/winner`,
];

function assertValidators(response: LightMyRequestResponse, what: string): { etag: string; lastModified: string } {
  const etag = response.headers.etag;
  const lastModified = response.headers['last-modified'];
  assert.equal(typeof etag, 'string', `${what}: ETag`);
  assert.match(etag as string, /^"[^"]+"$/, `${what}: a strong ETag`);
  assert.equal(typeof lastModified, 'string', `${what}: Last-Modified`);
  assert.ok(!Number.isNaN(Date.parse(lastModified as string)), `${what}: Last-Modified is an HTTP date`);
  assert.equal(
    new Date(lastModified as string).toUTCString(),
    lastModified,
    `${what}: Last-Modified in IMF-fixdate form`,
  );
  assert.equal(response.headers['cache-control'], 'private, no-cache', `${what}: Cache-Control`);
  return { etag: etag as string, lastModified: lastModified as string };
}

function assertNotModified(response: LightMyRequestResponse, etag: string, what: string): void {
  assert.equal(response.statusCode, 304, `${what}: 304`);
  assert.equal(response.body, '', `${what}: no body`);
  assert.equal(response.headers.etag, etag, `${what}: the ETag of the 200`);
  assert.equal(response.headers['cache-control'], 'private, no-cache', `${what}: Cache-Control`);
}

/** Waits for the start of the next clock second (HTTP dates count whole seconds). */
const nextSecond = () => sleep(1000 - (Date.now() % 1000) + 20);
const earlier = (httpDate: string, seconds: number) => new Date(Date.parse(httpDate) - seconds * 1000).toUTCString();

describeEachStore('response cache', (open, kind) => {
  // Building an app costs about a second (its schemas): the tests that change nothing behind the
  // cache's back share one; each goes through the change log only.
  let sharedStore: TestStore;
  let shared: TestApp;
  before(async () => {
    sharedStore = await openTestStore(kind);
    shared = await loadedApp(sharedStore.store);
  });
  after(async () => {
    await shared.app.close();
    await sharedStore.cleanup();
  });
  const withShared = (fn: (app: TestApp) => Promise<void>) => fn(shared);

  test('every public GET route answers with an ETag, a Last-Modified and Cache-Control, the same when cached', async () => {
    await withShared(async ({ get }) => {
      for (const url of PUBLIC_DOCUMENTS) {
        const first = await get(url);
        assert.equal(first.statusCode, 200, `${url}: ${first.body.slice(0, 200)}`);
        const { etag, lastModified } = assertValidators(first, url);
        const cached = await get(url);
        assert.equal(cached.statusCode, 200, url);
        assert.equal(cached.body, first.body, `${url}: the cached body`);
        assert.equal(cached.headers.etag, etag, `${url}: the cached ETag`);
        assert.equal(cached.headers['last-modified'], lastModified, `${url}: the cached Last-Modified`);
        assert.equal(cached.headers['cache-control'], 'private, no-cache', `${url}: the cached Cache-Control`);
        assertNotModified(await get(url, { 'if-none-match': etag }), etag, `${url} with its ETag`);
      }
    });
  });

  test('If-None-Match and If-Modified-Since: 304 when they match, 200 otherwise, If-None-Match first', async () => {
    await withShared(async ({ get, store }) => {
      const url = `${BASE}/events/${A}`;
      const ok = await get(url);
      let { etag, lastModified } = assertValidators(ok, url);
      for (const inm of [etag, `"x", ${etag}`, `"x",${etag} , "y"`, `W/${etag}`, `"x", W/${etag}`, '*']) {
        assertNotModified(await get(url, { 'if-none-match': inm }), etag, `If-None-Match: ${inm}`);
      }
      for (const inm of ['"stale"', `"x", "y"`, `${etag.slice(0, -2)}"`]) {
        const stale = await get(url, { 'if-none-match': inm });
        assert.equal(stale.statusCode, 200, `If-None-Match: ${inm}`);
        assert.equal(stale.body, ok.body);
        assert.equal(stale.headers.etag, etag);
      }

      // In a second that saw more than one change, If-Modified-Since cannot tell versions apart (200);
      // a document whose last change had its second to itself is a 304.
      await nextSecond();
      await ingestFeed(store, heatOfA(100));
      const alone = await get(url);
      ({ etag, lastModified } = assertValidators(alone, url));
      assertNotModified(
        await get(url, { 'if-modified-since': lastModified }),
        etag,
        'If-Modified-Since equal to Last-Modified',
      );
      assertNotModified(
        await get(url, { 'if-modified-since': new Date(Date.parse(lastModified) + 3_600_000).toUTCString() }),
        etag,
        'If-Modified-Since later than Last-Modified',
      );
      const older = await get(url, { 'if-modified-since': earlier(lastModified, 1) });
      assert.equal(older.statusCode, 200, 'If-Modified-Since a second before Last-Modified');
      assert.equal(older.body, alone.body);
      const garbage = await get(url, { 'if-modified-since': 'not a date' });
      assert.equal(garbage.statusCode, 200, 'an unparseable If-Modified-Since is ignored');

      // If-None-Match wins: a stale tag with a current date is a 200, a current tag with an old date a 304.
      const staleTag = await get(url, { 'if-none-match': '"stale"', 'if-modified-since': lastModified });
      assert.equal(staleTag.statusCode, 200, 'stale If-None-Match with a matching If-Modified-Since');
      assert.equal(staleTag.body, alone.body);
      assertNotModified(
        await get(url, { 'if-none-match': etag, 'if-modified-since': earlier(lastModified, 3600) }),
        etag,
        'matching If-None-Match with an old If-Modified-Since',
      );
    });
  });

  test('compression: br or gzip as Accept-Encoding asks, with Vary, an ETag per coding, and 304s across codings', async () => {
    await withShared(async ({ get, store }) => {
      const url = `${BASE}/events/${A}`;
      const plain = await get(url);
      const { etag } = assertValidators(plain, url);
      assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: identity');
      assert.equal(
        plain.headers.vary,
        'accept-encoding',
        'a document large enough to compress varies with Accept-Encoding',
      );
      const decoders = { br: brotliDecompressSync, gzip: gunzipSync };
      for (const [coding, decode] of Object.entries(decoders) as Array<
        [keyof typeof decoders, (b: Buffer) => Buffer]
      >) {
        const tag = `${etag.slice(0, -1)}-${coding}"`;
        // The first request makes the coding, the second finds it cached: the same bytes.
        const made = await get(url, { 'accept-encoding': `${coding}, deflate` });
        const cached = await get(url, { 'accept-encoding': `${coding}, deflate` });
        for (const [answer, which] of [
          [made, 'made'],
          [cached, 'cached'],
        ] as const) {
          assert.equal(answer.statusCode, 200, `${coding} ${which}`);
          assert.equal(answer.headers['content-encoding'], coding, `${coding} ${which}`);
          assert.equal(answer.headers.vary, 'accept-encoding', `${coding} ${which}`);
          assert.equal(answer.headers.etag, tag, `${coding} ${which}: the coding's own ETag`);
          assert.equal(answer.headers['content-type'], plain.headers['content-type'], `${coding} ${which}`);
          assert.equal(
            Number(answer.headers['content-length']),
            answer.rawPayload.length,
            `${coding} ${which}: Content-Length counts the coded bytes`,
          );
          assert.ok(
            answer.rawPayload.length < plain.rawPayload.length,
            `${coding} ${which}: ${answer.rawPayload.length} bytes of ${plain.rawPayload.length}`,
          );
          assert.deepEqual(decode(answer.rawPayload), plain.rawPayload, `${coding} ${which}: decodes to the document`);
        }
        assert.deepEqual(cached.rawPayload, made.rawPayload, `${coding}: made once`);
        // Any coding's tag names the document: a 304 whichever coding the client now asks for,
        // carrying the ETag and Vary that coding's 200 would.
        for (const held of [etag, tag, `W/${tag}`, `"x", ${tag}`]) {
          for (const [asked, expected] of [
            [undefined, etag],
            ['br', `${etag.slice(0, -1)}-br"`],
            ['gzip', `${etag.slice(0, -1)}-gzip"`],
          ] as const) {
            const answer = await get(url, { 'if-none-match': held, ...(asked ? { 'accept-encoding': asked } : {}) });
            assertNotModified(answer, expected, `If-None-Match: ${held}, Accept-Encoding: ${asked}`);
            assert.equal(answer.headers.vary, 'accept-encoding');
            assert.equal(answer.headers['content-encoding'], undefined);
          }
        }
        const other = await get(url, { 'if-none-match': `${etag.slice(0, -1)}-deflate"`, 'accept-encoding': coding });
        assert.equal(other.statusCode, 200, 'a coding never made is not this document');
      }
      assert.equal(
        (await get(url, { 'accept-encoding': 'gzip;q=0, br;q=0' })).headers['content-encoding'],
        undefined,
        'every coding refused: identity',
      );

      // A change drops every coding with the document.
      await ingestFeed(store, heatOfA(70));
      const changed = await get(url, { 'accept-encoding': 'br' });
      assert.equal(changed.headers['content-encoding'], 'br');
      assert.notEqual(changed.headers.etag, `${etag.slice(0, -1)}-br"`);
      assert.match(brotliDecompressSync(changed.rawPayload).toString('utf8'), /"Heat 1 \(v70\)"/);

      // Under 1 KB a document goes as it is, and does not vary.
      const small = `${BASE}/events?competition=masl`;
      for (let i = 0; i < 2; i++) {
        const answer = await get(small, { 'accept-encoding': 'br, gzip' });
        assert.equal(answer.statusCode, 200);
        assert.equal(answer.headers['content-encoding'], undefined, `a ${answer.rawPayload.length}-byte document`);
        assert.equal(answer.headers.vary, undefined);
        assert.ok(Array.isArray(JSON.parse(answer.body)));
      }
    });
  });

  test('304 on a first, uncached request too', async () => {
    await withShared(async ({ get }) => {
      // The wsl-only key has its own cache entries: its first request for B is not cached, yet B's
      // document is the same bytes, so the full key's ETag matches it.
      const url = `${BASE}/events/${B}`;
      const full = await get(url);
      const { etag } = assertValidators(full, url);
      assertNotModified(
        await get(url, { 'x-api-key': WSL_ONLY_KEY, 'if-none-match': etag }),
        etag,
        'first request of the wsl-only key, If-None-Match',
      );
      // And with a date: the first request of the wsl-only key for another document.
      const heat = `${BASE}/events/${A}/heats/h-3`;
      const future = new Date(Date.now() + 3_600_000).toUTCString();
      const notModified = await get(heat, { 'x-api-key': WSL_ONLY_KEY, 'if-modified-since': future });
      assert.equal(notModified.statusCode, 304, 'first request of the wsl-only key, If-Modified-Since');
      assert.equal(notModified.body, '');
      assertValidators(notModified, heat);
      const body = await get(heat, { 'x-api-key': WSL_ONLY_KEY });
      assert.equal(body.statusCode, 200);
      assert.equal(body.headers.etag, notModified.headers.etag, 'the 304 carried the ETag of the 200');
    });
  });

  test("a change to event A drops A's documents and its competition's lists, never event B's", async () => {
    const store = await open();
    await withApp(store, async ({ get }) => {
      const docs = {
        a: `${BASE}/events/${A}`,
        aBare: `${BASE}/events/${WSL_LIVE}`,
        aHeat: `${BASE}/events/${A}/heats/h-3`,
        aParticipants: `${BASE}/events/${A}/participants`,
        b: `${BASE}/events/${B}`,
        wslList: `${BASE}/events?competition=wsl`,
        maslList: `${BASE}/events?competition=masl`,
        spr: `${BASE}/events/spr:${SPR_EVENT}`,
      };
      const before: Record<string, LightMyRequestResponse> = {};
      for (const [name, url] of Object.entries(docs)) {
        before[name] = await get(url);
        assert.equal(before[name].statusCode, 200, `${name}: ${before[name].body.slice(0, 200)}`);
      }
      const nameOf = (response: LightMyRequestResponse) => JSON.parse(response.body).name as string;
      const listedNames = (response: LightMyRequestResponse) =>
        (JSON.parse(response.body) as Array<{ name: string }>).map((e) => e.name);

      // Rows changed behind the cache's back (no change logged): what still shows the old names was cached.
      await store.db.updateTable('events').set({ name: 'B renamed quietly' }).where('id', '=', WSL_PAST).execute();
      await store.db.updateTable('events').set({ name: 'Masl renamed quietly' }).where('id', '=', MASL_GAME).execute();
      await store.db.updateTable('events').set({ name: 'Spr renamed quietly' }).where('id', '=', SPR_EVENT).execute();
      assert.equal((await get(docs.b)).body, before.b?.body, 'B is served from the cache');

      await ingestFeed(store, heatOfA(1));

      for (const name of ['a', 'aBare', 'aHeat'] as const) {
        const now = await get(docs[name]);
        assert.equal(now.statusCode, 200);
        assert.ok(showsChange(now, 1), `${name} shows the change`);
        assert.notEqual(now.headers.etag, before[name]?.headers.etag, `${name}: a new ETag`);
        const again = await get(docs[name], { 'if-none-match': before[name]?.headers.etag as string });
        assert.equal(again.statusCode, 200, `${name}: the old ETag no longer matches`);
      }
      // Dropped too (same bytes: the participants do not show heats), so composed again: same ETag.
      assert.equal((await get(docs.aParticipants)).headers.etag, before.aParticipants?.headers.etag);
      // The competition's list was dropped: composed again, it shows B's quiet rename.
      assert.ok(listedNames(await get(docs.wslList)).includes('B renamed quietly'), 'the wsl list was composed again');
      // B's own document, another competition's list and another event were not dropped.
      const b = await get(docs.b);
      assert.equal(b.body, before.b?.body, "B's document is still the cached bytes");
      assert.equal(b.headers.etag, before.b?.headers.etag);
      assertNotModified(
        await get(docs.b, { 'if-none-match': before.b?.headers.etag as string }),
        before.b?.headers.etag as string,
        'B with its old ETag',
      );
      assert.deepEqual(
        listedNames(await get(docs.maslList)),
        listedNames(before.maslList as LightMyRequestResponse),
        'the masl list is still cached',
      );
      assert.equal(
        nameOf(await get(docs.spr)),
        nameOf(before.spr as LightMyRequestResponse),
        'the spr event is still cached',
      );

      // Now a change to B: its document goes, and shows what the store holds.
      await ingestFeed(store, roundOfB('Final'));
      const changed = await get(docs.b);
      assert.equal(nameOf(changed), 'B renamed quietly');
      assert.notEqual(changed.headers.etag, before.b?.headers.etag);
      assert.equal((await get(docs.b, { 'if-none-match': before.b?.headers.etag as string })).statusCode, 200);
      assert.equal(
        nameOf(await get(docs.spr)),
        nameOf(before.spr as LightMyRequestResponse),
        'the spr event is still cached',
      );
    });
  });

  test('after a change, If-Modified-Since with the Last-Modified served before it is a 200', async () => {
    await withShared(async ({ get, store }) => {
      const url = `${BASE}/events/${A}/heats/h-3`;
      // Several changes in quick succession: some fall in the same second as the Last-Modified before them.
      for (let i = 0; i < 5; i++) {
        const before = await get(url);
        const { lastModified } = assertValidators(before, url);
        await ingestFeed(store, heatOfA(i + 1));
        const after = await get(url, { 'if-modified-since': lastModified });
        assert.equal(
          after.statusCode,
          200,
          `change ${i + 1}: the document changed since ${lastModified} (now Last-Modified ${after.headers['last-modified']})`,
        );
        assert.ok(showsChange(after, i + 1), `change ${i + 1} is shown`);
        assert.ok(
          Date.parse(after.headers['last-modified'] as string) >= Date.parse(lastModified),
          `change ${i + 1}: Last-Modified never goes back`,
        );
      }
    });
  });

  test('keys with different scopes and the envelope have entries and ETags of their own', async () => {
    await withShared(async ({ get }) => {
      const list = `${BASE}/events`;
      const full = await get(list);
      const wslOnly = await get(list, { 'x-api-key': WSL_ONLY_KEY });
      assert.deepEqual(
        [...new Set((JSON.parse(wslOnly.body) as Array<{ competition: string }>).map((e) => e.competition))],
        ['wsl'],
      );
      assert.notEqual(wslOnly.headers.etag, full.headers.etag);
      assert.equal(
        (await get(list, { 'if-none-match': wslOnly.headers.etag as string })).statusCode,
        200,
        "the wsl-only key's ETag does not match the full list",
      );
      // Cached with the full key, the masl game stays unknown to the wsl-only key (not a 403).
      const masl = `${BASE}/events/masl:${MASL_GAME}`;
      assert.equal((await get(masl)).statusCode, 200);
      assert.equal((await get(masl)).statusCode, 200);
      const forbidden = await get(masl, { 'x-api-key': WSL_ONLY_KEY });
      assert.equal(forbidden.statusCode, 404);
      assert.equal(forbidden.headers.etag, undefined, 'an error has no ETag');

      const url = `${BASE}/events/${A}`;
      const plain = await get(url);
      const wrapped = await get(`${url}?envelope=data`);
      assert.equal(wrapped.statusCode, 200);
      assert.deepEqual(JSON.parse(wrapped.body).data, JSON.parse(plain.body));
      const { etag } = assertValidators(wrapped, 'envelope');
      assert.notEqual(etag, plain.headers.etag, 'the envelope has an ETag of its own');
      assert.equal((await get(`${url}?envelope=data`)).headers.etag, etag, 'and keeps it when cached');
      assertNotModified(
        await get(`${url}?envelope=data`, { 'if-none-match': etag }),
        etag,
        'the envelope with its ETag',
      );
      assert.equal(
        (await get(`${url}?envelope=data`, { 'if-none-match': plain.headers.etag as string })).statusCode,
        200,
        "the plain document's ETag does not match the envelope",
      );
      assert.equal(
        (await get(url, { 'if-none-match': etag })).statusCode,
        200,
        "the envelope's ETag does not match the plain document",
      );
    });
  });
});
