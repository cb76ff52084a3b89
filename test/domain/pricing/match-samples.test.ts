import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Selection } from '../../../src/domain/markets/selection.ts';
import { MatchSamples } from '../../../src/domain/pricing/match-samples.ts';
import { countAll } from '../../../src/domain/pricing/parlay.ts';
import { fitMatchModel } from '../../../src/domain/pricing/team-markets.ts';
import {
  type JointScore,
  mainLines,
  matchDistribution,
  moneyline,
  periodDistribution,
  regularPeriods,
  spreadLine,
  type TeamMatchModel,
  totalLine,
} from '../../../src/domain/pricing/team-match-model.ts';
import { Random } from '../../../src/domain/random.ts';

type MatchSelection = Extract<Selection, { kind: 'matchScore' }>;
type PricedFormat = 'box-lacrosse' | 'three-ice' | 'curling' | 'table-tennis' | 'jai-alai';

const SAMPLES = 40_000;

const ml = (side: 'HOME' | 'AWAY' | 'DRAW', drawOffered = true): MatchSelection => ({
  kind: 'matchScore',
  bet: 'moneyline',
  side,
  line: 0,
  drawOffered,
});
const spread = (side: 'HOME' | 'AWAY', line: number): MatchSelection => ({
  kind: 'matchScore',
  bet: 'spread',
  side,
  line,
});
const total = (side: 'OVER' | 'UNDER', line: number): MatchSelection => ({
  kind: 'matchScore',
  bet: 'total',
  side,
  line,
});

const simulate = (format: PricedFormat, model: TeamMatchModel, samples = SAMPLES, seed = 20240601) => {
  const rng = new Random(seed);
  return MatchSamples.simulate(format, model, samples, () => rng.next());
};

const bits = (samples: MatchSamples, period: number | null, selection: MatchSelection): Uint32Array => {
  const b = samples.legBits(period, selection);
  assert.ok(b, `bits for period ${period}`);
  return b;
};

/** The share of samples in which every leg wins is within 4 standard errors of p. */
function within4se(samples: MatchSamples, legs: Uint32Array[], p: number, what: string): number {
  const share = countAll(legs) / samples.samples;
  const se = Math.sqrt(Math.max(p * (1 - p), 1e-6) / samples.samples);
  assert.ok(Math.abs(share - p) <= 4 * se, `${what}: ${share} vs ${p} (4 s.e. ${4 * se})`);
  return share;
}

const massWhere = (joint: readonly JointScore[], pred: (s: JointScore) => boolean) =>
  joint.reduce((sum, s) => sum + (pred(s) ? s.p : 0), 0);

const CASES: Array<{ format: PricedFormat; model: TeamMatchModel }> = [
  { format: 'box-lacrosse', model: fitMatchModel('box-lacrosse', { homeWin: 0.68, expectedTotal: 21.5 }) },
  { format: 'three-ice', model: fitMatchModel('three-ice', { homeWin: 0.4, expectedTotal: 8.5 }) },
  { format: 'curling', model: fitMatchModel('curling', { homeWin: 0.62, expectedTotal: 10.5 }) },
  { format: 'table-tennis', model: fitMatchModel('table-tennis', { homeWin: 0.7 }) },
  { format: 'jai-alai', model: fitMatchModel('jai-alai', { homeWin: 0.35 }) },
];

