import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { ResultsFormat } from '../../../src/domain/competitions.ts';
import { type MarginMethod, removePowerMargin } from '../../../src/domain/pricing/margin.ts';
import {
  fitMatchModel,
  fitMatchModelToMarkets,
  type GeneratedTeamMarket,
  type GeneratedTeamOdd,
  generateTeamMarkets,
  MATCH_PRICING,
} from '../../../src/domain/pricing/team-markets.ts';
import {
  expectedTotal,
  type JointScore,
  mainLines,
  matchDistribution,
  moneyline,
  periodDistribution,
  spreadLine,
  type TeamMatchModel,
  totalLine,
} from '../../../src/domain/pricing/team-match-model.ts';
import { close } from '../../helpers/close.ts';

type PricedFormat = 'box-lacrosse' | 'three-ice' | 'curling' | 'table-tennis' | 'jai-alai';
const FORMATS: readonly PricedFormat[] = ['box-lacrosse', 'three-ice', 'curling', 'table-tennis', 'jai-alai'];
/** Typical expected match totals; table tennis and Jai Alai fit the home win only. */
const EXPECTED_TOTAL: Record<PricedFormat, number | undefined> = {
  'box-lacrosse': 21.5,
  'three-ice': 8.5,
  curling: 10.5,
  'table-tennis': undefined,
  'jai-alai': undefined,
};
const OVERROUND = 0.05;

const pricing = (format: PricedFormat) => MATCH_PRICING[format] as NonNullable<(typeof MATCH_PRICING)[PricedFormat]>;
const modelFor = (format: PricedFormat, homeWin: number): TeamMatchModel => {
  const expectedTotal = EXPECTED_TOTAL[format];
  return fitMatchModel(format, { homeWin, ...(expectedTotal === undefined ? {} : { expectedTotal }) });
};
const allPeriods = (format: PricedFormat) =>
  Array.from({ length: pricing(format).periods }, (_, index) => ({ roundId: `round-${index + 1}`, index }));
const generate = (
  format: PricedFormat,
  model: TeamMatchModel,
  marginMethod: MarginMethod = 'power',
  overround = OVERROUND,
) =>
  generateTeamMarkets({
    eventId: 'ev',
    model,
    periods: allPeriods(format),
    periodMarkets: pricing(format).periodMarkets,
    overround,
    marginMethod,
  });

const oddsOf = (odds: readonly GeneratedTeamOdd[], market: GeneratedTeamMarket) =>
  odds.filter((o) => o.marketId === market.id).sort((a, b) => a.position - b.position);
/**
 * The probabilities the prices were published from (the model's, margin included); the odds
 * beside them are rounded towards the house and never pay more than they imply.
 */
const implied = (odds: readonly GeneratedTeamOdd[]) =>
  odds.map((o) => {
    assert.ok(o.odds <= 100 / o.probability, `${o.id} at ${o.odds} pays more than ${o.probability}%`);
    return o.probability / 100;
  });

/**
 * Fair probabilities behind power-margined prices: the power method raises each fair p to c < 1, so
 * the implied q = p^c come back as q^k with k = 1/c chosen so that they sum to 1 (bisection).
 */
const normalise = (q: readonly number[]) => {
  const sum = q.reduce((a, b) => a + b, 0);
  return q.map((x) => x / sum);
};

/** The model's exact probabilities for a market's sides, in the market's side order. */
function exact(market: GeneratedTeamMarket, sides: readonly string[], joint: readonly JointScore[]): number[] {
  switch (market.teamMarketType) {
    case 'moneyline': {
      const ml = moneyline(joint);
      const twoWay = ml.home + ml.away;
      return sides.map((side) =>
        side === 'DRAW'
          ? ml.draw
          : sides.includes('DRAW')
            ? side === 'HOME'
              ? ml.home
              : ml.away
            : (side === 'HOME' ? ml.home : ml.away) / twoWay,
      );
    }
    case 'spread': {
      const s = spreadLine(joint, market.line as number);
      return sides.map((side) => (side === 'HOME' ? s.home : s.away) / (s.home + s.away));
    }
    case 'total': {
      const t = totalLine(joint, market.line as number);
      return sides.map((side) => (side === 'OVER' ? t.over : t.under) / (t.over + t.under));
    }
  }
}

const jointOf = (
  model: TeamMatchModel,
  market: GeneratedTeamMarket,
  periods: readonly { roundId: string; index: number }[],
) => {
  if (market.roundId === undefined) return matchDistribution(model);
  const period = periods.find((p) => p.roundId === market.roundId);
  assert.ok(period, `period of ${market.id}`);
  return periodDistribution(model, period.index);
};

