/**
 * Runs each script of examples/ as a child process (`node examples/<name>.ts`), the way
 * the examples' README says, against a real `altsports serve --simulate` with the demo data, the
 * demo key and an admin key, and checks what each prints and that it exits 0.
 *
 * The demo is loaded for two competitions only (Supercross and surfing, which the examples use):
 * loading all 30 would take most of the time budget. The changes the poll and stream examples must
 * see are sent by the test (or by import-feed.ts) through the admin feed, so they never wait on the
 * simulator's timing; the simulator runs so that the examples meet a store that moves.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../scripts/free-port.ts';
import { REPO_ROOT, runCli, spawnCli, tempDir } from '../helpers/cli.ts';
import { waitForHealth } from '../helpers/serve.ts';

const ADMIN_KEY = 'examples-admin-key-0123456789';
const DEMO_KEY = 'altsports-demo-key';
const COMPETITIONS = 'spr,wsl';
// The event and heat import-feed.ts writes.
const EXAMPLES_EVENT = 'wsl:7e57feed-0000-4000-8000-000000000001';
const EXAMPLES_HEAT = 'examples-final-h1';

interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('examples/ against a running server', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  let server: ChildProcess;
  let serverOutput = '';
  let base = '';

  before(async () => {
    dir = await tempDir('altsports-examples-');
    const env = { DATA_DIR: dir.dir, DEMO_API_KEY: DEMO_KEY, ADMIN_API_KEY: ADMIN_KEY };
    // Loads the demo of the two competitions (one tick), so the server starts on a store that holds it.
    const loaded = await runCli(['simulate', '--competitions', COMPETITIONS, '--ticks', '1'], env);
    assert.equal(loaded.code, 0, loaded.stderr);

    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawnCli(['serve', '--simulate', '--competitions', COMPETITIONS, '--speed', '10'], {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    });
    server.stdout?.setEncoding('utf8').on('data', (chunk: string) => (serverOutput += chunk));
    server.stderr?.setEncoding('utf8').on('data', (chunk: string) => (serverOutput += chunk));
    process.once('exit', () => server.kill('SIGKILL'));
    await waitForHealth(base, server, () => serverOutput);
  });

  after(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await dir?.cleanup();
  });

  /**
   * Runs `node examples/<name>.ts ...args` with ALTSPORTS_URL pointing at the server (the
   * key is the examples' default, the demo key). `onLine` sees each stdout line as it comes, to act
   * while the example runs.
   */
  function runExample(
    name: string,
    args: string[],
    env: Record<string, string> = {},
    onLine?: (line: string) => void,
  ): Promise<ExampleRun> {
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith('ALTSPORTS_') && key !== 'NODE_TEST_CONTEXT'),
    );
    const child = spawn(process.execPath, [join('examples', `${name}.ts`), ...args], {
      cwd: REPO_ROOT,
      env: { ...inherited, ALTSPORTS_URL: base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine?.(line);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A hung example fails its test rather than the whole run.
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  const ok = (run: ExampleRun) =>
    assert.equal(run.code, 0, `exit ${run.code}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`);

  /** Sends a new score for the first entry of a heat through the admin feed, as an operator's feed would. */
  async function sendScore(eventId: string, heatId: string): Promise<void> {
    const response = await fetch(`${base}/api/v1/public/events/${eventId}/heats/${heatId}`, {
      headers: { 'x-api-key': DEMO_KEY },
    });
    const [row] = (await response.json()) as Array<{
      id: string;
      athleteHeatScore: number | null;
      athlete: { id: string };
    }>;
    if (!row) return; // a heat without entries yet: the simulator will move it
    const feed = {
      heatEntries: [
        {
          id: row.id,
          heatId,
          athleteId: row.athlete.id,
          heatScore: Math.round(((row.athleteHeatScore ?? 0) + 0.01) * 100) / 100,
        },
      ],
    };
    const posted = await fetch(`${base}/api/v1/admin/feed`, {
      method: 'POST',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(feed),
    });
    assert.equal(posted.status, 200, await posted.text());
  }

  /** 304s the server has answered for heat score documents, from its Prometheus metrics. */
  async function heatNotModifiedCount(): Promise<number> {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const line = metrics
      .split('\n')
      .find((l) => l.includes('route="/api/v1/public/events/:eventId/heats/:heatId"') && l.includes('status="304"'));
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  test('import-feed.ts writes a feed, prints its counts, and shows the 400 of a bad batch', async () => {
    const run = await runExample('import-feed', [], { ALTSPORTS_ADMIN_KEY: ADMIN_KEY });
    ok(run);
    // A fresh store: every item is inserted.
    for (const [collection, received] of [
      ['events', 1],
      ['rounds', 1],
      ['heats', 1],
      ['athletes', 2],
      ['heatEntries', 2],
    ] as const) {
      assert.match(
        run.stdout,
        new RegExp(`^\\s+${collection}\\s+${received}\\s+${received}\\s+0\\s+0\\s+0$`, 'm'),
        `${collection} inserted\n${run.stdout}`,
      );
    }
    assert.match(run.stdout, /400: Invalid feed: .*nothing was written/);
    assert.match(run.stdout, /- heats\[0\] \(id "examples-final-h1"\) heatStatus: must be one of/);
    assert.match(run.stdout, /- heatEntries\[0\] \(id "examples-final-h1-ben"\) heatScore: must be number/);
    assert.match(run.stdout, /Ana Example\s+6\.5/, 'the heat reads back through the public API');

    const noKey = await runExample('import-feed', []);
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /ALTSPORTS_ADMIN_KEY/);
  });

  test('poll-scores.ts prints the heat once, counts 304s, and prints the change import-feed.ts sends', async () => {
    let sent: Promise<ExampleRun> | undefined;
    const notModifiedBefore = await heatNotModifiedCount();
    const run = await runExample(
      'poll-scores',
      ['--event', EXAMPLES_EVENT, '--heat', EXAMPLES_HEAT, '--interval', '0.2', '--count', '1', '--timeout', '40'],
      {},
      (line) => {
        if (!line.includes('first copy')) return;
        sent = (async () => {
          // Wait until the poller has been told "not modified" at least once, then change the score.
          const deadline = Date.now() + 30_000;
          while ((await heatNotModifiedCount()) === notModifiedBefore && Date.now() < deadline) await sleep(50);
          return runExample('import-feed', ['--score', '8.75'], { ALTSPORTS_ADMIN_KEY: ADMIN_KEY });
        })();
      },
    );
    ok(run);
    assert.ok(sent, `the first copy was printed\n${run.stdout}`);
    ok(await sent);
    assert.match(run.stdout, new RegExp(`Polling heat ${EXAMPLES_HEAT} of ${EXAMPLES_EVENT}`));
    assert.match(run.stdout, /first copy\s+ETag "[^"]+"\n\s+-\s+Ana Example\s+6\.50/);
    const change = /change 1 \(after (\d+) not modified\)\s+ETag "[^"]+"\n\s+-\s+Ana Example\s+8\.75/.exec(run.stdout);
    assert.ok(change, `the new score is printed\n${run.stdout}`);
    assert.ok(Number(change[1]) >= 1, 'at least one 304 came before the change');
    assert.match(run.stdout, /Done: 1 change\(s\), [1-9]\d* not modified \(304\)\./);
  });

  test('poll-scores.ts picks a live heat by itself and reports a change', async () => {
    let picked: RegExpExecArray | null = null;
    let sent: Promise<void> | undefined;
    const run = await runExample(
      'poll-scores',
      ['--interval', '0.3', '--count', '1', '--timeout', '40'],
      {},
      (line) => {
        picked ??= /^Polling heat (\S+) of (\S+)/.exec(line);
        // The simulator moves live heats too; a score sent after the first copy makes the change certain.
        if (picked && line.includes('first copy')) sent = sendScore(picked[2] as string, picked[1] as string);
      },
    );
    ok(run);
    assert.ok(sent, run.stdout);
    await sent;
    assert.match(run.stdout, /first copy/);
    assert.match(run.stdout, /change 1 \(after \d+ not modified\)/);
    assert.match(run.stdout, /Done: 1 change\(s\)/);
  });

  test('stream-changes.ts prints heatScore changes, saves its position, and resumes from it after a restart', async () => {
    const state = join(dir.dir, 'stream-last-id');
    const filters = [
      '--event',
      EXAMPLES_EVENT,
      '--kind',
      'heatScore',
      '--state',
      state,
      '--count',
      '1',
      '--timeout',
      '40',
    ];
    const first = await runExample('stream-changes', filters, {}, (line) => {
      if (line.startsWith('Connected')) void sendScore(EXAMPLES_EVENT, EXAMPLES_HEAT);
    });
    ok(first);
    assert.match(first.stdout, /^Starting from now$/m);
    const seen = new RegExp(
      `^#(\\d+) heatScore\\s+${EXAMPLES_EVENT} scores in heat\\(s\\) ${EXAMPLES_HEAT}$`,
      'm',
    ).exec(first.stdout);
    assert.ok(seen, first.stdout);
    const savedId = Number(readFileSync(state, 'utf8'));
    assert.equal(savedId, Number(seen[1]), 'the last change id is saved');

    // A change while the example is not running: the next run gets it from the server's log.
    await sendScore(EXAMPLES_EVENT, EXAMPLES_HEAT);
    const second = await runExample('stream-changes', filters);
    ok(second);
    assert.match(second.stdout, new RegExp(`^Resuming after change ${savedId} `, 'm'));
    const replayed = /^#(\d+) heatScore/m.exec(second.stdout);
    assert.ok(replayed && Number(replayed[1]) > savedId, second.stdout);
    assert.ok(Number(readFileSync(state, 'utf8')) > savedId);
  });

  test('stream-changes.ts ends at --timeout when nothing comes (it once ran on past it)', async () => {
    const run = await runExample('stream-changes', [
      '--event',
      EXAMPLES_EVENT,
      '--kind',
      'future',
      '--state',
      join(dir.dir, 'stream-idle-id'),
      '--timeout',
      '2',
    ]);
    ok(run);
    assert.match(run.stdout, /^Done: 0 change\(s\)/m);
  });

  test('price-parlay.ts prices a correlated same game parlay and shows the 422 of contradictory legs', async () => {
    const run = await runExample('price-parlay', []);
    ok(run);
    assert.match(run.stdout, /to win the event\s+\d+\.\d\d%/);
    assert.match(run.stdout, /to make the podium\s+\d+\.\d\d%/);
    const joint = /Joint probability\s+([\d.]+)%\s+= ([\d.]+)/.exec(run.stdout);
    assert.ok(joint, run.stdout);
    const p = Number(joint[2]);
    assert.ok(p > 0 && p < 1, `joint probability ${p}`);
    const independent = Number(/Independent product\s+([\d.]+)%/.exec(run.stdout)?.[1]);
    assert.ok(
      independent > 0 && independent < Number(joint[1]),
      'a winner is always on the podium: the joint probability is above the product',
    );
    assert.ok(Number(/Correlation factor\s+([\d.]+)/.exec(run.stdout)?.[1]) > 1);
    assert.match(run.stdout, /Parlay odds\s+[\d.]+ decimal, [+-]\d+ American/);
    assert.match(run.stdout, /422: Legs .* are outcomes of one single-winner market/);
    assert.match(run.stdout, /conflicting odd ids: \S+eventWinner\S+, \S+eventWinner\S+/);
  });
});
