import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatPrice } from '../../src/domain/odds-format.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { SgpOptionsResponse, SgpResponse } from '../../src/shapes/odds.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, sharedFixture, TEST_KEY } from '../helpers/app.ts';
import { MASL_GAME } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const FIELD = '33333333-0000-4000-8000-000000000003';
const OTHER = '44444444-0000-4000-8000-000000000004';
const WIN = [0.32, 0.22, 0.16, 0.12, 0.08, 0.06, 0.04];

async function builderApp(store: Store, env: Record<string, string> = {}) {
  const app = await fixtureApp(store, env);
  await ingestFeed(store, resultsFeed());
  await ingestFeed(store, oddsFeed());
  await ingestFeed(store, fieldFeed('fa', FIELD, WIN, { overround: 0.08 }));
  await ingestFeed(store, fieldFeed('fb', OTHER, [0.5, 0.3, 0.2]));
  const post = (path: string, payload: unknown) =>
    app.app.inject({
      method: 'POST',
      url: `${BASE}${path}`,
      headers: { 'x-api-key': TEST_KEY },
      payload: payload as object,
    });
  const options = async (legs: string[], query = '', eventId = FIELD) => {
    const res = await post(`/events/${eventId}/sgp/options${query}`, { oddIds: legs });
    assert.equal(res.statusCode, 200, res.body);
    return JSON.parse(res.body) as SgpOptionsResponse;
  };
  const refused = async (legs: unknown, status = 422, eventId = FIELD) => {
    const res = await post(`/events/${eventId}/sgp/options`, legs);
    assert.equal(res.statusCode, status, res.body);
    return JSON.parse(res.body) as { message: string; metadata: Record<string, unknown> };
  };
  const parlay = async (legs: string[]) => {
    const res = await post(`/events/${FIELD}/sgp`, legs);
    assert.equal(res.statusCode, 201, res.body);
    return JSON.parse(res.body) as SgpResponse;
  };
  return { ...app, post, options, refused, parlay };
}

const odd = (oddType: string, athlete: number) => `${FIELD}:${oddType}:fa-${athlete}`;

