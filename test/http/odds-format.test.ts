import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { formatPrice, ODDS_FORMATS } from '../../src/domain/odds-format.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { changesRepository } from '../../src/store/repositories/changes-repository.ts';
import { fixtureApp, sharedFixture, TEST_KEY } from '../helpers/app.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { SseStream } from '../helpers/sse.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { GSOC_DONE, JAI_1, teamMatchFeed } from '../helpers/team-match-fixture.ts';

const BASE = '/api/v1/public';

/** Every priced item of a document: decimal odds as `decimalOdds`, or `odds` beside `americanOdds`. */
function pricedItems(value: unknown, found: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) pricedItems(item, found);
  else if (value !== null && typeof value === 'object') {
    const item = value as Record<string, unknown>;
    if (
      typeof item.decimalOdds === 'number' ||
      (typeof item.odds === 'number' && typeof item.americanOdds === 'number')
    )
      found.push(item);
    for (const field of Object.values(item)) pricedItems(field, found);
  }
  return found;
}
const decimalOf = (item: Record<string, unknown>) => (item.decimalOdds ?? item.odds) as number;

const PRICED_ROUTES = [
  `/events/spr:${SPR_EVENT}/eventWinner`,
  `/events/spr:${SPR_EVENT}/headToHead`,
  `/events/spr:${SPR_EVENT}/eventExacta`,
  `/events/gsoc/${GSOC_DONE}/odds`,
  `/events/jaialai/${JAI_1}/odds`,
  '/futures/wsl/tour/wsl-ct-men/odds/winner',
];

describeEachStore('oddsFormat', (open, kind) => {
  const shared = sharedFixture(kind, async (store) => {
    const app = await fixtureApp(store);
    await ingestFeed(store, resultsFeed());
    await ingestFeed(store, oddsFeed());
    await ingestFeed(store, teamMatchFeed());
    return app;
  });

  test('every priced route adds price in each format to every priced item, the specification fields unchanged', async () => {
    const { get } = shared();
    for (const route of PRICED_ROUTES) {
      const plain = await get(`${BASE}${route}`);
      assert.equal(plain.statusCode, 200, `${route}: ${plain.body}`);
      const plainItems = pricedItems(JSON.parse(plain.body));
      assert.ok(plainItems.length > 0, route);
      for (const item of plainItems) assert.equal('price' in item, false, `${route}: no price unless asked`);
      for (const format of ODDS_FORMATS) {
        const res = await get(`${BASE}${route}${route.includes('?') ? '&' : '?'}oddsFormat=${format}`);
        assert.equal(res.statusCode, 200, `${route} ${format}: ${res.body}`);
        const items = pricedItems(JSON.parse(res.body));
        assert.equal(items.length, plainItems.length, `${route} ${format}`);
        items.forEach((item, i) => {
          const { price, ...rest } = item;
          assert.deepEqual(rest, plainItems[i], `${route} ${format}: the specification's fields stay`);
          assert.equal(price, formatPrice(decimalOf(item), format), `${route} ${format}`);
        });
      }
    }
  });

  test('fractional from the traditional ladder (else a reduced string), American a whole number', async () => {
    const { get } = shared();
    const fractional = pricedItems(
      JSON.parse((await get(`${BASE}/events/spr:${SPR_EVENT}/eventWinner?oddsFormat=fractional`)).body),
    );
    const a = fractional.find((o) => o.id === 'o-sx-win-a');
    assert.equal(a?.odds, 2.5);
    // As bookmakers print it: 6/4, not 3/2.
    assert.equal(a?.price, '6/4');
    const american = pricedItems(
      JSON.parse((await get(`${BASE}/events/spr:${SPR_EVENT}/eventWinner?oddsFormat=american`)).body),
    );
    assert.equal(american.find((o) => o.id === 'o-sx-win-a')?.price, 150);
  });

  test('an unknown format is a 400 naming the parameter and the allowed values', async () => {
    const { get } = shared();
    for (const route of PRICED_ROUTES) {
      const res = await get(`${BASE}${route}?oddsFormat=roman`);
      assert.equal(res.statusCode, 400, route);
      const body = JSON.parse(res.body);
      assert.match(body.message, /"oddsFormat"/);
      for (const format of ODDS_FORMATS) assert.match(body.message, new RegExp(format));
      assert.deepEqual(body.metadata.allowedValues, [...ODDS_FORMATS]);
    }
  });

  test('the stream adds price to the odds it reports', async () => {
    const store = await open();
    const testApp = await fixtureApp(store);
    try {
      await ingestFeed(store, resultsFeed());
      const before = (await changesRepository(store.db).bounds()).last;
      await ingestFeed(store, oddsFeed());
      await testApp.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
      const refused = await fetch(`${base}${BASE}/stream?oddsFormat=roman`, { headers: { 'x-api-key': TEST_KEY } });
      assert.equal(refused.status, 400);
      const stream = await SseStream.open(`${base}${BASE}/stream?kind=odds&oddsFormat=hongkong&lastEventId=${before}`, {
        'x-api-key': TEST_KEY,
      });
      try {
        const events = await stream.eventsUntil((e) => e.event === 'odds');
        const odds = (
          (events.at(-1) as { json: unknown }).json as { odds: Array<{ decimalOdds: number; price: unknown }> }
        ).odds;
        assert.ok(odds.length > 0);
        for (const odd of odds) assert.equal(odd.price, formatPrice(odd.decimalOdds, 'hongkong'));
      } finally {
        await stream.close();
      }
    } finally {
      await testApp.app.close();
    }
  });
});
