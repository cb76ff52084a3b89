import type { MatchSide } from '../../results/match-score.ts';
import { MAX_EXPECTED_TOTAL } from '../score-model.ts';

/** The team match models, the limits of their parameters, and the checks that hold them to those. */

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

export type CurlingModel = Extract<TeamMatchModel, { kind: 'curling' }>;

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

/** Limits of the curling model's parameters. */
const MAX_ENDS = 20;
export const MIN_SCORING = 0.01;
export const MAX_SCORING = 100;
export const MAX_EDGE = 50;
/** Most points (or games, sets) in a period or a race the point models accept. */
export const MAX_RACE = 100;

export function fail(message: string): never {
  throw new RangeError(message);
}

export function checkWhole(value: number, min: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < min || value > max)
    fail(`${what} must be a whole number from ${min} to ${max}`);
}

function checkPoint(pointHome: number): void {
  if (!(pointHome > 0 && pointHome < 1)) fail('pointHome must be strictly between 0 and 1');
}

export function checkModel(model: TeamMatchModel): void {
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

export function checkLine(line: number): void {
  if (!Number.isFinite(line)) fail('a line must be a finite number');
}
