import { type IngestSummary, ingestFeed } from '../ingest/ingest-feed.ts';
import type { Store } from '../store/database.ts';
import { generateDemoFeeds } from './generate.ts';

export interface LoadDemoOptions {
  now?: Date;
  seed?: number;
  events?: number;
  /** Only these competitions (by key), laid out as in the whole dataset. */
  competitions?: readonly string[];
  /** Called after each chunk is written, with the number of events written so far. */
  onProgress?: (eventsWritten: number) => void;
}

/** Loads the demo dataset through the same ingest path as any operator feed. */
export async function loadDemoData(store: Store, options: LoadDemoOptions = {}): Promise<{ events: number }> {
  const now = options.now ?? new Date();
  let events = 0;
  for (const feed of generateDemoFeeds({
    now,
    seed: options.seed,
    events: options.events,
    competitions: options.competitions,
  })) {
    const summary: IngestSummary = await ingestFeed(store, feed, { now });
    events += summary.events.received;
    options.onProgress?.(events);
  }
  return { events };
}

/** True when the store holds no events: the first start, when the demo data is loaded. */
export async function storeIsEmpty(store: Store): Promise<boolean> {
  const row = await store.db.selectFrom('events').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}
