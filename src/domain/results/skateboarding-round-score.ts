import type { ResultsFormat } from '../competitions.ts';

export interface SkateboardingScores {
  lineScore1: number | null;
  lineScore2: number | null;
  /** trick1Score to trick6Score; null where not (yet) scored. */
  tricks: readonly (number | null)[];
}

export const SKATEBOARDING_MAX_SCORE = 10;
export const SKATEBOARDING_MAX_ROUND_SCORE = 30;

/**
 * `roundScore` for `sls` (section 2.5): the sum of the three highest of one run score and the trick
 * scores, each out of 10, at most 30. "One run" is the athlete's better run: the higher of
 * `lineScore1` and `lineScore2`; the other run never counts (docs/decisions.md). Null for other
 * formats and until some score exists. Rounded to hundredths, so 8.7 + 9.1 + 7.3 is 25.1.
 */
export function skateboardingRoundScore(format: ResultsFormat, scores: SkateboardingScores): number | null {
  if (format !== 'skateboarding') return null;
  const runs = [scores.lineScore1, scores.lineScore2].filter((s): s is number => s !== null);
  const candidates = scores.tricks.filter((s): s is number => s !== null);
  if (runs.length > 0) candidates.push(Math.max(...runs));
  if (candidates.length === 0) return null;
  const bounded = candidates.map((s) => Math.min(SKATEBOARDING_MAX_SCORE, Math.max(0, s)));
  const topThree = bounded.sort((a, b) => b - a).slice(0, 3);
  const sum = topThree.reduce((a, b) => a + b, 0);
  return Math.min(SKATEBOARDING_MAX_ROUND_SCORE, Math.round(sum * 100) / 100);
}