/** Prices agree with the model: implied sum, de-margined fair probabilities, lines. */
function checkAgainstModel(
  format: PricedFormat,
  model: TeamMatchModel,
  generated: ReturnType<typeof generate>,
  tolerance: number,
) {
  const periods = allPeriods(format);
  for (const market of generated.markets) {
    const odds = oddsOf(generated.odds, market);
    const q = implied(odds);
    close(
      q.reduce((a, b) => a + b, 0),
      1 + OVERROUND,
      0.002,
      `${market.id} implied sum`,
    );
    const fair = removePowerMargin(q);
    const joint = jointOf(model, market, periods);
    const want = exact(
      market,
      odds.map((o) => o.side),
      joint,
    );
    fair.forEach((p, i) => {
      assert.ok(p > 0 && p < 1, `${market.id} ${odds[i]?.side} fair ${p}`);
      close(p, want[i] as number, tolerance, `${market.id} ${odds[i]?.side}`);
    });
    if (market.teamMarketType !== 'moneyline') {
      const lines = mainLines(joint);
      assert.equal(
        market.line,
        market.teamMarketType === 'spread' ? lines.spread : lines.total,
        `${market.id} main line`,
      );
    }
  }
}

const fitted: Array<{ format: PricedFormat; homeWin: number; model: TeamMatchModel }> = [];
for (const format of FORMATS)
  for (const homeWin of [0.3, 0.5, 0.7]) fitted.push({ format, homeWin, model: modelFor(format, homeWin) });

describe('MATCH_PRICING', () => {
  test('prices the five match formats with their models, periods and period markets', () => {
    assert.deepEqual(Object.keys(MATCH_PRICING).sort(), [...FORMATS].sort());
    const table: Record<PricedFormat, [TeamMatchModel['kind'], number, string[], number | undefined]> = {
      'box-lacrosse': ['goals', 4, [], 21.5],
      'three-ice': ['goals', 2, ['moneyline', 'total'], 8.5],
      curling: ['curling', 8, ['moneyline', 'total'], 10.5],
      'table-tennis': ['table-tennis', 7, ['moneyline', 'spread', 'total'], undefined],
      'jai-alai': ['jai-alai', 3, ['moneyline', 'spread', 'total'], undefined],
    };
    for (const format of FORMATS) {
      const [kind, periods, markets, typicalTotal] = table[format];
      const expected = {
        kind,
        periods,
        periodMarkets: markets,
        ...(typicalTotal !== undefined ? { typicalTotal } : {}),
      };
      assert.deepEqual({ ...pricing(format), periodMarkets: [...pricing(format).periodMarkets] }, expected, format);
    }
  });

  test('fitMatchModel refuses formats without a model, and fits the home win asked for', () => {
    for (const format of ['team-match', 'judged-heat'] as ResultsFormat[])
      assert.throws(() => fitMatchModel(format, { homeWin: 0.5, expectedTotal: 5 }), RangeError, format);
    assert.throws(() => fitMatchModelToMarkets('team-match', { homeWin: 0.5 }), RangeError);
    for (const { format, homeWin, model } of fitted) {
      assert.equal(model.kind, pricing(format).kind, format);
      const ml = moneyline(matchDistribution(model));
      close(ml.home / (ml.home + ml.away), homeWin, 1e-6, `${format} at ${homeWin}`);
      assert.ok(ml.draw < 1e-9, `${format}: matches do not draw`);
    }
    assert.equal(
      (fitMatchModel('curling', { homeWin: 0.5, expectedTotal: 10.5 }, 'away') as { firstHammer: string }).firstHammer,
      'away',
    );
  });
});

