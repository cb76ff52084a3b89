import { decimalToAmerican, decimalToProbability, exactPrice } from '../odds-format.ts';

/**
 * Price history: an outcome's opening and closing prices and its changes, from the rows
 * recorded at ingest (one per change of price or status, in the order written).
 */

/** A recorded change as the store keeps it. */
export interface RecordedPrice {
  decimalOdds: number;
  /** The model probability (percent) an engine price was published from; null for a fed price (100 / odds). */
  probability: number | null;
  status: string;
  statusReason: string | null;
  /** When the feed says it took effect (the odd's updatedAt). */
  changedAt: string;
  /** The outcome's first price ever recorded (1), or a later one (0). */
  isFirst: number;
}

export interface PricePoint {
  odds: number;
  americanOdds: number;
  probability: number;
  at: string;
}

export interface PriceChange extends PricePoint {
  status: string;
  statusReason?: string;
}

export interface OutcomeHistory {
  opening: PricePoint;
  /** False when the opening shown is the oldest retained price, not the first ever recorded. */
  openingRetained: boolean;
  closing: PricePoint | null;
  changes: PriceChange[];
}

export interface HistoryFacts {
  /** The outcome's oldest retained row. */
  oldest: RecordedPrice;
  /** Its latest row with status OPEN, if it was ever open. */
  lastOpen: RecordedPrice | undefined;
  /** The rows asked for (a time window of them), in the order written. */
  changes: readonly RecordedPrice[];
  /** The market has left OPEN for good: closed by the operator, its result, or its event's end. */
  closedForGood: boolean;
}

/**
 * Opening: the oldest retained price. Closing: the last price the outcome was open at, once it has
 * left OPEN for good (a suspension may lift, so it gives none); null while it may still open.
 */
export function outcomeHistory(facts: HistoryFacts): OutcomeHistory {
  return {
    opening: pricePoint(facts.oldest),
    openingRetained: facts.oldest.isFirst === 1,
    closing: facts.closedForGood && facts.lastOpen ? pricePoint(facts.lastOpen) : null,
    changes: facts.changes.map(priceChange),
  };
}

function pricePoint(row: RecordedPrice): PricePoint {
  return {
    odds: row.decimalOdds,
    americanOdds: decimalToAmerican(exactPrice(row.decimalOdds, row.probability)),
    probability: row.probability ?? decimalToProbability(row.decimalOdds),
    at: row.changedAt,
  };
}

function priceChange(row: RecordedPrice): PriceChange {
  return {
    ...pricePoint(row),
    status: row.status,
    ...(row.statusReason === null ? {} : { statusReason: row.statusReason }),
  };
}
