/**
 * The `altsports` command, run for real as child processes (node bin/altsports.js ...) over a SQLite
 * store in a temporary DATA_DIR. Each start of the CLI costs about 1 s of CPU (main.ts
 * loads every command's modules, Fastify included, even for --help), so the tests run concurrently
 * and commands that do not depend on each other's output run in parallel.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../scripts/free-port.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { openStore } from '../../src/store/database.ts';
import { type CliResult, parseImportSummary, runCli, spawnCli, tempDir } from '../helpers/cli.ts';
import { fixtureFeed, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { waitForHealth } from '../helpers/serve.ts';

const COMMANDS = ['serve', 'migrate', 'import', 'keys', 'demo', 'markets', 'simulate', 'openapi', 'config'];
const COLLECTIONS = [
  'tours',
  'tourYears',
  'teams',
  'athletes',
  'events',
  'rounds',
  'heats',
  'roundScores',
  'futures',
  'futureOdds',
] as const;
/** Items per collection in the fixture feed. */
const FIXTURE_COUNTS: Record<(typeof COLLECTIONS)[number], number> = {
  tours: 2,
  tourYears: 2,
  teams: 2,
  athletes: 2,
  events: 3,
  rounds: 3,
  heats: 3,
  roundScores: 2,
  futures: 1,
  futureOdds: 2,
};