describe('MatchSamples', () => {
  for (const { format, model } of CASES) {
    test(`${format} (${model.kind}): leg shares follow the exact match and period distributions`, () => {
      const samples = simulate(format, model);
      assert.equal(samples.samples, SAMPLES);
      assert.equal(samples.words, Math.ceil(SAMPLES / 32));
      const joint = matchDistribution(model);
      const lines = mainLines(joint);
      const exactMl = moneyline(joint);

      // The match: moneyline, spread and total at the main lines.
      const home = bits(samples, null, ml('HOME', false));
      const away = bits(samples, null, ml('AWAY', false));
      within4se(samples, [home], exactMl.home, 'match home');
      within4se(samples, [away], exactMl.away, 'match away');
      assert.equal(countAll([home, away]), 0, 'home and away never both win');
      assert.equal(countAll([home]) + countAll([away]), SAMPLES, 'a match never ends level');
      assert.equal(countAll([bits(samples, null, ml('DRAW'))]), 0, 'no match draw');
      within4se(
        samples,
        [bits(samples, null, total('OVER', lines.total))],
        totalLine(joint, lines.total).over,
        `match over ${lines.total}`,
      );
      within4se(
        samples,
        [bits(samples, null, total('UNDER', lines.total + 2))],
        totalLine(joint, lines.total + 2).under,
        `match under ${lines.total + 2}`,
      );
      within4se(
        samples,
        [bits(samples, null, spread('HOME', lines.spread))],
        spreadLine(joint, lines.spread).home,
        `match home ${lines.spread}`,
      );
      within4se(
        samples,
        [bits(samples, null, spread('AWAY', lines.spread - 1))],
        spreadLine(joint, lines.spread - 1).away,
        `match away at home ${lines.spread - 1}`,
      );

      // Periods: the first and the last regular one (the last is often not played in table tennis and Jai Alai).
      const periods = regularPeriods(model);
      for (const period of [0, periods - 1]) {
        const pj = periodDistribution(model, period);
        const pml = moneyline(pj);
        within4se(samples, [bits(samples, period, ml('HOME'))], pml.home, `period ${period} home`);
        within4se(samples, [bits(samples, period, ml('DRAW'))], pml.draw, `period ${period} draw`);
        const pl = mainLines(pj);
        within4se(
          samples,
          [bits(samples, period, total('OVER', pl.total))],
          totalLine(pj, pl.total).over,
          `period ${period} over ${pl.total}`,
        );
        within4se(
          samples,
          [bits(samples, period, spread('AWAY', pl.spread))],
          spreadLine(pj, pl.spread).away,
          `period ${period} away at ${pl.spread}`,
        );
      }
    });

    test(`${format} (${model.kind}): the joint share of home moneyline and over is the exact joint`, () => {
      const samples = simulate(format, model);
      const joint = matchDistribution(model);
      const line = mainLines(joint).total;
      const exactJoint = massWhere(joint, (s) => s.home > s.away && s.home + s.away > line);
      within4se(
        samples,
        [bits(samples, null, ml('HOME', false)), bits(samples, null, total('OVER', line))],
        exactJoint,
        `home and over ${line}`,
      );
      const exactUnder = massWhere(joint, (s) => s.away > s.home && s.home + s.away < line);
      within4se(
        samples,
        [bits(samples, null, ml('AWAY', false)), bits(samples, null, total('UNDER', line))],
        exactUnder,
        `away and under ${line}`,
      );
    });
  }

  test('correlation is captured: home and over differ from the product of marginals (goals, and the race formats)', () => {
    const cases: Array<{ format: PricedFormat; model: TeamMatchModel; samples: number }> = [
      {
        format: 'three-ice',
        model: fitMatchModel('three-ice', { homeWin: 0.85, expectedTotal: 5.5 }),
        samples: 100_000,
      },
      { format: 'table-tennis', model: fitMatchModel('table-tennis', { homeWin: 0.75 }), samples: SAMPLES },
      { format: 'jai-alai', model: fitMatchModel('jai-alai', { homeWin: 0.75 }), samples: SAMPLES },
    ];
    for (const { format, model, samples: n } of cases) {
      const samples = simulate(format, model, n, 7);
      const joint = matchDistribution(model);
      const line = mainLines(joint).total;
      const exactJoint = massWhere(joint, (s) => s.home > s.away && s.home + s.away > line);
      const product = moneyline(joint).home * totalLine(joint, line).over;
      const se = Math.sqrt((exactJoint * (1 - exactJoint)) / n);
      assert.ok(
        Math.abs(exactJoint - product) > 8 * se,
        `${format}: the model itself correlates them (${exactJoint} vs ${product})`,
      );
      const share = within4se(
        samples,
        [bits(samples, null, ml('HOME', false)), bits(samples, null, total('OVER', line))],
        exactJoint,
        `${format} joint`,
      );
      assert.ok(
        Math.abs(share - product) > 4 * se,
        `${format}: simulated joint ${share} is not the product ${product}`,
      );
    }
  });

  test('a period outside the model gives null', () => {
    for (const { format, model } of CASES) {
      const samples = simulate(format, model, 64);
      const periods = regularPeriods(model);
      for (const period of [-1, periods, periods + 3])
        assert.equal(samples.legBits(period, ml('HOME')), null, `${format} period ${period}`);
      for (const period of [null, 0, periods - 1])
        assert.ok(samples.legBits(period, ml('HOME')) instanceof Uint32Array, `${format} period ${period}`);
    }
  });

  test('bit sets cover exactly the samples, and the same seed draws the same matches', () => {
    const { format, model } = CASES[0] as (typeof CASES)[number];
    const n = 1_001;
    const samples = simulate(format, model, n);
    assert.equal(samples.words, 32);
    const always = bits(samples, null, total('OVER', -0.5));
    assert.equal(always.length, 32);
    assert.equal(countAll([always]), n, 'every sample, and no padding bit');
    assert.equal(countAll([bits(samples, 2, total('UNDER', -0.5))]), 0);
    const again = simulate(format, model, n);
    assert.deepEqual(again.legBits(null, ml('HOME')), samples.legBits(null, ml('HOME')));
    assert.deepEqual(again.legBits(3, total('OVER', 5.5)), samples.legBits(3, total('OVER', 5.5)));
    const other = simulate(format, model, n, 99);
    assert.notDeepEqual(other.legBits(null, total('OVER', 21.5)), samples.legBits(null, total('OVER', 21.5)));
  });

  for (const [format, last, lastPlayed] of [
    ['table-tennis', 6, 6.5],
    ['jai-alai', 2, 2.5],
  ] as const) {
    test(`${format}: the deciding period follows the single-period law though most matches end before it`, () => {
      const model = (CASES.find((c) => c.format === format) as (typeof CASES)[number]).model;
      const samples = simulate(format, model);
      const joint = matchDistribution(model);
      const single = moneyline(periodDistribution(model, last));
      // Matches that reach the last period: the match total (periods won) past lastPlayed.
      const reached = bits(samples, null, total('OVER', lastPlayed));
      const notReached = bits(samples, null, total('UNDER', lastPlayed));
      const pReached = within4se(samples, [reached], totalLine(joint, lastPlayed).over, 'last period played');
      if (format === 'table-tennis') assert.ok(pReached < 0.5, `most matches end before game 7 (${pReached})`);
      const lastHome = bits(samples, last, ml('HOME'));
      within4se(samples, [lastHome], single.home, 'last period home, all draws');
      // Played or not, the period has the single-period law (it is independent of the earlier ones).
      within4se(
        samples,
        [lastHome, notReached],
        single.home * (1 - totalLine(joint, lastPlayed).over),
        'last period home, not played',
      );
      within4se(
        samples,
        [lastHome, reached],
        single.home * totalLine(joint, lastPlayed).over,
        'last period home, played',
      );
      // Where it was played, the deciding period decides the match.
      assert.equal(
        countAll([lastHome, reached, bits(samples, null, ml('AWAY', false))]),
        0,
        'home took the decider but lost the match',
      );
      assert.equal(
        countAll([bits(samples, last, ml('AWAY')), reached, bits(samples, null, ml('HOME', false))]),
        0,
        'away took the decider but lost the match',
      );
    });
  }

  test('goal periods add up to at most the match total (overtime only adds)', () => {
    const { format, model } = CASES[0] as (typeof CASES)[number];
    const samples = simulate(format, model, 4_000);
    // A period with 6+ goals in every regular period forces a match total of 24+.
    const periodsOver = Array.from({ length: regularPeriods(model) }, (_, p) => bits(samples, p, total('OVER', 5.5)));
    const many = countAll(periodsOver);
    assert.ok(many > 0, 'some matches have 6+ goals in every period');
    assert.equal(countAll([...periodsOver, bits(samples, null, total('OVER', 23.5))]), many);
  });
});
