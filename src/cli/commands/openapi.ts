import { DEFAULT_DEMO_API_KEY, loadConfig } from '../../config.ts';
import type { Command } from '../main.ts';

export const openapiCommand: Command = {
  usage: [
    'Usage: altsports openapi',
    '',
    'Prints the OpenAPI 3.1 document (JSON) that the server publishes at /api/v1/public/openapi.json.',
  ].join('\n'),
  async run() {
    const { buildApp } = await import('../../http/app.ts');
    const { migrateToLatest, openStore } = await import('../../store/database.ts');
    const config = { ...loadConfig({}), demoApiKey: DEFAULT_DEMO_API_KEY };
    // An empty in-memory store: the app reads its change log at start.
    const store = openStore({ dataDir: ':memory:' });
    await migrateToLatest(store);
    const app = await buildApp({ config, store, logger: false });
    await app.ready();
    process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
    await app.close();
    await store.close();
  },
};
