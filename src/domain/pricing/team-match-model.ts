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
 *
 * By concern, in team-match/: the models and their checks (model), each format's distributions
 * (goals, curling, races, put together in distributions), drawing matches (simulation), market
 * probabilities and main lines (lines), and fitting a model to prices (fitting).
 */

export type { PeriodScore } from '../results/match-score.ts';
export { expectedTotal, matchDistribution, periodDistribution, regularPeriods } from './team-match/distributions.ts';
export { fitTeamMatchModel } from './team-match/fitting.ts';
export { mainLines, moneyline, spreadLine, totalLine } from './team-match/lines.ts';
export type {
  JointScore,
  MoneylineProbabilities,
  Side,
  SpreadProbabilities,
  TeamMatchModel,
  TotalProbabilities,
} from './team-match/model.ts';
export { JointSampler, simulateMatch } from './team-match/simulation.ts';
