import { MAX_EXPECTED_TOTAL } from '../score-model.ts';
import { curlingSummary } from './curling.ts';
import { matchDistribution } from './distributions.ts';
import { goalsSummary } from './goals.ts';
import { moneyline } from './lines.ts';
import {
  type CurlingModel,
  checkModel,
  checkWhole,
  fail,
  MAX_EDGE,
  MAX_RACE,
  MAX_SCORING,
  MIN_SCORING,
  type Side,
  type TeamMatchModel,
} from './model.ts';

/** Models fitted to a fair home win probability and an expected total. */

/** The root of an increasing function on [lo, hi], bracketed there, by bisection down to a width of `width`. */
function bisect(f: (x: number) => number, target: number, lo: number, hi: number, width: number): number {
  for (let i = 0; i < 200 && hi - lo > width; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The root of an increasing function on [lo, hi]: bisection, first in [guess - radius, guess + radius]
 * when a guess is given and that narrow bracket holds the root. Throws when the target lies outside
 * the function's range on [lo, hi].
 */
function solve(
  f: (x: number) => number,
  target: number,
  range: { lo: number; hi: number; width: number; what: string; guess?: number; radius?: number },
): number {
  const { lo, hi, width, guess, radius = 0 } = range;
  if (guess !== undefined) {
    const near = { lo: Math.max(lo, guess - radius), hi: Math.min(hi, guess + radius) };
    if (f(near.lo) <= target && f(near.hi) >= target) return bisect(f, target, near.lo, near.hi, width);
  }
  if (f(lo) > target || f(hi) < target) fail(`${range.what} ${target} is out of the model's reach`);
  return bisect(f, target, lo, hi, width);
}

function fitGoals(homeWin: number, total: number, periods: number): TeamMatchModel {
  // The overtime goal after a tie: a total of 1 is what rates near 0 give.
  if (!(total > 1) || total > MAX_EXPECTED_TOTAL)
    fail(`expectedTotal for goals must be above 1 and at most ${MAX_EXPECTED_TOTAL}`);
  const split = (rates: number): { home: number; away: number } => {
    const share = solve((s) => goalsSummary(s * rates, (1 - s) * rates).homeWin, homeWin, {
      lo: 0,
      hi: 1,
      width: 1e-13,
      what: 'homeWin',
    });
    const home = share * rates;
    return { home, away: rates - home };
  };
  // The match total is the rates plus P(tie), which rises with the rates from 1.
  const totalAt = (rates: number): number => {
    const { home, away } = split(rates);
    return goalsSummary(home, away).expectedTotal;
  };
  const rates = solve(totalAt, total, { lo: 1e-9, hi: total, width: 1e-12 * total, what: 'expectedTotal' });
  return { kind: 'goals', ...split(rates), periods };
}

function fitCurling(homeWin: number, total: number, ends: number, firstHammer: Side): TeamMatchModel {
  const at = (scoring: number, homeEdge: number): CurlingModel => ({
    kind: 'curling',
    ends,
    firstHammer,
    homeEdge,
    scoring,
  });
  const edgeFor = (scoring: number, guess?: number): number =>
    solve((x) => curlingSummary(at(scoring, x)).homeWin, homeWin, {
      lo: -MAX_EDGE,
      hi: MAX_EDGE,
      width: 1e-10,
      what: 'homeWin',
      guess,
      radius: 1e-3,
    });
  // Scoring on a log scale; at a fixed edge the total rises with it (fewer blanks, bigger ends).
  const logScoring = { lo: Math.log(MIN_SCORING), hi: Math.log(MAX_SCORING), width: 1e-10, what: 'expectedTotal' };
  const scoringFor = (homeEdge: number, guess?: number): number =>
    clampScoring(
      Math.exp(
        solve((s) => curlingSummary(at(Math.exp(s), homeEdge)).expectedTotal, total, {
          ...logScoring,
          guess: guess === undefined ? undefined : Math.log(guess),
          radius: 1e-3,
        }),
      ),
    );
  const fits = (model: CurlingModel): boolean => {
    const summary = curlingSummary(model);
    return Math.abs(summary.homeWin - homeWin) <= 1e-9 && Math.abs(summary.expectedTotal - total) <= 1e-9 * total;
  };
  // The edge barely moves the total and the scoring barely moves the win, so fitting each in turn,
  // near the last round's value, settles within a few rounds: far fewer evaluations than nesting one
  // fit in the other.
  let scoring = 1;
  let homeEdge = edgeFor(scoring);
  for (let round = 0; round < 30; round++) {
    scoring = scoringFor(homeEdge, round === 0 ? undefined : scoring);
    homeEdge = edgeFor(scoring, homeEdge);
    if (fits(at(scoring, homeEdge))) return at(scoring, homeEdge);
  }
  // Not settled: the nested fit, the edge refitted at every scoring tried.
  scoring = clampScoring(
    Math.exp(solve((s) => curlingSummary(at(Math.exp(s), edgeFor(Math.exp(s)))).expectedTotal, total, logScoring)),
  );
  return at(scoring, edgeFor(scoring));
}

function clampScoring(scoring: number): number {
  return Math.min(MAX_SCORING, Math.max(MIN_SCORING, scoring));
}

function fitPoint(homeWin: number, model: (pointHome: number) => TeamMatchModel): TeamMatchModel {
  const pointHome = solve((p) => moneyline(matchDistribution(model(p))).home, homeWin, {
    lo: 1e-6,
    hi: 1 - 1e-6,
    width: 1e-14,
    what: 'homeWin',
  });
  return model(pointHome);
}

/**
 * Fits a model of the format to a fair home win probability (two-way, draws excluded; none of these
 * formats draws) and, for goals and curling, an expected match total (required there). Bisection;
 * homeWin within 1e-6. Table tennis and Jai Alai fit pointHome only (expectedTotal ignored). Goals take
 * `periods` from options (required); curling 8 ends and the first hammer at home unless given; table
 * tennis 11 points and 4 games; Jai Alai 15 points and 2 sets.
 */
export function fitTeamMatchModel(
  format: 'goals' | 'curling' | 'table-tennis' | 'jai-alai',
  target: { homeWin: number; expectedTotal?: number },
  options: { periods?: number; ends?: number; firstHammer?: Side } = {},
): TeamMatchModel {
  const { homeWin } = target;
  if (!(homeWin > 0 && homeWin < 1)) fail('homeWin must be strictly between 0 and 1');
  switch (format) {
    case 'goals': {
      const { periods } = options;
      if (periods === undefined) fail('fitting goals needs options.periods');
      checkWhole(periods, 1, MAX_RACE, 'periods');
      if (target.expectedTotal === undefined) fail('fitting goals needs an expectedTotal');
      return fitGoals(homeWin, target.expectedTotal, periods);
    }
    case 'curling': {
      const ends = options.ends ?? 8;
      const firstHammer = options.firstHammer ?? 'home';
      checkModel({ kind: 'curling', ends, firstHammer, homeEdge: 0, scoring: 1 });
      if (target.expectedTotal === undefined) fail('fitting curling needs an expectedTotal');
      if (!(target.expectedTotal > 0)) fail('expectedTotal must be above 0');
      return fitCurling(homeWin, target.expectedTotal, ends, firstHammer);
    }
    case 'table-tennis':
      return fitPoint(homeWin, (pointHome) => ({ kind: 'table-tennis', pointHome, pointsToWin: 11, gamesToWin: 4 }));
    case 'jai-alai':
      return fitPoint(homeWin, (pointHome) => ({ kind: 'jai-alai', pointHome, pointsToWin: 15, setsToWin: 2 }));
    default:
      return fail('unknown format');
  }
}
