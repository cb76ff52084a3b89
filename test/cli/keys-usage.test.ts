/**
 * `altsports keys usage` and the TODAY column of `keys list`, run for real over a SQLite
 * DATA_DIR and a Redis that an API process counted into.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApiKey } from '../../src/access/api-keys.ts';
import { loadConfig } from '../../src/config.ts';
import { openStore } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrations.ts';
import { buildTestApp } from '../helpers/app.ts';
import { runCli, tempDir } from '../helpers/cli.ts';
import { startRedis } from '../helpers/redis.ts';

const KEY = 'usage-key-0123456789abcdef';

test('keys usage prints what GET /usage answers, read from Redis; keys list shows today per key', async () => {
  const { dir, cleanup } = await tempDir();
  const redis = await startRedis();
  try {
    const store = openStore({ dataDir: dir });
    await migrateToLatest(store);
    const { info } = await createApiKey(store, { name: 'integrator', key: KEY, ratePerDay: 100 });
    const app = await buildTestApp({
      config: loadConfig({ DEMO_DATA: 'off', REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '0' }),
      store,
    });
    for (const url of ['/sports', '/sports', '/events'])
      await app.inject({ method: 'GET', url: `/api/v1/public${url}`, headers: { 'x-api-key': KEY } });
    const answered = JSON.parse(
      (await app.inject({ method: 'GET', url: '/api/v1/public/usage', headers: { 'x-api-key': KEY } })).body,
    );
    await app.close();
    await store.close();

    const env = { DATA_DIR: dir, REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '0' };
    const [json, text, list, noRedis] = await Promise.all([
      runCli(['keys', 'usage', info.id.slice(0, 8), '--json'], env),
      runCli(['keys', 'usage', info.id], env),
      runCli(['keys', 'list'], env),
      runCli(['keys', 'usage', info.id], { DATA_DIR: dir }),
    ]);
    assert.equal(json.code, 0, json.stderr);
    const printed = JSON.parse(json.stdout);
    assert.deepEqual(printed.today, { byRoute: { '/sports': 2, '/events': 1 } });
    // The same document as the route's (the clock moved on between them: the resets are left out).
    const timeless = (u: typeof answered) => ({ ...u, minute: null, day: { ...u.day, resetSeconds: 0 } });
    assert.deepEqual(timeless(printed), timeless(answered));
    assert.deepEqual([printed.day.limit, printed.day.used, printed.day.remaining], [100, 3, 97]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /today \(UTC\): 3 used of 100, 97 left/);
    assert.match(text.stdout, /\/sports\s+2/);
    assert.equal(list.code, 0, list.stderr);
    const line = list.stdout.split('\n').find((l) => l.includes(info.id)) ?? '';
    assert.match(line, /\s3\s/, list.stdout);
    assert.equal(noRedis.code, 1);
    assert.match(noRedis.stderr, /REDIS_URL/);
  } finally {
    await redis.stop();
    await cleanup();
  }
});
