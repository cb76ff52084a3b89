import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  fitScoreModel,
  handicap,
  type ScoreModel,
  scoreProbabilities,
  simulateScores,
  spread,
  totalLine,
  totalOver,
  totalUnder,
} from '../../../src/domain/pricing/score-model.ts';
import { Random } from '../../../src/domain/random.ts';
import { close } from '../../helpers/close.ts';

const e = Math.exp;
/** Modified Bessel functions at 2, for Skellam(1, 1): P(D = k) = e^-2 I_|k|(2). */
const I0_2 = 2.2795853023360673;
const I1_2 = 1.5906368546373291;

/** Poisson pmf straight from the formula, as a reference independent of the module's tables. */
const poisson = (rate: number, k: number) => {
  let p = e(-rate);
  for (let j = 1; j <= k; j++) p *= rate / j;
  return p;
};

/** The handicap by the full double sum over both scores up to 100, far past any tested rate's tail. */
const bruteHandicap = (model: ScoreModel, line: number) => {
  const out = { home: 0, away: 0, push: 0 };
  for (let h = 0; h <= 100; h++) {
    for (let a = 0; a <= 100; a++) {
      const p = poisson(model.home, h) * poisson(model.away, a);
      const d = h - a + line;
      if (d > 0) out.home += p;
      else if (d < 0) out.away += p;
      else out.push += p;
    }
  }
  return out;
};

const rate = fc.double({ min: 0.05, max: 12, noNaN: true });
const models = fc.record({ home: rate, away: rate });
const halfLines = fc.integer({ min: -12, max: 24 }).map((k) => k + 0.5);
const wholeLines = fc.integer({ min: -12, max: 24 });

