import { MEASURES, ordinal } from './outcome-label.ts';
import type { Selection } from './selection.ts';
import { settleMatchScore } from './settlement.ts';

/**
 * Finds legs of a same-game parlay that cannot all win together, so that the parlay is refused with
 * a message naming them rather than priced at (near) zero. All legs belong to one scope: one
 * finishing order of `fieldSize` runners. Dead heats are ignored.
 *
 * Positional legs become an interval of possible places per athlete, narrowed along head-to-heads;
 * a finishing order exists exactly when no interval is empty and Hall's condition holds for every
 * window of places (unit jobs with release dates, deadlines and precedences on one machine: once the
 * dates respect the precedences, any assignment can be reordered to respect them too).
 */
export interface ConflictLeg {
  id: string;
  selection: Selection;
  marketId: string;
  /** The leg's market is single-winner: at most one of its outcomes can win. */
  exclusive: boolean;
  /** What a bet slip shows for the leg (outcome-label.ts), quoted in the refusal; else described from its selection. */
  label?: string;
}

export interface LegConflict {
  ids: [string, string] | string[];
  reason: string;
}

/** A leg in plain words, for the refusal message. */
export function describeSelection(selection: Selection, nameOf: (athleteId: string) => string = (id) => id): string {
  switch (selection.kind) {
    case 'place':
      return selection.place === 1
        ? `${nameOf(selection.athleteId)} wins`
        : `${nameOf(selection.athleteId)} finishes ${ordinal(selection.place)}`;
    case 'top':
      return `${nameOf(selection.athleteId)} finishes in the top ${selection.places}`;
    case 'order':
      return `${selection.athleteIds.map(nameOf).join(', ')} take the first ${selection.athleteIds.length} places in that order`;
    case 'ahead':
      return `${nameOf(selection.athleteId)} finishes ahead of ${nameOf(selection.otherId)}`;
    case 'overUnder':
      return `${selection.athleteIds.map(nameOf).join(' + ')} ${MEASURES[selection.measure]} ${selection.side.toLowerCase()} ${selection.line}`;
    case 'group':
      return `${selection.athleteIds.map(nameOf).join(', ')} have the lowest total`;
    case 'matchScore':
      return describeMatchScore(selection);
    case 'operator':
      return selection.name;
  }
}

function describeMatchScore(selection: Extract<Selection, { kind: 'matchScore' }>): string {
  const signed = (line: number) => (line > 0 ? `+${line}` : `${line}`);
  switch (selection.bet) {
    case 'moneyline':
      return selection.side === 'DRAW' ? 'draw' : `${selection.side.toLowerCase()} wins`;
    case 'spread':
      return `${selection.side.toLowerCase()} ${signed(selection.side === 'HOME' ? selection.line : -selection.line)}`;
    case 'total':
      return `total ${selection.side.toLowerCase()} ${selection.line}`;
  }
}

/** Scores searched for one that every match-score leg wins with: far past any real match or period. */
const MAX_SEARCHED_SCORE = 60;

/** Whether some final score wins every one of these match-score legs (all of one match or period). */
function scoreExists(selections: ReadonlyArray<Extract<Selection, { kind: 'matchScore' }>>): boolean {
  for (let home = 0; home <= MAX_SEARCHED_SCORE; home++) {
    for (let away = 0; away <= MAX_SEARCHED_SCORE; away++) {
      if (selections.every((s) => settleMatchScore(s, { home, away }).settlement === 'WIN')) return true;
    }
  }
  return false;
}

/** An athlete's possible places. */
interface Span {
  lo: number;
  hi: number;
}

/** Why legs clash: `window` when too many athletes are confined to too few places. */
interface Clash {
  window?: { x: number; y: number; athleteIds: string[] };
}

