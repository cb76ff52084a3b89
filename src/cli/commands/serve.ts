import { ensureApiKey } from '../../access/api-keys.ts';
import { loadConfig } from '../../config.ts';
import { loadDemoData, storeIsEmpty } from '../../demo/load-demo.ts';
import { buildApp } from '../../http/app.ts';
import { DOCS_PATH, PUBLIC_PREFIX } from '../../http/plugins/openapi.ts';
import type { Command } from '../main.ts';
import { openMigratedStore } from './open-store.ts';

export const serveCommand: Command = {
  usage: [
    'Usage: altsports serve',
    '',
    'Starts the API on HOST:PORT from the configured store, migrating it first. An empty store is',
    'filled with the demo dataset unless DEMO_DATA=off. SIGTERM or SIGINT stops it cleanly: in-flight',
    'requests finish first. Settings: see `altsports config --help`.',
  ].join('\n'),
  async run() {
    const config = loadConfig();
    const store = await openMigratedStore(config);
    const app = await buildApp({ config, store });
    if (config.demoData && (await storeIsEmpty(store))) {
      app.log.info('empty store: loading the demo dataset');
      const { events } = await loadDemoData(store);
      app.log.info({ events }, 'demo dataset loaded');
    }
    if (config.demoApiKey) await ensureApiKey(store, 'demo', config.demoApiKey);

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      try {
        await app.close();
        await store.close();
        app.log.info('stopped');
        process.exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      }
    };
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    process.once('SIGINT', () => void shutdown('SIGINT'));

    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const origin = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
    app.log.info(
      { baseUrl: `${origin}${PUBLIC_PREFIX}`, docsUrl: `${origin}${DOCS_PATH}`, demoApiKey: config.demoApiKey, store: store.dialect, location: store.location },
      'altsports is listening',
    );
    process.stderr.write(
      [
        '',
        `  altsports API   ${origin}${PUBLIC_PREFIX}`,
        `  docs            ${origin}${DOCS_PATH}`,
        `  demo API key    ${config.demoApiKey ?? '(off)'}`,
        `  store           ${store.dialect} ${store.location}`,
        `  try             curl -H 'X-API-KEY: ${config.demoApiKey ?? '<key>'}' ${origin}${PUBLIC_PREFIX}/sports`,
        '',
        '',
      ].join('\n'),
    );
  },
};
