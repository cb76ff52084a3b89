import type { Competition } from '../domain/competitions.ts';
import { MATCH_PRICING, fitMatchModel, generateTeamMarkets } from '../domain/pricing/team-markets.ts';
import { type TeamMatchModel, simulateMatch } from '../domain/pricing/team-match-model.ts';
import { Random, hashSeed } from '../domain/random.ts';
import { type MatchSide, matchScore, sideAhead } from '../domain/results/match-score.ts';
import type { FeedDocument } from '../ingest/feed-schema.ts';

/**
 * The demo's team matches (curling, table tennis, box lacrosse, 3-on-3 hockey, Jai Alai): each match
 * is played out once by the same score model that prices it, so results and odds agree. Seeded by
 * the event, so the rest of the demo data does not move.
 */

/** Home-ice and home-court edge, in the same units as the strengths' difference. */
const HOME_EDGE = 0.15;

const models = new Map<string, TeamMatchModel>();

/** The model of a match between teams of these strengths; null for formats without one. */
export function demoMatchModel(competition: Competition, homeStrength: number, awayStrength: number, firstHammer: MatchSide): TeamMatchModel | null {
  const pricing = MATCH_PRICING[competition.resultsFormat];
  if (!pricing) return null;
  // Rounded, so that the fits (a few milliseconds each for curling) are shared across matches.
  const homeWin = Math.round(Math.min(0.9, Math.max(0.1, 1 / (1 + Math.exp(-(0.9 * (homeStrength - awayStrength) + HOME_EDGE))))) * 100) / 100;
  const key = `${competition.key}|${homeWin}|${firstHammer}`;
  let model = models.get(key);
  if (!model) {
    // The format's typical total: goals in lacrosse and 3-on-3 hockey, points in curling.
    const expectedTotal = pricing.typicalTotal;
    model = fitMatchModel(competition.resultsFormat, { homeWin, ...(expectedTotal ? { expectedTotal } : {}) }, firstHammer);
    models.set(key, model);
  }
  return model;
}

/** Which side throws last in the first end (a coin toss, in the demo). */
export function demoFirstHammer(uuid: string): MatchSide {
  return hashSeed('hammer', uuid) % 2 === 0 ? 'home' : 'away';
}

/** The whole match, period by period, as it is played. */
export function demoMatchPath(model: TeamMatchModel, uuid: string): Array<{ home: number; away: number }> {
  const rng = new Random(hashSeed('match', uuid));
  return simulateMatch(model, () => rng.next());
}

/** The side that wins a played-out match. */
export function demoMatchWinner(competition: Competition, path: ReadonlyArray<{ home: number; away: number }>): MatchSide | null {
  return sideAhead(matchScore(competition.resultsFormat, path));
}

/** Table tennis lineups: each team's players by game, singles and doubles in a fixed order. */
const GAME_TYPES: ReadonlyArray<'singles' | 'doubles'> = ['doubles', 'singles', 'singles', 'doubles', 'singles', 'singles', 'singles'];

export function tableTennisGame(index: number, home: readonly string[], away: readonly string[]) {
  const gameType = GAME_TYPES[index % GAME_TYPES.length] ?? 'singles';
  const pick = (roster: readonly string[]) =>
    gameType === 'doubles' ? `${roster[index % roster.length]} / ${roster[(index + 1) % roster.length]}` : (roster[index % roster.length] as string);
  return { gameType, homeLineup: pick(home), awayLineup: pick(away) };
}

/** The match's moneyline, spread and total (and its periods'), from its model, with a 5% margin. */
export function demoMatchMarkets(competition: Competition, uuid: string, model: TeamMatchModel, roundIds: readonly string[]): Pick<Required<FeedDocument>, 'markets' | 'odds'> {
  const pricing = MATCH_PRICING[competition.resultsFormat];
  const generated = generateTeamMarkets({
    eventId: uuid,
    model,
    periods: roundIds.slice(0, pricing?.periods ?? 0).map((roundId, index) => ({ roundId, index })),
    periodMarkets: pricing?.periodMarkets ?? [],
    overround: 0.05,
    marginMethod: 'power',
  });
  return { markets: generated.markets, odds: generated.odds };
}
