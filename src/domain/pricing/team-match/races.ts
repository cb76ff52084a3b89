import { TAIL } from '../score-model.ts';
import type { JointScore, TeamMatchModel } from './model.ts';

/** Races: table tennis games and matches, Jai Alai sets and matches. */

/** First to `target`, no win by two: (target, k) with C(target-1+k, k) p^target q^k, and the mirror. */
export function raceTo(target: number, p: number): JointScore[] {
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

export function periodOfRace(model: Extract<TeamMatchModel, { kind: 'table-tennis' | 'jai-alai' }>): JointScore[] {
  return model.kind === 'table-tennis'
    ? gameTo(model.pointsToWin, model.pointHome)
    : raceTo(model.pointsToWin, model.pointHome);
}

export function periodsToWin(model: Extract<TeamMatchModel, { kind: 'table-tennis' | 'jai-alai' }>): number {
  return model.kind === 'table-tennis' ? model.gamesToWin : model.setsToWin;
}

export function homeWinOf(joint: readonly JointScore[]): number {
  let home = 0;
  for (const s of joint) if (s.home > s.away) home += s.p;
  return home;
}
