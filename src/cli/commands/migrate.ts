import { loadConfig } from '../../config.ts';
import type { Command } from '../main.ts';

export const migrateCommand: Command = {
  usage: [
    'Usage: altsports migrate',
    '',
    'Applies every pending migration to the configured store (DATA_DIR or DATABASE_URL).',
  ].join('\n'),
  async run() {
    const { migrateToLatest, openStore } = await import('../../store/database.ts');
    const config = loadConfig();
    const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      const applied = await migrateToLatest(store);
      console.log(
        applied.length
          ? `Applied ${applied.length} migration(s) to ${store.location}: ${applied.join(', ')}`
          : `${store.location} is up to date`,
      );
    } finally {
      await store.close();
    }
  },
};
