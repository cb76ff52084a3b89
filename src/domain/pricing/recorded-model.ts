import type { ScopeModel } from './market-generator.ts';

/**
 * The model an event's generated markets came from, recorded with them: the gamma shape
 * (1 is Plackett-Luce), each priced scope's strengths, the margin, and the winner prices each scope
 * was published at. The parlay route prices a scope from it while that scope's winner market still
 * carries those prices; once an operator feeds other prices by hand, it fits Plackett-Luce to them
 * instead (once per set of prices).
 */
export interface RecordedModel {
  model: 'plackettLuce' | 'gammaRace';
  shape: number;
  overround: number;
  marginMethod: string;
  scopes: Record<string, RecordedScope>;
}

export interface RecordedScope {
  strengths: Record<string, number>;
  /** Athlete id to the decimal odds published in the scope's winner market; empty when it has none. */
  winnerOdds: Record<string, number>;
}

export function recordModel(
  models: Readonly<Record<string, ScopeModel>>,
  winnerOdds: Readonly<Record<string, Record<string, number>>>,
  margin: { overround: number; marginMethod: string },
): RecordedModel {
  const shape = Object.values(models)[0]?.shape ?? 1;
  return {
    model: shape === 1 ? 'plackettLuce' : 'gammaRace',
    shape,
    overround: margin.overround,
    marginMethod: margin.marginMethod,
    scopes: Object.fromEntries(
      Object.entries(models).map(([key, m]) => [key, { strengths: m.strengths, winnerOdds: winnerOdds[key] ?? {} }]),
    ),
  };
}

/** Whether a winner market's current prices (athlete id to decimal odds) are those the model published. */
export function stillPublished(scope: RecordedScope, current: ReadonlyMap<string, number>): boolean {
  const recorded = Object.entries(scope.winnerOdds);
  if (recorded.length === 0) return current.size === 0;
  return recorded.length === current.size && recorded.every(([id, odds]) => current.get(id) === odds);
}

export function parseRecordedModel(text: string): RecordedModel | null {
  try {
    const value = JSON.parse(text) as RecordedModel;
    return value && typeof value.scopes === 'object' && Number.isInteger(value.shape) ? value : null;
  } catch {
    return null;
  }
}
