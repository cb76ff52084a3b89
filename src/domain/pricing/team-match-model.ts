/**
 * Score models for matches between a home and an away team, scored by period (quarters, ends, games,
 * sets). Each model gives the exact joint distribution of the match score, as matchScore() counts it,
 * and of each regular period, so that moneyline, spread and total prices of the match and of every
 * period come from one distribution and cannot contradict one another. simulateMatch() draws whole
 * matches, period by period, for same-game parlays; its match scores follow matchDistribution().
 *
 * - goals (box lacrosse, 3-on-3 hockey, arena soccer): independent Poisson goals, the match rates split
 *   evenly over the periods; a tie after regulation goes to sudden-death overtime, one goal, won by
 *   home with probability home / (home + away).
 * - curling: end by end with the hammer (see endLaw below); extra ends until someone scores.
 * - table tennis: games to 11, win by 2; the first team to 4 games wins.
 * - Jai Alai: sets to 15, no win by two; the first pair to 2 sets wins.
 *
 * Pure: randomness comes in as a `uniform` function returning numbers in [0, 1). The one piece of
 * state, simulateMatch's tables for the last model it drew, changes no result.
 */

import type { MatchSide, PeriodScore } from '../results/match-score.ts';
import { invert, MAX_EXPECTED_TOTAL, scoreProbabilities, TAIL } from './score-model.ts';

export type { PeriodScore } from '../results/match-score.ts';

export type Side = MatchSide;

/** Joint distribution of a scope's score: each (home, away) with its probability; probabilities sum to 1 (within 1e-9). */
export interface JointScore {
  home: number;
  away: number;
  p: number;
}

export type TeamMatchModel =
  /** Box lacrosse, 3-on-3 hockey, arena soccer: independent Poisson goals per period (match rates split evenly over `periods`). Tied after regulation: sudden-death overtime, one goal, to home with probability home/(home+away). So no draws. */
  | { kind: 'goals'; home: number; away: number; periods: number }
  /** Curling: `ends` ends (8 in the Grand Slam), end by end with the hammer; the team that scores gives up the hammer, a blank end keeps it. Tied after the last end: extra ends until someone scores. */
  | { kind: 'curling'; ends: number; firstHammer: Side; homeEdge: number; scoring: number }
  /** Table tennis team match: games to `pointsToWin` (11), win by 2; the match goes to the first team to win `gamesToWin` (4, best of seven). pointHome = P(home wins a point), the same in every game. */
  | { kind: 'table-tennis'; pointHome: number; pointsToWin: number; gamesToWin: number }
  /** Jai Alai: sets to `pointsToWin` (15) points, no win-by-two; the first pair to win `setsToWin` (2) sets wins. pointHome as above. */
  | { kind: 'jai-alai'; pointHome: number; pointsToWin: number; setsToWin: number };

type CurlingModel = Extract<TeamMatchModel, { kind: 'curling' }>;

export interface MoneylineProbabilities {
  home: number;
  away: number;
  draw: number;
}

/** The home side covers when home - away + line > 0. */
export interface SpreadProbabilities {
  home: number;
  away: number;
  push: number;
}

export interface TotalProbabilities {
  over: number;
  under: number;
  push: number;
}

/**
 * The curling end law. In an end the team with the hammer (last stone) either scores, blanks the end
 * (nobody scores, it keeps the hammer) or is stolen on (the other team scores). At homeEdge 0 and
 * scoring 1 the three happen in 62%, 16% and 22% of ends. The edge x of the hammer team (homeEdge when
 * home holds it, -homeEdge otherwise) weights scoring by e^(x/2) and steals by e^(-x/2); `scoring`
 * divides the blank weight, so low-scoring matches are mostly blank ends. The points of a scoring end
 * are 1 + Poisson(0.85 scoring) for the hammer team and 1 + Poisson(0.2 scoring) for a steal (mostly
 * a single stone), both capped at 8 stones. That gives about 1.4 points an end, 11-12 a match of 8.
 */
const HAMMER_SCORES = 0.62;
const BLANK = 0.16;
const STEAL = 0.22;
const HAMMER_EXTRA_POINTS = 0.85;
const STEAL_EXTRA_POINTS = 0.2;
/** Eight stones a team: the most an end can score. */
const MAX_END_POINTS = 8;
const MAX_ENDS = 20;
const MIN_SCORING = 0.01;
const MAX_SCORING = 100;
const MAX_EDGE = 50;
/** Most points (or games, sets) in a period or a race the point models accept. */
const MAX_RACE = 100;

