/**
 * altsports under test, serving a store bench/run.ts prepared. Usage: server.ts <data-dir> [<admin-api-key>]
 * The admin key opens POST /api/v1/admin/feed, which the parlay and stream measurements write through.
 * Rate limits are off: a load run makes far more than a key's default 600 requests a minute.
 */

const { buildApp } = await import('../src/http/app.ts');
const { loadConfig } = await import('../src/config.ts');
const { openStore } = await import('../src/store/database.ts');
const { reportPort } = await import('./children.ts');

const [dataDir, adminApiKey] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: server.ts <data-dir> [<admin-api-key>]');
const config = loadConfig({
  DEMO_DATA: 'off',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '0',
  DATA_DIR: dataDir,
  ...(adminApiKey ? { ADMIN_API_KEY: adminApiKey } : {}),
});
const store = openStore({ dataDir: config.dataDir });
const app = await buildApp({ config, store, logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('unexpected server address');
reportPort(address.port);

process.on('SIGTERM', () => {
  process.exit(0);
});
