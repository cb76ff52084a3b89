import type { Competition } from '../domain/competitions.ts';
import { scopeKey, scopeOf } from '../domain/markets/market-shape.ts';
import type { ScopeResult } from '../domain/markets/scope-result.ts';
import {
  calledOffResult,
  eventScopeResult,
  heatScopeResult,
  lapStatisticResult,
  matchScopeResult,
  operatorScopeResult,
} from '../domain/markets/scope-results.ts';
import type { Scope } from '../domain/markets/selection.ts';
import { heatOutcome } from '../domain/results/win-by.ts';
import type { Store } from '../store/database.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { type HeatResultsRows, resultsRepository } from '../store/repositories/results-repository.ts';
import type { EventRow, MarketRow } from '../store/schema.ts';
import { heatScoreRows } from './results.ts';
import { type TeamMatch, teamMatch } from './team-match.ts';

/**
 * The results of every scope these markets are decided in, keyed by scopeKey: read from the stored
 * results through the same rules the score routes publish (athleteRoundRank, lap statistics).
 */
export async function scopeResults(
  store: Pick<Store, 'db'>,
  event: ScopeEvent,
  competition: Competition,
  markets: readonly MarketRow[],
  /** The event's team match, when the caller has read it already. */
  readMatch?: TeamMatch,
): Promise<Map<string, ScopeResult>> {
  const out = new Map<string, ScopeResult>();
  const read = scopeFacts(store, event, competition, readMatch);
  const scopes = markets.map((market) => scopeOf({ ...market, athleteIds: null }));
  await read.readHeats(await heatsDecidingScopes(store, event, scopes));
  for (const scope of scopes) {
    const key = scopeKey(scope);
    if (out.has(key)) continue;
    const result = calledOffResult(await scopeResult(scope, event, competition, read, store), {
      eventStatus: event.eventStatus,
      abandoned: event.abandoned === 1,
    });
    if (result) out.set(key, (await isProvisional(scope, event, read)) ? { ...result, provisional: true } : result);
  }
  return out;
}

type ScopeEvent = Pick<EventRow, 'id' | 'referenceId' | 'eventStatus'> &
  Partial<Pick<EventRow, 'resultStatus' | 'abandoned'>>;
type Facts = ReturnType<typeof scopeFacts>;

/** The result of one scope; undefined when nothing decides it here (the operator does, or it is gone). */
async function scopeResult(
  scope: Scope,
  event: ScopeEvent,
  competition: Competition,
  read: Facts,
  store: Pick<Store, 'db'>,
): Promise<ScopeResult | undefined> {
  switch (scope.kind) {
    case 'operator':
      return operatorScopeResult(event.eventStatus);
    case 'match': {
      const found = await read.match();
      if (!found) return undefined;
      if (scope.roundId === null) return matchScopeResult(event.eventStatus, found.score);
      const period = found.periods.find((p) => p.round.id === scope.roundId);
      // A period of a called-off match: calledOffResult decides whether it stands.
      return period ? matchScopeResult(period.round.roundStatus, period.score) : undefined;
    }
    case 'event':
      return eventScopeResult(event.eventStatus, await read.places());
    case 'heat': {
      const found = await read.heat(scope.heatId);
      if (!found) return undefined;
      const fight =
        competition.resultsFormat === 'combat'
          ? heatOutcome(
              found.result ? { winnerAthleteId: found.result.winnerAthleteId, method: found.result.method } : null,
            )
          : undefined;
      return heatScopeResult(
        found.status,
        found.rows.map((r) => ({ ...r, athleteId: r.athlete.id })),
        found.status === 'COMPLETED' ? fight : undefined,
      );
    }
    case 'lapStatistic':
      return lapStatistic(scope, event, read, store);
  }
}

/** The heats these scopes are decided by: every heat of the event when a lap statistic spans it. */
async function heatsDecidingScopes(
  store: Pick<Store, 'db'>,
  event: ScopeEvent,
  scopes: readonly Scope[],
): Promise<string[]> {
  const ids = new Set<string>();
  let eventHeats: string[] | undefined;
  for (const scope of scopes) {
    if (scope.kind === 'heat') ids.add(scope.heatId);
    else if (scope.kind === 'lapStatistic' && scope.heatId) ids.add(scope.heatId);
    else if (scope.kind === 'lapStatistic') {
      eventHeats ??= await heatsOfEvent(store, event.id);
      for (const id of eventHeats) ids.add(id);
    }
  }
  return [...ids];
}

