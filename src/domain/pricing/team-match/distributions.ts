import { curlingEnd, curlingMatch } from './curling.ts';
import { goalsMatch } from './goals.ts';
import { checkModel, checkWhole, type JointScore, type TeamMatchModel } from './model.ts';
import { homeWinOf, periodOfRace, periodsToWin, raceTo } from './races.ts';
import { poissonPmf, product } from './score-table.ts';

/** Each model's distributions: of the match score, and of each regular period. */

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
