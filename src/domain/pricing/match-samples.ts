import type { ResultsFormat } from '../competitions.ts';
import type { Selection } from '../markets/selection.ts';
import { settleMatchScore } from '../markets/settlement.ts';
import { matchScore } from '../results/match-score.ts';
import {
  JointSampler,
  periodDistribution,
  regularPeriods,
  simulateMatch,
  type TeamMatchModel,
} from './team-match-model.ts';

/** A simulation's scores as arrays: two per sample and regular period, and two per sample for the match. */
export interface SimulatedScores {
  periods: number;
  periodScores: Int16Array;
  matchScores: Int16Array;
}

/**
 * Whole matches drawn from a team match's score model, for the same game parlay: every leg on the
 * match or on one of its periods is a bitset over the same draws, so that legs correlate as the model
 * says (a favourite's moneyline with the over, a game's winner with the match's). Games and sets a
 * draw did not need are drawn on their own: a bet on an unplayed game is void, so its price is the
 * game's as if played.
 */
export class MatchSamples {
  readonly words: number;

  readonly samples: number;
  private readonly periods: number;
  /** [home, away] of regular period p in sample s at (s * periods + p) * 2. */
  private readonly periodScores: Int16Array;
  /** [home, away] match score of sample s at s * 2. */
  private readonly matchScores: Int16Array;

  private constructor(samples: number, periods: number, periodScores: Int16Array, matchScores: Int16Array) {
    this.samples = samples;
    this.periods = periods;
    this.periodScores = periodScores;
    this.matchScores = matchScores;
    this.words = Math.ceil(samples / 32);
  }

  /** The memory the simulated scores take. */
  get byteLength(): number {
    return this.periodScores.byteLength + this.matchScores.byteLength;
  }

  static simulate(format: ResultsFormat, model: TeamMatchModel, samples: number, uniform: () => number): MatchSamples {
    const periods = regularPeriods(model);
    const samplers = Array.from({ length: periods }, (_, p) => new JointSampler(periodDistribution(model, p)));
    const periodScores = new Int16Array(samples * periods * 2);
    const matchScores = new Int16Array(samples * 2);
    for (let s = 0; s < samples; s++) {
      const path = simulateMatch(model, uniform);
      const score = matchScore(format, path);
      matchScores[2 * s] = score.home;
      matchScores[2 * s + 1] = score.away;
      for (let p = 0; p < periods; p++) {
        const played = path[p] ?? (samplers[p] as JointSampler).draw(uniform);
        periodScores[(s * periods + p) * 2] = played.home;
        periodScores[(s * periods + p) * 2 + 1] = played.away;
      }
    }
    return new MatchSamples(samples, periods, periodScores, matchScores);
  }

  /** Draws made elsewhere (a worker thread), from the scores `scoresOf` gave. */
  static fromScores(samples: number, { periods, periodScores, matchScores }: SimulatedScores): MatchSamples {
    if (periodScores.length !== samples * periods * 2 || matchScores.length !== samples * 2)
      throw new RangeError('two scores per sample and period, and per sample');
    return new MatchSamples(samples, periods, periodScores, matchScores);
  }

  /** The simulated scores, as `fromScores` takes them: what a worker thread hands back. */
  scoresOf(): SimulatedScores {
    return { periods: this.periods, periodScores: this.periodScores, matchScores: this.matchScores };
  }

  /** The draws in which a leg on the match (period null) or on regular period `period` (0-based) wins; null when the period is not modelled. */
  legBits(period: number | null, selection: Extract<Selection, { kind: 'matchScore' }>): Uint32Array | null {
    if (period !== null && !(Number.isInteger(period) && period >= 0 && period < this.periods)) return null;
    const bits = new Uint32Array(this.words);
    const scores = period === null ? this.matchScores : this.periodScores;
    const stride = period === null ? 2 : this.periods * 2;
    const offset = period === null ? 0 : period * 2;
    for (let s = 0; s < this.samples; s++) {
      const at = s * stride + offset;
      const won =
        settleMatchScore(selection, { home: scores[at] as number, away: scores[at + 1] as number }).settlement ===
        'WIN';
      if (won) bits[s >>> 5] = (bits[s >>> 5] as number) | (1 << (s & 31));
    }
    return bits;
  }
}