describe('score model in hand-computed cases', () => {
  test('equal rates give equal sides', () => {
    for (const r of [0.3, 1, 2.7, 9]) {
      const p = scoreProbabilities({ home: r, away: r });
      assert.equal(p.homeWin, p.awayWin, `rate ${r}`);
    }
  });

  test('win, draw and loss match closed forms', () => {
    // A side that cannot score: home wins whenever it scores at all.
    const shutOut = scoreProbabilities({ home: 1, away: 0 });
    close(shutOut.homeWin, 1 - e(-1), 1e-12, 'home 1 v 0 wins');
    close(shutOut.draw, e(-1), 1e-12, 'home 1 v 0 draws');
    assert.equal(shutOut.awayWin, 0);
    // Skellam(1, 1): the draw is e^-2 I0(2), and the rest splits evenly.
    const even = scoreProbabilities({ home: 1, away: 1 });
    close(even.draw, e(-2) * I0_2, 1e-12, 'draw 1 v 1');
    close(even.homeWin, (1 - e(-2) * I0_2) / 2, 1e-12, 'home 1 v 1');
    // Rates 2 and 1, hand-summed: P(H > A) = Σ_a P(A = a) P(H > a).
    const p21 = scoreProbabilities({ home: 2, away: 1 });
    let homeWin = 0;
    let draw = 0;
    for (let a = 0; a < 60; a++) {
      let above = 0;
      for (let h = a + 1; h < 80; h++) above += poisson(2, h);
      homeWin += poisson(1, a) * above;
      draw += poisson(1, a) * poisson(2, a);
    }
    close(p21.homeWin, homeWin, 1e-12, 'home 2 v 1');
    close(p21.draw, draw, 1e-12, 'draw 2 v 1');
  });

  test('maxScore sums each side up to that score and leaves the rest out', () => {
    const capped = scoreProbabilities({ home: 1, away: 1 }, 0);
    assert.deepEqual(capped, { homeWin: 0, draw: e(-2), awayWin: 0 });
    const one = scoreProbabilities({ home: 1, away: 1 }, 1);
    close(one.homeWin, e(-1) * e(-1), 1e-15, '1-0 by itself');
    close(one.draw, 2 * e(-2), 1e-15, '0-0 and 1-1');
    const wide = scoreProbabilities({ home: 1.3, away: 0.8 }, 200);
    const auto = scoreProbabilities({ home: 1.3, away: 0.8 });
    close(wide.homeWin, auto.homeWin, 1e-12, 'a wider cap changes nothing');
    assert.throws(() => scoreProbabilities({ home: 1, away: 1 }, 1.5), RangeError);
    assert.throws(() => scoreProbabilities({ home: 1, away: 1 }, -1), RangeError);
  });

  test('totals of rates 1 and 2 are Poisson(3)', () => {
    const model = { home: 1, away: 2 };
    close(totalOver(model, 2.5), 1 - e(-3) * (1 + 3 + 4.5), 1e-12, 'over 2.5');
    close(totalUnder(model, 2.5), e(-3) * (1 + 3 + 4.5), 1e-12, 'under 2.5');
    const three = totalLine(model, 3);
    close(three.push, e(-3) * 4.5, 1e-12, 'push at 3');
    close(three.under, e(-3) * 8.5, 1e-12, 'under 3');
    close(three.over, 1 - e(-3) * 13, 1e-12, 'over 3');
    close(totalLine(model, 0).push, e(-3), 1e-15, 'push at 0');
    close(totalOver(model, 40.5), 0, 1e-12, 'far over');
    assert.deepEqual(totalLine(model, -0.5), { over: 1, under: 0, push: 0 });
    assert.deepEqual(totalLine(model, -2), { over: 1, under: 0, push: 0 });
  });

  test('handicaps of Skellam(1, 1) and of a side that cannot score', () => {
    const even = { home: 1, away: 1 };
    const d0 = e(-2) * I0_2;
    const d1 = e(-2) * I1_2;
    const giveOne = handicap(even, -1);
    close(giveOne.push, d1, 1e-12, 'home by exactly 1');
    close(giveOne.home, (1 - d0 - 2 * d1) / 2, 1e-12, 'home by 2 or more');
    close(giveOne.away, d0 + (1 - d0) / 2, 1e-12, 'away wins or draws');
    const level = handicap(even, 0);
    const outcomes = scoreProbabilities(even);
    close(level.home, outcomes.homeWin, 1e-15, 'level handicap is the win');
    close(level.push, outcomes.draw, 1e-15, 'level handicap pushes on a draw');
    close(handicap({ home: 1, away: 0 }, -0.5).home, 1 - e(-1), 1e-12, 'home -0.5 against no score');
    close(handicap({ home: 1, away: 0 }, 0.5).home, 1, 1e-12, 'home +0.5 against no score');
    assert.equal(spread(even, -1.5), handicap(even, -1.5).home);
  });

  test('handicaps agree with the full double sum', () => {
    fc.assert(
      fc.property(models, fc.oneof(halfLines, wholeLines), (model, line) => {
        const fast = handicap(model, line);
        const slow = bruteHandicap(model, line);
        close(fast.home, slow.home, 1e-10, 'home');
        close(fast.away, slow.away, 1e-10, 'away');
        close(fast.push, slow.push, 1e-10, 'push');
      }),
      { numRuns: 60, seed: 11 },
    );
  });

  test('rejects inputs out of range', () => {
    for (const homeWin of [0, 1, -0.1, 1.2, Number.NaN])
      assert.throws(() => fitScoreModel({ homeWin, expectedTotal: 3 }), RangeError);
    for (const expectedTotal of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 501])
      assert.throws(() => fitScoreModel({ homeWin: 0.6, expectedTotal }), RangeError);
    for (const model of [
      { home: -1, away: 1 },
      { home: 1, away: Number.NaN },
      { home: 300, away: 300 },
    ]) {
      assert.throws(() => scoreProbabilities(model), RangeError);
      assert.throws(() => simulateScores(model, 10, () => 0.5), RangeError);
    }
    assert.throws(() => totalLine({ home: 1, away: 1 }, Number.NaN), RangeError);
    assert.throws(() => handicap({ home: 1, away: 1 }, Number.POSITIVE_INFINITY), RangeError);
    assert.throws(() => simulateScores({ home: 1, away: 1 }, -1, () => 0.5), RangeError);
    assert.throws(() => simulateScores({ home: 1, away: 1 }, 2.5, () => 0.5), RangeError);
  });
});

