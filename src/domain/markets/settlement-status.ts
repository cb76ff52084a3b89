import type { ResultStatus, Settlement } from '../enumerations.ts';

/**
 * Whether a settlement is final: PROVISIONAL while the result it was read from is
 * provisional, else OFFICIAL. The operator's own settlement is its word: OFFICIAL.
 */
export type SettlementStatus = ResultStatus;

export interface SettlementStatusFacts {
  settlement: Settlement;
  byOperator: boolean;
  /** The status of the result the outcome is settled against; undefined when there is none. */
  resultStatus: ResultStatus | undefined;
}

/** The status of a settled outcome; undefined while NOT_SET. */
export function settlementStatus(facts: SettlementStatusFacts): SettlementStatus | undefined {
  if (facts.settlement === 'NOT_SET') return undefined;
  if (facts.byOperator) return 'OFFICIAL';
  return facts.resultStatus === 'PROVISIONAL' ? 'PROVISIONAL' : 'OFFICIAL';
}
