import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT, tempDir } from '../helpers/cli.ts';
import { type ServeProcess, startServe, stopServe } from '../helpers/serve.ts';

/**
 * The README's tour of the routes is docs/tour.sh: the README shows the script's lines, and here the
 * script runs against a fresh `altsports serve` with the demo, as a newcomer pastes it.
 */
const SCRIPT = join(REPO_ROOT, 'docs', 'tour.sh');

/** The lines a reader pastes: the script without its opening comment. */
function pastedLines(script: string): string {
  const lines = script.split('\n');
  return lines.slice(lines.findIndex((line) => !line.startsWith('#'))).join('\n');
}

/** The error bodies in the tour's output, by status and message. */
function errorBodies(stdout: string): Array<{ statusCode: number; message: string }> {
  const found = stdout.matchAll(/\{"message":"((?:[^"\\]|\\.)*)","statusCode":(\d{3})/g);
  return [...found].map((match) => ({ statusCode: Number(match[2]), message: JSON.parse(`"${match[1]}"`) }));
}

describe('the README tour (docs/tour.sh)', () => {
  let serve: ServeProcess;
  let data: Awaited<ReturnType<typeof tempDir>>;

  before(async () => {
    data = await tempDir('altsports-tour-');
    serve = await startServe({ DATA_DIR: data.dir, DEMO_DATA: 'on' });
  });

  after(async () => {
    await stopServe(serve);
    await data.cleanup();
  });

  test('README.md shows the script as it is', async () => {
    const [script, readme] = await Promise.all([
      readFile(SCRIPT, 'utf8'),
      readFile(join(REPO_ROOT, 'README.md'), 'utf8'),
    ]);
    assert.ok(
      readme.includes(`\`\`\`sh\n${pastedLines(script).trimEnd()}\n\`\`\``),
      'the tour block differs from docs/tour.sh',
    );
  });

  test('every step runs against a fresh server: ids filled from the API, only the errors it shows', async () => {
    const { stdout, stderr } = await promisify(execFile)('bash', ['-u', SCRIPT], {
      env: { ...process.env, HOST: serve.base },
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.doesNotMatch(stderr, /Error|curl: \(\d+\)|unbound variable/, stderr);
    assert.doesNotMatch(stdout, /undefined|<[a-z][^>]* id>/);
    assert.deepEqual(
      errorBodies(stdout).map(({ statusCode }) => statusCode),
      [404, 400, 400],
      'teamMarkets on Supercross, a table tennis id on the lacrosse route, and an unknown eventStatus',
    );
    assert.match(stdout, /"correlationFactor":/, 'the parlay was priced');
    // The demo's prices as a bookmaker publishes them: the winner market and the parlay at two decimals.
    const winners = stdout.slice(stdout.indexOf('"oddType":"eventWinner"'));
    const prices = [...winners.slice(0, winners.indexOf(']}')).matchAll(/"odds":([\d.]+)/g)].map((m) => m[1]);
    prices.push(...[...stdout.matchAll(/"combinedOdds":([\d.]+)/g)].map((m) => m[1]));
    assert.ok(prices.length > 3, 'winner prices and the parlay found');
    for (const price of prices) assert.match(price as string, /^\d+(\.\d{1,2})?$/, 'two decimals at most');
    assert.match(stdout, /"tourYearId":"3ice-/, 'the bracket was found');
    // Step by step: each step's header on a line of its own, each answer ending its line.
    const headers = stdout.match(/^=== \d[\d, -]*\. .+$/gm) ?? [];
    assert.deepEqual(
      headers.map((h) => h.slice(4, h.indexOf('.'))),
      ['1', '2', '3', '4', '5', '6', '7', '8-17', '18, 19'],
    );
    assert.doesNotMatch(stdout, /[}\]]\{|[}\]]\[/, 'no two answers run together on one line');
    assert.match(stdout, /HTTP\/1\.1 200 OK[\s\S]*link: <[^>]*cursor=/i, 'the paged list links its next page');
  });
});
