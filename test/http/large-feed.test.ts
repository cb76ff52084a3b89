import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateDemoFeeds } from '../../src/demo/generate.ts';
import { FEED_COLLECTIONS, type FeedDocument } from '../../src/ingest/feed-schema.ts';
import type { Store } from '../../src/store/database.ts';
import { ADMIN_KEY, fixtureApp } from '../helpers/app.ts';
import { tempDir } from '../helpers/cli.ts';
import { describeEachStore } from '../helpers/stores.ts';

/**
 * A large feed under load ("writes never stall reads"): while a batch of a few MB is
 * validated and written, GET /sports is answered, and the batch stays all or nothing. Checked by counts
 * and order, never by timings (the timings are `npm run bench:large-feed`'s). The SQLite store is a
 * file store, as `npm start` has it: an in-memory one has a single connection, which a read waits for
 * while a batch holds it (docs/decisions.md).
 */

/** The demo's events of one seed merged into one document (its collections in FEED_COLLECTIONS order, so read in slices): about 3 MB. */
function largeFeed(): FeedDocument {
  const merged: Record<string, unknown[]> = {};
  for (const doc of generateDemoFeeds({ now: new Date('2026-11-01T12:00:00.000Z'), seed: 25, events: 60 }))
    for (const [key, value] of Object.entries(doc))
      if (Array.isArray(value)) {
        const items = merged[key] ?? [];
        merged[key] = items;
        for (const item of value) items.push(item);
      }
  return Object.fromEntries(FEED_COLLECTIONS.filter((c) => merged[c]).map((c) => [c, merged[c]])) as FeedDocument;
}

let feed: FeedDocument;
let body: string;

before(() => {
  feed = largeFeed();
  body = JSON.stringify(feed);
});

/** Posts `payload` while GET /sports is asked one request after another; the order in which answers came. */
async function postWhileReading(app: Awaited<ReturnType<typeof fixtureApp>>, payload: string) {
  const order: string[] = [];
  let done = false;
  const posted = app.app
    .inject({
      method: 'POST',
      url: '/api/v1/admin/feed',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      payload,
    })
    .then((res) => {
      order.push(`feed ${res.statusCode}`);
      done = true;
      return res;
    });
  const reads = (async () => {
    while (!done) {
      // A client's next request arrives as I/O does, in a turn of its own (inject alone would answer a
      // cached read within this turn, and the loop would never let the batch go on).
      await new Promise((resolve) => setImmediate(resolve));
      const res = await app.get('/api/v1/public/sports');
      if (!done) order.push(`sports ${res.statusCode}`);
    }
  })();
  const [res] = await Promise.all([posted, reads]);
  return { res, order };
}

