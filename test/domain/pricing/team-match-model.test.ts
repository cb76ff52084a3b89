import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { scoreProbabilities } from '../../../src/domain/pricing/score-model.ts';
import {
  expectedTotal,
  fitTeamMatchModel,
  type JointScore,
  mainLines,
  matchDistribution,
  moneyline,
  periodDistribution,
  regularPeriods,
  simulateMatch,
  spreadLine,
  type TeamMatchModel,
  totalLine,
} from '../../../src/domain/pricing/team-match-model.ts';
import { Random } from '../../../src/domain/random.ts';
import { type MatchFormat, matchScore } from '../../../src/domain/results/match-score.ts';
import { close } from '../../helpers/close.ts';

const mass = (joint: readonly JointScore[], home: number, away: number) =>
  joint.find((s) => s.home === home && s.away === away)?.p ?? 0;
const sum = (joint: readonly JointScore[]) => joint.reduce((s, x) => s + x.p, 0);
const choose = (n: number, k: number) => {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
};
const poisson = (rate: number, k: number) => {
  let p = Math.exp(-rate);
  for (let j = 1; j <= k; j++) p *= rate / j;
  return p;
};

/** The format whose matchScore rule each model kind follows. */
const FORMAT: Record<TeamMatchModel['kind'], MatchFormat> = {
  goals: 'box-lacrosse',
  curling: 'curling',
  'table-tennis': 'table-tennis',
  'jai-alai': 'jai-alai',
};

const curling = (over: Partial<Extract<TeamMatchModel, { kind: 'curling' }>> = {}): TeamMatchModel => ({
  kind: 'curling',
  ends: 8,
  firstHammer: 'home',
  homeEdge: 0,
  scoring: 1,
  ...over,
});
const tableTennis = (pointHome: number): TeamMatchModel => ({
  kind: 'table-tennis',
  pointHome,
  pointsToWin: 11,
  gamesToWin: 4,
});
const jaiAlai = (pointHome: number): TeamMatchModel => ({ kind: 'jai-alai', pointHome, pointsToWin: 15, setsToWin: 2 });

const models: fc.Arbitrary<TeamMatchModel> = fc.oneof(
  fc.record({
    kind: fc.constant('goals' as const),
    home: fc.double({ min: 0.05, max: 16, noNaN: true }),
    away: fc.double({ min: 0.05, max: 16, noNaN: true }),
    periods: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    kind: fc.constant('curling' as const),
    ends: fc.integer({ min: 1, max: 10 }),
    firstHammer: fc.constantFrom('home' as const, 'away' as const),
    homeEdge: fc.double({ min: -3, max: 3, noNaN: true }),
    scoring: fc.double({ min: 0.2, max: 3, noNaN: true }),
  }),
  fc.record({
    kind: fc.constant('table-tennis' as const),
    pointHome: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
    pointsToWin: fc.integer({ min: 1, max: 21 }),
    gamesToWin: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    kind: fc.constant('jai-alai' as const),
    pointHome: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
    pointsToWin: fc.integer({ min: 1, max: 21 }),
    setsToWin: fc.integer({ min: 1, max: 4 }),
  }),
);

/** The match and every regular period of a model. */
const scopes = (model: TeamMatchModel): Array<{ name: string; joint: JointScore[] }> => [
  { name: 'match', joint: matchDistribution(model) },
  ...Array.from({ length: regularPeriods(model) }, (_, i) => ({
    name: `period ${i}`,
    joint: periodDistribution(model, i),
  })),
];

