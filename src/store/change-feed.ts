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
   * Settles once every change another process committed more than VERSION_READ_GAP_MS ago is
   * delivered (SQLite reads data_version at most once in that time); null when nothing is pending.
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
/** How long a read of SQLite's data_version answers for the requests that follow it (ms). */
export const VERSION_READ_GAP_MS = 10;

export async function openChangeFeed(store: Store, options: ChangeFeedOptions = {}): Promise<ChangeFeed> {
  const repository = changesRepository(store.db);
  const feed = new StoreChangeFeed(store, options, repository, (await repository.bounds()).last);
  await feed.start();
  return feed;
}

/** The change feed over a store: its state, and one method per way a change reaches it. */
class StoreChangeFeed implements ChangeFeed {
  readonly #store: Store;
  readonly #options: ChangeFeedOptions;
  readonly #repository: ReturnType<typeof changesRepository>;
  readonly #listeners = new Set<(changes: StoredChange[]) => void>();
  readonly #liveListeners = new Set<(live: boolean) => void>();
  #lastId: number;
  #live: boolean;
  #closed = false;
  /** One pull at a time; a wake-up during a pull runs one more after it. */
  #pulling: Promise<void> | null = null;
  #pullAgain = false;
  /** Whether the last pull failed to read the log to its end (a reconnected listener goes live only after one that did). */
  #pullFailed = false;
  #externalVersion: string | null;
  /**
   * Requests read SQLite's data_version at most once in VERSION_READ_GAP_MS: another process's
   * commit is seen by every request that starts 10 ms after it. A read is a statement with two file
   * locks, 10-18 µs on a busy server (its caches cold between reads); once per turn of the event
   * loop it came to one read per polled answer, and once a millisecond still to 1% of a busy
   * server's CPU (docs/decisions.md "Caching and change detection"). The poll timer reads for itself.
   */
  #versionRead: { version: string | null; atMs: number } = { version: null, atMs: Number.NEGATIVE_INFINITY };
  #unsubscribeWrites: (() => void) | null = null;
  #stopListening: (() => Promise<void>) | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  #pollTimer: NodeJS.Timeout | null = null;

  constructor(
    store: Store,
    options: ChangeFeedOptions,
    repository: ReturnType<typeof changesRepository>,
    lastId: number,
  ) {
    this.#store = store;
    this.#options = options;
    this.#repository = repository;
    this.#lastId = lastId;
    this.#live = store.listen === undefined;
    this.#externalVersion = store.externalVersion();
  }

  get live(): boolean {
    return this.#live;
  }

  get lastId(): number {
    return this.#lastId;
  }

