/**
 * The measured requests. `path` may name values found at start-up in braces (`{eventId}`);
 * add a scenario here, and a value to `BenchContext` when it needs one.
 */

export interface Scenario {
  name: string;
  method: 'GET';
  path: string;
}

export interface BenchContext {
  eventId: string;
  /** A finished race of lap-by-lap racing, and its last heat. */
  raceId: string;
  heatId: string;
  /** An event still to run (spr or f1) whose eventWinner market is open, and the odd type route 6 serves for it. */
  oddsEventId: string;
  oddType: string;
}

export const scenarios: Scenario[] = [
  { name: 'events', method: 'GET', path: '/api/v1/public/events' },
  { name: 'event', method: 'GET', path: '/api/v1/public/events/{eventId}' },
  { name: 'heat', method: 'GET', path: '/api/v1/public/events/{raceId}/heats/{heatId}' },
  { name: 'odds', method: 'GET', path: '/api/v1/public/events/{oddsEventId}/{oddType}' },
];

export function resolvePath(scenario: Scenario, context: BenchContext): string {
  return scenario.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = (context as unknown as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`scenario ${scenario.name}: no value for {${name}}`);
    return value.replace(/[^A-Za-z0-9._~:-]/g, encodeURIComponent);
  });
}
