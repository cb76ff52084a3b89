import type { Store } from './database.ts';

/**
 * SQLite's own check of every page of the file (`PRAGMA quick_check`: the b-trees, without matching
 * indexes to their tables, which the full integrity_check adds at several times the cost). Null when
 * the file is sound, else the first problem it found. A file with zeroed pages otherwise opens, migrates
 * and answers /healthz while reads of the broken tables fail. PostgreSQL checks its own
 * pages as it reads them: null.
 */
export function integrityProblem(store: Store): string | null {
  if (!store.sqlite) return null;
  const findings = store.sqlite.prepare('PRAGMA quick_check(1)').all() as Array<{ quick_check: string }>;
  const first = findings[0]?.quick_check ?? 'ok';
  return first === 'ok' ? null : first;
}