describeEachStore('POST /events/{eventId}/sgp/options (the bet builder)', (open, kind) => {
  // Pricing writes nothing: the tests up to those that ingest or configure share one fixture.
  const shared = sharedFixture(kind, builderApp);

  test('without legs: every open outcome of the event, each combinable at its own price', async () => {
    const { options, get } = shared();
    const body = await options([]);
    assert.deepEqual(Object.keys(body), ['eventId', 'legs', 'probability', 'odds', 'options']);
    assert.equal(body.eventId, `spr:${FIELD}`);
    assert.deepEqual([body.legs, body.probability, body.odds], [[], null, null]);
    const winners = JSON.parse((await get(`${BASE}/events/${FIELD}/eventWinner`)).body).eventWinner as Array<{
      id: string;
      odds: number;
      probability: number;
    }>;
    for (const winner of winners) {
      const option = body.options.find((o) => o.oddId === winner.id);
      assert.ok(option, winner.id);
      assert.deepEqual(
        [option.oddType, option.combinable, option.odds, option.probability],
        ['eventWinner', true, winner.odds, winner.probability],
      );
    }
    assert.ok(body.options.length > 50, `${body.options.length} outcomes`);
    assert.ok(body.options.every((o) => o.combinable && o.reason === undefined));
    assert.equal(new Set(body.options.map((o) => o.oddId)).size, body.options.length);
  });

  test('with legs: each combinable outcome has the price the parlay route gives the legs and it', async () => {
    const { options, parlay } = shared();
    const legs = [odd('eventWinner', 0), odd('raceTop3', 2)];
    const body = await options(legs);
    const legsParlay = await parlay(legs);
    assert.deepEqual(body.legs, legsParlay.legs);
    assert.deepEqual([body.probability, body.odds], [legsParlay.probability, legsParlay.odds]);
    const combinable = body.options.filter((o) => o.combinable);
    assert.ok(combinable.length > 20);
    const types = new Set<string>();
    for (const option of combinable) {
      // One outcome of each odd type, and every third of the rest.
      if (types.has(option.oddType) && combinable.indexOf(option) % 3 !== 0) continue;
      types.add(option.oddType);
      const priced = await parlay([...legs, option.oddId]);
      assert.deepEqual(
        [option.probability, option.odds],
        [priced.probability, priced.odds],
        `${option.oddType} ${option.oddId}`,
      );
    }
    assert.ok(types.size >= 8, [...types].join(', '));
  });

  test('outcomes that cannot join say why: DUPLICATE, SAME_MARKET, CONTRADICTS', async () => {
    const { options } = shared();
    const body = await options([odd('eventWinner', 0), odd('raceTop3', 2)]);
    const reasonOf = (id: string) => {
      const option = body.options.find((o) => o.oddId === id);
      assert.ok(option, id);
      return [option.combinable, option.reason ?? null, option.probability ?? null];
    };
    assert.deepEqual(reasonOf(odd('eventWinner', 0)), [false, 'DUPLICATE', null]);
    assert.deepEqual(reasonOf(odd('eventWinner', 1)), [false, 'SAME_MARKET', null]);
    assert.deepEqual(reasonOf(odd('secondPlace', 0)), [false, 'CONTRADICTS', null]);
    assert.deepEqual(reasonOf(`${FIELD}:overUnder:fa-0:over`), [false, 'CONTRADICTS', null]);
    assert.equal(reasonOf(odd('raceTop3', 3))[0], true, 'top 3 is not single-winner: another rider joins');
    assert.equal(reasonOf(odd('secondPlace', 1))[0], true);
  });

  test('one leg is its own price; closed outcomes are left out', async () => {
    const { options, get } = shared();
    const one = await options([odd('raceTop5', 1)]);
    const top5 = JSON.parse((await get(`${BASE}/events/${FIELD}/raceTop5`)).body).raceTop5 as Array<{
      id: string;
      odds: number;
      probability: number;
    }>;
    const own = top5.find((o) => o.id === odd('raceTop5', 1));
    assert.deepEqual([one.probability, one.odds], [own?.probability, own?.odds]);
    const settled = await options([], '', SPR_EVENT);
    assert.ok(!settled.options.some((o) => o.oddId === 'o-sx-win-a'), 'a closed outcome is not offered');
  });

  test('legs that make no parlay are a 422 with the parlay route codes; a bad body a 400, a competition without parlays a 400', async () => {
    const { refused } = shared();
    const bad = await refused({
      oddIds: [odd('eventWinner', 0), odd('eventWinner', 1), 'no-such-odd', `${OTHER}:eventWinner:fb-1`],
    });
    assert.deepEqual(bad.metadata.legs, [
      { oddId: odd('eventWinner', 0), code: 'SAME_MARKET' },
      { oddId: odd('eventWinner', 1), code: 'SAME_MARKET' },
      { oddId: 'no-such-odd', code: 'UNKNOWN_ODD' },
      { oddId: `${OTHER}:eventWinner:fb-1`, code: 'OTHER_EVENT' },
    ]);
    const wrongShape = await refused({ legs: 'x' }, 400);
    assert.equal(wrongShape.metadata.in, 'body');
    assert.match((await refused(['a'], 400, `masl:${MASL_GAME}`)).message, /not offered/);
    await refused([], 404, 'spr:99999999-0000-4000-8000-000000000009');
  });

  test('oddsFormat adds price to the legs, the parlay and each combinable outcome', async () => {
    const { options } = shared();
    const legs = [odd('eventWinner', 0)];
    const plain = await options(legs);
    const priced = await options(legs, '?oddsFormat=american');
    assert.equal(priced.price, formatPrice(plain.odds as number, 'american'));
    assert.equal(priced.legs[0]?.price, formatPrice(plain.legs[0]?.odds as number, 'american'));
    priced.options.forEach((option, i) => {
      const { price, ...rest } = option;
      assert.deepEqual(rest, plain.options[i]);
      assert.equal(price, option.odds === undefined ? undefined : formatPrice(option.odds, 'american'));
    });
  });

  test('a suspended outcome is offered as NOT_OPEN; at SGP_MAX_LEGS every other outcome is TOO_MANY_LEGS', async () => {
    const { store, options, refused } = await builderApp(await open(), { SGP_MAX_LEGS: '2' });
    await ingestFeed(store, {
      odds: [
        {
          id: odd('eventWinner', 5),
          marketId: `${FIELD}:eventWinner`,
          athleteId: 'fa-5',
          odds: 15,
          status: 'SUSPENDED',
          updatedAt: '2026-06-01T02:00:00.000Z',
        },
      ],
    });
    const none = await options([]);
    const suspended = none.options.find((o) => o.oddId === odd('eventWinner', 5));
    assert.deepEqual([suspended?.combinable, suspended?.reason], [false, 'NOT_OPEN']);
    const full = await options([odd('eventWinner', 0), odd('raceTop3', 2)]);
    assert.ok(full.probability !== null);
    assert.ok(full.options.every((o) => !o.combinable));
    assert.equal(full.options.find((o) => o.oddId === odd('raceTop5', 4))?.reason, 'TOO_MANY_LEGS');
    const tooMany = await refused([odd('eventWinner', 0), odd('raceTop3', 2), odd('raceTop5', 4)]);
    assert.deepEqual(tooMany.metadata.legs, [{ oddId: odd('raceTop5', 4), code: 'TOO_MANY_LEGS' }]);
  });
});