const eventCount = async (store: Store) =>
  Number(
    (
      await store.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describeEachStore('a large feed beside reads', (open, kind) => {
  let dir: Awaited<ReturnType<typeof tempDir>> | undefined;
  after(async () => {
    await dir?.cleanup();
  });

  const openApp = async () => {
    if (kind === 'sqlite' && !dir) dir = await tempDir('altsports-large-feed-');
    const store = await open(
      kind === 'sqlite' ? { dataDir: `${dir?.dir}/${Math.random().toString(36).slice(2)}` } : {},
    );
    return fixtureApp(store);
  };
  /** Runs `use` against a fresh app, closed after. */
  const withApp = async (use: (app: Awaited<ReturnType<typeof openApp>>) => Promise<void>) => {
    const app = await openApp();
    try {
      await use(app);
    } finally {
      await app.app.close();
    }
  };

  test('GET /sports is answered while the batch is ingested, and the batch is written whole', async (t) => {
    assert.ok(body.length > 2_000_000, `the feed is ${body.length} bytes`);
    // The body is staged under TMPDIR (http/staged-body.ts): this test's own.
    const staging = await mkdtemp(join(tmpdir(), 'altsports-large-feed-tmp-'));
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = staging;
    t.after(async () => {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
      await rm(staging, { recursive: true, force: true });
    });
    await withApp(async (app) => {
      const before = await eventCount(app.store);
      const { res, order } = await postWhileReading(app, body);
      assert.equal(res.statusCode, 200, res.body.slice(0, 2000));
      const answeredBefore = order.indexOf('feed 200');
      assert.ok(answeredBefore >= 3, `GET /sports answered before the feed's answer: ${order.slice(0, 10).join(', ')}`);
      assert.ok(
        order.slice(0, answeredBefore).every((o) => o === 'sports 200'),
        'every read was answered 200',
      );
      assert.equal(await eventCount(app.store), before + (feed.events?.length ?? 0));
      assert.deepEqual(
        (await readdir(staging)).filter((name) => name.startsWith('altsports-body-')),
        [],
        'the staged body is removed once answered',
      );
    });
  });

  test('collections in another order (alphabetical, as a JSON map encoder writes them): written alike', async () => {
    await withApp(async (app) => {
      const before = await eventCount(app.store);
      const alphabetical = Object.fromEntries(Object.entries(feed).sort(([a], [b]) => (a < b ? -1 : 1)));
      assert.notDeepEqual(Object.keys(alphabetical), Object.keys(feed), 'not the order collections are written');
      const { res, order } = await postWhileReading(app, JSON.stringify(alphabetical));
      assert.equal(res.statusCode, 200, res.body.slice(0, 2000));
      assert.ok(order.indexOf('feed 200') >= 1, `GET /sports answered before the feed's answer: ${order.slice(0, 10)}`);
      assert.equal(await eventCount(app.store), before + (feed.events?.length ?? 0));
      const odds = await app.store.db.selectFrom('odds').select(['id', 'decimalOdds']).orderBy('id').execute();
      const sent = new Map((feed.odds ?? []).map((o) => [o.id, o.odds]));
      assert.equal(odds.filter((o) => sent.get(o.id) === o.decimalOdds).length, sent.size, 'every odd as sent');
    });
  });

  test('every character past ASCII escaped (as Python json.dumps writes it): read in slices, written as sent', async () => {
    await withApp(async (app) => {
      const before = await eventCount(app.store);
      const escaped = body.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      assert.match(escaped, /\\u00e1/, 'the demo names hold escapes');
      const { res, order } = await postWhileReading(app, escaped);
      assert.equal(res.statusCode, 200, res.body.slice(0, 2000));
      assert.ok(order.indexOf('feed 200') >= 1, `GET /sports answered before the feed's answer: ${order.slice(0, 10)}`);
      assert.equal(await eventCount(app.store), before + (feed.events?.length ?? 0));
      const stored = await app.store.db.selectFrom('athletes').select(['id', 'firstName', 'lastName']).execute();
      const name = (a: { firstName: string; lastName: string }) => `${a.firstName} ${a.lastName}`;
      const sent = new Map((feed.athletes ?? []).map((a) => [a.id, name(a)]));
      assert.ok(
        stored.some((a) => /[\u0080-\uffff]/.test(name(a))),
        'accented names were sent',
      );
      assert.equal(stored.filter((a) => sent.get(a.id) === name(a)).length, sent.size, 'every name as sent');
    });
  });

  test('a bad item near the end of a large batch writes nothing, and reads are answered meanwhile', async () => {
    await withApp(async (app) => {
      const before = await eventCount(app.store);
      const odds = feed.odds ?? [];
      const last = odds.length - 1;
      const bad = { ...feed, odds: odds.map((o, i) => (i === last ? { ...o, marketId: 'no-such-market' } : o)) };
      const { res, order } = await postWhileReading(app, JSON.stringify(bad));
      assert.equal(res.statusCode, 400, res.body.slice(0, 2000));
      const problems = (res.json() as { metadata: { problems: Array<{ item: string; field: string }> } }).metadata
        .problems;
      assert.ok(
        problems.some((p) => p.item === `odds[${last}]` && p.field === 'marketId'),
        JSON.stringify(problems.slice(0, 5)),
      );
      assert.ok(order.indexOf('feed 400') >= 1, `GET /sports answered before the feed's answer: ${order.slice(0, 10)}`);
      assert.equal(await eventCount(app.store), before, 'nothing of the batch was written');
    });
  });
});
