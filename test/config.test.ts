import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { README, withConfigTable } from '../scripts/config-readme.ts';
import {
  CONFIG_VARIABLES,
  ConfigError,
  DEFAULT_DEMO_API_KEY,
  describeConfig,
  loadConfig,
  SETTINGS,
} from '../src/config.ts';

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

test('the bet stop on silence is off by default only for the demo without its simulator (nothing feeds it)', () => {
  const table: Array<[Record<string, string>, boolean, number]> = [
    [{}, false, 0],
    [{}, true, 30],
    [{ DEMO_DATA: 'off' }, false, 30],
    [{ DEMO_DATA: 'off' }, true, 30],
    [{ FEED_STALE_SECONDS: '45' }, false, 45],
    [{ DEMO_DATA: 'off', FEED_STALE_SECONDS: '0' }, true, 0],
  ];
  for (const [env, simulator, expected] of table)
    assert.equal(loadConfig(env, { simulator }).feedStaleSeconds, expected, JSON.stringify({ env, simulator }));
});

test('SCORE_CHANGE_SUSPEND_SECONDS: one number for every competition, key:seconds pairs, or both', () => {
  assert.deepEqual(loadConfig({}).scoreChangeSeconds, {});
  // With the simulator, the team matches (curling among them; no judged heat) are suspended 5 s after a score.
  const simulated = loadConfig({}, { simulator: true }).scoreChangeSeconds;
  assert.equal(simulated.gsoc, 5);
  assert.equal(simulated.wsl, undefined);
  assert.deepEqual(loadConfig({ SCORE_CHANGE_SUSPEND_SECONDS: '0' }, { simulator: true }).scoreChangeSeconds.gsoc, 0);
  // The simulator's seconds: at --speed 60 a 5 s suspension lasts a twelfth of a real second.
  assert.equal(loadConfig({}, { simulator: true, simulatorSpeed: 60 }).scoreChangeSeconds.gsoc, 5 / 60);
  assert.equal(
    loadConfig({ SCORE_CHANGE_SUSPEND_SECONDS: 'spr:30' }, { simulator: true, simulatorSpeed: 10 }).scoreChangeSeconds
      .spr,
    3,
  );
  assert.equal(
    loadConfig({ SCORE_CHANGE_SUSPEND_SECONDS: 'spr:30' }, { simulatorSpeed: 10 }).scoreChangeSeconds.spr,
    30,
  );
  const all = loadConfig({ SCORE_CHANGE_SUSPEND_SECONDS: '10' }).scoreChangeSeconds;
  assert.equal(all.spr, 10);
  assert.equal(all.jaialai, 10);
  assert.deepEqual(loadConfig({ SCORE_CHANGE_SUSPEND_SECONDS: 'spr:5, gsoc:20' }).scoreChangeSeconds, {
    spr: 5,
    gsoc: 20,
  });
  for (const value of ['10,jaialai:0', 'jaialai:0,10']) {
    const mixed = loadConfig({ SCORE_CHANGE_SUSPEND_SECONDS: value }).scoreChangeSeconds;
    assert.equal(mixed.jaialai, 0, value);
    assert.equal(mixed.wsl, 10, value);
  }
  for (const bad of ['soon', 'spr:', 'xyz:5', '4000', 'spr:-1'])
    assert.throws(
      () => loadConfig({ SCORE_CHANGE_SUSPEND_SECONDS: bad }),
      (error: unknown) =>
        error instanceof ConfigError && /SCORE_CHANGE_SUSPEND_SECONDS=.*not understood/.test(error.message),
      bad,
    );
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
    [
      { CORS_ORIGINS: 'app.example' },
      /CORS_ORIGINS="app.example" must be \* or a comma list of origins.*not an origin: app\.example/,
    ],
    [{ CORS_ORIGINS: 'https://app.example/' }, /not an origin: https:\/\/app\.example\//],
    [{ CORS_ORIGINS: ',' }, /CORS_ORIGINS="," must be \*/],
    [{ ADMIN_PORT: '3000' }, /ADMIN_PORT=3000 must differ from PORT/],
    [{ ADMIN_PORT: '0' }, /ADMIN_PORT="0" must be a whole number from 1 to 65535/],
    [
      { PORT: '4000', ADMIN_PORT: '4001', METRICS_PORT: '4001' },
      /METRICS_PORT=4001 must differ from PORT and ADMIN_PORT/,
    ],
    [{ METRICS: 'sometimes' }, /METRICS="sometimes" must be on or off/],
    [{ REQUEST_TIMEOUT_SECONDS: '0' }, /REQUEST_TIMEOUT_SECONDS="0" must be a whole number from 1 to 3600/],
    [{ KEEP_ALIVE_TIMEOUT_SECONDS: '1.5' }, /KEEP_ALIVE_TIMEOUT_SECONDS="1.5" must be a whole number/],
    [{ SGP_MAX_LEGS: '1' }, /SGP_MAX_LEGS="1" must be a whole number from 2 to 50/],
    [{ SGP_MAX_LEGS: '51' }, /SGP_MAX_LEGS="51"/],
    [{ ODDS_HISTORY_DAYS: '0' }, /ODDS_HISTORY_DAYS="0" must be a whole number from 1 to 36500/],
    [{ ODDS_HISTORY_DAYS: 'forever' }, /ODDS_HISTORY_DAYS="forever"/],
  ];
  for (const [env, message] of table) {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
      JSON.stringify(env),
    );
  }
  assert.throws(
    () => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' }),
    (error: unknown) => error instanceof ConfigError && error.problems.length === 2,
  );
});

