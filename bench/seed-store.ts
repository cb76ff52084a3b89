import { createApiKey } from '../src/access/api-keys.ts';
import { loadDemoData } from '../src/demo/load-demo.ts';
import { migrateToLatest, openStore } from '../src/store/database.ts';

/** Fills a fresh SQLite store in `dataDir` with the default demo data; returns an API key for it. */
export async function seedStore(dataDir: string): Promise<{ apiKey: string; events: number }> {
  const store = openStore({ dataDir });
  try {
    await migrateToLatest(store);
    const { events } = await loadDemoData(store, { now: new Date() });
    const { key } = await createApiKey(store, { name: 'bench' });
    return { apiKey: key, events };
  } finally {
    await store.close();
  }
}
