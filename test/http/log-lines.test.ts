import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pino from 'pino';
import { LogLines } from '../../src/http/log-lines.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'log-lines-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** LogLines over a file destination, as the server's are over stdout. */
async function toFile(options: { batchLines: number; flushMs: number }) {
  const file = join(dir, `lines-${files++}.log`);
  const destination = pino.destination({ dest: file, sync: false, contentMode: 'buffer' });
  await new Promise((resolve) => destination.once('ready', resolve));
  return { lines: new LogLines(destination, options), read: () => readFileSync(file, 'utf8') };
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 200 && !check(); i++) await sleep(10);
  assert.ok(check(), what);
}

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `{"n":${i}}\n`);

describe('LogLines', () => {
  test('a full batch is written at once, in order; the lines after it wait for the next, or a flush', async () => {
    const { lines, read } = await toFile({ batchLines: 4, flushMs: 60_000 });
    for (const line of numbered(6)) lines.write(line);
    await until(() => read() !== '', 'the first batch is written');
    await sleep(50);
    assert.equal(read(), numbered(4).join(''));
    lines.flush();
    await until(() => read() === numbered(6).join(''), 'the rest, once flushed');
  });

  test('lines short of a batch are written within flushMs', async () => {
    const { lines, read } = await toFile({ batchLines: 1_000, flushMs: 50 });
    for (const line of numbered(3)) lines.write(line);
    assert.equal(read(), '', 'held until the batch fills or the timer runs');
    await until(() => read() === numbered(3).join(''), 'written by the timer');
  });

  test('lines are written byte for byte, in order: text beyond ASCII, a batch filled by bytes, a line longer than a batch', async () => {
    const { lines, read } = await toFile({ batchLines: 1_000, flushMs: 60_000 });
    const written = [
      '{"url":"/événements/ß/日本"}\n',
      ...Array.from({ length: 300 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(400)}"}\n`),
      `{"long":"${'é'.repeat(100_000)}"}\n`,
      '{"after":"🏄"}\n',
    ];
    for (const line of written) lines.write(line);
    lines.flush();
    await until(() => read().length === written.join('').length, 'everything written');
    assert.equal(read(), written.join(''));
  });

  test('a line given as the function that makes it is made once, in its place among the lines written', async () => {
    const { lines, read } = await toFile({ batchLines: 1_000, flushMs: 60_000 });
    let made = 0;
    const later = (n: number) => () => {
      made++;
      return `{"n":${n}}\n`;
    };
    lines.later(later(0));
    lines.write('{"n":1}\n');
    lines.later(later(2));
    lines.later(later(3));
    assert.equal(made, 1, 'made before the line written after it, not before it is needed');
    lines.flush();
    await until(() => read() === numbered(4).join(''), 'all four, in order');
    assert.equal(made, 3);
  });

  test('lines to be made count towards the batch: a full batch is made and written at once', async () => {
    const { lines, read } = await toFile({ batchLines: 4, flushMs: 60_000 });
    for (const [n, line] of numbered(4).entries()) {
      if (n % 2 === 0) lines.write(line);
      else lines.later(() => line);
    }
    await until(() => read() === numbered(4).join(''), 'the batch, without a flush');
  });

  test("pino's logger.flush(cb) calls back once every line it logged is written", async () => {
    const { lines, read } = await toFile({ batchLines: 1_000, flushMs: 60_000 });
    const logger = pino({ base: null, timestamp: false }, lines);
    for (let n = 0; n < 3; n++) logger.info({ n });
    await new Promise<void>((resolve, reject) => logger.flush((error) => (error ? reject(error) : resolve())));
    assert.equal(read(), [0, 1, 2].map((n) => `{"level":30,"n":${n}}\n`).join(''));
  });

  const child = fileURLToPath(new URL('../helpers/log-lines-child.ts', import.meta.url));
  // Ending by process.exit, only lines short of a batch: a batch sonic-boom is writing at that moment
  // is on a libuv thread, and lost or written out of order, as with any asynchronous pino destination
  // (the server ends by running out of work, not by process.exit).
  const endings = [
    ['exit', 100, 'process.exit'],
    ['natural', 300, 'out of work, after several batches'],
  ] as const;
  for (const [ending, count, how] of endings) {
    test(`a process that ends (${how}) writes every line it logged, in order`, async () => {
      const { stdout } = await run(process.execPath, [child, ending, String(count)]);
      const got = stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { n: number }).n);
      assert.deepEqual(
        got,
        Array.from({ length: count }, (_, i) => i),
      );
    });
  }
});