async function heatsOfEvent(store: Pick<Store, 'db'>, eventId: string): Promise<string[]> {
  const rows = await store.db.selectFrom('heats').select('id').where('eventId', '=', eventId).execute();
  return rows.map((h) => h.id);
}

/**
 * A heat's scopes (its result, its lap statistics) are as provisional as its fed result; the event's
 * (places, the match score and its periods, event-wide statistics) as the event's `resultStatus`.
 */
async function isProvisional(scope: Scope, event: ScopeEvent, read: Facts): Promise<boolean> {
  const heatId = scope.kind === 'heat' || scope.kind === 'lapStatistic' ? scope.heatId : null;
  if (scope.kind === 'operator') return false;
  if (heatId) return (await read.heat(heatId))?.result?.resultStatus === 'PROVISIONAL';
  return event.resultStatus === 'PROVISIONAL';
}

/** The stored facts scopes are decided by, each read once: heats' score rows, the team match, places. */
function scopeFacts(
  store: Pick<Store, 'db'>,
  event: ScopeEvent,
  competition: Competition,
  readMatch: TeamMatch | undefined,
) {
  const repo = resultsRepository(store.db);
  const heatFacts = (rows: HeatResultsRows | undefined) => {
    if (!rows || rows.heat.eventId !== event.id) return undefined;
    return {
      status: rows.heat.heatStatus,
      rows: heatScoreRows(competition, event, rows),
      laps: rows.laps,
      entries: rows.entries,
      result: rows.result,
    };
  };
  const heatRows = new Map<string, ReturnType<typeof heatFacts>>();
  let match = readMatch;
  return {
    /** Reads these heats at once (one query per table rather than per heat), for `heat` to answer. */
    readHeats: async (heatIds: readonly string[]) => {
      const wanted = heatIds.filter((id) => !heatRows.has(id));
      const found = await repo.findHeatsResults(wanted);
      for (const id of wanted) heatRows.set(id, heatFacts(found.get(id)));
    },
    heat: async (heatId: string) => {
      if (!heatRows.has(heatId)) heatRows.set(heatId, heatFacts(await repo.findHeatResults(heatId)));
      return heatRows.get(heatId);
    },
    match: async () => {
      if (!match) {
        const rows = await eventsRepository(store.db).findDocument(event.id);
        if (rows) match = teamMatch(rows);
      }
      return match;
    },
    places: () => repo.participantPlaces(event.id),
  };
}

/** fastestLap and holeShot, in one heat or over the event's heats; an event-wide one is decided when the event is. */
async function lapStatistic(
  scope: Extract<Scope, { kind: 'lapStatistic' }>,
  event: ScopeEvent,
  read: Facts,
  store: Pick<Store, 'db'>,
): Promise<ScopeResult> {
  const heatIds = scope.heatId ? [scope.heatId] : await heatsOfEvent(store, event.id);
  const values = new Map<string, number | null>();
  let completed = heatIds.length > 0;
  for (const heatId of heatIds) {
    const found = await read.heat(heatId);
    if (!found) continue;
    completed &&= found.status === 'COMPLETED';
    if (scope.statistic === 'fastestLap') {
      for (const row of found.rows) {
        const best = values.get(row.athlete.id) ?? null;
        const seconds = row.athleteFastestLapSeconds;
        values.set(row.athlete.id, seconds !== null && (best === null || seconds < best) ? seconds : best);
      }
    } else {
      const athleteOfEntry = new Map(found.entries.map((e) => [e.id, e.athleteId]));
      for (const entry of found.entries) values.set(entry.athleteId, null);
      for (const lap of found.laps)
        if (lap.lapNo === 1 && lap.position !== null)
          values.set(athleteOfEntry.get(lap.heatEntryId) as string, lap.position);
    }
  }
  return lapStatisticResult(scope.heatId ? completed : event.eventStatus === 'COMPLETED' && completed, values);
}

/**
 * The status published for an outcome: CLOSED once its scope is decided or called off, or its event
 * is over, or the operator closed it or its market; SUSPENDED when either is suspended.
 */
export function publishedStatus(
  marketStatus: string,
  oddStatus: string,
  result: ScopeResult | undefined,
  eventStatus: string,
): 'OPEN' | 'SUSPENDED' | 'CLOSED' {
  if (marketStatus === 'CLOSED' || oddStatus === 'CLOSED') return 'CLOSED';
  if (result && result.state !== 'pending') return 'CLOSED';
  if (eventStatus === 'COMPLETED' || eventStatus === 'CANCELLED') return 'CLOSED';
  if (marketStatus === 'SUSPENDED' || oddStatus === 'SUSPENDED') return 'SUSPENDED';
  return 'OPEN';
}
