/**
 * As a trading desk meets it: one vocabulary for refusals. The bet builder and the
 * parlay route give the same code for the same pair of legs (SAME_MARKET for two outcomes of one
 * single-winner market), and a change id ahead of the change log is a 400 that says so (410 stays for
 * ids the log has dropped).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { SgpOptionsResponse } from '../../src/shapes/odds.ts';
import type { Store } from '../../src/store/database.ts';
import { changesRepository } from '../../src/store/repositories/changes-repository.ts';
import { fixtureApp, sharedFixture, TEST_KEY, type TestApp } from '../helpers/app.ts';
import { fixtureScoreChanges } from '../helpers/feed-fixture.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const FIELD = '55555555-0000-4000-8000-000000000005';
const EVENT = `spr:${FIELD}`;
const WIN = [0.3, 0.25, 0.2, 0.15, 0.1];
const odd = (oddType: string, athlete: number) => `${FIELD}:${oddType}:fd-${athlete}`;

interface Refusal {
  statusCode: number;
  message: string;
  metadata: { legs: Array<{ oddId: string; code: string }>; conflictingOddIds?: string[] };
}

async function deskApp(store: Store) {
  const app = await fixtureApp(store);
  await ingestFeed(store, fieldFeed('fd', FIELD, WIN));
  const post = (path: string, oddIds: string[]) =>
    app.app.inject({ method: 'POST', url: `${BASE}${path}`, headers: { 'x-api-key': TEST_KEY }, payload: { oddIds } });
  return { ...app, post };
}

describeEachStore('trading desk: one code per refusal', (open, kind) => {
  const shared = sharedFixture(kind, deskApp);

  test('two outcomes of one single-winner market: SAME_MARKET on /sgp, as the bet builder says', async () => {
    const { post } = shared();
    const pair = [odd('eventWinner', 0), odd('eventWinner', 1)];
    const refused = await post(`/events/${EVENT}/sgp`, pair);
    assert.equal(refused.statusCode, 422, refused.body);
    const body = refused.json() as Refusal;
    assert.equal(body.statusCode, 422);
    assert.deepEqual(body.metadata.legs, [
      { oddId: pair[0], code: 'SAME_MARKET' },
      { oddId: pair[1], code: 'SAME_MARKET' },
    ]);
    assert.deepEqual(body.metadata.conflictingOddIds, pair, 'still listed for earlier clients');
    assert.match(body.message, /one single-winner market/);
    const built = (await post(`/events/${EVENT}/sgp/options`, [pair[0] as string])).json() as SgpOptionsResponse;
    assert.equal(built.options.find((o) => o.oddId === pair[1])?.reason, 'SAME_MARKET');
  });

  test('a contradiction across markets stays CONTRADICTS on both routes', async () => {
    const { post } = shared();
    const pair = [odd('eventWinner', 0), odd('secondPlace', 0)];
    const body = (await post(`/events/${EVENT}/sgp`, pair)).json() as Refusal;
    assert.deepEqual(
      body.metadata.legs.map((l) => l.code),
      ['CONTRADICTS', 'CONTRADICTS'],
    );
    const built = (await post(`/events/${EVENT}/sgp/options`, [pair[0] as string])).json() as SgpOptionsResponse;
    assert.equal(built.options.find((o) => o.oddId === pair[1])?.reason, 'CONTRADICTS');
  });

  test('property: for any two outcomes, the bet builder and /sgp refuse with the same code, or both accept', async () => {
    const { post } = shared();
    const offered = ((await post(`/events/${EVENT}/sgp/options`, [])).json() as SgpOptionsResponse).options;
    const index = fc.integer({ min: 0, max: offered.length - 1 });
    await fc.assert(
      fc.asyncProperty(index, index, async (i, j) => {
        fc.pre(i !== j);
        const [first, second] = [offered[i]?.oddId as string, offered[j]?.oddId as string];
        const built = (await post(`/events/${EVENT}/sgp/options`, [first])).json() as SgpOptionsResponse;
        const option = built.options.find((o) => o.oddId === second);
        const parlay = await post(`/events/${EVENT}/sgp`, [first, second]);
        if (option?.combinable) {
          assert.equal(parlay.statusCode, 201, parlay.body);
          return;
        }
        assert.equal(parlay.statusCode, 422, parlay.body);
        const codes = (parlay.json() as Refusal).metadata.legs.map((l) => l.code);
        assert.deepEqual(codes, [option?.reason, option?.reason], `${first} + ${second}`);
      }),
      { numRuns: 40 },
    );
  });

  test('/changes?after= ahead of the log is a 400 naming the parameter; an expired id stays a 410', () =>
    withShortLog(open, async (app, { first, last }) => {
      for (const after of [last + 1, last + 11]) {
        const response = await app.get(`${BASE}/changes?after=${after}`);
        assert.equal(response.statusCode, 400, `after=${after}: ${response.body}`);
        const body = response.json();
        assert.equal(body.statusCode, 400);
        assert.match(body.message, new RegExp(`after ${after} is ahead of the change log`));
        assert.deepEqual(body.metadata, { parameter: 'after', value: after, lastEventId: last });
        assert.equal(typeof body.timestamp, 'string');
      }
      const expired = await app.get(`${BASE}/changes?after=${first - 2}`);
      assert.equal(expired.statusCode, 410);
      assert.match(expired.json().message, /no longer in the change log/);
      assert.equal((await app.get(`${BASE}/changes?after=${last}`)).statusCode, 200);
    }));

  test('property: /changes answers 200 within the log, 410 before it, 400 past its end', () =>
    withShortLog(open, async (app, { first, last }) => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: last + 50 }), async (after) => {
          const status = (await app.get(`${BASE}/changes?after=${after}`)).statusCode;
          assert.equal(status, after > last ? 400 : after < first - 1 ? 410 : 200, `after=${after}`);
        }),
        { numRuns: 30 },
      );
    }));
});

/** An app over a change log of 4 entries that six score changes have run past, and the log's bounds. */
async function withShortLog(
  open: (options?: { changeLogSize?: number }) => Promise<Store>,
  body: (app: TestApp, bounds: { first: number; last: number }) => Promise<void>,
): Promise<void> {
  const store = await open({ changeLogSize: 4 });
  const app = await fixtureApp(store);
  try {
    const { wslScore } = fixtureScoreChanges();
    for (let i = 0; i < 6; i++) await ingestFeed(store, wslScore(3 + i));
    await body(app, await changesRepository(store.db).bounds());
  } finally {
    await app.app.close();
  }
}
