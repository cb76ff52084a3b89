import type { OverUnderSubMarketType } from '../enumerations.ts';
import type { ScopeResult } from './scope-result.ts';

/**
 * How the results of each scope are read for settlement. Pure: the read layer passes published
 * values (athleteRoundRank, lap statistics, participants' places), never raw rows.
 */

const PENDING: ScopeResult = { state: 'pending', ranks: new Map() };

/**
 * Competition ranking of values (1, 1, 3 on a tie). Lower is better unless `higherIsBetter`. A null
 * value ranks null (took part, not classified).
 */
export function competitionRanks(
  values: ReadonlyMap<string, number | null>,
  higherIsBetter = false,
): Map<string, number | null> {
  const classified = [...values].filter((entry): entry is [string, number] => entry[1] !== null);
  const ranks = new Map<string, number | null>();
  for (const [id, value] of values) {
    if (value === null) ranks.set(id, null);
    else ranks.set(id, 1 + classified.filter(([, other]) => (higherIsBetter ? other > value : other < value)).length);
  }
  return ranks;
}

/** Statuses after which nothing more is decided: the scope's bets are void. */
const CALLED_OFF = ['CANCELLED'];

/**
 * A scope's result once its event is called off: a cancelled event voids every scope, its
 * heats and lap statistics included, as if none of it had run; an abandoned one (called off under way)
 * keeps what was decided (a completed heat, a played period) and voids the rest.
 */
export function calledOffResult(
  result: ScopeResult | undefined,
  event: { eventStatus: string; abandoned?: boolean },
): ScopeResult | undefined {
  if (!CALLED_OFF.includes(event.eventStatus)) return result;
  const decided = result?.state === 'decided' || result?.state === 'push';
  return event.abandoned && decided ? result : { state: 'void', ranks: new Map() };
}

/**
 * A market the operator settles: nothing here decides it, except that a called-off event voids it
 * (EVENT_CANCELLED) as it voids every other market of the event; the operator's own settlement, when
 * fed, still wins. Undefined: the operator decides.
 */
export function operatorScopeResult(eventStatus: string): ScopeResult | undefined {
  return CALLED_OFF.includes(eventStatus) ? { state: 'void', ranks: new Map() } : undefined;
}

/**
 * The event's final standing: participants' places once the event is COMPLETED and at least one
 * place is in. Withdrawn athletes did not take part (their bets are void).
 */
export function eventScopeResult(
  eventStatus: string,
  participants: ReadonlyArray<{ athleteId: string; status: string; place: number | null }>,
): ScopeResult {
  if (CALLED_OFF.includes(eventStatus)) return { state: 'void', ranks: new Map() };
  if (eventStatus !== 'COMPLETED' || !participants.some((p) => p.place !== null)) return PENDING;
  const ranks = new Map<string, number | null>();
  for (const p of participants) if (p.status !== 'WITHDRAWN') ranks.set(p.athleteId, p.place);
  return { state: 'decided', ranks };
}

export interface HeatScopeRow {
  athleteId: string;
  athleteRoundRank: number | null;
  athleteHeatScore: number | null;
  athleteLapTime: number | null;
  athleteLapStatus: string;
}

/**
 * A heat's standing is its published athleteRoundRank. A fight that ends in a draw pays nobody
 * (PUSH), a no contest or a cancelled heat is void. A completed heat with no rank in yet is pending.
 * Measures: points are the heat score; the gap to the leader is the lap time behind the winner's.
 */
export function heatScopeResult(
  heatStatus: string,
  rows: readonly HeatScopeRow[],
  fight?: 'win' | 'draw' | 'none',
): ScopeResult {
  if (CALLED_OFF.includes(heatStatus)) return { state: 'void', ranks: new Map() };
  if (heatStatus !== 'COMPLETED') return PENDING;
  if (fight === 'draw') return { state: 'push', ranks: new Map() };
  if (fight === 'none') return { state: 'void', ranks: new Map() };
  if (!rows.some((r) => r.athleteRoundRank !== null)) return PENDING;
  const ranks = new Map<string, number | null>();
  for (const row of rows) if (row.athleteLapStatus !== 'DNS') ranks.set(row.athleteId, row.athleteRoundRank);
  const leaderTime = rows.find((r) => r.athleteRoundRank === 1)?.athleteLapTime ?? null;
  const measures = new Map<string, Partial<Record<OverUnderSubMarketType, number>>>();
  for (const row of rows) {
    const m: Partial<Record<OverUnderSubMarketType, number>> = {};
    if (row.athleteHeatScore !== null) m.points = row.athleteHeatScore;
    if (row.athleteLapTime !== null && leaderTime !== null)
      m.gapToLeaders = Math.round((row.athleteLapTime - leaderTime) * 1000) / 1000;
    measures.set(row.athleteId, m);
  }
  return { state: 'decided', ranks, measures };
}

/**
 * fastestLap: ranked by each athlete's quickest lap (athleteFastestLapSeconds; across the event's
 * heats, the quickest of them). holeShot: ranked by position at the end of lap 1. Decided once every
 * heat involved is COMPLETED.
 */
export function lapStatisticResult(completed: boolean, values: ReadonlyMap<string, number | null>): ScopeResult {
  if (!completed || ![...values.values()].some((v) => v !== null)) return PENDING;
  return { state: 'decided', ranks: competitionRanks(values) };
}

/**
 * A team match, or one of its periods: decided with its score once COMPLETED. A cancelled match, or a
 * period that was never played (a game or set not needed, marked CANCELLED), is void.
 */
export function matchScopeResult(status: string, score: { home: number; away: number }): ScopeResult {
  if (CALLED_OFF.includes(status)) return { state: 'void', ranks: new Map() };
  if (status !== 'COMPLETED') return PENDING;
  return { state: 'decided', ranks: new Map(), score };
}
