import type { Competition } from '../domain/competitions.ts';
import { getCompetition } from '../domain/competitions.ts';
import {
  type MatchScore,
  type MatchSide,
  matchScore,
  matchWinner,
  type PeriodScore,
  sideAhead,
} from '../domain/results/match-score.ts';
import type { EventDocumentRows } from '../store/repositories/events-repository.ts';
import type { RoundRow, RoundScoreRow, TeamRow } from '../store/schema.ts';

/**
 * A match between two teams as the sport-specific routes read it: the event's home and away teams,
 * its periods (rounds) in play order with each side's score, and the match score and winner from the
 * match-score rule.
 */

export interface EventTeamFacts {
  teamId: string;
  isHomeTeam: boolean;
  stoneColor?: string;
  firstHammer?: boolean;
}

export interface MatchTeam extends EventTeamFacts {
  team: TeamRow;
}

export interface MatchPeriod {
  round: RoundRow;
  home: RoundScoreRow | undefined;
  away: RoundScoreRow | undefined;
  score: PeriodScore;
}

export interface TeamMatch {
  rows: EventDocumentRows;
  competition: Competition;
  home: MatchTeam | null;
  away: MatchTeam | null;
  periods: MatchPeriod[];
  score: MatchScore;
  winner: MatchSide | null;
}

export function eventTeamFacts(teamsJson: string): EventTeamFacts[] {
  return JSON.parse(teamsJson) as EventTeamFacts[];
}

export function teamMatch(rows: EventDocumentRows): TeamMatch {
  const competition = getCompetition(rows.event.competition);
  const byId = new Map(rows.teams.map((t) => [t.id, t]));
  const facts = eventTeamFacts(rows.event.teams);
  const side = (isHomeTeam: boolean): MatchTeam | null => {
    const found = facts.find((f) => f.isHomeTeam === isHomeTeam);
    const team = found ? byId.get(found.teamId) : undefined;
    return found && team ? { ...found, team } : null;
  };
  const home = side(true);
  const away = side(false);
  const periods = rows.rounds.map((round): MatchPeriod => {
    const scores = rows.roundScores.filter((s) => s.roundId === round.id);
    const of = (team: MatchTeam | null) => (team ? scores.find((s) => s.teamId === team.teamId) : undefined);
    const [h, a] = [of(home), of(away)];
    return { round, home: h, away: a, score: { home: h?.goals ?? 0, away: a?.goals ?? 0, status: round.roundStatus } };
  });
  const format = competition.resultsFormat;
  const scores = periods.map((p) => p.score);
  return {
    rows,
    competition,
    home,
    away,
    periods,
    score: matchScore(format, scores),
    winner: matchWinner(format, rows.event.eventStatus, scores),
  };
}

/** The side that won a completed period, else null. */
export function periodWinner(period: MatchPeriod): MatchSide | null {
  return period.round.roundStatus === 'COMPLETED' ? sideAhead(period.score) : null;
}

/** The team of a side, by its id. */
export function teamOfSide(match: TeamMatch, side: MatchSide | null): MatchTeam | null {
  return side === 'home' ? match.home : side === 'away' ? match.away : null;
}
