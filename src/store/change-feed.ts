import type { StoredChange } from '../domain/changes.ts';
import type { Store } from './database.ts';
import { changesRepository } from './repositories/changes-repository.ts';

/**
 * Delivers every change committed to the store, by any process, to this process's listeners (the
 * response cache and the push stream), once each and in commit order. It reads the change log and is
 * woken by this process's own writes (delivered without a query when nothing came between), by
 * PostgreSQL NOTIFY from other nodes, and on SQLite by the data_version of other processes.
 */
export interface ChangeFeed {
  /** False while changes may be missed (PostgreSQL listener down): caches must not be trusted. */
  readonly live: boolean;
  /** The id of the last change delivered. */
  readonly lastId: number;
  /**
   * Settles once every change another process committed before the first call in this turn of the
   * event loop is delivered (SQLite reads data_version once a turn); null when nothing is pending.
   */
  catchUp(): Promise<void> | null;
  subscribe(listener: (changes: StoredChange[]) => void): () => void;
  /** Subscribes to the feed going down or coming back (`live` changes). */
  onLiveChange(listener: (live: boolean) => void): () => void;
  close(): Promise<void>;
}

export interface ChangeFeedOptions {
  /** How often SQLite checks for other processes' commits when no request asks (ms). */
  pollMs?: number;
  /** Delay before reconnecting a lost PostgreSQL listener; doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  onError?: (error: Error) => void;
}

const PAGE = 1_000;

export async function openChangeFeed(store: Store, options: ChangeFeedOptions = {}): Promise<ChangeFeed> {
  const repository = changesRepository(store.db);
  const listeners = new Set<(changes: StoredChange[]) => void>();
  const liveListeners = new Set<(live: boolean) => void>();
  let lastId = (await repository.bounds()).last;
  let live = store.listen === undefined;
  let closed = false;
  let pulling: Promise<void> | null = null;
  let pullAgain = false;
  let externalVersion = store.externalVersion();

  const deliver = (changes: StoredChange[]) => {
    const fresh = changes.filter((c) => c.id > lastId);
    if (fresh.length === 0) return;
    lastId = (fresh.at(-1) as StoredChange).id;
    // One failing listener must not starve the others.
    for (const listener of listeners) {
      try {
        listener(fresh);
      } catch (error) {
        options.onError?.(error as Error);
      }
    }
  };
  const setLive = (value: boolean) => {
    if (live === value) return;
    live = value;
    for (const listener of liveListeners) listener(value);
  };

  // One pull at a time; a wake-up during a pull runs one more after it.
  // Whether the last pull read the log to its end (a reconnected listener goes live only then).
  let pullFailed = false;
  const pull = (): Promise<void> => {
    if (pulling) {
      pullAgain = true;
      return pulling;
    }
    pulling = (async () => {
      try {
        do {
          pullAgain = false;
          for (;;) {
            const page = await repository.since(lastId, PAGE);
            deliver(page);
            if (page.length < PAGE) break;
          }
        } while (pullAgain && !closed);
        pullFailed = false;
      } catch (error) {
        pullFailed = true;
        options.onError?.(error as Error);
      } finally {
        pulling = null;
      }
    })();
    return pulling;
  };

  const unsubscribeWrites = store.onWrite((changes) => {
    // Our own commit: with nothing in between, deliver it now (no query, no wait for NOTIFY). A pull
    // already running (woken by this very commit's NOTIFY) skips what was delivered.
    if (changes[0]?.id === lastId + 1) deliver(changes);
    else void pull();
  });

  let stopListening: (() => Promise<void>) | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  const retryMs = options.retryMs ?? 100;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  // One connection attempt at a time: either it goes live, or it schedules the next one (backing off).
  const listen = async (delay: number): Promise<void> => {
    retryTimer = null;
    if (closed || !store.listen) return;
    let up = false;
    let lostWhileConnecting: Error | null = null;
    let stop: (() => Promise<void>) | null = null;
    try {
      stop = await store.listen(
        () => void pull(),
        (error) => {
          options.onError?.(error);
          if (!up) {
            // Lost before it went live (the server went away again): the attempt below fails and retries.
            lostWhileConnecting = error;
            return;
          }
          stopListening = null;
          setLive(false);
          schedule(retryMs);
        },
      );
      if (closed) {
        await stop();
        return;
      }
      // Whatever was committed while the listener was down is in the log. Live only once all of it was
      // read with the listener still up: otherwise a change could be missed and a cached document kept.
      await pull();
      if (lostWhileConnecting) throw lostWhileConnecting;
      if (pullFailed) throw new Error('change feed: reading the change log after reconnecting failed');
      if (closed) {
        await stop();
        return;
      }
      up = true;
      stopListening = stop;
      setLive(true);
    } catch (error) {
      if (stop) await stop();
      if (error !== lostWhileConnecting) options.onError?.(error as Error);
      schedule(Math.min(delay * 2, maxRetryMs));
    }
  };
  const schedule = (delay: number) => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => void listen(delay), delay);
    retryTimer.unref();
  };
  await listen(retryMs);

  let pollTimer: NodeJS.Timeout | null = null;
  const caughtUpTo = (version: string | null): Promise<void> | null => {
    if (version === null) return null;
    // Unchanged since the last read, but the pull that read started may still be running: wait for it.
    if (version === externalVersion) return pulling;
    externalVersion = version;
    return pull();
  };
  // A request reads SQLite's data_version at most once per turn of the event loop: the requests read
  // in one turn had arrived when that turn's I/O wait ended, before the turn's first request read it.
  // A read is a statement (about 2 µs, BENCHMARKS.md "Reading (session 7)"), and a polled route sees
  // several requests a turn. The poll timer runs before the I/O wait, so it reads for itself.
  let versionThisTurn: string | null | undefined;
  const catchUp = () => {
    if (versionThisTurn === undefined) {
      versionThisTurn = store.externalVersion();
      setImmediate(() => {
        versionThisTurn = undefined;
      });
    }
    return caughtUpTo(versionThisTurn);
  };
  if (store.externalVersion() !== null) {
    pollTimer = setInterval(() => void caughtUpTo(store.externalVersion()), options.pollMs ?? 250);
    pollTimer.unref();
  }

  return {
    get live() {
      return live;
    },
    get lastId() {
      return lastId;
    },
    catchUp,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onLiveChange(listener) {
      liveListeners.add(listener);
      return () => void liveListeners.delete(listener);
    },
    async close() {
      closed = true;
      unsubscribeWrites();
      if (pollTimer) clearInterval(pollTimer);
      if (retryTimer) clearTimeout(retryTimer);
      await pulling;
      await stopListening?.();
    },
  };
}
