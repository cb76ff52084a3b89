import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, DEFAULT_DEMO_API_KEY, describeConfig, loadConfig } from '../src/config.ts';

test('defaults serve the demo on 127.0.0.1:3000 from ./data', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 3000);
  assert.equal(config.dataDir, './data');
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.demoData, true);
  assert.equal(config.demoApiKey, DEFAULT_DEMO_API_KEY);
  assert.equal(config.adminApiKey, undefined);
});

test('the default demo key exists only with the demo data; an explicit key always applies', () => {
  assert.equal(loadConfig({ DEMO_DATA: 'off' }).demoApiKey, null);
  assert.equal(loadConfig({ DEMO_DATA: 'off', DEMO_API_KEY: 'my-own-demo-key-123' }).demoApiKey, 'my-own-demo-key-123');
  assert.equal(loadConfig({ DEMO_API_KEY: 'off' }).demoApiKey, null);
});

test('bad values stop the start with a message naming every bad variable', () => {
  const table: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'abc' }, /PORT="abc" must be a whole number from 0 to 65535/],
    [{ PORT: '70000' }, /PORT="70000"/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres:\/\//],
    [{ DEMO_DATA: 'maybe' }, /DEMO_DATA="maybe" must be on or off/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL="loud" must be one of fatal, error/],
    [{ ADMIN_API_KEY: 'short' }, /ADMIN_API_KEY must be at least 16 characters/],
    [{ RESPONSE_ENVELOPE: 'xml' }, /RESPONSE_ENVELOPE="xml" must be one of none, data/],
  ];
  for (const [env, message] of table) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message), JSON.stringify(env));
  }
  assert.throws(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' }), (error: unknown) => error instanceof ConfigError && error.problems.length === 2);
});

test('the printed configuration masks secrets', () => {
  const shown = describeConfig(loadConfig({ ADMIN_API_KEY: 'super-secret-admin-key', DATABASE_URL: 'postgres://u:hunter2@db:5432/alt' }));
  assert.doesNotMatch(JSON.stringify(shown), /super-secret-admin-key|hunter2/);
  assert.match(shown.DATABASE_URL ?? '', /postgres:\/\/u:\*+@db:5432\/alt/);
});