describe('team match models in hand-computed cases', () => {
  test('a table tennis game: symmetric at p = 0.5, race scores and the deuce by formula', () => {
    const even = periodDistribution(tableTennis(0.5), 0);
    for (const s of even) close(mass(even, s.away, s.home), s.p, 1e-15, `${s.home}-${s.away} mirrors`);
    close(moneyline(even).home, 0.5, 1e-12, 'even game');
    const p = 0.6;
    const q = 0.4;
    const game = periodDistribution(tableTennis(p), 0);
    close(mass(game, 11, 0), p ** 11, 1e-15, '11-0');
    close(mass(game, 0, 11), q ** 11, 1e-15, '0-11');
    for (let k = 0; k <= 9; k++) close(mass(game, 11, k), choose(10 + k, k) * p ** 11 * q ** k, 1e-14, `11-${k}`);
    assert.equal(mass(game, 11, 10), 0, 'no 11-10 with win by 2');
    const deuce = choose(20, 10) * p ** 10 * q ** 10;
    const deuceScores = game.filter((s) => s.home >= 10 && s.away >= 10);
    close(sum(deuceScores), deuce, 1e-14, 'deuce mass');
    close(mass(game, 12, 10), deuce * p * p, 1e-15, '12-10');
    close(mass(game, 13, 11), deuce * 2 * p * q * p * p, 1e-15, '13-11');
    close(mass(game, 11, 13), deuce * 2 * p * q * q * q, 1e-15, '11-13');
    for (const s of deuceScores) assert.equal(Math.abs(s.home - s.away), 2, 'deuce games end two apart');
    let raceWins = 0;
    for (let k = 0; k <= 9; k++) raceWins += choose(10 + k, k) * p ** 11 * q ** k;
    const gameWin = raceWins + (deuce * p * p) / (p * p + q * q);
    close(moneyline(game).home, gameWin, 1e-13, 'game win');
    // The match is a race to 4 games.
    const match = matchDistribution(tableTennis(p));
    assert.equal(match.length, 8);
    for (let k = 0; k < 4; k++) {
      close(mass(match, 4, k), choose(3 + k, k) * gameWin ** 4 * (1 - gameWin) ** k, 1e-13, `4-${k} in games`);
      close(mass(match, k, 4), choose(3 + k, k) * (1 - gameWin) ** 4 * gameWin ** k, 1e-13, `${k}-4 in games`);
    }
  });

  test('a Jai Alai set and match', () => {
    const p = 0.55;
    const q = 0.45;
    const set = periodDistribution(jaiAlai(p), 1);
    close(mass(set, 15, 0), p ** 15, 1e-15, '15-0');
    close(mass(set, 15, 14), choose(28, 14) * p ** 15 * q ** 14, 1e-15, '15-14');
    close(mass(set, 14, 15), choose(28, 14) * q ** 15 * p ** 14, 1e-15, '14-15');
    assert.equal(set.length, 30);
    close(sum(set), 1, 1e-12, 'a set is decided');
    const g = moneyline(set).home;
    const match = matchDistribution(jaiAlai(p));
    assert.deepEqual(
      match.map((s) => `${s.home}-${s.away}`),
      ['0-2', '1-2', '2-0', '2-1'],
    );
    close(mass(match, 2, 0), g * g, 1e-14, '2-0 in sets');
    close(mass(match, 2, 1), 2 * g * g * (1 - g), 1e-14, '2-1 in sets');
    close(mass(match, 1, 2), 2 * g * (1 - g) * (1 - g), 1e-14, '1-2 in sets');
    close(expectedTotal(jaiAlai(p)), 2 + 2 * g * (1 - g), 1e-12, 'sets played');
    assert.equal(regularPeriods(jaiAlai(p)), 3);
    assert.equal(regularPeriods(tableTennis(p)), 7);
  });

  test('goals: overtime leaves no draws and gives home its share of the ties', () => {
    for (const [home, away] of [
      [6.2, 4.9],
      [3, 3],
      [9.5, 0.4],
      [0, 2],
    ] as const) {
      const model: TeamMatchModel = { kind: 'goals', home, away, periods: 4 };
      const match = matchDistribution(model);
      const regulation = scoreProbabilities({ home, away });
      const line = moneyline(match);
      assert.equal(line.draw, 0, 'no draws');
      close(line.home, regulation.homeWin + (regulation.draw * home) / (home + away), 1e-10, `home ${home} v ${away}`);
      close(line.away, regulation.awayWin + (regulation.draw * away) / (home + away), 1e-10, `away ${home} v ${away}`);
      close(expectedTotal(model), home + away + regulation.draw, 1e-9, 'total: rates plus the overtime goal');
      close(
        mass(match, 1, 0),
        poisson(home, 1) * poisson(away, 0) + poisson(home, 0) * poisson(away, 0) * (home / (home + away)),
        1e-14,
        '1-0 in regulation or overtime',
      );
      const quarter = periodDistribution(model, 2);
      close(mass(quarter, 0, 0), Math.exp(-(home + away) / 4), 1e-14, 'scoreless quarter');
      close(mass(quarter, 2, 1), poisson(home / 4, 2) * poisson(away / 4, 1), 1e-14, 'quarter 2-1');
      close(
        moneyline(quarter).draw,
        scoreProbabilities({ home: home / 4, away: away / 4 }).draw,
        1e-10,
        'quarters can be drawn',
      );
    }
  });

  test('curling: the end law shares, the hammer and the edge', () => {
    const first = periodDistribution(curling(), 0);
    close(sum(first), 1, 1e-12, 'end law sums to 1');
    close(mass(first, 0, 0), 0.16, 1e-12, 'blank end');
    close(moneyline(first).home, 0.62, 1e-12, 'the hammer scores');
    close(moneyline(first).away, 0.22, 1e-12, 'steal');
    for (const s of first) assert.ok(s.home === 0 || s.away === 0, 'one team scores in an end');
    assert.ok(Math.max(...first.map((s) => s.home + s.away)) <= 8, 'eight stones at most');
    assert.ok(
      mass(first, 2, 0) > 0.15 && mass(first, 5, 0) + mass(first, 6, 0) + mass(first, 7, 0) + mass(first, 8, 0) < 0.01,
      'twos common, fives rare',
    );
    assert.ok(mass(first, 0, 1) > 4 * mass(first, 0, 2), 'steals are mostly of one');
    // With the hammer passing, the second end's hammer is away's unless home was stolen on or blanked.
    const second = periodDistribution(curling(), 1);
    close(mass(second, 0, 0), 0.16, 1e-12, 'blank either way');
    close(moneyline(second).home, 0.38 * 0.62 + 0.62 * 0.22, 1e-12, 'second end');
    // At edge 0 the first hammer is the favourite; mirroring it mirrors the match.
    const homeFirst = moneyline(matchDistribution(curling())).home;
    const awayFirst = moneyline(matchDistribution(curling({ firstHammer: 'away' }))).home;
    assert.ok(homeFirst > 0.55, `first hammer wins ${homeFirst}`);
    close(awayFirst, 1 - homeFirst, 1e-12, 'hammer mirrored');
    assert.equal(moneyline(matchDistribution(curling())).draw, 0, 'no draws');
    const total = expectedTotal(curling());
    assert.ok(total > 10 && total < 12.5, `about 11 points a match at scoring 1: ${total}`);
    assert.ok(
      expectedTotal(curling({ scoring: 1.5 })) > total && expectedTotal(curling({ scoring: 0.5 })) < total,
      'scoring scales the points',
    );
    let last = 0;
    for (const homeEdge of [-2, -1, -0.3, 0, 0.3, 1, 2]) {
      const win = moneyline(matchDistribution(curling({ homeEdge, firstHammer: 'away' }))).home;
      assert.ok(win > last, `homeEdge ${homeEdge} favours home`);
      last = win;
    }
  });

  test('curling: a one-end match is the first end given that somebody scores', () => {
    const model = curling({ ends: 1, homeEdge: 0.4, scoring: 1.3 });
    const end = periodDistribution(model, 0);
    const blank = mass(end, 0, 0);
    const match = matchDistribution(model);
    assert.equal(match.length, end.length - 1);
    for (const s of match) close(s.p, mass(end, s.home, s.away) / (1 - blank), 1e-14, `${s.home}-${s.away}`);
  });

  test('curling: the dynamic programme agrees with every path of three ends', () => {
    const model = curling({ ends: 3, homeEdge: -0.7, scoring: 1.2, firstHammer: 'away' });
    // An end's law with a given hammer: the first end of a match that starts with it.
    const lawOf = (firstHammer: 'home' | 'away') =>
      periodDistribution(curling({ ends: 1, homeEdge: -0.7, scoring: 1.2, firstHammer }), 0);
    const law = { home: lawOf('home'), away: lawOf('away') };
    const expected = new Map<string, number>();
    const add = (h: number, a: number, p: number) => expected.set(`${h}-${a}`, (expected.get(`${h}-${a}`) ?? 0) + p);
    const walk = (end: number, hammer: 'home' | 'away', h: number, a: number, p: number): void => {
      if (end === 3) {
        if (h !== a) add(h, a, p);
        else {
          const scored = 1 - mass(law[hammer], 0, 0);
          for (const o of law[hammer]) if (o.home + o.away > 0) add(h + o.home, a + o.away, (p * o.p) / scored);
        }
        return;
      }
      for (const o of law[hammer])
        walk(end + 1, o.home > 0 ? 'away' : o.away > 0 ? 'home' : hammer, h + o.home, a + o.away, p * o.p);
    };
    walk(0, 'away', 0, 0, 1);
    const match = matchDistribution(model);
    assert.equal(match.length, expected.size);
    for (const s of match) close(s.p, expected.get(`${s.home}-${s.away}`) ?? 0, 1e-15, `${s.home}-${s.away}`);
  });

  test('markets on a small distribution', () => {
    const joint: JointScore[] = [
      { home: 3, away: 1, p: 0.2 },
      { home: 2, away: 2, p: 0.3 },
      { home: 0, away: 1, p: 0.5 },
    ];
    assert.deepEqual(moneyline(joint), { home: 0.2, away: 0.5, draw: 0.3 });
    assert.deepEqual(spreadLine(joint, -2), { home: 0, away: 0.8, push: 0.2 });
    assert.deepEqual(spreadLine(joint, 0.5), { home: 0.5, away: 0.5, push: 0 });
    assert.deepEqual(spreadLine(joint, 1.5), { home: 1, away: 0, push: 0 });
    assert.deepEqual(totalLine(joint, 4), { over: 0, under: 0.5, push: 0.5 });
    assert.deepEqual(totalLine(joint, 0.5), { over: 1, under: 0, push: 0 });
    // Home +0.5 covers 0.5 (draws and wins), home -0.5 0.2: +0.5 is at even money. Totals 1.5, 2.5
    // and 3.5 are all even (no 2 or 3 in between): the lowest, nearest 0, is the main line.
    assert.deepEqual(mainLines(joint), { spread: 0.5, total: 1.5 });
    // Equally even on either side of 0: -0.5 before +0.5.
    assert.deepEqual(
      mainLines([
        { home: 1, away: 0, p: 0.5 },
        { home: 0, away: 1, p: 0.5 },
      ]),
      { spread: -0.5, total: 0.5 },
    );
    assert.deepEqual(mainLines([{ home: 2, away: 0, p: 1 }]), { spread: -1.5, total: 1.5 });
  });

  test('rejects inputs out of range', () => {
    const bad: TeamMatchModel[] = [
      { kind: 'goals', home: -1, away: 2, periods: 4 },
      { kind: 'goals', home: 0, away: 0, periods: 4 },
      { kind: 'goals', home: 1, away: Number.NaN, periods: 4 },
      { kind: 'goals', home: 1, away: 1, periods: 0 },
      { kind: 'goals', home: 1, away: 1, periods: 2.5 },
      curling({ ends: 0 }),
      curling({ scoring: 0 }),
      curling({ scoring: -1 }),
      curling({ homeEdge: Number.POSITIVE_INFINITY }),
      curling({ firstHammer: 'neither' as 'home' }),
      tableTennis(0),
      tableTennis(1),
      tableTennis(Number.NaN),
      { kind: 'table-tennis', pointHome: 0.5, pointsToWin: 0, gamesToWin: 4 },
      { kind: 'table-tennis', pointHome: 0.5, pointsToWin: 11, gamesToWin: 0 },
      jaiAlai(1.2),
      { kind: 'jai-alai', pointHome: 0.5, pointsToWin: 15, setsToWin: 1.5 },
    ];
    for (const model of bad) {
      assert.throws(() => matchDistribution(model), RangeError, JSON.stringify(model));
      assert.throws(() => periodDistribution(model, 0), RangeError, JSON.stringify(model));
      assert.throws(() => simulateMatch(model, () => 0.5), RangeError, JSON.stringify(model));
    }
    for (const index of [-1, 4, 1.5])
      assert.throws(() => periodDistribution({ kind: 'goals', home: 1, away: 1, periods: 4 }, index), RangeError);
    assert.throws(() => periodDistribution(jaiAlai(0.5), 3), RangeError);
    assert.throws(() => spreadLine(matchDistribution(jaiAlai(0.5)), Number.NaN), RangeError);
    assert.throws(() => totalLine(matchDistribution(jaiAlai(0.5)), Number.POSITIVE_INFINITY), RangeError);
    assert.throws(() => mainLines([]), RangeError);
    for (const homeWin of [0, 1, -0.2, Number.NaN])
      assert.throws(() => fitTeamMatchModel('table-tennis', { homeWin }), RangeError);
    assert.throws(
      () => fitTeamMatchModel('goals', { homeWin: 0.6, expectedTotal: 10 }),
      RangeError,
      'goals need periods',
    );
    assert.throws(() => fitTeamMatchModel('goals', { homeWin: 0.6 }, { periods: 4 }), RangeError, 'goals need a total');
    assert.throws(
      () => fitTeamMatchModel('goals', { homeWin: 0.6, expectedTotal: 1 }, { periods: 4 }),
      RangeError,
      'the overtime goal alone',
    );
    assert.throws(() => fitTeamMatchModel('curling', { homeWin: 0.6 }), RangeError, 'curling needs a total');
    assert.throws(
      () => fitTeamMatchModel('curling', { homeWin: 0.6, expectedTotal: 1000 }),
      RangeError,
      'out of reach',
    );
    assert.throws(() => fitTeamMatchModel('curling', { homeWin: 0.6, expectedTotal: 10 }, { ends: 0 }), RangeError);
  });
});

