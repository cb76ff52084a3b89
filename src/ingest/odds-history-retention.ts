import type { Store } from '../store/database.ts';
import { oddsHistoryRepository } from '../store/repositories/odds-history-repository.ts';

const DAY_MS = 86_400_000;

/**
 * Prunes the price history to ODDS_HISTORY_DAYS: changes that took effect before the cut
 * go, except each outcome's latest, which is the price it still holds. One DELETE, idempotent, so
 * that every node may run it. Returns how many rows went.
 */
export function pruneOddsHistory(store: Store, days: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * DAY_MS).toISOString();
  return oddsHistoryRepository(store.db).prune(before);
}
