import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { AthleteOdd, ExactaOdd, SgpResponse } from '../../src/shapes/odds.ts';
import type { Store } from '../../src/store/database.ts';
import { ADMIN_KEY, fixtureApp, TEST_KEY } from '../helpers/app.ts';
import { close } from '../helpers/close.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

/**
 * Every market and every parlay of an event priced from the one model recorded with its
 * generated markets, for the default Plackett-Luce and for a gamma race (shape 12): the identities a
 * trading desk checks hold to the published precision.
 */

const BASE = '/api/v1/public';
const FIELD = '55555555-0000-4000-8000-000000000005';
/** Riders 3, 4 and 5 are entered with the same chance. */
const WIN = [0.4, 0.28, 0.2, 0.04, 0.04, 0.04];
const rider = (i: number) => `fc-${i}`;
const odd = (oddType: string, i: number) => `${FIELD}:${oddType}:${rider(i)}`;

async function generatedApp(store: Store, pricing: Record<string, unknown>) {
  const { app } = await fixtureApp(store);
  await ingestFeed(store, fieldFeed('fc', FIELD, WIN));
  const generate = await app.inject({
    method: 'POST',
    url: `/api/v1/admin/events/spr:${FIELD}/markets/generate`,
    headers: { 'x-api-key': ADMIN_KEY },
    payload: { winProbabilities: Object.fromEntries(WIN.map((p, i) => [rider(i), p])), ...pricing },
  });
  assert.equal(generate.statusCode, 200, generate.body);
  const get = async <T>(oddType: string) =>
    JSON.parse(
      (
        await app.inject({
          method: 'GET',
          url: `${BASE}/events/${FIELD}/${oddType}`,
          headers: { 'x-api-key': TEST_KEY },
        })
      ).body,
    )[oddType] as T[];
  const parlay = async (oddIds: string[]) => {
    const res = await app.inject({
      method: 'POST',
      url: `${BASE}/events/${FIELD}/sgp`,
      headers: { 'x-api-key': TEST_KEY },
      payload: oddIds,
    });
    assert.equal(res.statusCode, 201, res.body);
    return (JSON.parse(res.body) as SgpResponse).probability;
  };
  const probabilityOf = (odds: AthleteOdd[], i: number) =>
    (odds.find((o) => o.athlete?.id === rider(i)) as AthleteOdd).probability;
  return { app, get, parlay, probabilityOf };
}

/** Published prices are decimal odds to 4 places: a probability near p is known to about p² × 5e-5 (in percent points, 100 times that). */
const PRECISION = 0.01;

describeEachStore('markets generated from one recorded model', (open) => {
  for (const shape of [1, 12]) {
    test(`shape ${shape}, no margin: winners, places and exotics agree with every parlay`, async () => {
      const { get, parlay, probabilityOf } = await generatedApp(await open(), { shape, overround: 0 });
      const winners = await get<AthleteOdd>('eventWinner');
      // The input is published as given, whatever the shape.
      for (const [i, p] of WIN.entries()) close(probabilityOf(winners, i), p * 100, PRECISION, `rider ${i} wins`);
      const podiums = await get<AthleteOdd>('podiums');
      assert.equal(probabilityOf(podiums, 3), probabilityOf(podiums, 5), 'equal inputs, equal podium prices');
      close(
        podiums.reduce((sum, o) => sum + o.probability, 0),
        300,
        6 * PRECISION,
        'podium prices sum to 3',
      );
      // Sum over B of [A wins, B second] is P(A wins); each is the exacta A-B where it is published.
      const exactas = (await get<ExactaOdd>('eventExacta')).filter((o) => o.exactasType === 2);
      let sum = 0;
      for (let b = 1; b < WIN.length; b++) {
        const p = await parlay([odd('eventWinner', 0), odd('secondPlace', b)]);
        const published = exactas.find((o) => o.participants.map((a) => a.id).join() === `${rider(0)},${rider(b)}`);
        if (published) assert.equal(p, published.probability, `[0 wins, ${b} second] is the exacta 0-${b}`);
        sum += p;
      }
      close(sum, probabilityOf(winners, 0), 5 * PRECISION, 'Σ_B [0 wins, B second] = P(0 wins)');
      // Win implies podium: the parlay is the win.
      assert.equal(await parlay([odd('eventWinner', 1), odd('podiums', 1)]), probabilityOf(winners, 1));
      // [0, 1, 2 all on the podium] is the six trifecta orders of them.
      const trifectas = (await get<ExactaOdd>('eventExacta')).filter((o) => o.exactasType === 3);
      const ofThem = trifectas.filter((o) => o.participants.every((a) => ['fc-0', 'fc-1', 'fc-2'].includes(a.id)));
      assert.equal(ofThem.length, 6, 'the six orders of the three favourites are among the likeliest');
      close(
        await parlay([odd('podiums', 0), odd('podiums', 1), odd('podiums', 2)]),
        ofThem.reduce((total, o) => total + o.probability, 0),
        6 * PRECISION,
        '[0, 1, 2 on the podium] = Σ trifectas',
      );
    });
  }

  test('at a 5% overround the parlay of a published bet is that bet, and no dearer than the single market', async () => {
    const { get, parlay } = await generatedApp(await open(), {});
    const exactas = (await get<ExactaOdd>('eventExacta')).filter((o) => o.exactasType === 2);
    const first = exactas.find((o) => o.participants.map((a) => a.id).join() === `${rider(0)},${rider(1)}`);
    assert.ok(first);
    assert.equal(await parlay([odd('eventWinner', 0), odd('secondPlace', 1)]), first.probability);
    // A combination no market publishes carries the overround once: at most the product of its legs.
    const winners = await get<AthleteOdd>('eventWinner');
    const tops = await get<AthleteOdd>('raceTop5');
    const p = await parlay([odd('eventWinner', 5), odd('raceTop5', 4)]);
    const legs =
      ((winners.find((o) => o.athlete?.id === rider(5)) as AthleteOdd).probability *
        (tops.find((o) => o.athlete?.id === rider(4)) as AthleteOdd).probability) /
      100;
    assert.ok(p > 0 && p < legs * 1.05, `${p} vs the legs' product ${legs}`);
  });
});