function fail(message: string): never {
  throw new RangeError(message);
}

function checkWhole(value: number, min: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < min || value > max)
    fail(`${what} must be a whole number from ${min} to ${max}`);
}

function checkPoint(pointHome: number): void {
  if (!(pointHome > 0 && pointHome < 1)) fail('pointHome must be strictly between 0 and 1');
}

function checkModel(model: TeamMatchModel): void {
  switch (model.kind) {
    case 'goals': {
      const { home, away } = model;
      if (!Number.isFinite(home) || !Number.isFinite(away) || home < 0 || away < 0)
        fail('goal rates must be finite and not negative');
      // Overtime would never end.
      if (home + away === 0) fail('goal rates must not both be 0');
      if (home + away > MAX_EXPECTED_TOTAL) fail(`goal rates must add up to at most ${MAX_EXPECTED_TOTAL}`);
      checkWhole(model.periods, 1, MAX_RACE, 'periods');
      return;
    }
    case 'curling':
      checkWhole(model.ends, 1, MAX_ENDS, 'ends');
      if (model.firstHammer !== 'home' && model.firstHammer !== 'away') fail("firstHammer must be 'home' or 'away'");
      if (!(Math.abs(model.homeEdge) <= MAX_EDGE)) fail(`homeEdge must be a number from -${MAX_EDGE} to ${MAX_EDGE}`);
      if (!(model.scoring >= MIN_SCORING && model.scoring <= MAX_SCORING))
        fail(`scoring must be a number from ${MIN_SCORING} to ${MAX_SCORING}`);
      return;
    case 'table-tennis':
      checkPoint(model.pointHome);
      checkWhole(model.pointsToWin, 1, MAX_RACE, 'pointsToWin');
      checkWhole(model.gamesToWin, 1, MAX_RACE, 'gamesToWin');
      return;
    case 'jai-alai':
      checkPoint(model.pointHome);
      checkWhole(model.pointsToWin, 1, MAX_RACE, 'pointsToWin');
      checkWhole(model.setsToWin, 1, MAX_RACE, 'setsToWin');
      return;
    default:
      fail('unknown team match model');
  }
}

function checkLine(line: number): void {
  if (!Number.isFinite(line)) fail('a line must be a finite number');
}

/** Poisson(rate) pmf from 0 up to the first count past the mode whose tail is below TAIL (as in score-model). */
function poissonPmf(rate: number): number[] {
  const pmf = [Math.exp(-rate)];
  let p = pmf[0] as number;
  for (let n = 0; ; n++) {
    const next = (p * rate) / (n + 1);
    // Past n + 2 > rate the terms fall at least geometrically, so the tail is below next / (1 - ratio).
    if (n + 2 > rate && next / (1 - rate / (n + 2)) < TAIL) break;
    p = next;
    pmf.push(p);
  }
  return pmf;
}

/** A dense table of (home, away) masses, for building distributions by adding into cells. */
class ScoreTable {
  private readonly mass: Float64Array;

  private readonly maxHome: number;
  private readonly maxAway: number;

  constructor(maxHome: number, maxAway: number) {
    this.maxHome = maxHome;
    this.maxAway = maxAway;
    this.mass = new Float64Array((maxHome + 1) * (maxAway + 1));
  }

  add(home: number, away: number, p: number): void {
    const i = home * (this.maxAway + 1) + away;
    this.mass[i] = (this.mass[i] as number) + p;
  }

  /** The cells with mass, home then away ascending. */
  joint(): JointScore[] {
    const out: JointScore[] = [];
    for (let home = 0; home <= this.maxHome; home++) {
      for (let away = 0; away <= this.maxAway; away++) {
        const p = this.mass[home * (this.maxAway + 1) + away] as number;
        if (p > 0) out.push({ home, away, p });
      }
    }
    return out;
  }
}

