import type { StoredChange } from '../domain/changes.ts';
import type { WriteCounts } from './repositories/feed-facts-repository.ts';

/**
 * This process's own writes, announced as they commit: the change feed delivers them without a query
 * (change-feed.ts), and metrics count ingested rows. Listeners run synchronously, in subscription order.
 */
export interface WriteSignals {
  /** Called by this process after it commits a write, with the change log entries it appended. */
  noteWrite(changes: StoredChange[]): void;
  /** Subscribes to this process's own writes, as they commit; returns the unsubscribe function. */
  onWrite(listener: (changes: StoredChange[]) => void): () => void;
  /** Called by this process after each committed feed batch, with its rows per collection and outcome (metrics). */
  noteIngest(rows: Record<string, WriteCounts>): void;
  onIngest(listener: (rows: Record<string, WriteCounts>) => void): () => void;
}

/** Listeners of one kind of notification, run synchronously in subscription order. */
function signal<T>() {
  const listeners = new Set<(value: T) => void>();
  return {
    note: (value: T) => {
      for (const listener of listeners) listener(value);
    },
    on: (listener: (value: T) => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export function writeSignals(): WriteSignals {
  const writes = signal<StoredChange[]>();
  const ingests = signal<Record<string, WriteCounts>>();
  return { noteWrite: writes.note, onWrite: writes.on, noteIngest: ingests.note, onIngest: ingests.on };
}