describe('team match distributions are proper', () => {
  test('the match and every period sum to 1 with no negative masses; matches are never drawn', () => {
    fc.assert(
      fc.property(models, (model) => {
        for (const { name, joint } of scopes(model)) {
          close(sum(joint), 1, 1e-9, `${model.kind} ${name}`);
          for (const s of joint) {
            assert.ok(s.p >= 0, `${name} ${s.home}-${s.away} has mass ${s.p}`);
            assert.ok(
              Number.isInteger(s.home) && Number.isInteger(s.away) && s.home >= 0 && s.away >= 0,
              `${name} scores`,
            );
          }
          assert.equal(
            new Set(joint.map((s) => `${s.home}-${s.away}`)).size,
            joint.length,
            `${name} lists each score once`,
          );
        }
        assert.equal(moneyline(matchDistribution(model)).draw, 0, 'no drawn matches');
      }),
      { numRuns: 120, seed: 17 },
    );
  });
});

describe('team match market coherence', () => {
  const halfLines = fc.integer({ min: -15, max: 30 }).map((k) => k + 0.5);
  const wholeLines = fc.integer({ min: -15, max: 30 });

  test('spreads and totals sum to 1, are monotone in the line and agree with the moneyline', () => {
    fc.assert(
      fc.property(models, halfLines, wholeLines, (model, half, whole) => {
        for (const { name, joint } of scopes(model)) {
          const line = moneyline(joint);
          close(line.home + line.away + line.draw, 1, 1e-9, `${name} moneyline`);
          close(spreadLine(joint, -0.5).home, line.home, 1e-12, `${name} home -0.5 is the home win`);
          close(spreadLine(joint, 0.5).away, line.away, 1e-12, `${name} away -0.5 is the away win`);
          close(spreadLine(joint, 0.5).home, line.home + line.draw, 1e-12, `${name} home +0.5 wins or draws`);
          close(spreadLine(joint, 0).push, line.draw, 1e-12, `${name} level spread pushes on a draw`);
          for (const at of [half, whole]) {
            const spread = spreadLine(joint, at);
            close(spread.home + spread.away + spread.push, 1, 1e-9, `${name} spread ${at}`);
            assert.ok(spreadLine(joint, at + 1).home >= spread.home - 1e-15, `${name} home spread rises with the line`);
            assert.ok(spreadLine(joint, at + 1).away <= spread.away + 1e-15, `${name} away spread falls with the line`);
            const total = totalLine(joint, at);
            close(total.over + total.under + total.push, 1, 1e-9, `${name} total ${at}`);
            assert.ok(totalLine(joint, at + 1).over <= total.over + 1e-15, `${name} over falls with the line`);
            assert.ok(totalLine(joint, at + 1).under >= total.under - 1e-15, `${name} under rises with the line`);
          }
          assert.equal(spreadLine(joint, half).push, 0);
          assert.equal(totalLine(joint, half).push, 0);
        }
        const match = matchDistribution(model);
        close(spreadLine(match, 0.5).home, moneyline(match).home, 1e-12, 'no draws: home +0.5 is the home win too');
        let total = 0;
        for (const s of match) total += (s.home + s.away) * s.p;
        assert.equal(expectedTotal(model), total);
      }),
      { numRuns: 60, seed: 23 },
    );
  });

  test('main lines are as near even as any other half line', () => {
    fc.assert(
      fc.property(models, (model) => {
        for (const { name, joint } of scopes(model)) {
          const main = mainLines(joint);
          assert.ok(Number.isInteger(main.spread - 0.5) && Number.isInteger(main.total - 0.5), `${name} half lines`);
          const gap = (p: { home: number; away: number }) => Math.abs(p.home - p.away);
          const spreadGap = gap(spreadLine(joint, main.spread));
          const totals = totalLine(joint, main.total);
          const totalGap = Math.abs(totals.over - totals.under);
          for (let k = -80; k <= 80; k++) {
            assert.ok(
              spreadGap <= gap(spreadLine(joint, k + 0.5)) + 1e-12,
              `${name} spread ${main.spread} against ${k + 0.5}`,
            );
            const other = totalLine(joint, k + 0.5);
            assert.ok(
              totalGap <= Math.abs(other.over - other.under) + 1e-12,
              `${name} total ${main.total} against ${k + 0.5}`,
            );
          }
        }
      }),
      { numRuns: 40, seed: 31 },
    );
  });
});

