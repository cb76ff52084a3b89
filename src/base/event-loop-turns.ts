import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Lets the event loop answer others in the middle of a long piece of work (a large feed batch: its
 * validation, its writing, its change records). Work calls `pace()` between small steps (an item, a
 * statement); once it has held the loop for TURN_MS since its last turn, `pace()` waits one turn of
 * the event loop (setImmediate: pending I/O, such as other requests, runs first). A small batch never
 * waits: it finishes within one turn, as it did before (the simulator's and the tests' batches).
 * Counted in time rather than items, because an item's cost varies by a hundred times between
 * collections (a lap against an event's settlement).
 */

/** Longest stretch a batch holds the event loop before letting it answer others (GET p99 < 50 ms). */
export const TURN_MS = 10;

/** When the current stretch began (the first `pace()` since the event loop last turned); null: not begun. */
let since: number | null = null;
let watching = false;

/** Resolves at once while the current stretch is short; else after one turn of the event loop. */
export function pace(): Promise<void> | undefined {
  const now = performance.now();
  since ??= now;
  if (!watching) {
    // The next turn of the loop ends this stretch, whoever gave way (this work or another's await on I/O).
    watching = true;
    setImmediate(() => {
      since = null;
      watching = false;
    });
  }
  return now - since < TURN_MS ? undefined : nextTurn();
}

/** Items checked between two looks at the clock (a look costs about as much as a small item). */
const STRIDE = 64;

/** `items.map(fn)`, letting the event loop run between items once it has been held for TURN_MS. */
export async function mapPaced<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
  const out = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i] as T, i);
    if (i % STRIDE === STRIDE - 1) await pace();
  }
  return out;
}

/** `items.forEach(fn)`, letting the event loop run between items once it has been held for TURN_MS. */
export async function forEachPaced<T>(items: Iterable<T>, fn: (item: T, index: number) => void): Promise<void> {
  let i = 0;
  for (const item of items) {
    fn(item, i);
    if (i % STRIDE === STRIDE - 1) await pace();
    i += 1;
  }
}
