import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { createApiKey } from '../src/access/api-keys.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { ingestFeed } from '../src/ingest/ingest-feed.ts';
import { migrateToLatest, openStore } from '../src/store/database.ts';
import { fixtureFeed } from '../test/helpers/feed-fixture.ts';

/**
 * `npm run bench:trace`: the source files a newcomer's trace crosses, measured rather than read: the
 * files of src/ whose functions run (V8 coverage, reset just before) while the server answers one
 * cached GET of an event, then one admin feed batch (the fixture feed, its first). Prints each list.
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
if (!process.env.NODE_V8_COVERAGE) {
  const coverage = mkdtempSync(join(tmpdir(), 'altsports-trace-'));
  try {
    execFileSync(process.execPath, [fileURLToPath(import.meta.url)], {
      stdio: 'inherit',
      env: { ...process.env, NODE_V8_COVERAGE: coverage },
    });
  } finally {
    rmSync(coverage, { recursive: true, force: true });
  }
  process.exit(0);
}
const coverage = process.env.NODE_V8_COVERAGE;

const dir = mkdtempSync(join(tmpdir(), 'altsports-trace-store-'));
const store = openStore({ dataDir: dir });
await migrateToLatest(store);
await ingestFeed(store, fixtureFeed());
const KEY = 'trace-key-0123456789abcdef';
const ADMIN_KEY = 'trace-admin-key-0123456789abcdef';
await createApiKey(store, { name: 'trace', key: KEY });
const config = loadConfig({ DATA_DIR: dir, DEMO_DATA: 'off', ADMIN_API_KEY: ADMIN_KEY });
const app = await buildApp({ config, store, logger: { level: 'info', stream: { write() {} } } });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

/** The files of src/ whose functions ran since the last call (each call resets V8's counts). */
function filesRun(): string[] {
  const before = new Set(readdirSync(coverage));
  v8.takeCoverage();
  const ran = new Set<string>();
  for (const name of readdirSync(coverage).filter((file) => !before.has(file))) {
    const { result } = JSON.parse(readFileSync(join(coverage, name), 'utf8')) as {
      result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }>;
    };
    for (const script of result) {
      const file = script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url;
      if (file.startsWith(SRC) && script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0))
        ran.add(file.slice(SRC.length));
    }
  }
  return [...ran].sort();
}

const headers = { 'x-api-key': KEY };
const events = (await (await fetch(`${base}/api/v1/public/events`, { headers })).json()) as Array<{ id: string }>;
const url = `${base}/api/v1/public/events/${events[0]?.id}`;
for (let i = 0; i < 3; i++) await (await fetch(url, { headers })).text();
filesRun();
await (await fetch(url, { headers })).text();
const cached = filesRun();
console.log(`a cached GET: ${cached.length} files\n  ${cached.join('\n  ')}`);
const fed = await fetch(`${base}/api/v1/admin/feed`, {
  method: 'POST',
  headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
  body: JSON.stringify(fixtureFeed()),
});
await fed.text();
const feed = filesRun();
console.log(`an admin feed batch (${fed.status}): ${feed.length} files\n  ${feed.join('\n  ')}`);
await app.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