describeEachStore('exotics on request', (open) => {
  test('athleteIds names one combination: listed, or priced from the recorded model; lists say how many exist', async () => {
    const { app, get } = await generatedApp(await open(), { overround: 0, shape: 1 });
    const exactas = (await get<ExactaOdd & { combinations: number; combinationsShown: number }>('eventExacta')).filter(
      (o) => o.exactasType === 2,
    );
    assert.equal(exactas[0]?.combinations, 30, '6 × 5 exactas');
    assert.equal(exactas[0]?.combinationsShown, 12);
    const ask = async (query: string) =>
      app.inject({
        method: 'GET',
        url: `${BASE}/events/${FIELD}/eventExacta?${query}`,
        headers: { 'x-api-key': TEST_KEY },
      });
    const listed = JSON.parse((await ask('athleteIds=fc-0,fc-1')).body).eventExacta as ExactaOdd[];
    assert.deepEqual(
      listed.map((o) => o.id),
      [exactas.find((o) => o.participants.map((a) => a.id).join() === 'fc-0,fc-1')?.id],
    );
    // An outsider's superfecta is not listed: priced exactly, 0.04 × 0.4/0.96 × 0.28/0.56 × 0.2/0.28 (Plackett-Luce).
    const res = await ask('athleteIds=fc-3,fc-0,fc-1,fc-2');
    assert.equal(res.statusCode, 200, res.body);
    const [unlisted] = JSON.parse(res.body).eventExacta as Array<ExactaOdd & { onRequest: boolean }>;
    assert.ok(unlisted?.onRequest);
    assert.equal(unlisted.exactasType, 4);
    assert.deepEqual(
      unlisted.participants.map((a) => a.id),
      ['fc-3', 'fc-0', 'fc-1', 'fc-2'],
    );
    close(unlisted.probability, 100 * 0.04 * (0.4 / 0.96) * (0.28 / 0.56) * (0.2 / 0.28), 1e-4, 'superfecta 3-0-1-2');
    assert.ok(unlisted.odds <= 100 / unlisted.probability);
    // The two outsiders' superfecta (1 in 30,360) is beyond the longest odds: at them, at their probability.
    const [longShot] = JSON.parse((await ask('athleteIds=fc-5,fc-4,fc-3,fc-0')).body).eventExacta as ExactaOdd[];
    assert.deepEqual([longShot?.odds, longShot?.probability], [1000, 0.1]);
    const bad = await ask('athleteIds=fc-0,fc-0');
    assert.equal(bad.statusCode, 400);
    assert.equal(JSON.parse(bad.body).metadata.field, 'athleteIds');
    assert.equal((await ask('athleteIds=fc-0,nobody')).statusCode, 400);
  });
});