function show(result: CliResult): string {
  return `exit ${result.code}${result.signal ? ` (${result.signal})` : ''}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

function assertExit(result: CliResult, code: number): void {
  assert.equal(result.code, code, show(result));
}

/** Row counts of the store in `dataDir`, opened directly. */
async function storeCounts(dataDir: string): Promise<Record<string, number>> {
  const store = openStore({ dataDir });
  try {
    const counts: Record<string, number> = {};
    for (const table of COLLECTIONS) counts[table] = (await store.db.selectFrom(table).select('id').execute()).length;
    return counts;
  } finally {
    await store.close();
  }
}

// The tests are independent (each has its own DATA_DIR), so they run concurrently.
describe('altsports CLI', { concurrency: true }, () => {
  let root: string;
  let cleanupRoot: () => Promise<void>;
  let counter = 0;
  /** A fresh, empty DATA_DIR for one test. */
  const dataDir = () => join(root, `data-${++counter}`);
  const fixtureFile = () => join(root, 'fixture.json');

  before(async () => {
    ({ dir: root, cleanup: cleanupRoot } = await tempDir());
    await writeFile(fixtureFile(), `${JSON.stringify(fixtureFeed(), null, 2)}\n`);
  });

  after(async () => {
    await cleanupRoot?.();
  });

  test('--help lists every command; each <command> --help exits 0; an unknown command or option exits 2', async () => {
    const env = { DATA_DIR: dataDir() };
    const [help, unknown, badOption, ...commandHelps] = await Promise.all([
      runCli(['--help'], env),
      runCli(['frobnicate'], env),
      runCli(['migrate', '--frobnicate'], env),
      ...COMMANDS.map((command) => runCli([command, '--help'], env)),
    ]);
    assertExit(help, 0);
    for (const command of COMMANDS)
      assert.match(help.stdout, new RegExp(`^\\s+${command}\\s+\\S`, 'm'), `--help does not list ${command}`);

    assertExit(unknown, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
    // An unknown option exits 2 too, with the command's usage.
    assertExit(badOption, 2);
    assert.match(badOption.stderr, /frobnicate/);
    assert.match(badOption.stderr, /Usage: altsports migrate/);

    COMMANDS.forEach((command, i) => {
      const result = commandHelps[i] as CliResult;
      assertExit(result, 0);
      assert.match(result.stdout, /Usage:/, `${command} --help prints no usage`);
      assert.ok(
        result.stdout.includes(command === 'keys' ? 'altsports keys' : `altsports ${command}`),
        `${command} --help: ${result.stdout}`,
      );
    });
  });

  test('markets generate prices an event from win probabilities through the ingest; bad input exits non-zero', async () => {
    const env = { DATA_DIR: dataDir() };
    assertExit(await runCli(['import', fixtureFile()], env), 0);
    const probabilities = join(root, 'probabilities.json');
    await writeFile(probabilities, JSON.stringify({ 'ath-1': 0.6, 'ath-2': 0.4 }));
    const [generated, neither] = await Promise.all([
      runCli(['markets', 'generate', `wsl:${WSL_LIVE}`, '--win-probabilities', probabilities, '--overround', '0'], env),
      runCli(['markets', 'generate', `wsl:${WSL_LIVE}`], env),
    ]);
    assertExit(generated, 0);
    assert.match(generated.stdout, /Generated \d+ markets and \d+ odds for wsl:/);
    assertExit(neither, 2);
    const store = openStore({ dataDir: env.DATA_DIR });
    try {
      const winners = await store.db
        .selectFrom('odds')
        .select(['athleteId', 'decimalOdds', 'probability'])
        .where('marketId', '=', `${WSL_LIVE}:eventWinner`)
        .orderBy('position')
        .execute();
      // Published as the price policy says: two decimals, towards the house, beside the model's probability.
      assert.deepEqual(winners, [
        { athleteId: 'ath-1', decimalOdds: 1.66, probability: 60 },
        { athleteId: 'ath-2', decimalOdds: 2.5, probability: 40 },
      ]);
    } finally {
      await store.close();
    }
    // PRICE_LADDER reaches the command: 1 / 0.3 on the exchange ladder is 3.3, not 3.33.
    await writeFile(probabilities, JSON.stringify({ 'ath-1': 0.7, 'ath-2': 0.3 }));
    const args = ['markets', 'generate', `wsl:${WSL_LIVE}`, '--win-probabilities', probabilities, '--overround', '0'];
    assertExit(await runCli(args, { ...env, PRICE_LADDER: 'exchange' }), 0);
    const again = openStore({ dataDir: env.DATA_DIR });
    try {
      const outsider = await again.db
        .selectFrom('odds')
        .select(['decimalOdds', 'probability'])
        .where('id', '=', `${WSL_LIVE}:eventWinner:ath-2`)
        .executeTakeFirst();
      assert.deepEqual(outsider, { decimalOdds: 3.3, probability: 30 });
    } finally {
      await again.close();
    }
  });

  test('migrate applies the migrations once; a second run says the store is up to date', async () => {
    const env = { DATA_DIR: dataDir() };
    const first = await runCli(['migrate'], env);
    assertExit(first, 0);
    assert.match(first.stdout, /Applied [1-9]\d* migration\(s\)/);
    assert.ok(first.stdout.includes(env.DATA_DIR), first.stdout);
    const second = await runCli(['migrate'], env);
    assertExit(second, 0);
    assert.match(second.stdout, /up to date/);
    assert.doesNotMatch(second.stdout, /Applied/);
  });

  test('keys: create prints the key, list shows only its prefix, revoke revokes it, unknown competitions fail', async () => {
    const env = { DATA_DIR: dataDir() };
    const created = await runCli(['keys', 'create', '--name', 'ci', '--competitions', 'wsl'], env);
    assertExit(created, 0);
    const key = created.stdout.trim();
    assert.match(key, /^\S{16,}$/, `stdout is not just the key: ${created.stdout}`);
    const id = /Created key (\S+) \(ci\)/.exec(created.stderr)?.[1];
    assert.ok(id, created.stderr);
    assert.match(created.stderr, /wsl/);

    const [listed, json] = await Promise.all([runCli(['keys', 'list'], env), runCli(['keys', 'list', '--json'], env)]);
    assertExit(listed, 0);
    assert.match(
      listed.stdout.split('\n')[0] ?? '',
      /^ID\s+KEY\s+STATUS\s+NAME\s+COMPETITIONS\s+LIMITS\s+PLAN\s+TODAY\s+CREATED$/,
    );
    const line = listed.stdout.split('\n').find((l) => l.includes(id));
    assert.ok(line, listed.stdout);
    assert.ok(line.includes(key.slice(0, 8)), `the key's prefix is not shown: ${line}`);
    assert.ok(!listed.stdout.includes(key), 'keys list shows the whole key');
    assert.match(line, /\bactive\b/);
    assert.match(line, /\bci\b/);
    assert.match(line, /\bwsl\b/);
    assertExit(json, 0);
    const keys = JSON.parse(json.stdout) as Array<{
      id: string;
      name: string;
      competitions: string[] | null;
      revokedAt: string | null;
    }>;
    assert.deepEqual(
      keys.map((k) => [k.id, k.name, k.competitions, k.revokedAt]),
      [[id, 'ci', ['wsl'], null]],
    );
    assert.ok(!json.stdout.includes(key), 'keys list --json shows the whole key');

    const [revoked, bad] = await Promise.all([
      runCli(['keys', 'revoke', id.slice(0, 6)], env),
      runCli(['keys', 'create', '--name', 'x', '--competitions', 'wsl,nope'], env),
    ]);
    assertExit(revoked, 0);
    assert.match(revoked.stdout, new RegExp(`Revoked key ${id}`));
    assert.notEqual(bad.code, 0, show(bad));
    assert.match(bad.stderr, /Unknown competition key: nope \(known: wsl, sls, spr,/);
    assert.equal(bad.stdout.trim(), '', 'a key was printed although creation failed');

    const [afterText, afterJson] = await Promise.all([
      runCli(['keys', 'list'], env),
      runCli(['keys', 'list', '--json'], env),
    ]);
    assert.match(afterText.stdout.split('\n').find((l) => l.includes(id)) ?? '', /\brevoked\b/, afterText.stdout);
    const remaining = JSON.parse(afterJson.stdout) as Array<{ id: string; revokedAt: string | null }>;
    assert.equal(remaining.length, 1, 'a key was stored although creation failed');
    assert.equal(remaining[0]?.id, id);
    assert.ok(remaining[0]?.revokedAt, 'revokedAt is not set');
  });

  test('keys rotate-stream-secret: each run names a new secret', async () => {
    const env = { DATA_DIR: dataDir() };
    const first = await runCli(['keys', 'rotate-stream-secret'], env);
    assertExit(first, 0);
    const second = await runCli(['keys', 'rotate-stream-secret'], env);
    assertExit(second, 0);
    const secretId = (result: typeof first) => /signed with secret (\S+);/.exec(result.stdout)?.[1];
    assert.ok(secretId(first), first.stdout);
    assert.notEqual(secretId(first), secretId(second));
    assert.match(second.stdout, /previous one work until they expire \(600 s at most\)/);
  });

  test('import of a JSON feed prints inserted counts; importing it again changes nothing', async () => {
    const env = { DATA_DIR: dataDir() };
    const first = await runCli(['import', fixtureFile()], env);
    assertExit(first, 0);
    assert.ok(first.stdout.includes(fixtureFile()), first.stdout);
    const summary = parseImportSummary(first.stdout);
    for (const collection of COLLECTIONS) {
      const n = FIXTURE_COUNTS[collection];
      assert.deepEqual(
        summary.collections[collection],
        { received: n, inserted: n, updated: 0, unchanged: 0, stale: 0 },
        `${collection}\n${first.stdout}`,
      );
    }
    assert.equal(summary.changedEvents, 3);

    const second = await runCli(['import', fixtureFile()], env);
    assertExit(second, 0);
    const again = parseImportSummary(second.stdout);
    for (const collection of COLLECTIONS) {
      const n = FIXTURE_COUNTS[collection];
      assert.deepEqual(
        again.collections[collection],
        { received: n, inserted: 0, updated: 0, unchanged: n, stale: 0 },
        `${collection}\n${second.stdout}`,
      );
    }
    assert.equal(again.changedEvents, 0);
    assert.deepEqual(await storeCounts(env.DATA_DIR), FIXTURE_COUNTS);
  });

  test('import of a JSON feed over a megabyte, collections in another order (read in slices), writes it all', async () => {
    const env = { DATA_DIR: dataDir() };
    const members = Object.entries(fixtureFeed()).reverse();
    // Whitespace between members makes the document large without more items.
    const padding = `,${' '.repeat(Math.ceil(1.1e6 / members.length))}`;
    const file = join(root, 'large-reversed.json');
    await writeFile(
      file,
      `{${members.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(padding)}}`,
    );
    const result = await runCli(['import', file], env);
    assertExit(result, 0);
    const summary = parseImportSummary(result.stdout);
    for (const collection of COLLECTIONS)
      assert.equal(
        summary.collections[collection]?.inserted,
        FIXTURE_COUNTS[collection],
        `${collection}\n${result.stdout}`,
      );
    assert.deepEqual(await storeCounts(env.DATA_DIR), FIXTURE_COUNTS);
  });

  test('import of NDJSON (one feed document per line) writes every line', async () => {
    const env = { DATA_DIR: dataDir() };
    const { tours, tourYears, teams, athletes, events, rounds, heats, roundScores, futures, futureOdds } =
      fixtureFeed();
    const lines: FeedDocument[] = [
      { tours, tourYears, teams, athletes },
      { events },
      { rounds, heats, roundScores },
      { futures, futureOdds },
    ];
    const file = join(root, 'fixture.ndjson');
    // A blank line in between is skipped.
    await writeFile(file, `${lines.map((doc) => JSON.stringify(doc)).join('\n\n')}\n`);
    const result = await runCli(['import', file], env);
    assertExit(result, 0);
    const summary = parseImportSummary(result.stdout);
    for (const collection of COLLECTIONS) {
      const n = FIXTURE_COUNTS[collection];
      assert.equal(summary.collections[collection]?.inserted, n, `${collection}\n${result.stdout}`);
    }
    assert.deepEqual(await storeCounts(env.DATA_DIR), FIXTURE_COUNTS);
  });

  test('a bad NDJSON file exits 1, names the item, field and line, and writes nothing', async () => {
    const env = { DATA_DIR: dataDir() };
    assertExit(await runCli(['import', fixtureFile()], env), 0);

    const fixture = fixtureFeed();
    const renamedTour = { ...fixture.tours![0]!, name: 'Renamed Tour', updatedAt: '2026-06-01T00:00:00Z' };
    const newEvent = {
      ...fixture.events![1]!,
      id: 'wsl:d4d4d4d4-0000-4000-8000-000000000005',
      name: 'A new event',
      eventNumber: 5,
      updatedAt: '2026-06-01T00:00:00Z',
    };
    const badEvent = { ...fixture.events![0]!, id: 'wsl:e5e5e5e5-0000-4000-8000-000000000006', competition: 'nope' };
    const file = join(root, 'bad.ndjson');
    await writeFile(
      file,
      `${JSON.stringify({ tours: [renamedTour] })}\n${JSON.stringify({ events: [newEvent, badEvent] })}\n`,
    );

    const result = await runCli(['import', file], env);
    assertExit(result, 1);
    assert.match(result.stderr, /events\[1\]/, 'the item is not named');
    assert.match(result.stderr, /line 2/, 'the line is not named');
    assert.match(result.stderr, /competition/, 'the field is not named');
    assert.match(result.stderr, /nothing was written/);
    assert.doesNotMatch(result.stdout, /Imported/);

    // Nothing of the batch was written: neither the valid rename on line 1 nor the valid event on line 2.
    assert.deepEqual(await storeCounts(env.DATA_DIR), FIXTURE_COUNTS);
    const store = openStore({ dataDir: env.DATA_DIR });
    try {
      const tour = await store.db.selectFrom('tours').select('name').where('id', '=', 'wsl-ct-men').executeTakeFirst();
      assert.equal(tour?.name, "Men's Championship Tour");
      const event = await store.db
        .selectFrom('events')
        .select('id')
        .where('id', 'like', 'd4d4d4d4%')
        .executeTakeFirst();
      assert.equal(event, undefined);
    } finally {
      await store.close();
    }
  });

  test('a bad file into an empty store leaves it empty; a missing file and a non-JSON file fail naming the problem', async () => {
    const env = { DATA_DIR: dataDir() };
    const fixture = fixtureFeed();
    const file = join(root, 'bad-first.ndjson');
    const events = fixture.events!.map((e) => (e.id.endsWith(WSL_LIVE) ? { ...e, competition: 'nope' } : e));
    await writeFile(
      file,
      `${JSON.stringify({ tours: fixture.tours, tourYears: fixture.tourYears })}\n${JSON.stringify({ events })}\n`,
    );
    const missing = join(root, 'no-such-file.json');
    const notJson = join(root, 'not-json.json');
    await writeFile(notJson, 'this is not JSON\n');

    const [bad, absent, garbage, usage] = await Promise.all([
      runCli(['import', file], env),
      runCli(['import', missing], { DATA_DIR: dataDir() }),
      runCli(['import', notJson], { DATA_DIR: dataDir() }),
      runCli(['import'], { DATA_DIR: dataDir() }),
    ]);
    assertExit(bad, 1);
    assert.match(bad.stderr, /events\[1\] \(line 2\)/);
    assert.match(bad.stderr, new RegExp(WSL_LIVE));
    assert.match(bad.stderr, /\.competition/);
    assert.deepEqual(
      Object.values(await storeCounts(env.DATA_DIR)),
      COLLECTIONS.map(() => 0),
    );

    assertExit(absent, 1);
    assert.ok(absent.stderr.includes(missing), absent.stderr);
    assertExit(garbage, 1);
    assert.equal(
      garbage.stderr.trim(),
      'altsports import: Invalid feed: document is not valid JSON: unexpected character at line 1, column 1; nothing was written',
      'reported once, with where',
    );

    assertExit(usage, 2);
    assert.match(usage.stderr, /Usage: altsports import FILE/);
  });

  test('config validates the environment: a bad PORT fails naming it; a good one prints the settings', async () => {
    const [bad, good] = await Promise.all([
      runCli(['config'], { DATA_DIR: dataDir(), PORT: 'abc' }),
      runCli(['config'], { DATA_DIR: dataDir(), PORT: '4321', ADMIN_API_KEY: 'admin-secret-0123456789' }),
    ]);
    assert.notEqual(bad.code, 0, show(bad));
    assert.match(bad.stderr, /PORT="abc"/);
    assertExit(good, 0);
    assert.match(good.stdout, /^PORT\s+4321$/m);
    assert.match(good.stdout, /^DEMO_DATA\s+off$/m);
    assert.ok(!good.stdout.includes('admin-secret-0123456789'), 'config prints the admin key');
  });

  test('openapi prints the OpenAPI 3.1 document as JSON', async () => {
    const result = await runCli(['openapi'], { DATA_DIR: dataDir() });
    assertExit(result, 0);
    const doc = JSON.parse(result.stdout) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(doc.openapi, '3.1.0');
    assert.ok('/api/v1/public/events' in doc.paths);
    assert.ok('/api/v1/admin/feed' in doc.paths);
  });

  test('serve starts, answers with the demo key and 401 without, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const key = 'cli-serve-test-key-0123456789';
    const child = spawnCli(['serve'], {
      DATA_DIR: dataDir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_API_KEY: key,
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const base = `http://127.0.0.1:${port}`;
    try {
      const health = await waitForHealth(base, child, () => `${stdout}\n${stderr}`);
      const body = (await health.json()) as { status: string; store: string };
      assert.deepEqual([body.status, body.store], ['ok', 'sqlite']);

      const withKey = await fetch(`${base}/api/v1/public/sports`, { headers: { 'x-api-key': key } });
      assert.equal(withKey.status, 200);
      assert.equal(((await withKey.json()) as unknown[]).length, 30);
      const bearer = await fetch(`${base}/api/v1/public/events`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(bearer.status, 200);
      assert.deepEqual(await bearer.json(), [], 'DEMO_DATA=off, yet the store holds events');
      const withoutKey = await fetch(`${base}/api/v1/public/sports`);
      assert.equal(withoutKey.status, 401);
      assert.equal(((await withoutKey.json()) as { statusCode: number }).statusCode, 401);
      assert.ok(stderr.includes(`${base}/api/v1/public`), `the start-up banner does not give the URL:\n${stderr}`);

      assert.ok(child.kill('SIGTERM'));
      const [code, signal] = await Promise.race([
        exited,
        sleep(15_000).then(() => assert.fail(`serve did not stop within 15 s of SIGTERM\n${stderr}`)),
      ]);
      assert.equal(signal, null, `serve was ended by ${signal}`);
      assert.equal(code, 0, stderr);
      // The port is free again.
      const gone = await fetch(`${base}/healthz`).catch(() => null);
      assert.equal(gone, null);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  });
});
