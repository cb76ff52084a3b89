import { TAIL } from '../score-model.ts';
import type { JointScore } from './model.ts';

/** What the models' distributions are built from: Poisson masses and tables of (home, away) masses. */

/** Poisson(rate) pmf from 0 up to the first count past the mode whose tail is below TAIL (as in score-model). */
export function poissonPmf(rate: number): number[] {
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
export class ScoreTable {
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

export function product(homePmf: readonly number[], awayPmf: readonly number[]): JointScore[] {
  const out: JointScore[] = [];
  for (let home = 0; home < homePmf.length; home++) {
    for (let away = 0; away < awayPmf.length; away++) {
      const p = (homePmf[home] as number) * (awayPmf[away] as number);
      if (p > 0) out.push({ home, away, p });
    }
  }
  return out;
}