describe('generateTeamMarkets', () => {
  for (const { format, homeWin, model } of fitted) {
    test(`${format} at homeWin ${homeWin}: markets, ids, prices and the model agree`, () => {
      const generated = generate(format, model);
      const { markets, odds } = generated;
      const periodMarkets = pricing(format).periodMarkets;

      // Shape: the match's three markets first, then each period's, in moneyline, spread, total order.
      const expectedIds = [
        ...['moneyline', 'spread', 'total'].map((t) => `ev:match:${t}`),
        ...allPeriods(format).flatMap((p) =>
          (['moneyline', 'spread', 'total'] as const)
            .filter((t) => periodMarkets.includes(t))
            .map((t) => `ev:${p.roundId}:${t}`),
        ),
      ];
      assert.deepEqual(
        markets.map((m) => m.id),
        expectedIds,
      );
      for (const market of markets) {
        assert.equal(market.eventId, 'ev');
        assert.equal(market.oddType, 'teamMarkets');
        assert.equal(market.id.endsWith(`:${market.teamMarketType}`), true);
        assert.equal(market.roundId, market.id.startsWith('ev:match:') ? undefined : market.id.split(':')[1]);
        if (market.teamMarketType === 'moneyline') assert.equal(market.line, undefined, market.id);
        else
          assert.ok(
            Number.isFinite(market.line) && Math.abs((market.line as number) % 1) === 0.5,
            `${market.id} half line ${market.line}`,
          );
      }

      // Odds: unique, stable ids; sides in order; every price above evens.
      assert.equal(new Set(odds.map((o) => o.id)).size, odds.length);
      assert.equal(new Set(markets.map((m) => m.id)).size, markets.length);
      assert.deepEqual(generate(format, model), generated, 'same input, same output');
      for (const market of markets) {
        const sides = oddsOf(odds, market);
        const names = sides.map((o) => o.side);
        if (market.teamMarketType === 'moneyline')
          assert.ok(names.join() === 'HOME,AWAY' || names.join() === 'HOME,DRAW,AWAY', `${market.id}: ${names}`);
        else if (market.teamMarketType === 'spread') assert.deepEqual(names, ['HOME', 'AWAY']);
        else assert.deepEqual(names, ['OVER', 'UNDER']);
        sides.forEach((o, i) => {
          assert.equal(o.position, i + 1);
          assert.equal(o.id, `${market.id}:${o.side.toLowerCase()}`);
          assert.ok(o.odds > 1 && Number.isFinite(o.odds), `${o.id} at ${o.odds}`);
        });
      }
      assert.equal(
        odds.length,
        markets.reduce((n, m) => n + oddsOf(odds, m).length, 0),
        'every odd belongs to a market',
      );

      // Prices: implied sum 1 + overround; the margin taken out gives the model's exact probabilities.
      checkAgainstModel(format, model, generated, 0.002);
      const matchMl = implied(oddsOf(odds, markets[0] as GeneratedTeamMarket));
      close(removePowerMargin(matchMl)[0] as number, homeWin, 0.002, 'match moneyline is the fitted home win');

      // A draw is offered exactly where the model gives a period draw of 1% or more; never on the match.
      for (const market of markets.filter((m) => m.teamMarketType === 'moneyline')) {
        const draws = oddsOf(odds, market).some((o) => o.side === 'DRAW');
        const draw = moneyline(jointOf(model, market, allPeriods(format))).draw;
        assert.equal(draws, draw >= 0.01, `${market.id}: draw ${draw}`);
        if (market.roundId === undefined) assert.equal(draws, false);
      }
    });
  }

  test('draws are offered on curling ends and 3ICE periods, and nowhere else', () => {
    for (const { format, model } of fitted) {
      const { markets, odds } = generate(format, model);
      const drawMarkets = new Set(odds.filter((o) => o.side === 'DRAW').map((o) => o.marketId));
      const periodMoneylines = markets
        .filter((m) => m.teamMarketType === 'moneyline' && m.roundId !== undefined)
        .map((m) => m.id);
      if (format === 'curling' || format === 'three-ice')
        assert.deepEqual([...drawMarkets].sort(), periodMoneylines.sort(), format);
      else assert.equal(drawMarkets.size, 0, format);
    }
  });

  test('coherence: a -0.5 spread is priced as the moneyline, and the favourite gives the handicap', () => {
    let minusHalf = 0;
    for (const { format, homeWin, model } of fitted) {
      const { markets, odds } = generate(format, model);
      const byScope = new Map<string, GeneratedTeamMarket[]>();
      for (const m of markets) byScope.set(m.roundId ?? 'match', [...(byScope.get(m.roundId ?? 'match') ?? []), m]);
      for (const [scope, scoped] of byScope) {
        const ml = scoped.find((m) => m.teamMarketType === 'moneyline');
        const sp = scoped.find((m) => m.teamMarketType === 'spread');
        if (!ml || !sp) continue;
        const mlOdds = oddsOf(odds, ml);
        if (mlOdds.some((o) => o.side === 'DRAW')) continue;
        const price = (list: GeneratedTeamOdd[], side: string) => list.find((o) => o.side === side)?.odds;
        if (sp.line === -0.5) {
          minusHalf++;
          assert.equal(price(oddsOf(odds, sp), 'HOME'), price(mlOdds, 'HOME'), `${format} ${homeWin} ${scope}`);
          assert.equal(price(oddsOf(odds, sp), 'AWAY'), price(mlOdds, 'AWAY'), `${format} ${homeWin} ${scope}`);
        }
        if (sp.line === 0.5)
          assert.equal(price(oddsOf(odds, sp), 'AWAY'), price(mlOdds, 'AWAY'), `${format} ${homeWin} ${scope}`);
      }
      const matchSpread = markets.find((m) => m.id === 'ev:match:spread')?.line as number;
      if (homeWin === 0.7) assert.ok(matchSpread < 0, `${format}: the favourite at home gives ${matchSpread}`);
      if (homeWin === 0.3) assert.ok(matchSpread > 0, `${format}: the underdog at home gets ${matchSpread}`);
      if (homeWin === 0.5) assert.equal(matchSpread, -0.5, `${format}: an even match`);
    }
    assert.ok(minusHalf >= FORMATS.length, `the -0.5 case was met ${minusHalf} times`);
  });

  test('swapping the favourite mirrors lines and prices (goals, table tennis, Jai Alai)', () => {
    for (const format of ['box-lacrosse', 'three-ice', 'table-tennis', 'jai-alai'] as const) {
      const at = (h: number) =>
        generate(
          format,
          (fitted.find((f) => f.format === format && f.homeWin === h) as { model: TeamMatchModel }).model,
        );
      const [weak, strong] = [at(0.3), at(0.7)];
      const spreadOf = (g: typeof weak) => g.markets.find((m) => m.id === 'ev:match:spread') as GeneratedTeamMarket;
      assert.equal(spreadOf(weak).line, -(spreadOf(strong).line as number), format);
      const price = (g: typeof weak, id: string) => (g.odds.find((o) => o.id === id) as GeneratedTeamOdd).odds;
      close(price(weak, 'ev:match:moneyline:home'), price(strong, 'ev:match:moneyline:away'), 1e-3, format);
      close(price(weak, 'ev:match:spread:home'), price(strong, 'ev:match:spread:away'), 1e-3, format);
    }
  });

  test('multiplicative margin: normalised implied probabilities are the model ones', () => {
    for (const { format, model } of fitted.filter((f) => f.homeWin === 0.7)) {
      const generated = generate(format, model, 'multiplicative');
      for (const market of generated.markets) {
        const odds = oddsOf(generated.odds, market);
        const q = implied(odds);
        close(
          q.reduce((a, b) => a + b, 0),
          1 + OVERROUND,
          0.002,
          `${market.id} implied sum`,
        );
        const want = exact(
          market,
          odds.map((o) => o.side),
          jointOf(model, market, allPeriods(format)),
        );
        normalise(q).forEach((p, i) => {
          close(p, want[i] as number, 0.002, `${format} ${market.id}`);
        });
      }
    }
  });

  test('without an overround the prices are the fair odds', () => {
    const { model } = fitted.find((f) => f.format === 'three-ice' && f.homeWin === 0.7) as { model: TeamMatchModel };
    const generated = generate('three-ice', model, 'power', 0);
    for (const market of generated.markets) {
      const odds = oddsOf(generated.odds, market);
      const want = exact(
        market,
        odds.map((o) => o.side),
        jointOf(model, market, allPeriods('three-ice')),
      );
      odds.forEach((o, i) => {
        close(implied([o])[0] as number, want[i] as number, 1e-4, o.id);
      });
    }
  });

  test('only the periods asked for are priced; no period markets when none are listed', () => {
    const { model } = fitted.find((f) => f.format === 'curling' && f.homeWin === 0.5) as { model: TeamMatchModel };
    const some = generateTeamMarkets({
      eventId: 'ev',
      model,
      periods: [{ roundId: 'r6', index: 5 }],
      periodMarkets: ['total'],
      overround: OVERROUND,
      marginMethod: 'power',
    });
    assert.deepEqual(
      some.markets.map((m) => m.id),
      ['ev:match:moneyline', 'ev:match:spread', 'ev:match:total', 'ev:r6:total'],
    );
    close(
      removePowerMargin(implied(oddsOf(some.odds, some.markets[3] as GeneratedTeamMarket)))[0] as number,
      totalLine(periodDistribution(model, 5), some.markets[3]?.line as number).over,
      0.002,
      'end 6 over',
    );
    const none = generateTeamMarkets({
      eventId: 'ev',
      model,
      periods: allPeriods('curling'),
      periodMarkets: [],
      overround: OVERROUND,
      marginMethod: 'power',
    });
    assert.equal(none.markets.length, 3);
  });

  test('for any home win, every market has fair probabilities in (0, 1) summing to 1, matching the model', () => {
    for (const format of FORMATS) {
      fc.assert(
        fc.property(fc.double({ min: 0.1, max: 0.9, noNaN: true }), (homeWin) => {
          const model = modelFor(format, homeWin);
          const generated = generate(format, model);
          // Power margin: implied = fair^c with Σ implied = (Σ fair)(1 + overround), so an implied sum of
          // 1 + overround is fair probabilities summing to 1.
          checkAgainstModel(format, model, generated, 0.002);
        }),
        { numRuns: format === 'curling' ? 8 : 20 },
      );
    }
  });
});

