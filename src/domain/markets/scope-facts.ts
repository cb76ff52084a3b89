import type { ResultsFormat } from '../competitions.ts';
import { athleteRoundRank } from '../results/athlete-round-rank.ts';
import { compareHeatRows } from '../results/heat-row-order.ts';
import { heatLapStatistics } from '../results/lap-statistics.ts';
import { type MatchScore, matchScore, type PeriodScore } from '../results/match-score.ts';
import { heatOutcome } from '../results/win-by.ts';
import { scopeKey } from './market-shape.ts';
import type { ScopeResult } from './scope-result.ts';
import {
  calledOffResult,
  eventScopeResult,
  type HeatScopeRow,
  heatScopeResult,
  lapStatisticResult,
  matchScopeResult,
  operatorScopeResult,
} from './scope-results.ts';
import type { Scope } from './selection.ts';

/**
 * The results of the scopes markets are decided in, from the stored facts: a heat's standing (its
 * published athleteRoundRank and lap statistics, by the score routes' rules), a team match's score
 * and its periods', the event's places. Pure: the facts are read first (what `scopeNeeds` names),
 * then every scope is decided from them, for the odds routes and the settlements ledger alike.
 */

/** A heat's stored facts, as the results store holds them. */
export interface HeatFacts {
  heat: { id: string; eventId: string; heatStatus: string };
  entries: ReadonlyArray<{
    id: string;
    referenceId: number;
    athleteId: string;
    seed: number | null;
    position: number | null;
    heatScore: number | null;
    lapTime: number | null;
    lapStatus: string | null;
  }>;
  laps: ReadonlyArray<{ heatEntryId: string; lapNo: number; lapTime: number | null; position: number | null }>;
  result?: { winnerAthleteId: string | null; method: string | null; resultStatus?: string | null } | null;
}

/** A heat's row as its markets read it: the standing and the fastest lap of each athlete. */
export interface StandingRow extends HeatScopeRow {
  athleteFastestLapSeconds: number | null;
}

/** A heat's rows in route 5's order, with the ranks and lap statistics route 5 publishes. */
export function heatStanding(format: ResultsFormat, facts: HeatFacts): StandingRow[] {
  const { heat, entries, laps, result } = facts;
  const lapStats = heatLapStatistics(
    format,
    entries.map((e) => ({ id: e.id, lapStatus: e.lapStatus })),
    laps.map((l) => ({ entryId: l.heatEntryId, lapNo: l.lapNo, lapTime: l.lapTime, position: l.position })),
  );
  const heatAthleteIds = entries.map((e) => e.athleteId);
  const stored = result ? { winnerAthleteId: result.winnerAthleteId, method: result.method } : null;
  return entries
    .map((entry) => ({
      athleteId: entry.athleteId,
      athleteRoundSeed: entry.seed,
      referenceId: entry.referenceId,
      athleteRoundRank: athleteRoundRank({
        format,
        heatStatus: heat.heatStatus,
        storedPosition: entry.position,
        athleteId: entry.athleteId,
        heatAthleteIds,
        result: stored,
      }),
      athleteHeatScore: entry.heatScore,
      athleteLapTime: entry.lapTime,
      athleteLapStatus: entry.lapStatus ?? 'ACT',
      athleteFastestLapSeconds: lapStats.get(entry.id)?.athleteFastestLapSeconds ?? null,
    }))
    .sort(compareHeatRows);
}

/** A team match's stored facts: the event's teams (JSON, as stored), its rounds and their scores. */
export interface MatchFacts {
  teams: string;
  /** The ids of the teams the store holds (a side whose team is unknown scores nothing). */
  knownTeamIds: ReadonlySet<string>;
  rounds: ReadonlyArray<{ id: string; roundStatus: string }>;
  roundScores: ReadonlyArray<{ roundId: string; teamId: string; goals: number | null }>;
}

export interface MatchPeriodScore {
  roundId: string;
  score: PeriodScore;
}

/** Each period's score, home and away by the event's teams, in the order of the rounds given. */
export function matchPeriodScores(facts: MatchFacts): MatchPeriodScore[] {
  const sides = JSON.parse(facts.teams) as Array<{ teamId: string; isHomeTeam: boolean }>;
  const teamOf = (home: boolean) => {
    const found = sides.find((s) => s.isHomeTeam === home);
    return found && facts.knownTeamIds.has(found.teamId) ? found.teamId : null;
  };
  const [home, away] = [teamOf(true), teamOf(false)];
  return facts.rounds.map((round) => {
    const goals = (teamId: string | null) =>
      (teamId ? facts.roundScores.find((s) => s.roundId === round.id && s.teamId === teamId)?.goals : undefined) ?? 0;
    return { roundId: round.id, score: { home: goals(home), away: goals(away), status: round.roundStatus } };
  });
}

/** What deciding these scopes reads: which heats (all of the event's when `allHeats`), the match, the places. */
export interface ScopeNeeds {
  heatIds: string[];
  allHeats: boolean;
  match: boolean;
  places: boolean;
}

export function scopeNeeds(scopes: readonly Scope[]): ScopeNeeds {
  const heatIds = new Set<string>();
  const needs: ScopeNeeds = { heatIds: [], allHeats: false, match: false, places: false };
  for (const scope of scopes) {
    if (scope.kind === 'heat') heatIds.add(scope.heatId);
    else if (scope.kind === 'lapStatistic' && scope.heatId) heatIds.add(scope.heatId);
    else if (scope.kind === 'lapStatistic') needs.allHeats = true;
    else if (scope.kind === 'match') needs.match = true;
    else if (scope.kind === 'event') needs.places = true;
  }
  needs.heatIds = [...heatIds];
  return needs;
}

