import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatPrice } from '../../src/domain/odds-format.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { AthleteOdd, SgpResponse } from '../../src/shapes/odds.ts';
import type { Store } from '../../src/store/database.ts';
import { ADMIN_KEY, fixtureApp, sharedFixture, TEST_KEY } from '../helpers/app.ts';
import { MASL_GAME } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const FIELD = '33333333-0000-4000-8000-000000000003';
const OTHER = '44444444-0000-4000-8000-000000000004';
const WIN = [0.32, 0.22, 0.16, 0.12, 0.08, 0.06, 0.04];

async function parlayApp(store: Store, env: Record<string, string> = {}) {
  const app = await fixtureApp(store, env);
  await ingestFeed(store, resultsFeed());
  await ingestFeed(store, oddsFeed());
  await ingestFeed(store, fieldFeed('fa', FIELD, WIN));
  await ingestFeed(store, fieldFeed('fb', OTHER, [0.5, 0.3, 0.2]));
  const post = (eventId: string, payload: unknown) =>
    app.app.inject({
      method: 'POST',
      url: `${BASE}/events/${eventId}/sgp`,
      headers: { 'x-api-key': TEST_KEY },
      payload: payload as object,
    });
  const priced = async (eventId: string, payload: unknown) => {
    const res = await post(eventId, payload);
    assert.equal(res.statusCode, 201, res.body);
    return JSON.parse(res.body) as SgpResponse;
  };
  const refused = async (eventId: string, payload: unknown, status = 422) => {
    const res = await post(eventId, payload);
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body) as { message: string; metadata: Record<string, unknown> };
  };
  return { ...app, post, priced, refused };
}

const odd = (oddType: string, athlete: number) => `${FIELD}:${oddType}:fa-${athlete}`;

