import type { Settlement } from '../enumerations.ts';
import { type MarketShape, type OutcomeShape, scopeKey, scopeOf, selectionOf } from './market-shape.ts';
import type { ScopeResult } from './scope-result.ts';
import type { Scope, Selection } from './selection.ts';
import { type SettledOutcome, settleMarket } from './settle-market.ts';
import { type DerivedSettlement, type LedgerEntry, nextLedgerEntry } from './settlement-ledger.ts';
import { settlementReason } from './settlement-reason.ts';
import { settlementStatus } from './settlement-status.ts';

/**
 * How a stored outcome settles: what it backs, where that is decided, and its settlement derived from
 * the results and the operator's word. Pure: the odds routes publish it, the ingest keeps the ledger of
 * it, both from the same facts.
 */

/** A market as stored: its athletes a JSON list. */
export type StoredMarket = Omit<MarketShape, 'athleteIds' | 'id'> & { id: string; athleteIds: string | null };

/** An outcome as stored, with the operator's settlement when it gave one. */
export type StoredOutcome = Omit<OutcomeShape, 'athleteIds'> & {
  id: string;
  athleteIds: string | null;
  settlement: string | null;
  deadHeatFactor: number | null;
  updatedAt: string;
};

export function parseIds(text: string | null): string[] {
  return text ? (JSON.parse(text) as string[]) : [];
}

/**
 * What a stored outcome backs, and where it is decided. `siblings` are its market's outcomes: a
 * head-to-head side backs its athlete ahead of the other side, a dream team against the other teams.
 */
export function outcomeSelection(
  market: StoredMarket,
  odd: StoredOutcome,
  siblings: readonly StoredOutcome[],
): { selection: Selection; scope: Scope } {
  const marketShape = { ...market, athleteIds: parseIds(market.athleteIds) };
  const selection = selectionOf(
    marketShape,
    { ...odd, athleteIds: parseIds(odd.athleteIds) },
    {
      otherAthleteId: siblings.find((s) => s.id !== odd.id)?.athleteId ?? null,
      groups: siblings.map((s) => parseIds(s.athleteIds)),
      drawOffered: siblings.some((s) => s.side === 'DRAW'),
    },
  );
  return { selection, scope: scopeOf(marketShape) };
}

/** Each market's settlements, worked out once for all its outcomes (settleMarket) against one result. */
const settledMarkets = new WeakMap<
  readonly StoredOutcome[],
  { result: ScopeResult | undefined; byId: Map<string, SettledOutcome> }
>();

/** How this outcome settles among its market's outcomes: the results and the operator's word together. */
export function settledInMarket(
  market: StoredMarket,
  odd: StoredOutcome,
  siblings: readonly StoredOutcome[],
  result: ScopeResult | undefined,
): SettledOutcome {
  // An exacta priced on request is not listed: it settles beside the listed ones.
  const listed = siblings.some((s) => s.id === odd.id);
  const outcomes = listed ? siblings : [...siblings, odd];
  const kept = listed ? settledMarkets.get(siblings) : undefined;
  if (kept && kept.result === result) return kept.byId.get(odd.id) as SettledOutcome;
  const settled = settleMarket(
    outcomes.map((o) => ({
      id: o.id,
      selection: outcomeSelection(market, o, outcomes).selection,
      operator: o.settlement
        ? { settlement: o.settlement as Settlement, deadHeatFactor: o.deadHeatFactor ?? 1, updatedAt: o.updatedAt }
        : null,
    })),
    result,
  );
  const byId = new Map(outcomes.map((o, i) => [o.id, settled[i] as SettledOutcome]));
  if (listed) settledMarkets.set(siblings, { result, byId });
  return byId.get(odd.id) as SettledOutcome;
}

/** What an outcome's settlement is derived from besides its market: the results by scope, and the event. */
export interface SettlementFacts {
  results: ReadonlyMap<string, ScopeResult>;
  /** The event was abandoned under way: its voids say EVENT_ABANDONED. */
  abandoned?: boolean;
}

/** An outcome's settlement as derived now, with the scope result it was derived from. */
export interface OutcomeSettlement extends DerivedSettlement {
  result: ScopeResult | undefined;
}

/** The outcome's settlement, its share, why and how finally, as the results and the operator say now. */
export function outcomeSettlement(
  market: StoredMarket,
  odd: StoredOutcome,
  siblings: readonly StoredOutcome[],
  facts: SettlementFacts,
): OutcomeSettlement {
  const { scope } = outcomeSelection(market, odd, siblings);
  const result = facts.results.get(scopeKey(scope));
  const { settlement, deadHeatFactor, byOperator } = settledInMarket(market, odd, siblings, result);
  return {
    settlement,
    deadHeatFactor,
    result,
    settlementReason: settlementReason({
      settlement,
      byOperator,
      resultState: result?.state,
      deadHeatFactor,
      abandoned: facts.abandoned === true,
    }),
    settlementStatus: settlementStatus({
      settlement,
      byOperator,
      resultStatus: result === undefined ? undefined : result.provisional ? 'PROVISIONAL' : 'OFFICIAL',
    }),
  };
}

/** An outcome whose ledger entry moved: the entry to keep, and the one it replaces (undefined: none yet). */
export interface LedgerMove {
  oddId: string;
  marketId: string;
  previous: LedgerEntry | undefined;
  entry: LedgerEntry;
}

/**
 * The ledger entries an event's outcomes move to at `at`: every outcome settled as the odds routes
 * would publish it now, compared with the ledger (nextLedgerEntry: settledAt, RESULT_CHANGED).
 */
export function ledgerMoves(
  markets: readonly StoredMarket[],
  oddsByMarket: ReadonlyMap<string, readonly StoredOutcome[]>,
  facts: SettlementFacts,
  ledger: ReadonlyMap<string, LedgerEntry>,
  at: string,
): LedgerMove[] {
  const moves: LedgerMove[] = [];
  for (const market of markets) {
    const siblings = oddsByMarket.get(market.id) ?? [];
    for (const odd of siblings) {
      const { result: _, ...derived } = outcomeSettlement(market, odd, siblings, facts);
      const previous = ledger.get(odd.id);
      const { entry, changed } = nextLedgerEntry(previous, derived, at);
      if (changed) moves.push({ oddId: odd.id, marketId: market.id, previous, entry });
    }
  }
  return moves;
}
