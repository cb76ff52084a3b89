import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { getCompetition } from '../../../src/domain/competitions.ts';
import { inPlayField, knockedOutPlaces } from '../../../src/domain/pricing/in-play.ts';
import { inPlayMarkets } from '../../../src/domain/pricing/in-play-markets.ts';
import {
  type GeneratedMarket,
  type GeneratedOdd,
  generateEventMarkets,
  type MarketGeneratorOptions,
} from '../../../src/domain/pricing/market-generator.ts';
import { Random } from '../../../src/domain/random.ts';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function options(overround: number): MarketGeneratorOptions {
  const rng = new Random(7);
  return { overround, marginMethod: 'power', shape: 1, samples: 4_000, uniform: () => rng.next() };
}

/** A field's markets before the event and in play, with `out` athletes (the weakest listed last) knocked out. */
function scenario(win: number[], out: number, overround = 0, startedHeats: string[] = []) {
  const athleteIds = win.map((_, i) => `a${i}`);
  const before = generateEventMarkets(
    {
      eventId: 'ev',
      athleteIds,
      win,
      heats: [{ heatId: 'main', athleteIds }],
      mainHeatId: 'main',
      oddTypes: getCompetition('spr').supportedMarkets,
    },
    options(overround),
  );
  const knockedOut = knockedOutPlaces(out > 0 ? [athleteIds.slice(-out)] : [], athleteIds.length);
  const field = inPlayField(athleteIds, win, { knockedOut });
  const now = inPlayMarkets(
    { markets: before.markets, odds: before.odds, field, startedHeats: new Set(startedHeats) },
    options(overround),
  );
  return { before, now, knockedOut };
}

/** The coherence checks of market-generator.test.ts, on the outcomes open in play. */
function assertCoherent(markets: readonly GeneratedMarket[], odds: readonly GeneratedOdd[]) {
  const open = odds.filter((o) => o.status === 'OPEN');
  const of = (type: string) => {
    const ids = new Set(markets.filter((m) => m.oddType === type && !m.heatId).map((m) => m.id));
    return open.filter((o) => ids.has(o.marketId));
  };
  const chance = (type: string) => new Map(of(type).map((o) => [o.athleteId, o.probability / 100]));
  assert.ok(Math.abs(sum(of('eventWinner').map((o) => o.probability / 100)) - 1) < 1e-3, 'winners sum to 1');
  const win = chance('eventWinner');
  const tops = ['raceTop3', 'raceTop5', 'raceTop10'].map(chance);
  for (const [athlete, p] of win) {
    let last = p;
    for (const [k, top] of tops.entries()) {
      const q = top.get(athlete);
      if (q === undefined) continue;
      assert.ok(q >= last - 1e-3, `${athlete}: top ${[3, 5, 10][k]} (${q}) under ${last}`);
      last = q;
    }
  }
  for (const o of of('eventExacta'))
    assert.ok(o.probability / 100 <= (win.get(o.athleteIds?.[0]) ?? 0) + 1e-3, `${o.id}: an exacta above its winner`);
  for (const m of markets.filter((x) => x.oddType === 'headToHead' && !x.heatId)) {
    const sides = open.filter((o) => o.marketId === m.id);
    if (sides.length === 2) assert.ok(Math.abs(sum(sides.map((o) => o.probability / 100)) - 1) < 1e-3, m.id);
  }
}

describe('in play: every event market priced from the field still in', () => {
  test('before anyone is out, the prices are those of before the event', () => {
    const { before, now } = scenario([0.3, 0.2, 0.15, 0.1, 0.08, 0.07, 0.04, 0.03, 0.02, 0.005, 0.003, 0.002], 0, 0.05);
    const was = new Map(before.odds.map((o) => [o.id, o.odds]));
    for (const o of now.odds.filter((x) => !/dreamTeam|multiOverUnder/.test(x.marketId)))
      assert.equal(o.odds, was.get(o.id), o.id);
  });

  test('knocked-out athletes are closed in every market; nothing is suspended; the hole shot closes once its heat starts', () => {
    const win = Array.from({ length: 16 }, (_, i) => 16 - i);
    const { now, knockedOut } = scenario(
      win.map((w) => w / sum(win)),
      4,
      0.05,
      ['main'],
    );
    const byMarket = new Map(now.markets.map((m) => [m.id, m]));
    for (const o of now.odds) {
      const involved = [o.athleteId, ...(o.athleteIds ?? [])].some((id) => id && knockedOut.has(id));
      const market = byMarket.get(o.marketId) as GeneratedMarket;
      if (involved || market.oddType === 'holeShot') assert.equal(o.status, 'CLOSED', o.id);
      assert.notEqual(o.status, 'SUSPENDED', o.id);
    }
    assert.ok(now.markets.every((m) => m.status !== 'SUSPENDED'));
    assert.ok(now.odds.filter((o) => o.status === 'OPEN').length > now.odds.length / 2);
  });

  test('properties: the coherence checks hold in play as before it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.2, max: 5, noNaN: true }), { minLength: 12, maxLength: 16 }),
        fc.integer({ min: 0, max: 6 }),
        (raw, out) => {
          const { now } = scenario(
            raw.map((x) => x / sum(raw)),
            out,
          );
          assertCoherent(now.markets, now.odds);
        },
      ),
      { numRuns: 30 },
    );
  });
});
