import type { ResultsFormat } from '../competitions.ts';
import { DRAW_METHODS, isOneOf, NO_RESULT_METHODS, WIN_METHODS, type WinMethod } from '../enumerations.ts';

/** A heat's stored result: who won (if anyone) and how, as the feed sent them. */
export interface HeatResult {
  winnerAthleteId: string | null;
  method: string | null;
}

/** Case, spaces, dots, dashes and underscores do not matter: "t.k.o", "TKO" and "tko" are one method. */
function methodKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Common abbreviations and long forms that name a listed method unambiguously. */
const ALIASES: Readonly<Record<string, WinMethod>> = {
  knockout: 'KO',
  technicalknockout: 'TKO',
  sub: 'Submission',
  ud: 'Unanimous Decision',
  sd: 'Split Decision',
  md: 'Majority Decision',
  dq: 'Disqualification',
  disqualified: 'Disqualification',
  nc: 'No Contest',
};

const BY_KEY = new Map<string, WinMethod>([
  ...WIN_METHODS.map((m) => [methodKey(m), m] as const),
  ...Object.entries(ALIASES),
]);

/** The published spelling of a stored method; a method outside the list is published as stored. */
export function publishedWinMethod(stored: string): string {
  return BY_KEY.get(methodKey(stored)) ?? stored;
}

/** How a result ended: a winner, a draw (both ranked 1), or neither (no contest, or nothing stored). */
export function heatOutcome(result: HeatResult | null): 'win' | 'draw' | 'none' {
  if (!result) return 'none';
  const method = result.method === null ? null : publishedWinMethod(result.method);
  if (isOneOf(DRAW_METHODS, method)) return 'draw';
  if (isOneOf(NO_RESULT_METHODS, method)) return 'none';
  return result.winnerAthleteId === null ? 'none' : 'win';
}

/** True when a stored method is a draw or a no contest, which must not name a winner. */
export function methodExcludesWinner(method: string): boolean {
  const published = publishedWinMethod(method);
  return isOneOf(DRAW_METHODS, published) || isOneOf(NO_RESULT_METHODS, published);
}

/**
 * `winBy` (section 2.5): combat sports only (undefined elsewhere, so the field is absent); null until
 * the fight is completed with a stored method; then the published spelling.
 */
export function winBy(format: ResultsFormat, heatStatus: string, result: HeatResult | null): string | null | undefined {
  if (format !== 'combat') return undefined;
  if (heatStatus !== 'COMPLETED' || !result || result.method === null || result.method.trim() === '') return null;
  return publishedWinMethod(result.method);
}
