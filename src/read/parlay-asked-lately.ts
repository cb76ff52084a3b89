import { LRUCache } from 'lru-cache';
import type { SimulationDemand } from './parlay-simulations.ts';

/**
 * The simulations clients' parlays needed in the last ten minutes, by event (stored id): a scope key,
 * or MATCH_GROUP. Only these are warmed when the event's prices move (read/parlay-warming.ts): a
 * bound on warming's work.
 */
const askedLately = new LRUCache<string, Set<string>>({ max: 1_000, ttl: 10 * 60_000 });

export function noteAsked(demand: SimulationDemand, eventId: string, group: string): void {
  if (demand.priority !== 'client') return;
  const groups = askedLately.get(eventId) ?? new Set<string>();
  groups.add(group);
  askedLately.set(eventId, groups);
}

export function parlaysAskedLately(eventId: string): boolean {
  return askedLately.has(eventId);
}

/** The simulations clients' parlays on the event needed lately (scope keys, or MATCH_GROUP), if any. */
export function askedLatelyOf(eventId: string): ReadonlySet<string> | undefined {
  return askedLately.get(eventId);
}
