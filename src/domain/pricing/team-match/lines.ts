import {
  checkLine,
  fail,
  type JointScore,
  type MoneylineProbabilities,
  type SpreadProbabilities,
  type TotalProbabilities,
} from './model.ts';

/** Moneyline, spread and total probabilities from a joint distribution, and the main lines a book would offer. */

export function moneyline(joint: readonly JointScore[]): MoneylineProbabilities {
  const out = { home: 0, away: 0, draw: 0 };
  for (const s of joint) {
    if (s.home > s.away) out.home += s.p;
    else if (s.home < s.away) out.away += s.p;
    else out.draw += s.p;
  }
  return out;
}

/** The spread (handicap) market: the home side covers when home - away + line > 0. */
export function spreadLine(joint: readonly JointScore[], line: number): SpreadProbabilities {
  checkLine(line);
  const out = { home: 0, away: 0, push: 0 };
  for (const s of joint) {
    const d = s.home - s.away + line;
    if (d > 0) out.home += s.p;
    else if (d < 0) out.away += s.p;
    else out.push += s.p;
  }
  return out;
}

export function totalLine(joint: readonly JointScore[], line: number): TotalProbabilities {
  checkLine(line);
  const out = { over: 0, under: 0, push: 0 };
  for (const s of joint) {
    const total = s.home + s.away;
    if (total > line) out.over += s.p;
    else if (total < line) out.under += s.p;
    else out.push += s.p;
  }
  return out;
}

/**
 * P(value > k + 0.5) for every whole k from one below the smallest value to the largest, as
 * [line, P(over)] pairs, summed from the top so that each line's share is one running sum.
 */
function halfLines(values: ReadonlyArray<{ value: number; p: number }>): Array<{ line: number; over: number }> {
  const masses = new Map<number, number>();
  for (const { value, p } of values) masses.set(value, (masses.get(value) ?? 0) + p);
  const keys = [...masses.keys()];
  if (keys.length === 0) return [];
  const low = Math.min(...keys);
  const high = Math.max(...keys);
  const out: Array<{ line: number; over: number }> = [];
  let over = 0;
  for (let k = high; k >= low - 1; k--) {
    out.push({ line: k + 0.5, over });
    over += masses.get(k) ?? 0;
  }
  return out;
}

/** The line whose over share is nearest 1/2; ties go to the line nearest 0, then the lower one. */
function nearestEven(candidates: ReadonlyArray<{ line: number; over: number }>): number {
  let best: { line: number; gap: number } | undefined;
  for (const { line, over } of candidates) {
    const gap = Math.abs(2 * over - 1);
    if (
      best === undefined ||
      gap < best.gap ||
      (gap === best.gap &&
        (Math.abs(line) < Math.abs(best.line) || (Math.abs(line) === Math.abs(best.line) && line < best.line)))
    ) {
      best = { line, gap };
    }
  }
  return best === undefined ? fail('mainLines needs a distribution with at least one score') : best.line;
}

/**
 * Main lines a book would offer: the half-point spread line (home handicap) and the half-point total
 * line whose two sides are closest to even. Among lines equally near even (scores between them have no
 * mass) the one nearest 0 wins, then the lower one.
 */
export function mainLines(joint: readonly JointScore[]): { spread: number; total: number } {
  // Home at handicap L covers when the margin exceeds -L: the margin's half lines, negated.
  const margins = halfLines(joint.map((s) => ({ value: s.home - s.away, p: s.p }))).map(({ line, over }) => ({
    line: -line,
    over,
  }));
  const totals = halfLines(joint.map((s) => ({ value: s.home + s.away, p: s.p })));
  return { spread: nearestEven(margins), total: nearestEven(totals) };
}
