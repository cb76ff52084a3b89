import type { FeedDocument } from '../ingest/feed-schema.ts';
import type { Store } from '../store/database.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';

export interface LoadDemoOptions {
  now?: Date;
  seed?: number;
  events?: number;
  /** Only these competitions (by key), laid out as in the whole dataset. */
  competitions?: readonly string[];
  /**
   * The documents, made elsewhere around the same `now` (generateInThread); by default they are
   * generated here, one at a time.
   */
  documents?: AsyncIterable<FeedDocument> | Iterable<FeedDocument>;
  /** Called after each chunk is written, with the number of events written so far. */
  onProgress?: (eventsWritten: number) => void;
}

/** Loads the demo dataset through the same ingest path as any operator feed. */
export async function loadDemoData(store: Store, options: LoadDemoOptions = {}): Promise<{ events: number }> {
  const now = options.now ?? new Date();
  // Loaded here: `serve` asks storeIsEmpty and starts the generator's thread before the ingest's modules load.
  const { ingestFeed } = await import('../ingest/ingest-feed.ts');
  let events = 0;
  for await (const feed of options.documents ?? (await generated({ ...options, now }))) {
    const summary = await ingestFeed(store, feed, { now });
    events += summary.events.received;
    options.onProgress?.(events);
  }
  return { events };
}

/** The generator, loaded only when it is used here: `altsports serve` runs it on a thread of its own. */
async function generated(options: LoadDemoOptions & { now: Date }): Promise<Iterable<FeedDocument>> {
  const { generateDemoFeeds } = await import('./generate.ts');
  return generateDemoFeeds({
    now: options.now,
    seed: options.seed,
    events: options.events,
    competitions: options.competitions,
  });
}

/** True when the store holds no events: the first start, when the demo data is loaded. */
export async function storeIsEmpty(store: Store): Promise<boolean> {
  return eventsRepository(store.db).isEmpty();
}