  /** Subscribes to this process's writes, listens (PostgreSQL) and polls data_version (SQLite). */
  async start(): Promise<void> {
    this.#unsubscribeWrites = this.#store.onWrite((changes) => {
      // Our own commit: with nothing in between, deliver it now (no query, no wait for NOTIFY). A pull
      // already running (woken by this very commit's NOTIFY) skips what was delivered.
      if (changes[0]?.id === this.#lastId + 1) this.#deliver(changes);
      else void this.#pull();
    });
    await this.#listen(this.#options.retryMs ?? 100);
    if (this.#store.externalVersion() !== null) {
      this.#pollTimer = setInterval(
        () => void this.#caughtUpTo(this.#store.externalVersion()),
        this.#options.pollMs ?? 250,
      );
      this.#pollTimer.unref();
    }
  }

  catchUp(): Promise<void> | null {
    const now = performance.now();
    if (now - this.#versionRead.atMs >= VERSION_READ_GAP_MS)
      this.#versionRead = { version: this.#store.externalVersion(), atMs: now };
    return this.#caughtUpTo(this.#versionRead.version);
  }

  subscribe(listener: (changes: StoredChange[]) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  onLiveChange(listener: (live: boolean) => void): () => void {
    this.#liveListeners.add(listener);
    return () => void this.#liveListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribeWrites?.();
    if (this.#pollTimer) clearInterval(this.#pollTimer);
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    await this.#pulling;
    await this.#stopListening?.();
  }

  #deliver(changes: StoredChange[]): void {
    const fresh = changes.filter((c) => c.id > this.#lastId);
    if (fresh.length === 0) return;
    this.#lastId = (fresh.at(-1) as StoredChange).id;
    // One failing listener must not starve the others.
    for (const listener of this.#listeners) {
      try {
        listener(fresh);
      } catch (error) {
        this.#options.onError?.(error as Error);
      }
    }
  }

  #setLive(value: boolean): void {
    if (this.#live === value) return;
    this.#live = value;
    for (const listener of this.#liveListeners) listener(value);
  }

  #pull(): Promise<void> {
    if (this.#pulling) {
      this.#pullAgain = true;
      return this.#pulling;
    }
    this.#pulling = (async () => {
      try {
        do {
          this.#pullAgain = false;
          for (;;) {
            const page = await this.#repository.since(this.#lastId, PAGE);
            this.#deliver(page);
            if (page.length < PAGE) break;
          }
        } while (this.#pullAgain && !this.#closed);
        this.#pullFailed = false;
      } catch (error) {
        this.#pullFailed = true;
        this.#options.onError?.(error as Error);
      } finally {
        this.#pulling = null;
      }
    })();
    return this.#pulling;
  }

  /** One connection attempt at a time: either it goes live, or it schedules the next one (backing off). */
  async #listen(delay: number): Promise<void> {
    this.#retryTimer = null;
    const { listen } = this.#store;
    if (this.#closed || !listen) return;
    const attempt = { up: false, lostWhileConnecting: null as Error | null };
    let stop: (() => Promise<void>) | null = null;
    try {
      stop = await listen(
        () => void this.#pull(),
        (error) => this.#lost(error, attempt),
      );
      if (!(await this.#goLive(stop, attempt))) await stop();
    } catch (error) {
      if (stop) await stop();
      if (error !== attempt.lostWhileConnecting) this.#options.onError?.(error as Error);
      this.#schedule(Math.min(delay * 2, this.#options.maxRetryMs ?? 5_000));
    }
  }

  /**
   * Whatever was committed while the listener was down is in the log: live only once all of it was
   * read with the listener still up, since a change missed would keep a cached document. False when
   * the feed closed meanwhile; throws when the listener was lost or the log could not be read.
   */
  async #goLive(stop: () => Promise<void>, attempt: { up: boolean; lostWhileConnecting: Error | null }) {
    if (this.#closed) return false;
    await this.#pull();
    if (attempt.lostWhileConnecting) throw attempt.lostWhileConnecting;
    if (this.#pullFailed) throw new Error('change feed: reading the change log after reconnecting failed');
    if (this.#closed) return false;
    attempt.up = true;
    this.#stopListening = stop;
    this.#setLive(true);
    return true;
  }

  #lost(error: Error, attempt: { up: boolean; lostWhileConnecting: Error | null }): void {
    this.#options.onError?.(error);
    if (!attempt.up) {
      // Lost before it went live (the server went away again): the attempt fails and retries.
      attempt.lostWhileConnecting = error;
      return;
    }
    this.#stopListening = null;
    this.#setLive(false);
    this.#schedule(this.#options.retryMs ?? 100);
  }

  #schedule(delay: number): void {
    if (this.#closed || this.#retryTimer) return;
    this.#retryTimer = setTimeout(() => void this.#listen(delay), delay);
    this.#retryTimer.unref();
  }

  #caughtUpTo(version: string | null): Promise<void> | null {
    if (version === null) return null;
    // Unchanged since the last read, but the pull that read started may still be running: wait for it.
    if (version === this.#externalVersion) return this.#pulling;
    this.#externalVersion = version;
    return this.#pull();
  }
}