describe('fitting a score model', () => {
  test('an even contest splits the total evenly', () => {
    const model = fitScoreModel({ homeWin: 0.5, expectedTotal: 5.5 });
    close(model.home, 2.75, 1e-12, 'home');
    close(model.away, 2.75, 1e-12, 'away');
  });

  test('round trip: the fitted model gives back the home share of decided contests and the total', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.double({ min: 0.5, max: 12, noNaN: true }),
        (homeWin, expectedTotal) => {
          const model = fitScoreModel({ homeWin, expectedTotal });
          const p = scoreProbabilities(model);
          close(p.homeWin / (p.homeWin + p.awayWin), homeWin, 1e-7, 'home share of decided contests');
          close(model.home + model.away, expectedTotal, 1e-12 * expectedTotal, 'total');
          assert.ok(model.home > 0 && model.away > 0);
          // The favourite scores more.
          if (homeWin > 0.5) assert.ok(model.home > model.away);
          if (homeWin < 0.5) assert.ok(model.home < model.away);
        },
      ),
      { seed: 5 },
    );
  });
});

describe('score model coherence', () => {
  test('outcomes, totals and handicaps each sum to 1; half lines never push; handicap sides complement', () => {
    fc.assert(
      fc.property(models, halfLines, wholeLines, (model, half, whole) => {
        const p = scoreProbabilities(model);
        close(p.homeWin + p.draw + p.awayWin, 1, 1e-9, 'outcomes');
        for (const line of [half, whole]) {
          const t = totalLine(model, line);
          close(t.over + t.under + t.push, 1, 1e-9, `total ${line}`);
          assert.equal(totalOver(model, line), t.over);
          assert.equal(totalUnder(model, line), t.under);
          const h = handicap(model, line);
          close(h.home + h.away + h.push, 1, 1e-9, `handicap ${line}`);
          // Home giving `line` is away taking it with the sides swapped.
          const swapped = handicap({ home: model.away, away: model.home }, -line);
          close(h.home, swapped.away, 1e-12, 'home mirrors away');
          close(h.push, swapped.push, 1e-12, 'push mirrors push');
        }
        assert.equal(totalLine(model, half).push, 0);
        assert.equal(handicap(model, half).push, 0);
        // A line further up the total can only be harder to go over.
        assert.ok(totalOver(model, half + 1) <= totalOver(model, half));
        assert.ok(spread(model, half + 1) >= spread(model, half));
      }),
      { numRuns: 200, seed: 3 },
    );
  });
});

describe('simulated scores', () => {
  test('frequencies are within 5 standard errors of the exact probabilities', () => {
    const model = fitScoreModel({ homeWin: 0.62, expectedTotal: 5.4 });
    const rng = new Random(29);
    const samples = 50_000;
    const scores = simulateScores(model, samples, () => rng.next());
    assert.equal(scores.length, 2 * samples);
    let homeWins = 0;
    let draws = 0;
    let over = 0;
    let homeCovers = 0;
    let homeGoals = 0;
    let awayNil = 0;
    for (let s = 0; s < samples; s++) {
      const h = scores[2 * s] as number;
      const a = scores[2 * s + 1] as number;
      if (h > a) homeWins += 1;
      if (h === a) draws += 1;
      if (h + a > 5.5) over += 1;
      if (h - a - 1.5 > 0) homeCovers += 1;
      if (a === 0) awayNil += 1;
      homeGoals += h;
    }
    const within = (q: number) => 5 * Math.sqrt((q * (1 - q)) / samples);
    const exact = scoreProbabilities(model);
    const check = (count: number, q: number, what: string) => close(count / samples, q, within(q), what);
    check(homeWins, exact.homeWin, 'home wins');
    check(draws, exact.draw, 'draws');
    check(over, totalOver(model, 5.5), 'over 5.5');
    check(homeCovers, handicap(model, -1.5).home, 'home -1.5');
    check(awayNil, Math.exp(-model.away), 'away held to 0');
    close(homeGoals / samples, model.home, 5 * Math.sqrt(model.home / samples), 'mean home score');
  });

  test('the same seed gives the same scores, and a scoreless side always scores 0', () => {
    const model = { home: 2.2, away: 1.4 };
    const a = simulateScores(
      model,
      1_000,
      (() => {
        const r = new Random(8);
        return () => r.next();
      })(),
    );
    const b = simulateScores(
      model,
      1_000,
      (() => {
        const r = new Random(8);
        return () => r.next();
      })(),
    );
    assert.deepEqual(a, b);
    const rng = new Random(9);
    const nil = simulateScores({ home: 1.5, away: 0 }, 1_000, () => rng.next());
    for (let s = 0; s < 1_000; s++) assert.equal(nil[2 * s + 1], 0);
    assert.equal(simulateScores(model, 0, () => 0.5).length, 0);
  });
});