/** Whether these legs cannot all win in one finishing order of `fieldSize` runners. */
function clash(legs: ReadonlyArray<ConflictLeg>, fieldSize: number): Clash | null {
  // Two outcomes of one single-winner market.
  for (let i = 0; i < legs.length; i++) {
    for (let j = i + 1; j < legs.length; j++) {
      const [a, b] = [legs[i] as ConflictLeg, legs[j] as ConflictLeg];
      if (a.marketId === b.marketId && a.exclusive && b.exclusive) return {};
    }
  }

  const scores = legs.flatMap(({ selection: s }) => (s.kind === 'matchScore' ? [s] : []));
  if (scores.length > 1 && !scoreExists(scores)) return {};

  // Each athlete's possible places [lo, hi].
  const spans = new Map<string, Span>();
  const narrow = (athleteId: string, lo: number, hi: number): void => {
    const span = spans.get(athleteId) ?? { lo: 1, hi: fieldSize };
    spans.set(athleteId, { lo: Math.max(span.lo, lo), hi: Math.min(span.hi, hi) });
  };
  const edges: Array<[ahead: string, behind: string]> = [];
  for (const { selection: s } of legs) {
    if (s.kind === 'place') narrow(s.athleteId, s.place, s.place);
    else if (s.kind === 'top') narrow(s.athleteId, 1, s.places);
    else if (s.kind === 'order')
      s.athleteIds.forEach((id, i) => {
        narrow(id, i + 1, i + 1);
      });
    else if (s.kind === 'overUnder' && s.measure === 'finishingPosition' && s.athleteIds.length === 1) {
      // Wins strictly beyond the line: under L is at most ceil(L) - 1, over L at least floor(L) + 1.
      if (s.side === 'UNDER') narrow(s.athleteIds[0] as string, 1, Math.ceil(s.line) - 1);
      else narrow(s.athleteIds[0] as string, Math.floor(s.line) + 1, fieldSize);
    } else if (s.kind === 'ahead') {
      narrow(s.athleteId, 1, fieldSize);
      narrow(s.otherId, 1, fieldSize);
      edges.push([s.athleteId, s.otherId]);
    }
  }
  if ([...spans.values()].some(({ lo, hi }) => lo > hi)) return {};

  // Narrow along head-to-heads until stable. A cycle keeps narrowing until some span empties.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [a, b] of edges) {
      const [ahead, behind] = [spans.get(a) as Span, spans.get(b) as Span];
      if (ahead.lo + 1 <= behind.lo && behind.hi - 1 >= ahead.hi) continue;
      behind.lo = Math.max(behind.lo, ahead.lo + 1);
      ahead.hi = Math.min(ahead.hi, behind.hi - 1);
      changed = true;
      if (ahead.lo > ahead.hi || behind.lo > behind.hi) return {};
    }
  }

  // Hall's condition: no window of places may hold more athletes whose places all lie inside it.
  // A smallest violating window starts at some lo and ends at some hi.
  const all = [...spans];
  for (const x of new Set(all.map(([, s]) => s.lo))) {
    for (const y of new Set(all.map(([, s]) => s.hi))) {
      const inside = all.filter(([, s]) => s.lo >= x && s.hi <= y);
      if (x <= y && inside.length > y - x + 1) return { window: { x, y, athleteIds: inside.map(([id]) => id) } };
    }
  }
  return null;
}

export function findConflict(
  legs: ReadonlyArray<ConflictLeg>,
  fieldSize: number,
  nameOf: (athleteId: string) => string = (id) => id,
): LegConflict | null {
  if (!clash(legs, fieldSize)) return null;
  // Deletion filter: drop every leg the clash survives without. One pass leaves a set in which
  // each leg is needed, since a subset of legs that can all win can still all win.
  let kept = legs.map((_, i) => i);
  for (let i = legs.length - 1; i >= 0; i--) {
    const without = kept.filter((j) => j !== i);
    if (
      clash(
        without.map((j) => legs[j] as ConflictLeg),
        fieldSize,
      )
    )
      kept = without;
  }
  const named = kept.map((i) => legs[i] as ConflictLeg);
  const window = clash(named, fieldSize)?.window;
  const ids = named.map((leg) => leg.id);
  const list = (items: string[]) =>
    items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
  // Several legs crowding a window read better as the athletes involved; a pair reads best quoted.
  if (window && named.length > 2) {
    const { x, y } = window;
    const where = x === y ? ordinal(x) : x === 1 ? `in the top ${y}` : `between ${ordinal(x)} and ${ordinal(y)}`;
    return { ids, reason: `${list(window.athleteIds.map(nameOf))} cannot all finish ${where}` };
  }
  const quoted = named.map((leg) => `"${leg.label ?? describeSelection(leg.selection, nameOf)}"`);
  const verb = quoted.length === 1 ? 'cannot happen' : quoted.length === 2 ? 'cannot both happen' : 'cannot all happen';
  return { ids, reason: `${list(quoted)} ${verb}` };
}