describe('fitMatchModelToMarkets', () => {
  const cases: Array<[PricedFormat, number, number, number]> = [
    ['box-lacrosse', 0.62, 19, 18.5],
    ['three-ice', 0.8, 9, 8.5],
    ['curling', 0.6, 10.5, 10.5],
    ['curling', 0.28, 12, 11.5],
  ];
  for (const [format, homeWin, expectedTotal, line] of cases) {
    test(`${format}: recovers home win ${homeWin} and the over chance at ${line} of a model with total ${expectedTotal}`, () => {
      const known = fitMatchModel(format, { homeWin, expectedTotal });
      const over = totalLine(matchDistribution(known), line).over;
      const model = fitMatchModelToMarkets(format, { homeWin, total: { line, over } });
      assert.equal(model.kind, known.kind);
      const joint = matchDistribution(model);
      const ml = moneyline(joint);
      close(ml.home / (ml.home + ml.away), homeWin, 0.005, 'home win');
      close(totalLine(joint, line).over, over, 0.005, `P(over ${line})`);
    });
  }

  test('table tennis and Jai Alai fit the home win only', () => {
    for (const format of ['table-tennis', 'jai-alai'] as const) {
      for (const homeWin of [0.2, 0.5, 0.85]) {
        const model = fitMatchModelToMarkets(format, { homeWin, total: { line: 5.5, over: 0.9 } });
        const ml = moneyline(matchDistribution(model));
        close(ml.home / (ml.home + ml.away), homeWin, 0.005, `${format} ${homeWin}`);
        assert.deepEqual(model, fitMatchModelToMarkets(format, { homeWin }), 'the total is ignored');
      }
    }
  });

  test('curling keeps the first hammer given; extreme home wins are held inside (0.005, 0.995)', () => {
    const model = fitMatchModelToMarkets('curling', { homeWin: 0.5, total: { line: 10.5, over: 0.5 } }, 'away');
    assert.equal((model as { firstHammer: string }).firstHammer, 'away');
    const sure = moneyline(matchDistribution(fitMatchModelToMarkets('jai-alai', { homeWin: 1 })));
    close(sure.home, 0.995, 0.005, 'homeWin 1 held at 0.995');
    const none = moneyline(matchDistribution(fitMatchModelToMarkets('table-tennis', { homeWin: 0 })));
    close(none.home, 0.005, 0.005, 'homeWin 0 held at 0.005');
  });

  test("a match without a total market is fitted to its format's typical total", () => {
    for (const format of ['box-lacrosse', 'three-ice', 'curling'] as const) {
      const model = fitMatchModelToMarkets(format, { homeWin: 0.6 });
      close(expectedTotal(model), pricing(format).typicalTotal as number, 1e-6, `${format} expected total`);
      const ml = moneyline(matchDistribution(model));
      close(ml.home / (ml.home + ml.away), 0.6, 1e-5, `${format} home win`);
    }
  });

  test('round trip from generated prices: the power margin taken out gives back the model', () => {
    for (const { format, homeWin, model } of fitted.filter((f) => f.homeWin === 0.7)) {
      const { markets, odds } = generate(format, model);
      const fairOf = (id: string) =>
        removePowerMargin(implied(oddsOf(odds, markets.find((m) => m.id === id) as GeneratedTeamMarket)));
      const total = markets.find((m) => m.id === 'ev:match:total') as GeneratedTeamMarket;
      const refit = fitMatchModelToMarkets(format, {
        homeWin: fairOf('ev:match:moneyline')[0] as number,
        total: { line: total.line as number, over: fairOf('ev:match:total')[0] as number },
      });
      const ml = moneyline(matchDistribution(refit));
      close(ml.home / (ml.home + ml.away), homeWin, 0.005, `${format} ${homeWin} home win`);
      if (format !== 'table-tennis' && format !== 'jai-alai') {
        close(
          totalLine(matchDistribution(refit), total.line as number).over,
          totalLine(matchDistribution(model), total.line as number).over,
          0.005,
          `${format} over`,
        );
      }
    }
  });
});
