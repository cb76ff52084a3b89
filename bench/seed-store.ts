import { createApiKey } from '../src/access/api-keys.ts';
import { generateDemoFeeds } from '../src/demo/generate.ts';
import { loadDemoData } from '../src/demo/load-demo.ts';
import { ingestFeed } from '../src/ingest/ingest-feed.ts';
import { migrateToLatest, openStore, type Store, type StoreOptions } from '../src/store/database.ts';

export interface SeedOptions {
  /** Total demo events (`altsports demo --events N`); the default small dataset when left out. */
  events?: number;
  /** Keep what the store already holds rather than load the demo data again (a large store from an earlier run). */
  reuse?: boolean;
  onProgress?: (eventsWritten: number) => void;
}

/** The feed schema's largest decimal price. */
const MAX_DECIMAL_ODDS = 100_000;

/**
 * loadDemoData's loop, with prices above the feed's maximum brought down to it. Past the default size
 * the demo prices some long shots (fair probability near the pricing engine's 1e-6 floor) above
 * 100,000, which the feed schema refuses, so `altsports demo --events 20000` fails; until the pricing
 * engine caps its prices, a large store is loaded this way.
 */
async function loadLargeDemoData(
  store: Store,
  events: number,
  onProgress?: (eventsWritten: number) => void,
): Promise<number> {
  const now = new Date();
  let written = 0;
  for (const feed of generateDemoFeeds({ now, events })) {
    for (const odd of feed.odds ?? [])
      if (odd.odds !== undefined && odd.odds > MAX_DECIMAL_ODDS) odd.odds = MAX_DECIMAL_ODDS;
    written += (await ingestFeed(store, feed, { now })).events.received;
    onProgress?.(written);
  }
  return written;
}

/**
 * Fills a fresh store (SQLite in `dataDir`, or PostgreSQL) with the demo data; returns an API key for
 * it that takes the server's limits, as a key made by `altsports keys create` does: the limiter runs
 * and its headers are sent (bench servers raise the limit so far that a run is not throttled).
 */
export async function seedStore(
  target: StoreOptions,
  options: SeedOptions = {},
): Promise<{ apiKey: string; events: number }> {
  const store = openStore(target);
  try {
    await migrateToLatest(store);
    const held = await store.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    let events = Number(held.n);
    if (options.reuse && events > 0 && events < (options.events ?? 0)) {
      throw new Error(
        `the store holds ${events} events, fewer than the ${options.events} asked for (an interrupted load?): delete it and run again`,
      );
    }
    if (!options.reuse || events === 0) {
      events =
        options.events === undefined
          ? (await loadDemoData(store, { now: new Date(), onProgress: options.onProgress })).events
          : await loadLargeDemoData(store, options.events, options.onProgress);
    }
    const { key } = await createApiKey(store, { name: 'bench' });
    return { apiKey: key, events };
  } finally {
    await store.close();
  }
}
