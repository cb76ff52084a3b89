import type { PeriodScore } from '../../results/match-score.ts';
import { invert } from '../score-model.ts';
import { curlingLaws, hammerAfter } from './curling.ts';
import { checkModel, type JointScore, type Side, type TeamMatchModel } from './model.ts';
import { periodOfRace, periodsToWin } from './races.ts';
import { poissonPmf } from './score-table.ts';

/** Whole matches drawn period by period, for same game parlays. */

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
