import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { fixtureApp, sharedFixture } from '../helpers/app.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { BKFC_EVENT, resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
type Market = { eventId: string; oddType: string; marketId: string; outcomes: Array<Record<string, unknown>> };

describeEachStore('GET /odds: every market in one call', (_open, kind) => {
  const shared = sharedFixture(kind, async (store) => {
    const app = await fixtureApp(store);
    await ingestFeed(store, resultsFeed());
    await ingestFeed(store, oddsFeed());
    return app;
  });
  const markets = async (query: string) => {
    const res = await shared().get(`${BASE}/odds${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return JSON.parse(res.body) as Market[];
  };

  test("each market carries route 6's items of its odd type, exactly as route 6 publishes them", async () => {
    const all = await markets('');
    assert.ok(all.length >= 17, `${all.length} markets`);
    assert.deepEqual(new Set(all.map((m) => m.eventId)), new Set([`spr:${SPR_EVENT}`, `bkfc:${BKFC_EVENT}`]));
    for (const market of all) {
      const route6 = JSON.parse((await shared().get(`${BASE}/events/${market.eventId}/${market.oddType}`)).body);
      const items = (route6[market.oddType] as Array<Record<string, unknown>>).filter(
        (item) => (item.marketId ?? item.id) === market.marketId,
      );
      assert.deepEqual(market.outcomes, items, `${market.marketId} (${market.oddType})`);
    }
  });

  test('filters by event, odd type and status; competition and eventId agree or nothing matches', async () => {
    const win = await markets(`?eventId=spr:${SPR_EVENT}&oddType=eventWinner`);
    assert.deepEqual(
      win.map((m) => [m.eventId, m.oddType, m.marketId, m.outcomes.length]),
      [[`spr:${SPR_EVENT}`, 'eventWinner', 'm-sx-win', 4]],
    );
    const closed = await markets('?status=CLOSED');
    assert.ok(closed.length > 0);
    for (const m of closed) for (const o of m.outcomes) assert.equal(o.status ?? o.betStatus, 'CLOSED');
    assert.deepEqual(await markets(`?competition=wsl&eventId=spr:${SPR_EVENT}`), []);
    assert.deepEqual([...new Set((await markets('?competition=bkfc')).map((m) => m.eventId))], [`bkfc:${BKFC_EVENT}`]);
  });

  test('every filter takes a list, as every list filter does: the union of what each matches', async () => {
    const key = (list: Market[]) => [...new Set(list.map((m) => m.marketId))].sort();
    const each = async (name: string, values: string[]) =>
      (await Promise.all(values.map((v) => markets(`?${name}=${v}`)))).flat();
    for (const [name, values] of [
      ['oddType', ['eventWinner', 'heatWinner']],
      ['status', ['OPEN', 'CLOSED']],
      ['competition', ['spr', 'bkfc']],
      ['eventId', [`spr:${SPR_EVENT}`, `bkfc:${BKFC_EVENT}`]],
    ] as const) {
      const union = key(await each(name, [...values]));
      assert.ok(union.length > 0, name);
      assert.deepEqual(key(await markets(`?${name}=${values.join(',')}`)), union, `${name} as a comma list`);
      assert.deepEqual(
        key(await markets(`?${values.map((v) => `${name}=${v}`).join('&')}`)),
        union,
        `${name} repeated`,
      );
    }
  });

  test('limit pages by market with a Link header; the pages make the whole list', async () => {
    const all = await markets('');
    const seen: Market[] = [];
    let url: string | null = `${BASE}/odds?limit=4`;
    while (url) {
      const res = await shared().get(url);
      assert.equal(res.statusCode, 200, res.body);
      const page = JSON.parse(res.body) as Market[];
      assert.ok(page.length <= 4);
      seen.push(...page);
      const link = res.headers.link as string | undefined;
      url = link ? link.slice(1, link.indexOf('>')) : null;
    }
    assert.deepEqual(seen, all);
  });

  test('cached with an ETag and compressed like the other documents; oddsFormat adds prices', async () => {
    const first = await shared().get(`${BASE}/odds`, { 'accept-encoding': 'br' });
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['content-encoding'], 'br');
    const etag = first.headers.etag as string;
    assert.ok(etag);
    const again = await shared().get(`${BASE}/odds`, { 'accept-encoding': 'br', 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    const priced = await markets(`?eventId=spr:${SPR_EVENT}&oddType=eventWinner&oddsFormat=fractional`);
    // 2.5 as the traditional ladder prints it.
    assert.equal(priced[0]?.outcomes.find((o) => o.id === 'o-sx-win-a')?.price, '6/4');
  });

  test('bad input names the parameter; an unknown event is a 404', async () => {
    for (const [query, name] of [
      ['oddType=nope', 'oddType'],
      ['status=GONE', 'status'],
      ['competition=nope', 'competition'],
      ['limit=0', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      ['oddsFormat=roman', 'oddsFormat'],
    ] as const) {
      const res = await shared().get(`${BASE}/odds?${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.match(JSON.parse(res.body).message, new RegExp(`"${name}"`), query);
    }
    assert.equal((await shared().get(`${BASE}/odds?eventId=spr:00000000-0000-4000-8000-000000000000`)).statusCode, 404);
  });
});
