import type { Settlement } from '../enumerations.ts';
import type { ScopeResult } from './scope-result.ts';

/**
 * Why an outcome settled as it did: `RESULT` from the results; `DEAD_HEAT`, a win shared
 * with athletes tied with it (paid at deadHeatFactor); `NON_RUNNER`, void because its athlete did not
 * start; `EVENT_CANCELLED`, void because the event (or its heat) was called off; `EVENT_ABANDONED`, void
 * because the event was called off under way; `RESULT_CHANGED`, settled again after its result
 * changed (settlement-ledger.ts); `OPERATOR`, the operator's settlement.
 */
export const SETTLEMENT_REASONS = [
  'RESULT',
  'DEAD_HEAT',
  'NON_RUNNER',
  'EVENT_CANCELLED',
  'EVENT_ABANDONED',
  'RESULT_CHANGED',
  'OPERATOR',
] as const;
export type SettlementReason = (typeof SETTLEMENT_REASONS)[number];

export interface SettlementFacts {
  settlement: Settlement;
  /** The operator fed this settlement (it overrides the derived one). */
  byOperator: boolean;
  /** The state of the result the outcome is settled against; undefined when there is none. */
  resultState: ScopeResult['state'] | undefined;
  deadHeatFactor: number;
  /** The event was abandoned under way (CANCELLED with the feed's `abandoned`): its voids say so. */
  abandoned?: boolean;
}

/** The reason of a settled outcome; undefined while NOT_SET. */
export function settlementReason(facts: SettlementFacts): SettlementReason | undefined {
  if (facts.settlement === 'NOT_SET') return undefined;
  if (facts.byOperator) return 'OPERATOR';
  if (facts.resultState === 'void') return facts.abandoned ? 'EVENT_ABANDONED' : 'EVENT_CANCELLED';
  // Void against a decided result: the athlete it backs is not in the standing (did not start).
  if (facts.settlement === 'VOID' && facts.resultState === 'decided') return 'NON_RUNNER';
  if (facts.settlement === 'WIN' && facts.deadHeatFactor < 1) return 'DEAD_HEAT';
  return 'RESULT';
}