describe('simulated matches', () => {
  const cases: Array<{ model: TeamMatchModel; periods: number[] }> = [
    { model: { kind: 'goals', home: 6.4, away: 5.1, periods: 4 }, periods: [0, 3] },
    { model: curling({ homeEdge: 0.3, scoring: 1.1, firstHammer: 'away' }), periods: [0, 1, 7] },
    { model: tableTennis(0.53), periods: [0, 6] },
    { model: jaiAlai(0.47), periods: [0, 2] },
  ];
  const draws = 20_000;
  /** Every outcome within 5 standard errors; a simulated score the distribution lacks fails outright. */
  const agree = (joint: readonly JointScore[], counts: Map<string, number>, n: number, what: string) => {
    const known = new Set(joint.map((s) => `${s.home}-${s.away}`));
    for (const key of counts.keys()) assert.ok(known.has(key), `${what}: simulated ${key} has no mass`);
    for (const s of joint) {
      const seen = (counts.get(`${s.home}-${s.away}`) ?? 0) / n;
      close(seen, s.p, 5 * Math.sqrt((s.p * (1 - s.p)) / n) + 1 / n, `${what} ${s.home}-${s.away}`);
    }
  };
  const tally = (counts: Map<string, number>, score: { home: number; away: number }) => {
    const key = `${score.home}-${score.away}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };

  for (const { model, periods } of cases) {
    test(`${model.kind}: matchScore over the draws follows the match distribution, and periods theirs`, () => {
      const rng = new Random(41);
      const uniform = () => rng.next();
      const regular = regularPeriods(model);
      const matches = new Map<string, number>();
      const periodCounts = periods.map(() => new Map<string, number>());
      const played = periods.map(() => 0);
      for (let i = 0; i < draws; i++) {
        const path = simulateMatch(model, uniform);
        const score = matchScore(FORMAT[model.kind], path);
        const completed = matchScore(
          FORMAT[model.kind],
          path.map((p) => ({ ...p, status: 'COMPLETED' })),
        );
        assert.deepEqual(completed, score);
        tally(matches, score);
        periods.forEach((index, j) => {
          const period = path[index];
          if (period === undefined) return;
          played[j] = (played[j] as number) + 1;
          tally(periodCounts[j] as Map<string, number>, period);
        });
        // The shape of a path: regulation, then overtime or extra ends only after a tie; races stop when won.
        switch (model.kind) {
          case 'goals': {
            const regulation = matchScore(FORMAT.goals, path.slice(0, regular));
            assert.equal(path.length, regulation.home === regulation.away ? regular + 1 : regular);
            break;
          }
          case 'curling': {
            assert.ok(path.length >= regular);
            for (let end = regular; end < path.length; end++) {
              const before = matchScore(FORMAT.curling, path.slice(0, end));
              assert.equal(before.home, before.away, 'extra ends only while tied');
            }
            break;
          }
          default:
            assert.equal(
              Math.max(score.home, score.away),
              model.kind === 'table-tennis' ? model.gamesToWin : model.setsToWin,
            );
            assert.ok(path.length <= regular);
        }
      }
      agree(matchDistribution(model), matches, draws, `${model.kind} match`);
      periods.forEach((index, j) => {
        agree(
          periodDistribution(model, index),
          periodCounts[j] as Map<string, number>,
          played[j] as number,
          `${model.kind} period ${index}`,
        );
      });
    });
  }

  test('the same seed gives the same matches', () => {
    for (const { model } of cases) {
      const a = new Random(5);
      const b = new Random(5);
      for (let i = 0; i < 50; i++)
        assert.deepEqual(
          simulateMatch(model, () => a.next()),
          simulateMatch(model, () => b.next()),
        );
    }
  });
});

describe('fitting team match models', () => {
  const homeWins = [0.2, 0.35, 0.5, 0.65, 0.8];

  test('goals: recovers the home win and the match total', () => {
    for (const homeWin of homeWins) {
      for (const total of [8, 11, 14]) {
        const model = fitTeamMatchModel('goals', { homeWin, expectedTotal: total }, { periods: 4 });
        assert.equal(model.kind, 'goals');
        if (model.kind !== 'goals') return;
        assert.equal(model.periods, 4);
        close(moneyline(matchDistribution(model)).home, homeWin, 1e-6, `home win ${homeWin} at ${total}`);
        close(expectedTotal(model), total, 1e-6 * total, `total ${total} at ${homeWin}`);
        if (homeWin > 0.5) assert.ok(model.home > model.away);
        if (homeWin < 0.5) assert.ok(model.home < model.away);
      }
    }
  });

  test('curling: recovers the home win and the match total', () => {
    const targets = [
      ...[0.2, 0.5, 0.8].flatMap((homeWin) => [9, 10.5, 12].map((total) => ({ homeWin, total, options: {} }))),
      { homeWin: 0.35, total: 11, options: { firstHammer: 'away' as const } },
      { homeWin: 0.65, total: 13, options: { ends: 10 } },
    ];
    for (const { homeWin, total, options } of targets) {
      const model = fitTeamMatchModel('curling', { homeWin, expectedTotal: total }, options);
      assert.equal(model.kind, 'curling');
      if (model.kind !== 'curling') return;
      assert.equal(model.ends, 'ends' in options ? options.ends : 8);
      assert.equal(model.firstHammer, 'firstHammer' in options ? options.firstHammer : 'home');
      close(moneyline(matchDistribution(model)).home, homeWin, 1e-6, `home win ${homeWin} at ${total}`);
      close(expectedTotal(model), total, 1e-6 * total, `total ${total} at ${homeWin}`);
    }
  });

  test('table tennis and Jai Alai: recover the home win by the point probability', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.02, max: 0.98, noNaN: true }), (homeWin) => {
        for (const format of ['table-tennis', 'jai-alai'] as const) {
          const model = fitTeamMatchModel(format, { homeWin, expectedTotal: 99 });
          assert.equal(model.kind, format);
          if (model.kind === 'table-tennis') assert.deepEqual([model.pointsToWin, model.gamesToWin], [11, 4]);
          if (model.kind === 'jai-alai') assert.deepEqual([model.pointsToWin, model.setsToWin], [15, 2]);
          close(moneyline(matchDistribution(model)).home, homeWin, 1e-6, `${format} ${homeWin}`);
          if (model.kind === 'table-tennis' || model.kind === 'jai-alai')
            assert.equal(model.pointHome > 0.5, homeWin > 0.5);
        }
      }),
      { numRuns: 40, seed: 7 },
    );
    const even = fitTeamMatchModel('table-tennis', { homeWin: 0.5 });
    if (even.kind === 'table-tennis') close(even.pointHome, 0.5, 1e-9, 'an even match has even points');
  });
});
