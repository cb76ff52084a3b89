import type { CurlingModel, JointScore, Side } from './model.ts';
import { ScoreTable } from './score-table.ts';

/** Curling: end by end with the hammer, and extra ends after a tie until someone scores. */

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

export function hammerAfter(hammer: Side, end: { home: number; away: number }): Side {
  if (end.home > 0) return 'away';
  if (end.away > 0) return 'home';
  return hammer;
}

export function curlingLaws(model: CurlingModel): Record<Side, EndLaw> {
  return { home: endLaw(model, 'home'), away: endLaw(model, 'away') };
}

const SIDES: readonly Side[] = ['home', 'away'];

/**
 * Exact match distribution by dynamic programming over (home points, away points, hammer). A tie
 * after the last end goes to extra ends: blanks repeat with the same hammer, so the deciding end is the
 * hammer side's end law conditioned on somebody scoring, its points included in full.
 */
export function curlingMatch(model: CurlingModel): JointScore[] {
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
export function curlingSummary(model: CurlingModel): { homeWin: number; expectedTotal: number } {
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

export function curlingEnd(model: CurlingModel, index: number): JointScore[] {
  const laws = curlingLaws(model);
  const home = hammerHomeByEnd(model, laws)[index] as number;
  const table = new ScoreTable(MAX_END_POINTS, MAX_END_POINTS);
  for (const o of laws.home.outcomes) table.add(o.home, o.away, home * o.p);
  for (const o of laws.away.outcomes) table.add(o.home, o.away, (1 - home) * o.p);
  return table.joint();
}