test('the printed configuration masks secrets', () => {
  const shown = describeConfig(
    loadConfig({ ADMIN_API_KEY: 'super-secret-admin-key', DATABASE_URL: 'postgres://u:hunter2@db:5432/alt' }),
  );
  assert.doesNotMatch(JSON.stringify(shown), /super-secret-admin-key|hunter2/);
  assert.match(shown.DATABASE_URL ?? '', /postgres:\/\/u:\*+@db:5432\/alt/);
});

test('hardening settings: defaults and accepted values', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.corsOrigins, 'none');
  assert.equal(defaults.adminPort, null);
  assert.equal(defaults.metricsPort, null);
  assert.equal(defaults.metrics, true);
  assert.equal(defaults.requestTimeoutSeconds, 60);
  assert.equal(defaults.keepAliveTimeoutSeconds, 72);
  assert.equal(defaults.sgpMaxLegs, 12);
  assert.equal(loadConfig({ SGP_MAX_LEGS: '3' }).sgpMaxLegs, 3);
  assert.equal(defaults.oddsHistoryDays, 365);
  assert.equal(loadConfig({ ODDS_HISTORY_DAYS: '30' }).oddsHistoryDays, 30);
  assert.ok(defaults.sgpWorkers >= 1, 'SGP_WORKERS defaults to the machine');
  assert.deepEqual(
    [defaults.sgpSimulationsPerKey, defaults.sgpSimulationCost, defaults.sgpDeadlineMs],
    [Math.max(1, defaults.sgpWorkers - 1), 10, 2000],
  );
  // One key never holds every draw thread: SGP_WORKERS less one, at least one.
  for (const [workers, perKey] of [
    ['1', 1],
    ['2', 1],
    ['8', 7],
  ] as const)
    assert.equal(loadConfig({ SGP_WORKERS: workers }).sgpSimulationsPerKey, perKey, `SGP_WORKERS=${workers}`);
  const sgp = loadConfig({
    SGP_WORKERS: '3',
    SGP_SIMULATIONS_PER_KEY: '5',
    SGP_SIMULATION_COST: '1',
    SGP_DEADLINE_MS: '750',
  });
  assert.deepEqual(
    [sgp.sgpWorkers, sgp.sgpSimulationsPerKey, sgp.sgpSimulationCost, sgp.sgpDeadlineMs],
    [3, 5, 1, 750],
  );
  for (const [name, value] of [
    ['SGP_WORKERS', '0'],
    ['SGP_SIMULATIONS_PER_KEY', 'two'],
    ['SGP_SIMULATION_COST', '0'],
    ['SGP_DEADLINE_MS', '10'],
  ])
    assert.throws(() => loadConfig({ [name as string]: value as string }), new RegExp(`${name}="${value}"`));
  assert.equal(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins, '*');
  assert.deepEqual(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins, [
    'https://a.example',
    'http://localhost:5173',
  ]);
  const split = loadConfig({ ADMIN_PORT: '9001', METRICS_PORT: '9002', ADMIN_HOST: '10.0.0.5' });
  assert.deepEqual([split.adminPort, split.metricsPort, split.adminHost], [9001, 9002, '10.0.0.5']);
});