function product(homePmf: readonly number[], awayPmf: readonly number[]): JointScore[] {
  const out: JointScore[] = [];
  for (let home = 0; home < homePmf.length; home++) {
    for (let away = 0; away < awayPmf.length; away++) {
      const p = (homePmf[home] as number) * (awayPmf[away] as number);
      if (p > 0) out.push({ home, away, p });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Goals

function goalsMatch(model: { home: number; away: number }): JointScore[] {
  const homePmf = poissonPmf(model.home);
  const awayPmf = poissonPmf(model.away);
  const overtimeHome = model.home / (model.home + model.away);
  const table = new ScoreTable(homePmf.length, awayPmf.length);
  for (let h = 0; h < homePmf.length; h++) {
    for (let a = 0; a < awayPmf.length; a++) {
      const p = (homePmf[h] as number) * (awayPmf[a] as number);
      if (h !== a) table.add(h, a, p);
      else {
        // Sudden death: the next goal wins, home's with its share of the scoring.
        table.add(h + 1, a, p * overtimeHome);
        table.add(h, a + 1, p * (1 - overtimeHome));
      }
    }
  }
  return table.joint();
}

/** Expected match total and home win of a goals model: the rates, plus the overtime goal after a tie. */
function goalsSummary(home: number, away: number): { homeWin: number; expectedTotal: number } {
  const regulation = scoreProbabilities({ home, away });
  const overtimeHome = home / (home + away);
  return { homeWin: regulation.homeWin + regulation.draw * overtimeHome, expectedTotal: home + away + regulation.draw };
}

// ---------------------------------------------------------------------------------------------------
// Curling

/** 1 + Poisson(extra), capped at MAX_END_POINTS: shares of 1..8 points (index 0 is 1 point). */
function endPoints(extra: number): number[] {
  // λ^k / k! without e^-λ, which cancels in the normalisation and would underflow for large λ.
  const weights: number[] = [1];
  for (let k = 1; k < MAX_END_POINTS; k++) weights.push(((weights[k - 1] as number) * extra) / k);
  const sum = weights.reduce((s, w) => s + w, 0);
  return weights.map((w) => w / sum);
}

interface EndLaw {
  /** Outcomes of the end: blank first, then the hammer team's scores, then steals. */
  outcomes: JointScore[];
  /** P(somebody scores). */
  scored: number;
  /** P(home scores). */
  homeScored: number;
  /** Expected points of an end. */
  meanPoints: number;
}

function endLaw(model: CurlingModel, hammer: Side): EndLaw {
  const edge = hammer === 'home' ? model.homeEdge : -model.homeEdge;
  const scoreWeight = HAMMER_SCORES * Math.exp(edge / 2);
  const stealWeight = STEAL * Math.exp(-edge / 2);
  const blankWeight = BLANK / model.scoring;
  const weights = scoreWeight + stealWeight + blankWeight;
  const score = scoreWeight / weights;
  const steal = stealWeight / weights;
  const outcomes: JointScore[] = [{ home: 0, away: 0, p: blankWeight / weights }];
  const side = (scorer: Side, points: number, p: number): JointScore =>
    scorer === 'home' ? { home: points, away: 0, p } : { home: 0, away: points, p };
  const other: Side = hammer === 'home' ? 'away' : 'home';
  endPoints(HAMMER_EXTRA_POINTS * model.scoring).forEach((share, i) => {
    outcomes.push(side(hammer, i + 1, score * share));
  });
  endPoints(STEAL_EXTRA_POINTS * model.scoring).forEach((share, i) => {
    outcomes.push(side(other, i + 1, steal * share));
  });
  let homeScored = 0;
  let meanPoints = 0;
  for (const o of outcomes) {
    if (o.home > 0) homeScored += o.p;
    meanPoints += (o.home + o.away) * o.p;
  }
  return { outcomes, scored: score + steal, homeScored, meanPoints };
}

function hammerAfter(hammer: Side, end: { home: number; away: number }): Side {
  if (end.home > 0) return 'away';
  if (end.away > 0) return 'home';
  return hammer;
}

function curlingLaws(model: CurlingModel): Record<Side, EndLaw> {
  return { home: endLaw(model, 'home'), away: endLaw(model, 'away') };
}

const SIDES: readonly Side[] = ['home', 'away'];

/**
 * Exact match distribution by dynamic programming over (home points, away points, hammer). A tie
 * after the last end goes to extra ends: blanks repeat with the same hammer, so the deciding end is the
 * hammer side's end law conditioned on somebody scoring, its points included in full.
 */
function curlingMatch(model: CurlingModel): JointScore[] {
  const laws = curlingLaws(model);
  const max = MAX_END_POINTS * (model.ends + 1);
  const width = max + 1;
  let state: Record<Side, Float64Array> = {
    home: new Float64Array(width * width),
    away: new Float64Array(width * width),
  };
  state[model.firstHammer][0] = 1;
  for (let end = 0; end < model.ends; end++) {
    const next: Record<Side, Float64Array> = {
      home: new Float64Array(width * width),
      away: new Float64Array(width * width),
    };
    const reach = MAX_END_POINTS * end;
    for (const hammer of SIDES) {
      const from = state[hammer];
      for (let h = 0; h <= reach; h++) {
        for (let a = 0; a <= reach; a++) {
          const m = from[h * width + a] as number;
          if (m === 0) continue;
          for (const o of laws[hammer].outcomes) {
            const to = next[hammerAfter(hammer, o)];
            const i = (h + o.home) * width + a + o.away;
            to[i] = (to[i] as number) + m * o.p;
          }
        }
      }
    }
    state = next;
  }
  const table = new ScoreTable(max, max);
  const reach = MAX_END_POINTS * model.ends;
  for (const hammer of SIDES) {
    const law = laws[hammer];
    for (let h = 0; h <= reach; h++) {
      for (let a = 0; a <= reach; a++) {
        const m = state[hammer][h * width + a] as number;
        if (m === 0) continue;
        if (h !== a) table.add(h, a, m);
        else
          for (const o of law.outcomes)
            if (o.home + o.away > 0) table.add(h + o.home, a + o.away, (m * o.p) / law.scored);
      }
    }
  }
  return table.joint();
}

/** P(hammer with home) at each end 0..ends-1: a two-state chain, the hammer passing when its team scores. */
function hammerHomeByEnd(model: CurlingModel, laws: Record<Side, EndLaw>): number[] {
  const passHome = laws.home.homeScored;
  // Away keeps the hammer unless it scores; home gets it back when away scores.
  const passAway = laws.away.scored - laws.away.homeScored;
  const out: number[] = [];
  let home = model.firstHammer === 'home' ? 1 : 0;
  for (let end = 0; end < model.ends; end++) {
    out.push(home);
    home = home * (1 - passHome) + (1 - home) * passAway;
  }
  return out;
}

/**
 * Home win and expected total of a curling model, over (margin, hammer) only: much smaller than the
 * full score table, for the fit's many evaluations. Agrees with curlingMatch.
 */
function curlingSummary(model: CurlingModel): { homeWin: number; expectedTotal: number } {
  const laws = curlingLaws(model);
  const reach = MAX_END_POINTS * model.ends;
  const width = 2 * reach + 1;
  // Flat arrays, home hammer in [0, width) and away hammer in [width, 2 width): this runs thousands of times a fit.
  const moves = SIDES.map((hammer) => {
    const outcomes = laws[hammer].outcomes;
    return {
      shift: Int32Array.from(outcomes, (o) => o.home - o.away + (hammerAfter(hammer, o) === 'home' ? 0 : width)),
      p: Float64Array.from(outcomes, (o) => o.p),
    };
  });
  let state = new Float64Array(2 * width);
  state[(model.firstHammer === 'home' ? 0 : width) + reach] = 1;
  let expectedTotal = 0;
  for (const p of hammerHomeByEnd(model, laws))
    expectedTotal += p * laws.home.meanPoints + (1 - p) * laws.away.meanPoints;
  for (let end = 0; end < model.ends; end++) {
    const next = new Float64Array(2 * width);
    const span = MAX_END_POINTS * end;
    for (let side = 0; side < 2; side++) {
      const { shift, p } = moves[side] as { shift: Int32Array; p: Float64Array };
      const base = side * width;
      for (let d = reach - span; d <= reach + span; d++) {
        const m = state[base + d] as number;
        if (m === 0) continue;
        for (let k = 0; k < shift.length; k++) {
          const i = d + (shift[k] as number);
          next[i] = (next[i] as number) + m * (p[k] as number);
        }
      }
    }
    state = next;
  }
  let homeWin = 0;
  SIDES.forEach((hammer, side) => {
    const law = laws[hammer];
    const base = side * width;
    for (let d = reach + 1; d < width; d++) homeWin += state[base + d] as number;
    const tied = state[base + reach] as number;
    homeWin += (tied * law.homeScored) / law.scored;
    expectedTotal += (tied * law.meanPoints) / law.scored;
  });
  return { homeWin, expectedTotal };
}

function curlingEnd(model: CurlingModel, index: number): JointScore[] {
  const laws = curlingLaws(model);
  const home = hammerHomeByEnd(model, laws)[index] as number;
  const table = new ScoreTable(MAX_END_POINTS, MAX_END_POINTS);
  for (const o of laws.home.outcomes) table.add(o.home, o.away, home * o.p);
  for (const o of laws.away.outcomes) table.add(o.home, o.away, (1 - home) * o.p);
  return table.joint();
}

// ---------------------------------------------------------------------------------------------------
// Races: table tennis games and matches, Jai Alai sets and matches

/** First to `target`, no win by two: (target, k) with C(target-1+k, k) p^target q^k, and the mirror. */
function raceTo(target: number, p: number): JointScore[] {
  const q = 1 - p;
  const homeFinish: JointScore[] = [];
  const awayFinish: JointScore[] = [];
  let home = p ** target;
  let away = q ** target;
  for (let k = 0; k < target; k++) {
    if (k > 0) {
      home *= ((target - 1 + k) / k) * q;
      away *= ((target - 1 + k) / k) * p;
    }
    homeFinish.push({ home: target, away: k, p: home });
    awayFinish.push({ home: k, away: target, p: away });
  }
  return [...homeFinish, ...awayFinish].filter((s) => s.p > 0);
}

/**
 * A game to `target` points, win by two: target-k for k <= target-2 as in a race, and from
 * (target-1)-all a deuce that ends at (target+1+j, target-1+j) with probability D (2pq)^j p^2. The deuce
 * tail past the point where it holds less than TAIL is added to the last deuce scores kept, in the
 * ratio p^2 : q^2, so the game's winner keeps its exact probability and the masses sum to 1.
 */
function gameTo(target: number, p: number): JointScore[] {
  const q = 1 - p;
  const out: JointScore[] = [];
  let home = p ** target;
  let away = q ** target;
  for (let k = 0; k <= target - 2; k++) {
    if (k > 0) {
      home *= ((target - 1 + k) / k) * q;
      away *= ((target - 1 + k) / k) * p;
    }
    out.push({ home: target, away: k, p: home }, { home: k, away: target, p: away });
  }
  let deuce = 1;
  for (let i = 1; i < target; i++) deuce *= ((target - 1 + i) / i) * p * q;
  const win = p * p;
  const lose = q * q;
  let remaining = deuce;
  for (let j = 0; ; j++) {
    let homeDeuce = remaining * win;
    let awayDeuce = remaining * lose;
    remaining *= 2 * p * q;
    if (remaining < TAIL) {
      homeDeuce += (remaining * win) / (win + lose);
      awayDeuce += (remaining * lose) / (win + lose);
    }
    out.push(
      { home: target + 1 + j, away: target - 1 + j, p: homeDeuce },
      { home: target - 1 + j, away: target + 1 + j, p: awayDeuce },
    );
    if (remaining < TAIL) break;
  }
  return out.filter((s) => s.p > 0).sort((x, y) => x.home - y.home || x.away - y.away);
}

function periodOfRace(model: Extract<TeamMatchModel, { kind: 'table-tennis' | 'jai-alai' }>): JointScore[] {
  return model.kind === 'table-tennis'
    ? gameTo(model.pointsToWin, model.pointHome)
    : raceTo(model.pointsToWin, model.pointHome);
}

function periodsToWin(model: Extract<TeamMatchModel, { kind: 'table-tennis' | 'jai-alai' }>): number {
  return model.kind === 'table-tennis' ? model.gamesToWin : model.setsToWin;
}

function homeWinOf(joint: readonly JointScore[]): number {
  let home = 0;
  for (const s of joint) if (s.home > s.away) home += s.p;
  return home;
}

// ---------------------------------------------------------------------------------------------------
// Distributions

export function regularPeriods(model: TeamMatchModel): number {
  checkModel(model);
  switch (model.kind) {
    case 'goals':
      return model.periods;
    case 'curling':
      return model.ends;
    case 'table-tennis':
      return 2 * model.gamesToWin - 1;
    case 'jai-alai':
      return 2 * model.setsToWin - 1;
  }
}

/** The match score's distribution, as matchScore() counts it: goals/points summed (overtime and extra ends included), or games/sets won. */
export function matchDistribution(model: TeamMatchModel): JointScore[] {
  checkModel(model);
  switch (model.kind) {
    case 'goals':
      return goalsMatch(model);
    case 'curling':
      return curlingMatch(model);
    case 'table-tennis':
    case 'jai-alai':
      return raceTo(periodsToWin(model), homeWinOf(periodOfRace(model))).sort(
        (x, y) => x.home - y.home || x.away - y.away,
      );
  }
}

/**
 * The score of regular period `index` (0-based: quarter, end, game, set). For table tennis and Jai
 * Alai the distribution of a game or set given that it is played (games and sets are alike); for
 * curling the end's marginal (its hammer depends on earlier ends); for goals Poisson(rate/periods) each side.
 */
export function periodDistribution(model: TeamMatchModel, index: number): JointScore[] {
  const periods = regularPeriods(model);
  checkWhole(index, 0, periods - 1, 'period index');
  switch (model.kind) {
    case 'goals':
      return product(poissonPmf(model.home / periods), poissonPmf(model.away / periods));
    case 'curling':
      return curlingEnd(model, index);
    case 'table-tennis':
    case 'jai-alai':
      return periodOfRace(model);
  }
}

/** The model's expected match total (sum of the match distribution's home + away). */
export function expectedTotal(model: TeamMatchModel): number {
  let total = 0;
  for (const s of matchDistribution(model)) total += (s.home + s.away) * s.p;
  return total;
}

// ---------------------------------------------------------------------------------------------------
// Simulation

/** Cumulative masses of a distribution, for drawing from it by inversion. */
function cumulative(masses: readonly number[]): Float64Array {
  const cdf = new Float64Array(masses.length);
  let sum = 0;
  masses.forEach((m, i) => {
    sum += m;
    cdf[i] = sum;
  });
  return cdf;
}

/** Draws scores from a joint distribution by inversion. */
export class JointSampler {
  private readonly cdf: Float64Array;

  private readonly joint: readonly JointScore[];

  constructor(joint: readonly JointScore[]) {
    this.joint = joint;
    this.cdf = cumulative(joint.map((s) => s.p));
  }

  draw(uniform: () => number): PeriodScore {
    const s = this.joint[invert(this.cdf, uniform())] as JointScore;
    return { home: s.home, away: s.away };
  }
}

type MatchSampler = (uniform: () => number) => PeriodScore[];

/** The tables a model's matches are drawn from, built once per model. */
function matchSampler(model: TeamMatchModel): MatchSampler {
  switch (model.kind) {
    case 'goals': {
      const homeCdf = cumulative(poissonPmf(model.home / model.periods));
      const awayCdf = cumulative(poissonPmf(model.away / model.periods));
      const overtimeHome = model.home / (model.home + model.away);
      return (uniform) => {
        const path: PeriodScore[] = [];
        let margin = 0;
        for (let period = 0; period < model.periods; period++) {
          const home = invert(homeCdf, uniform());
          const away = invert(awayCdf, uniform());
          margin += home - away;
          path.push({ home, away });
        }
        if (margin === 0) path.push(uniform() < overtimeHome ? { home: 1, away: 0 } : { home: 0, away: 1 });
        return path;
      };
    }
    case 'curling': {
      const laws = curlingLaws(model);
      const ends: Record<Side, JointSampler> = {
        home: new JointSampler(laws.home.outcomes),
        away: new JointSampler(laws.away.outcomes),
      };
      return (uniform) => {
        const path: PeriodScore[] = [];
        let hammer = model.firstHammer;
        let margin = 0;
        for (let end = 0; end < model.ends || margin === 0; end++) {
          const score = ends[hammer].draw(uniform);
          margin += score.home - score.away;
          hammer = hammerAfter(hammer, score);
          path.push(score);
        }
        return path;
      };
    }
    case 'table-tennis':
    case 'jai-alai': {
      const periods = new JointSampler(periodOfRace(model));
      const target = periodsToWin(model);
      return (uniform) => {
        const path: PeriodScore[] = [];
        let home = 0;
        let away = 0;
        while (home < target && away < target) {
          const score = periods.draw(uniform);
          if (score.home > score.away) home++;
          else away++;
          path.push(score);
        }
        return path;
      };
    }
  }
}

/** The last model's sampler: a parlay draws thousands of matches of one model in a row. */
let lastSampler: { key: string; sampler: MatchSampler } | undefined;

/**
 * One whole match: per-period scores in play order, every played period (overtime and extra ends
 * appended as extra periods; games or sets not needed are left out). matchScore(format, path) over
 * many draws follows matchDistribution.
 */
export function simulateMatch(model: TeamMatchModel, uniform: () => number): PeriodScore[] {
  const key = JSON.stringify(model);
  if (lastSampler?.key !== key) {
    checkModel(model);
    lastSampler = { key, sampler: matchSampler(model) };
  }
  return lastSampler.sampler(uniform);
}

// ---------------------------------------------------------------------------------------------------
// Markets

export function moneyline(joint: readonly JointScore[]): MoneylineProbabilities {
  const out = { home: 0, away: 0, draw: 0 };
  for (const s of joint) {
    if (s.home > s.away) out.home += s.p;
    else if (s.home < s.away) out.away += s.p;
    else out.draw += s.p;
  }
  return out;
}

/** The spread (handicap) market: the home side covers when home - away + line > 0. */
export function spreadLine(joint: readonly JointScore[], line: number): SpreadProbabilities {
  checkLine(line);
  const out = { home: 0, away: 0, push: 0 };
  for (const s of joint) {
    const d = s.home - s.away + line;
    if (d > 0) out.home += s.p;
    else if (d < 0) out.away += s.p;
    else out.push += s.p;
  }
  return out;
}

export function totalLine(joint: readonly JointScore[], line: number): TotalProbabilities {
  checkLine(line);
  const out = { over: 0, under: 0, push: 0 };
  for (const s of joint) {
    const total = s.home + s.away;
    if (total > line) out.over += s.p;
    else if (total < line) out.under += s.p;
    else out.push += s.p;
  }
  return out;
}

/**
 * P(value > k + 0.5) for every whole k from one below the smallest value to the largest, as
 * [line, P(over)] pairs, summed from the top so that each line's share is one running sum.
 */
function halfLines(values: ReadonlyArray<{ value: number; p: number }>): Array<{ line: number; over: number }> {
  const masses = new Map<number, number>();
  for (const { value, p } of values) masses.set(value, (masses.get(value) ?? 0) + p);
  const keys = [...masses.keys()];
  if (keys.length === 0) return [];
  const low = Math.min(...keys);
  const high = Math.max(...keys);
  const out: Array<{ line: number; over: number }> = [];
  let over = 0;
  for (let k = high; k >= low - 1; k--) {
    out.push({ line: k + 0.5, over });
    over += masses.get(k) ?? 0;
  }
  return out;
}

/** The line whose over share is nearest 1/2; ties go to the line nearest 0, then the lower one. */
function nearestEven(candidates: ReadonlyArray<{ line: number; over: number }>): number {
  let best: { line: number; gap: number } | undefined;
  for (const { line, over } of candidates) {
    const gap = Math.abs(2 * over - 1);
    if (
      best === undefined ||
      gap < best.gap ||
      (gap === best.gap &&
        (Math.abs(line) < Math.abs(best.line) || (Math.abs(line) === Math.abs(best.line) && line < best.line)))
    ) {
      best = { line, gap };
    }
  }
  return best === undefined ? fail('mainLines needs a distribution with at least one score') : best.line;
}

/**
 * Main lines a book would offer: the half-point spread line (home handicap) and the half-point total
 * line whose two sides are closest to even. Among lines equally near even (scores between them have no
 * mass) the one nearest 0 wins, then the lower one.
 */
export function mainLines(joint: readonly JointScore[]): { spread: number; total: number } {
  // Home at handicap L covers when the margin exceeds -L: the margin's half lines, negated.
  const margins = halfLines(joint.map((s) => ({ value: s.home - s.away, p: s.p }))).map(({ line, over }) => ({
    line: -line,
    over,
  }));
  const totals = halfLines(joint.map((s) => ({ value: s.home + s.away, p: s.p })));
  return { spread: nearestEven(margins), total: nearestEven(totals) };
}

// ---------------------------------------------------------------------------------------------------
// Fitting

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
