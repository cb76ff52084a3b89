import type { Settlement } from '../enumerations.ts';
import type { ScopeResult } from './scope-result.ts';
import type { Selection } from './selection.ts';
import { type Settled, settleSelection } from './settlement.ts';

/**
 * How every outcome of one market settles: one pure function of the market's result, the
 * operator's settlements and the places the market pays, so that no market ever pays more winners
 * than it has places. Precedence, first to last:
 *
 * 1. The operator's own settlement of an outcome. Its WINs fill the market's places, the latest fed
 *    first; an earlier WIN that no longer fits (the operator settled another runner since) loses.
 * 2. The result (settleSelection): a called-off scope voids every outcome, a decided one settles
 *    each, dead heats paying their share.
 * 3. The places left: results' winners take what the operator's WINs left, best placed first. Once the
 *    operator's WINs fill every place, the other outcomes lose (a non-runner stays void); while an
 *    operator's dead heat leaves a share open, a winner of the results that does not fit in it, or an
 *    outcome still pending, awaits the operator (NOT_SET).
 */

export interface OperatorSettlement {
  settlement: Settlement;
  /** The share of a WIN paid at full odds (a dead heat's); 1 otherwise. */
  deadHeatFactor: number;
  /** When the operator fed it: a later WIN takes the place of an earlier one. */
  updatedAt: string;
}

export interface MarketOutcome {
  id: string;
  selection: Selection;
  /** The operator's settlement of this outcome, when fed. */
  operator: OperatorSettlement | null;
}

export interface SettledOutcome extends Settled {
  /** Settled by the operator's word: its own settlement, or the places its WINs took. */
  byOperator: boolean;
}

/** Shares are sums of fractions such as 1/3: compare them with room for rounding. */
const EPSILON = 1e-9;

/** Full winners a market pays: a top-k market k, any other market one. */
export function marketPlaces(selections: readonly Selection[]): number {
  const first = selections[0];
  return first?.kind === 'top' ? first.places : 1;
}

export function settleMarket(outcomes: readonly MarketOutcome[], result: ScopeResult | undefined): SettledOutcome[] {
  const settled = new Map<string, SettledOutcome>();
  let room = marketPlaces(outcomes.map((o) => o.selection));

  for (const outcome of operatorWinsLatestFirst(outcomes)) {
    const share = outcome.operator?.deadHeatFactor ?? 1;
    const fits = share <= room + EPSILON;
    if (fits) room -= share;
    settled.set(outcome.id, fits ? operator('WIN', share) : operator('LOSE'));
  }
  for (const outcome of outcomes)
    if (outcome.operator && outcome.operator.settlement !== 'WIN')
      settled.set(outcome.id, operator(outcome.operator.settlement));

  const operatorWon = [...settled.values()].some((s) => s.settlement === 'WIN');
  const full = () => room <= EPSILON;
  const derived = outcomes
    .filter((o) => !settled.has(o.id))
    .map((o) => ({ outcome: o, by: result ? settleSelection(o.selection, result) : NOT_SET }));
  for (const { outcome, by } of bestPlacedFirst(derived, result)) {
    if (by.settlement !== 'WIN') continue;
    const fits = by.deadHeatFactor <= room + EPSILON;
    if (fits) room -= by.deadHeatFactor;
    const lost: SettledOutcome = { settlement: 'LOSE', deadHeatFactor: 1, byOperator: operatorWon };
    settled.set(outcome.id, fits ? { ...by, byOperator: false } : full() ? lost : AWAITING);
  }
  for (const { outcome, by } of derived) {
    if (settled.has(outcome.id)) continue;
    const nonRunner = by.settlement === 'VOID' && result?.state === 'decided';
    const closedByOperator = operatorWon && full() && by.settlement !== 'LOSE' && !nonRunner;
    settled.set(outcome.id, closedByOperator ? operator('LOSE') : { ...by, byOperator: false });
  }
  return outcomes.map((o) => settled.get(o.id) as SettledOutcome);
}

const operator = (settlement: Settlement, deadHeatFactor = 1): SettledOutcome => ({
  settlement,
  deadHeatFactor,
  byOperator: true,
});
const NOT_SET: Settled = { settlement: 'NOT_SET', deadHeatFactor: 1 };
const AWAITING: SettledOutcome = { ...NOT_SET, byOperator: false };

function operatorWinsLatestFirst(outcomes: readonly MarketOutcome[]): MarketOutcome[] {
  const wins = outcomes.filter((o) => o.operator?.settlement === 'WIN');
  const when = (o: MarketOutcome) => o.operator?.updatedAt ?? '';
  return wins.sort((a, b) => (when(a) === when(b) ? (a.id < b.id ? -1 : 1) : when(a) > when(b) ? -1 : 1));
}

/** The results' settlements with the best-placed athletes first, where the result ranks them. */
function bestPlacedFirst<T extends { outcome: MarketOutcome }>(
  derived: readonly T[],
  result: ScopeResult | undefined,
): T[] {
  const rank = ({ outcome: { selection } }: T): number => {
    const athleteId =
      'athleteId' in selection ? selection.athleteId : selection.kind === 'order' ? selection.athleteIds[0] : undefined;
    return (athleteId === undefined ? undefined : result?.ranks.get(athleteId)) ?? Number.POSITIVE_INFINITY;
  };
  return [...derived].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x === y ? 0 : x < y ? -1 : 1;
  });
}