test('altsports config shows every documented variable', () => {
  const shown = describeConfig(loadConfig({}));
  assert.deepEqual(Object.keys(shown).sort(), CONFIG_VARIABLES.map(([name]) => name).sort());
});

test('MIN_DECIMAL_ODDS, MAX_DECIMAL_ODDS and PRICE_LADDER: the price policy, validated at start', () => {
  assert.deepEqual(loadConfig({}).pricePolicy, { minDecimalOdds: 1.01, maxDecimalOdds: 1000, ladder: 'decimal2' });
  assert.deepEqual(
    loadConfig({ MIN_DECIMAL_ODDS: '1.05', MAX_DECIMAL_ODDS: '500', PRICE_LADDER: 'Exchange' }).pricePolicy,
    { minDecimalOdds: 1.05, maxDecimalOdds: 500, ladder: 'exchange' },
  );
  assert.equal(loadConfig({ PRICE_LADDER: 'off' }).pricePolicy.ladder, 'off');
  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ MIN_DECIMAL_ODDS: '1' }, /MIN_DECIMAL_ODDS="1" must be decimal odds above 1/],
    [{ MIN_DECIMAL_ODDS: 'one' }, /MIN_DECIMAL_ODDS="one"/],
    [{ MAX_DECIMAL_ODDS: '200000' }, /MAX_DECIMAL_ODDS="200000" must be decimal odds above 1 and at most 100000/],
    [{ MIN_DECIMAL_ODDS: '2', MAX_DECIMAL_ODDS: '1.5' }, /MAX_DECIMAL_ODDS=1.5 must be above MIN_DECIMAL_ODDS=2/],
    [{ MIN_DECIMAL_ODDS: '3', MAX_DECIMAL_ODDS: '3' }, /MAX_DECIMAL_ODDS=3 must be above MIN_DECIMAL_ODDS=3/],
    [{ PRICE_LADDER: 'quarters' }, /PRICE_LADDER="quarters" must be one of decimal2, exchange, off/],
  ];
  for (const [env, message] of refused) assert.throws(() => loadConfig(env), message, JSON.stringify(env));
  const shown = describeConfig(loadConfig({ PRICE_LADDER: 'exchange' }));
  assert.deepEqual([shown.MIN_DECIMAL_ODDS, shown.MAX_DECIMAL_ODDS, shown.PRICE_LADDER], ['1.01', '1000', 'exchange']);
  assert.ok(
    ['MIN_DECIMAL_ODDS', 'MAX_DECIMAL_ODDS', 'PRICE_LADDER'].every((name) =>
      CONFIG_VARIABLES.some(([n]) => n === name),
    ),
  );
});

test("the README's table of variables is the config schema's (npm run config:readme writes it)", () => {
  const readme = readFileSync(README, 'utf8');
  assert.equal(readme, withConfigTable(readme), 'README.md: run npm run config:readme');
});

test('each variable is declared once, with a meaning and a default or what being unset means', () => {
  assert.equal(CONFIG_VARIABLES.length, Object.keys(SETTINGS.properties).length);
  for (const [variable, fallback, meaning] of CONFIG_VARIABLES) {
    assert.match(variable, /^[A-Z][A-Z0-9_]+$/);
    assert.ok(meaning.length > 10 && fallback.length > 0, variable);
  }
});