/** The facts `scopeNeeds` named, read. */
export interface ScopeFacts {
  format: ResultsFormat;
  event: { id: string; eventStatus: string; resultStatus?: string | null; abandoned?: number | null };
  /** By heat id: the heats asked for (and every heat of the event when `allHeats`), of this event. */
  heats: ReadonlyMap<string, HeatFacts>;
  /** Every heat of the event, when a lap statistic spans them. */
  eventHeatIds: readonly string[];
  match: MatchFacts | undefined;
  places: ReadonlyArray<{ athleteId: string; status: string; place: number | null }>;
}

/**
 * The result of each of these scopes, keyed by scopeKey; a scope nothing here decides is left out
 * (the operator decides it). Provisional as its heat's fed result, or the event's.
 */
export function scopeResultsOf(scopes: readonly Scope[], facts: ScopeFacts): Map<string, ScopeResult> {
  const out = new Map<string, ScopeResult>();
  const standings = new Map<string, StandingRow[]>();
  const standing = (heat: HeatFacts) => {
    const rows = standings.get(heat.heat.id) ?? heatStanding(facts.format, heat);
    standings.set(heat.heat.id, rows);
    return rows;
  };
  const periods = facts.match ? matchPeriodScores(facts.match) : [];
  for (const scope of scopes) {
    const key = scopeKey(scope);
    if (out.has(key)) continue;
    const result = calledOffResult(scopeResult(scope, facts, standing, periods), {
      eventStatus: facts.event.eventStatus,
      abandoned: facts.event.abandoned === 1,
    });
    if (result) out.set(key, isProvisional(scope, facts) ? { ...result, provisional: true } : result);
  }
  return out;
}

function scopeResult(
  scope: Scope,
  facts: ScopeFacts,
  standing: (heat: HeatFacts) => StandingRow[],
  periods: readonly MatchPeriodScore[],
): ScopeResult | undefined {
  const { event } = facts;
  switch (scope.kind) {
    case 'operator':
      return operatorScopeResult(event.eventStatus);
    case 'match': {
      if (!facts.match) return undefined;
      if (scope.roundId === null) return matchScopeResult(event.eventStatus, matchScoreOf(facts.format, periods));
      const period = periods.find((p) => p.roundId === scope.roundId);
      // A period of a called-off match: calledOffResult decides whether it stands.
      return period ? matchScopeResult(period.score.status ?? '', period.score) : undefined;
    }
    case 'event':
      return eventScopeResult(event.eventStatus, facts.places);
    case 'heat': {
      const heat = facts.heats.get(scope.heatId);
      if (!heat) return undefined;
      const fight =
        facts.format === 'combat' && heat.heat.heatStatus === 'COMPLETED'
          ? heatOutcome(
              heat.result ? { winnerAthleteId: heat.result.winnerAthleteId, method: heat.result.method } : null,
            )
          : undefined;
      return heatScopeResult(heat.heat.heatStatus, standing(heat), fight);
    }
    case 'lapStatistic':
      return lapStatistic(scope, facts, standing);
  }
}

const matchScoreOf = (format: ResultsFormat, periods: readonly MatchPeriodScore[]): MatchScore =>
  matchScore(
    format,
    periods.map((p) => p.score),
  );

/** fastestLap and holeShot, in one heat or over the event's heats; an event-wide one is decided when the event is. */
function lapStatistic(
  scope: Extract<Scope, { kind: 'lapStatistic' }>,
  facts: ScopeFacts,
  standing: (heat: HeatFacts) => StandingRow[],
): ScopeResult {
  const heatIds = scope.heatId ? [scope.heatId] : facts.eventHeatIds;
  const values = new Map<string, number | null>();
  let completed = heatIds.length > 0;
  for (const heatId of heatIds) {
    const heat = facts.heats.get(heatId);
    if (!heat) continue;
    completed &&= heat.heat.heatStatus === 'COMPLETED';
    if (scope.statistic === 'fastestLap') {
      for (const row of standing(heat)) {
        const best = values.get(row.athleteId) ?? null;
        const seconds = row.athleteFastestLapSeconds;
        values.set(row.athleteId, seconds !== null && (best === null || seconds < best) ? seconds : best);
      }
    } else {
      const athleteOfEntry = new Map(heat.entries.map((e) => [e.id, e.athleteId]));
      for (const entry of heat.entries) values.set(entry.athleteId, null);
      for (const lap of heat.laps)
        if (lap.lapNo === 1 && lap.position !== null)
          values.set(athleteOfEntry.get(lap.heatEntryId) as string, lap.position);
    }
  }
  return lapStatisticResult(scope.heatId ? completed : facts.event.eventStatus === 'COMPLETED' && completed, values);
}

/**
 * A heat's scopes (its result, its lap statistics) are as provisional as its fed result; the event's
 * (places, the match score and its periods, event-wide statistics) as the event's `resultStatus`.
 */
function isProvisional(scope: Scope, facts: ScopeFacts): boolean {
  if (scope.kind === 'operator') return false;
  const heatId = scope.kind === 'heat' || scope.kind === 'lapStatistic' ? scope.heatId : null;
  if (heatId) return facts.heats.get(heatId)?.result?.resultStatus === 'PROVISIONAL';
  return facts.event.resultStatus === 'PROVISIONAL';
}
