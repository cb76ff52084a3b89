import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '../src/access/api-keys.ts';
import { usageLedger } from '../src/access/usage-ledger.ts';
import { loadConfig } from '../src/config.ts';
import { loadDemoData } from '../src/demo/load-demo.ts';
import { buildApp } from '../src/http/app.ts';
import { openStore } from '../src/store/database.ts';
import { migrateToLatest } from '../src/store/migrations.ts';

/**
 * `npm run bench:usage`: what recording usage costs a counted request (target: no more than 5% of a
 * cached answer). The recording's part of a request is `UsageLedger.record` (the write happens every
 * USAGE_FLUSH_SECONDS, off the request path): timed alone over 2,000,000 calls, beside the time of a
 * cached GET /sports through the whole pipeline (app.inject, no socket: so the share printed is an
 * upper bound of the share over HTTP), and the time of one write of a busy interval's tally.
 */

const dir = await mkdtemp(join(tmpdir(), 'altsports-usage-bench-'));
const store = openStore({ dataDir: dir });
await migrateToLatest(store);
await loadDemoData(store, { competitions: ['sls'] });
const key = 'usage-bench-key-0123456789';
await createApiKey(store, { name: 'bench', key, ratePerMinute: 0, ratePerDay: 0 });

const ledger = usageLedger(store, { flushMs: 3_600_000 });
const routes = ['/events', '/events/{eventId}', '/sports', '/odds', '/events/{eventId}/{oddType}'];
const record = (n: number) => {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) ledger.record(`key-${i % 20}`, routes[i % routes.length] as string);
  return Number(process.hrtime.bigint() - start) / n;
};
record(200_000);
const recordNs = record(2_000_000);
const flushStart = process.hrtime.bigint();
await ledger.flush();
const flushMs = Number(process.hrtime.bigint() - flushStart) / 1e6;

const app = await buildApp({ config: loadConfig({ DEMO_DATA: 'off', DATA_DIR: dir }), store, logger: false });
const get = () => app.inject({ url: '/api/v1/public/sports', headers: { 'x-api-key': key } });
for (let i = 0; i < 2_000; i++) await get();
const answers = 10_000;
const answerStart = process.hrtime.bigint();
for (let i = 0; i < answers; i++) await get();
const answerNs = Number(process.hrtime.bigint() - answerStart) / answers;

console.log(`record: ${recordNs.toFixed(0)} ns per counted request`);
console.log(`a cached GET /sports through app.inject: ${(answerNs / 1000).toFixed(1)} µs`);
console.log(`recording's share of it: ${((100 * recordNs) / answerNs).toFixed(2)} % (target <= 5 %)`);
console.log(
  `one write of 20 keys x 5 routes: ${flushMs.toFixed(1)} ms, every USAGE_FLUSH_SECONDS, off the request path`,
);
await app.close();
await ledger.close();
await store.close();
await rm(dir, { recursive: true, force: true });
