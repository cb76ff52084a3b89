import type { ResultsFormat } from '../competitions.ts';
import { type HeatResult, heatOutcome } from './win-by.ts';

export interface RoundRankInput {
  format: ResultsFormat;
  heatStatus: string;
  /** The entry's stored position; 0 and null mean none. */
  storedPosition: number | null;
  athleteId: string;
  /** Every athlete entered in the heat (the fighters of a fight, the drivers of a battle). */
  heatAthleteIds: readonly string[];
  result: HeatResult | null;
}

const stored = (position: number | null) => (position === null || position === 0 ? null : position);

/**
 * `athleteRoundRank` (section 2.5).
 * - Combat: null until the fight completes; then 1 for the stored winner and 2 for the other fighter,
 *   both 1 on a draw; null for any other outcome, for more than two fighters, or a winner who is not
 *   one of the two.
 * - Drift and drag racing: a completed battle or pairing whose stored winner is one of its (at most
 *   two) drivers ranks the winner 1 and the other 2, over any stored position; otherwise the stored
 *   position, which drag racing publishes only when it is 1.
 * - Bull riding: always null.
 * - Everything else: the stored position, null when none or 0.
 */
export function athleteRoundRank(input: RoundRankInput): number | null {
  const { format, heatStatus, storedPosition, athleteId, result } = input;
  const drivers = new Set(input.heatAthleteIds);
  const completed = heatStatus === 'COMPLETED';
  switch (format) {
    case 'bull-riding':
      return null;
    case 'combat': {
      if (!completed || drivers.size !== 2) return null;
      const outcome = heatOutcome(result);
      if (outcome === 'draw') return 1;
      if (outcome !== 'win' || !result?.winnerAthleteId || !drivers.has(result.winnerAthleteId)) return null;
      return result.winnerAthleteId === athleteId ? 1 : 2;
    }
    case 'drift-battle':
    case 'drag-pairing': {
      const winner = result?.winnerAthleteId ?? null;
      if (completed && winner !== null && drivers.size <= 2 && drivers.has(winner)) return winner === athleteId ? 1 : 2;
      const position = stored(storedPosition);
      if (format === 'drag-pairing') return position === 1 ? 1 : null;
      return position;
    }
    default:
      return stored(storedPosition);
  }
}
