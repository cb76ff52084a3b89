import type { Settlement } from '../enumerations.ts';
import type { ScopeResult } from './scope-result.ts';
import type { Selection } from './selection.ts';

/**
 * How one selection settles against the results of its scope. Dead heats follow the usual rule:
 * a bet on a place shared by t athletes wins, but at full odds on 1/t of the stake (the rest is lost).
 */
export interface Settled {
  settlement: Settlement;
  /** 1, except for dead-heat wins: the share of the stake paid at full odds (0 < factor < 1). */
  deadHeatFactor: number;
}

const settled = (settlement: Settlement, deadHeatFactor = 1): Settled => ({ settlement, deadHeatFactor });
const NOT_SET = settled('NOT_SET');
const VOID = settled('VOID');
const PUSH = settled('PUSH');
const LOSE = settled('LOSE');
const win = (factor = 1): Settled => settled('WIN', factor);

/** The places p..p+t-1 an athlete occupies, sharing them with the t-1 athletes tied with it. */
interface Places {
  p: number;
  t: number;
}

/**
 * Places of every athlete in the map. Unclassified (null) athletes all share the places after the
 * classified ones, as if tied behind them.
 */
function placesOf(ranks: ScopeResult['ranks']): Map<string, Places> {
  const tied = new Map<number | null, number>();
  for (const rank of ranks.values()) tied.set(rank, (tied.get(rank) ?? 0) + 1);
  const classified = ranks.size - (tied.get(null) ?? 0);
  const places = new Map<string, Places>();
  for (const [athleteId, rank] of ranks)
    places.set(athleteId, { p: rank ?? classified + 1, t: tied.get(rank) as number });
  return places;
}

/** Places of these athletes, or null when any of them did not take part (the bet is void). */
function placesFor(places: Map<string, Places>, athleteIds: readonly string[]): Places[] | null {
  const found = athleteIds.map((id) => places.get(id));
  return found.every((p) => p !== undefined) ? (found as Places[]) : null;
}

const occupies = ({ p, t }: Places, place: number): boolean => p <= place && place <= p + t - 1;

export function settleSelection(selection: Selection, result: ScopeResult): Settled {
  if (result.state === 'pending') return NOT_SET;
  if (result.state === 'void') return VOID;
  if (result.state === 'push') return PUSH;
  // Nothing in the results decides an operator's outcome: its fed settlement applies instead.
  if (selection.kind === 'operator') return NOT_SET;

  const places = placesOf(result.ranks);
  switch (selection.kind) {
    case 'place': {
      const at = places.get(selection.athleteId);
      if (!at) return VOID;
      return occupies(at, selection.place) ? win(1 / at.t) : LOSE;
    }
    case 'top': {
      const at = places.get(selection.athleteId);
      if (!at) return VOID;
      const m = selection.places;
      if (at.p + at.t - 1 <= m) return win();
      // A tie straddling the cut: only the tied places inside the top m are paid.
      return at.p > m ? LOSE : win((m - at.p + 1) / at.t);
    }
    case 'order': {
      const all = placesFor(places, selection.athleteIds);
      if (!all) return VOID;
      if (!all.every((at, i) => occupies(at, i + 1))) return LOSE;
      // A tie of t athletes is a random order among them: k of them in the named places has
      // probability (t - k)! / t!, which is the dead-heat share.
      const named = new Map<number, { t: number; k: number }>();
      for (const at of all) named.set(at.p, { t: at.t, k: (named.get(at.p)?.k ?? 0) + 1 });
      let factor = 1;
      for (const { t, k } of named.values()) for (let m = t - k + 1; m <= t; m++) factor /= m;
      return win(factor);
    }
    case 'ahead': {
      const a = result.ranks.get(selection.athleteId);
      const b = result.ranks.get(selection.otherId);
      if (a === undefined || b === undefined) return VOID;
      if (a === b) return PUSH; // Same rank, or both unclassified.
      return (a ?? Infinity) < (b ?? Infinity) ? win() : LOSE;
    }
    case 'overUnder': {
      const { athleteIds, measure, line, side } = selection;
      let value = 0;
      for (const id of athleteIds) {
        const at = places.get(id);
        const v = measure === 'finishingPosition' ? at?.p : at && result.measures?.get(id)?.[measure];
        if (v === undefined) return VOID;
        value += v;
      }
      if (value === line) return PUSH;
      return value > line === (side === 'OVER') ? win() : LOSE;
    }
    case 'matchScore':
      return result.score ? settleMatchScore(selection, result.score) : NOT_SET;
    case 'group': {
      const total = (ids: readonly string[]) => placesFor(places, ids)?.reduce((sum, at) => sum + at.p, 0) ?? null;
      const mine = total(selection.athleteIds);
      const totals = selection.groups.map(total);
      if (mine === null || totals.includes(null)) return VOID;
      const lowest = Math.min(mine, ...(totals as number[]));
      if (mine !== lowest) return LOSE;
      return win(1 / Math.max(1, totals.filter((t) => t === lowest).length));
    }
  }
}

/** A team market against the final score of its match or period. */
export function settleMatchScore(
  selection: Extract<Selection, { kind: 'matchScore' }>,
  score: { home: number; away: number },
): Settled {
  const { bet, side, line } = selection;
  const byMargin = (margin: number) => (margin > 0 ? win() : margin < 0 ? LOSE : PUSH);
  const diff = score.home - score.away;
  switch (bet) {
    case 'moneyline':
      if (diff === 0) return side === 'DRAW' ? win() : selection.drawOffered ? LOSE : PUSH;
      if (side === 'DRAW') return LOSE;
      return (side === 'HOME') === diff > 0 ? win() : LOSE;
    case 'spread':
      return byMargin(side === 'HOME' ? diff + line : -diff - line);
    case 'total': {
      const total = score.home + score.away;
      return byMargin(side === 'OVER' ? total - line : line - total);
    }
  }
}
