/** What orders a heat's rows: rank, then seed, each with nulls last, then the row's reference id. */
export interface OrderedRow {
  athleteRoundRank: number | null;
  athleteRoundSeed: number | null;
  referenceId: number;
}

const nullsLast = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b);

/** Route 5's stable order: by rank, then seed, then reference id. */
export function compareHeatRows(a: OrderedRow, b: OrderedRow): number {
  return (
    nullsLast(a.athleteRoundRank, b.athleteRoundRank) ||
    nullsLast(a.athleteRoundSeed, b.athleteRoundSeed) ||
    a.referenceId - b.referenceId
  );
}
