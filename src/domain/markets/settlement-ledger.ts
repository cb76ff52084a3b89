import type { Settlement } from '../enumerations.ts';
import type { SettlementReason } from './settlement-reason.ts';
import type { SettlementStatus } from './settlement-status.ts';

/**
 * An outcome's settlement as last published, and the rule that moves it when a write
 * changes what the results say. The ledger is what makes a changed result known as one: the derived
 * settlement alone cannot tell a first result from a corrected one.
 */
export interface LedgerEntry {
  settlement: Settlement;
  settlementReason: SettlementReason | undefined;
  deadHeatFactor: number;
  settlementStatus: SettlementStatus | undefined;
  /** Server time of the write that settled it; undefined while NOT_SET. */
  settledAt: string | undefined;
}

/** The settlement derived now, from the results and the operator (read/odds.ts pricedOutcome). */
export type DerivedSettlement = Omit<LedgerEntry, 'settledAt'>;

/** Reasons that come from the results themselves: a change of result replaces them with RESULT_CHANGED. */
const FROM_RESULTS = new Set<SettlementReason | undefined>(['RESULT', 'DEAD_HEAT', 'NON_RUNNER']);

/**
 * The entry after a write at `at`: unchanged when the settlement, its share and its status are; a new
 * settledAt when the settlement or its share moved; RESULT_CHANGED when it moved from one result's
 * settlement to another's. A status alone moving (provisional made official) keeps settledAt and
 * the reason. Returns `changed` false when nothing the ledger holds moved.
 */
export function nextLedgerEntry(
  previous: LedgerEntry | undefined,
  derived: DerivedSettlement,
  at: string,
): { entry: LedgerEntry; changed: boolean } {
  const before = previous ?? NOT_SETTLED;
  const moved = before.settlement !== derived.settlement || before.deadHeatFactor !== derived.deadHeatFactor;
  if (!moved) {
    if (before.settlementStatus === derived.settlementStatus) return { entry: before, changed: false };
    return { entry: { ...before, settlementStatus: derived.settlementStatus }, changed: true };
  }
  if (derived.settlement === 'NOT_SET') return { entry: { ...NOT_SETTLED }, changed: true };
  const resettled =
    before.settlement !== 'NOT_SET' &&
    FROM_RESULTS.has(derived.settlementReason) &&
    (FROM_RESULTS.has(before.settlementReason) || before.settlementReason === 'RESULT_CHANGED');
  return {
    entry: { ...derived, settlementReason: resettled ? 'RESULT_CHANGED' : derived.settlementReason, settledAt: at },
    changed: true,
  };
}

export const NOT_SETTLED: LedgerEntry = {
  settlement: 'NOT_SET',
  settlementReason: undefined,
  deadHeatFactor: 1,
  settlementStatus: undefined,
  settledAt: undefined,
};
