import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { getCompetition } from '../../../src/domain/competitions.ts';
import { marketProblems, oddProblems } from '../../../src/domain/markets/market-shape.ts';
import {
  generateEventMarkets,
  priceMarket,
  ratingsToWinProbabilities,
} from '../../../src/domain/pricing/market-generator.ts';
import { DEFAULT_PRICE_POLICY } from '../../../src/domain/pricing/published-price.ts';
import { Random } from '../../../src/domain/random.ts';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function generate(win: number[], overround: number, seed = 5) {
  const rng = new Random(seed);
  const athleteIds = win.map((_, i) => `a${i}`);
  return generateEventMarkets(
    {
      eventId: 'ev',
      athleteIds,
      win,
      heats: [{ heatId: 'h1', athleteIds: athleteIds.slice(0, 4) }],
      mainHeatId: 'h1',
      oddTypes: getCompetition('spr').supportedMarkets,
    },
    { overround, marginMethod: 'power', shape: 1, samples: 20_000, uniform: () => rng.next() },
  );
}

describe('market generator', () => {
  test('dreamTeam: teams of equally strong athletes publish one price, whatever the draws', () => {
    for (const seed of [1, 2, 3]) {
      const { odds } = generate(
        [1, 1, 1, 1, 1, 1].map((w) => w / 6),
        0,
        seed,
      );
      const teams = odds.filter((o) => o.marketId === 'ev:dreamTeam').map((o) => o.odds);
      assert.equal(teams.length, 3);
      assert.deepEqual(new Set(teams).size, 1, `seed ${seed}: ${teams.join(', ')}`);
    }
  });

  test('ratings: 400 points is ten times the odds', () => {
    const [strong, weak] = ratingsToWinProbabilities([1400, 1000]) as [number, number];
    assert.ok(Math.abs(strong / weak - 10) < 1e-9);
    assert.ok(Math.abs(strong + weak - 1) < 1e-12);
  });

  test('fair markets are coherent: winners sum to 100%, top 3 at least the win, head-to-head sides complement', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.2, max: 5, noNaN: true }), { minLength: 11, maxLength: 16 }), (raw) => {
        const win = raw.map((x) => x / sum(raw));
        const { markets, odds } = generate(win, 0);
        // The model's probabilities, as published beside the odds; the odds, rounded towards
        // the house, never pay more than they imply.
        const probabilitiesOf = (marketId: string) =>
          odds.filter((o) => o.marketId === marketId).map((o) => o.probability / 100);
        for (const o of odds) assert.ok(o.odds <= 100 / o.probability, `${o.id} at ${o.odds}`);
        const byId = (suffix: string) => `ev:${suffix}`;
        assert.ok(Math.abs(sum(probabilitiesOf(byId('eventWinner'))) - 1) < 1e-3, 'winners');
        assert.ok(Math.abs(sum(probabilitiesOf(byId('secondPlace'))) - 1) < 1e-3, 'second places');
        assert.ok(Math.abs(sum(probabilitiesOf(byId('raceTop3'))) - 3) < 3e-3, 'top 3');
        // An outcome likelier than the shortest odds imply is published at them, with their probability.
        const top10 = probabilitiesOf(byId('raceTop10'));
        const atMin = top10.map((p) => (p === 99.0099 / 100 ? 1 : p));
        assert.ok(sum(top10) < 10 + 1e-2 && sum(atMin) > 10 - 1e-2, 'top 10');
        const winOf = new Map(
          odds.filter((o) => o.marketId === byId('eventWinner')).map((o) => [o.athleteId, o.probability / 100]),
        );
        for (const o of odds.filter((x) => x.marketId === byId('raceTop3')))
          assert.ok(o.probability / 100 >= (winOf.get(o.athleteId) as number) - 1e-3, `top 3 of ${o.athleteId}`);
        for (const m of markets.filter((x) => x.oddType === 'headToHead' || x.oddType === 'overUnder')) {
          assert.ok(Math.abs(sum(probabilitiesOf(m.id)) - 1) < 1e-3, `${m.id} sides`);
        }
        // Every generated item passes the ingest's shape checks.
        for (const m of markets)
          assert.deepEqual(
            marketProblems({
              ...m,
              exactasType: m.exactasType ?? (m.oddType.endsWith('Exacta') ? 2 : null),
              overUnderSubMarketType: m.overUnderSubMarketType ?? null,
            }),
            [],
            m.id,
          );
        for (const o of odds)
          assert.deepEqual(oddProblems(markets.find((m) => m.id === o.marketId) as never, o), [], o.id);
        assert.ok([...markets, ...odds].every((item) => item.id.length <= 128));
      }),
      { seed: 99, numRuns: 8 },
    );
  });

  test('a margin raises every market above 100% by about the overround', () => {
    const { odds } = generate([0.3, 0.2, 0.15, 0.1, 0.08, 0.07, 0.05, 0.05], 0.05);
    const winners = odds.filter((o) => o.marketId === 'ev:eventWinner').map((o) => 1 / o.odds);
    assert.ok(Math.abs(sum(winners) - 1.05) < 2e-3, `book ${sum(winners)}`);
  });

  test('heats are sub-races of the same strengths; a two-athlete heat is also a head-to-head', () => {
    const rng = new Random(1);
    const { markets, odds } = generateEventMarkets(
      {
        eventId: 'ev',
        athleteIds: [],
        win: [],
        strengths: new Map([
          ['x', 0.6],
          ['y', 0.2],
        ]),
        heats: [{ heatId: 'fight', athleteIds: ['x', 'y'] }],
        oddTypes: ['heatWinner', 'headToHead'],
      },
      { overround: 0, marginMethod: 'multiplicative', shape: 1, samples: 1000, uniform: () => rng.next() },
    );
    assert.deepEqual(
      markets.map((m) => [m.oddType, m.heatId]),
      [
        ['heatWinner', 'fight'],
        ['headToHead', 'fight'],
      ],
    );
    assert.deepEqual(
      odds.filter((o) => o.marketId === 'ev:heatWinner:fight').map((o) => [o.athleteId, o.odds]),
      [
        ['x', 1.33],
        ['y', 4],
      ],
    );
  });
});

test('priceMarket never quotes outside the price range, however (un)likely the outcome', () => {
  const { minDecimalOdds: min, maxDecimalOdds: max } = DEFAULT_PRICE_POLICY;
  const prices = priceMarket([1 - 3e-6, 1e-6, 1e-6, 1e-6], 0.2, 'multiplicative');
  assert.ok(
    prices.every((price) => price.odds >= min && price.odds <= max),
    JSON.stringify(prices),
  );
  assert.deepEqual(prices[0], { odds: min, probability: 99.0099 });
  assert.deepEqual(prices[1], { odds: max, probability: 100 / max });
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 1e-12, max: 1, noNaN: true }), { minLength: 2, maxLength: 12 }),
      fc.constantFrom('power', 'multiplicative' as const),
      (weights, method) => {
        const total = weights.reduce((a, b) => a + b, 0);
        for (const price of priceMarket(
          weights.map((w) => w / total),
          0.15,
          method,
        ))
          assert.ok(price.odds >= min && price.odds <= max && price.probability > 0);
      },
    ),
  );
});