describeEachStore('POST /events/{eventId}/sgp', (open, kind) => {
  // Pricing writes nothing: the tests up to the one that ingests a new price share one fixture.
  const shared = sharedFixture(kind, parlayApp);

  test('prices correlated legs from the event model: [A wins, B second] is the exacta, the closed form', async () => {
    const { priced } = shared();
    const body = await priced(`spr:${FIELD}`, { oddIds: [odd('eventWinner', 0), odd('secondPlace', 1)] });
    assert.deepEqual(Object.keys(body), [
      'eventId',
      'legs',
      'probability',
      'odds',
      'americanOdds',
      'combinedOdds',
      'independentProbability',
      'correlationFactor',
    ]);
    assert.equal(body.eventId, `spr:${FIELD}`);
    assert.deepEqual(
      body.legs.map((l) => [l.oddId, l.oddType, l.selection]),
      [
        [odd('eventWinner', 0), 'eventWinner', 'Rider FA 0 to win the event'],
        [odd('secondPlace', 1), 'secondPlace', 'Rider FA 1 to finish 2nd'],
      ],
    );
    const [pa, pb] = WIN as [number, number];
    const closedForm = ((pa * pb) / (1 - pa)) * 100;
    assert.ok(Math.abs(body.probability - closedForm) < 0.001, `${body.probability} vs ${closedForm}`);
    assert.equal(body.combinedOdds, body.odds);
    assert.ok(Math.abs(body.odds - 100 / body.probability) < 0.01);
    const independent = (body.legs[0]!.probability * body.legs[1]!.probability) / 100;
    assert.ok(Math.abs(body.independentProbability - independent) < 1e-3);
    assert.ok(body.correlationFactor > 1, 'the favourite winning makes the second favourite likelier to be second');
  });

  test('the body may be a bare array, and a leg may be named by its outcomeId; the same request gets the same price', async () => {
    const { priced, get } = shared();
    const top3 = JSON.parse((await get(`${BASE}/events/${FIELD}/raceTop3`)).body).raceTop3 as Array<{
      id: string;
      outcomeId: string;
    }>;
    const byOutcome = await priced(FIELD, [odd('eventWinner', 2), (top3[3] as { outcomeId: string }).outcomeId]);
    const byId = await priced(FIELD, [odd('eventWinner', 2), (top3[3] as { id: string }).id]);
    assert.deepEqual(byOutcome, byId);
  });

  test('legs that cannot all win together are a 422 naming them', async () => {
    const { refused } = shared();
    const twoWinners = await refused(FIELD, [odd('eventWinner', 0), odd('eventWinner', 1)]);
    assert.deepEqual(twoWinners.metadata.conflictingOddIds, [odd('eventWinner', 0), odd('eventWinner', 1)]);
    assert.match(
      twoWinners.message,
      /are outcomes of one single-winner market \("Rider FA 0 to win the event", "Rider FA 1 to win the event"\): at most one of them can win/,
    );
    const winnerAndSecond = await refused(FIELD, [odd('eventWinner', 3), odd('secondPlace', 3)]);
    assert.deepEqual(winnerAndSecond.metadata.conflictingOddIds, [odd('eventWinner', 3), odd('secondPlace', 3)]);
    const overUnder = [`${FIELD}:overUnder:fa-0:over`, `${FIELD}:overUnder:fa-0:under`];
    assert.deepEqual((await refused(FIELD, overUnder)).metadata.conflictingOddIds, overUnder);
  });

  test('unknown, closed, repeated and other-event odds, and fewer than two legs, are a 422', async () => {
    const { refused } = shared();
    const unknown = await refused(FIELD, [odd('eventWinner', 0), 'no-such-odd']);
    assert.deepEqual(unknown.metadata.unknownOddIds, ['no-such-odd']);
    assert.match(unknown.message, /: the odd "no-such-odd" does not exist$/);
    const foreign = await refused(FIELD, [odd('eventWinner', 0), `${OTHER}:eventWinner:fb-1`]);
    assert.deepEqual(foreign.metadata.otherEventOddIds, [`${OTHER}:eventWinner:fb-1`]);
    const closed = await refused(SPR_EVENT, ['o-sx-win-a', 'o-sx-podium-c']);
    assert.deepEqual(closed.metadata.closedOddIds, ['o-sx-win-a', 'o-sx-podium-c']);
    assert.match(closed.message, /^The odds "o-sx-win-a", "o-sx-podium-c" are not open for betting/);
    assert.match((await refused(FIELD, [odd('eventWinner', 0)])).message, /at least two legs/);
    assert.match(
      (await refused(FIELD, { oddIds: [odd('eventWinner', 0), odd('eventWinner', 0)] })).message,
      /repeated/,
    );
  });

  test('the 422 names each bad leg with its code, in the order of the body', async () => {
    const { refused } = shared();
    const foreign = `${OTHER}:eventWinner:fb-1`;
    const body = await refused(FIELD, [
      odd('eventWinner', 0),
      'no-such-odd',
      odd('eventWinner', 1),
      foreign,
      odd('raceTop3', 2),
      odd('eventWinner', 0),
    ]);
    assert.deepEqual(body.metadata.legs, [
      { oddId: odd('eventWinner', 0), code: 'SAME_MARKET' },
      { oddId: 'no-such-odd', code: 'UNKNOWN_ODD' },
      { oddId: odd('eventWinner', 1), code: 'SAME_MARKET' },
      { oddId: foreign, code: 'OTHER_EVENT' },
      { oddId: odd('eventWinner', 0), code: 'DUPLICATE' },
    ]);
    assert.match(body.message, /repeated/);
    assert.match(body.message, /does not exist/);
    assert.match(body.message, /belongs to another event/);
    assert.match(body.message, /are outcomes of one single-winner market/);
    const closed = await refused(SPR_EVENT, ['o-sx-win-a', 'o-sx-podium-c']);
    assert.deepEqual(closed.metadata.legs, [
      { oddId: 'o-sx-win-a', code: 'NOT_OPEN' },
      { oddId: 'o-sx-podium-c', code: 'NOT_OPEN' },
    ]);
  });

  test('one leg more than SGP_MAX_LEGS (12 by default, stated in the OpenAPI description) is a 422 TOO_MANY_LEGS, not a 400', async () => {
    const { refused, app } = shared();
    const thirteen = [
      ...Array.from({ length: 7 }, (_, i) => odd('raceTop5', i)),
      ...Array.from({ length: 6 }, (_, i) => odd('raceTop3', i)),
    ];
    const body = await refused(FIELD, thirteen);
    const legs = body.metadata.legs as Array<{ oddId: string; code: string }>;
    assert.deepEqual(
      legs.filter((leg) => leg.code === 'TOO_MANY_LEGS'),
      [{ oddId: odd('raceTop3', 5), code: 'TOO_MANY_LEGS' }],
    );
    assert.ok(
      legs.every((leg) => leg.code === 'TOO_MANY_LEGS' || leg.code === 'CONTRADICTS'),
      body.message,
    );
    assert.match(body.message, /at most 12 legs/);
    const openapi = JSON.parse((await app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' })).body);
    assert.match(
      openapi.paths['/api/v1/public/events/{eventId}/sgp'].post.description,
      /2 to 12 legs \(SGP_MAX_LEGS\)/,
    );
  });

  test('oddsFormat adds price to the parlay and to each leg, the rest unchanged', async () => {
    const { post } = shared();
    const legs = [odd('eventWinner', 0), odd('raceTop3', 2)];
    const plain = JSON.parse((await post(FIELD, legs)).body) as SgpResponse;
    const res = await shared().app.inject({
      method: 'POST',
      url: `${BASE}/events/${FIELD}/sgp?oddsFormat=fractional`,
      headers: { 'x-api-key': TEST_KEY },
      payload: legs,
    });
    assert.equal(res.statusCode, 201, res.body);
    const { price, legs: pricedLegs, ...rest } = JSON.parse(res.body) as SgpResponse;
    const { legs: plainLegs, ...plainRest } = plain;
    assert.deepEqual(rest, plainRest);
    assert.equal(price, formatPrice(plain.odds, 'fractional'));
    assert.deepEqual(
      pricedLegs.map(({ price: legPrice, ...leg }) => [leg, legPrice]),
      plainLegs.map((leg) => [leg, formatPrice(leg.odds, 'fractional')]),
    );
    const bad = await shared().app.inject({
      method: 'POST',
      url: `${BASE}/events/${FIELD}/sgp?oddsFormat=roman`,
      headers: { 'x-api-key': TEST_KEY },
      payload: legs,
    });
    assert.equal(bad.statusCode, 400);
    assert.match(JSON.parse(bad.body).message, /oddsFormat/);
  });

  test('a competition without parlays is a 400, an unknown event a 404, a malformed body a 400', async () => {
    const { refused } = shared();
    assert.match(
      (await refused(`masl:${MASL_GAME}`, ['a', 'b'], 400)).message,
      /not offered for Major Arena Soccer League/,
    );
    await refused('spr:99999999-0000-4000-8000-000000000009', ['a', 'b'], 404);
    const wrongShape = await refused(FIELD, { legs: 'x' }, 400);
    assert.equal(wrongShape.message, 'Invalid request body: send a JSON array of odd ids, or { "oddIds": [...] }');
    assert.equal(wrongShape.metadata.in, 'body');
    const { app } = await parlayApp(await open());
    for (const payload of ['{"__proto__": {"oddIds": ["a"]}}', '{"constructor": {"prototype": {"x": 1}}}']) {
      const res = await app.inject({
        method: 'POST',
        url: `${BASE}/events/${FIELD}/sgp`,
        headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
        payload,
      });
      assert.equal(res.statusCode, 400, payload);
      assert.match(JSON.parse(res.body).message, /holds a "__proto__" or "constructor.prototype" key/, payload);
    }
  });

  test('SGP_MAX_LEGS sets the maximum: one leg more is a 422 naming it', async () => {
    const { priced, refused } = await parlayApp(await open(), { SGP_MAX_LEGS: '3' });
    const legs = [odd('eventWinner', 0), odd('raceTop3', 1), odd('raceTop5', 2), odd('raceTop5', 3)];
    assert.equal((await priced(FIELD, legs.slice(0, 3))).legs.length, 3);
    const body = await refused(FIELD, legs);
    assert.deepEqual(body.metadata.legs, [{ oddId: odd('raceTop5', 3), code: 'TOO_MANY_LEGS' }]);
    assert.match(body.message, /at most 3 legs \(SGP_MAX_LEGS\)/);
  });

  test('a new price is a new odds version: the parlay follows it', async () => {
    const { store, priced } = await parlayApp(await open());
    const legs = [odd('eventWinner', 4), odd('raceTop3', 5)];
    const before = await priced(FIELD, legs);
    await ingestFeed(store, {
      odds: [
        {
          id: odd('eventWinner', 4),
          marketId: `${FIELD}:eventWinner`,
          athleteId: 'fa-4',
          odds: 5,
          updatedAt: '2026-06-01T02:00:00.000Z',
        },
      ],
    });
    const after = await priced(FIELD, legs);
    assert.equal(after.legs[0]!.odds, 5);
    assert.ok(after.probability > before.probability, `${after.probability} > ${before.probability}`);
  });
});

describeEachStore('POST /admin/events/{eventId}/markets/generate', (open) => {
  /** A four-rider field of even chances, and a function posting a pricing request for it. */
  const fieldApp = async () => {
    const store = await open();
    const { app } = await fixtureApp(store);
    await ingestFeed(store, fieldFeed('fg', FIELD, [0.25, 0.25, 0.25, 0.25]));
    const generate = (payload: unknown) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/admin/events/spr:${FIELD}/markets/generate`,
        headers: { 'x-api-key': ADMIN_KEY },
        payload: payload as object,
      });
    return { app, generate };
  };

  test('prices an event from ratings through the ingest; the parlay route then takes its odds', async () => {
    const { app, generate } = await fieldApp();
    const res = await generate({
      ratings: { 'fg-0': 1800, 'fg-1': 1600, 'fg-2': 1500, 'fg-3': 1400 },
      overround: 0.04,
      marginMethod: 'multiplicative',
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = JSON.parse(res.body);
    assert.ok(body.marketsGenerated > 5 && body.oddsGenerated > 20, res.body);
    assert.ok(body.collections.odds.updated > 0, 're-priced the existing odd ids');
    const winners: AthleteOdd[] = JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: `${BASE}/events/${FIELD}/eventWinner`,
          headers: { 'x-api-key': TEST_KEY },
        })
      ).body,
    ).eventWinner;
    assert.deepEqual(
      winners.map((o) => o.athlete!.id),
      ['fg-0', 'fg-1', 'fg-2', 'fg-3'],
      'favourite first',
    );
    const book = winners.reduce((sum, o) => sum + o.probability, 0);
    assert.ok(Math.abs(book - 104) < 0.1, `a 4% book: ${book}`);
    const bad = await generate({ ratings: { 'fg-0': 1 }, winProbabilities: { 'fg-0': 1 } });
    assert.equal(bad.statusCode, 400);
    assert.equal(JSON.parse(bad.body).metadata.field, 'winProbabilities');
    assert.equal((await generate({ ratings: { a: 1, b: 2 }, oddTypes: ['teamMarkets'] })).statusCode, 400);
  });

  test('refuses, before any pricing work, athletes that do not exist, fields too large, and ratings too far apart', async () => {
    const { generate } = await fieldApp();
    const unknown = await generate({ ratings: { 'fg-0': 1800, 'no-such-athlete': 1600 } });
    assert.equal(unknown.statusCode, 400);
    assert.match(JSON.parse(unknown.body).message, /Unknown athlete: no-such-athlete/);
    const huge = await generate({
      winProbabilities: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`a${i}`, 1])),
    });
    assert.equal(huge.statusCode, 400);
    assert.match(JSON.parse(huge.body).message, /At most 200 athletes/);
    const apart = await generate({ ratings: { 'fg-0': 1e308, 'fg-1': 1750, 'fg-2': 1700 } });
    assert.equal(apart.statusCode, 400, apart.body);
    assert.match(JSON.parse(apart.body).message, /too far apart/);
  });
});

describeEachStore('POST /events/{eventId}/sgp: no existence oracle', (open) => {
  test("an odd of an event outside the key's competitions is UNKNOWN_ODD, as a made-up id is", async () => {
    const store = await open();
    const { app } = await parlayApp(store);
    const { createApiKey } = await import('../../src/access/api-keys.ts');
    const sprOnly = 'spr-only-key-0123456789abcdef';
    await createApiKey(store, { name: 'spr only', key: sprOnly, competitions: ['spr'] });
    const codes = async (key: string) => {
      const res = await app.inject({
        method: 'POST',
        url: `${BASE}/events/${FIELD}/sgp`,
        headers: { 'x-api-key': key },
        payload: [odd('eventWinner', 0), 'o-bk1-red', `${OTHER}:eventWinner:fb-1`],
      });
      assert.equal(res.statusCode, 422, res.body);
      return (JSON.parse(res.body) as { metadata: { legs: unknown } }).metadata.legs;
    };
    assert.deepEqual(await codes(sprOnly), [
      { oddId: 'o-bk1-red', code: 'UNKNOWN_ODD' },
      { oddId: `${OTHER}:eventWinner:fb-1`, code: 'OTHER_EVENT' },
    ]);
    assert.deepEqual(await codes(TEST_KEY), [
      { oddId: 'o-bk1-red', code: 'OTHER_EVENT' },
      { oddId: `${OTHER}:eventWinner:fb-1`, code: 'OTHER_EVENT' },
    ]);
    await app.close();
  });
});
