import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, tempDir } from '../helpers/cli.ts';

/** A store that cannot be opened stops the command with one line naming where and why: no stack, no hang. */
const noStack = (stderr: string) => assert.doesNotMatch(stderr, /^\s+at /m, stderr);

test('a corrupt SQLite file: serve stops, naming the file and the reason', async () => {
  const { dir, cleanup } = await tempDir('altsports-corrupt-');
  try {
    const file = join(dir, 'altsports.db');
    await writeFile(file, randomBytes(64 * 1024));
    const result = await runCli(['serve'], { DATA_DIR: dir, PORT: '0' });
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim(), `altsports serve: cannot open the store at ${file}: file is not a database`);
    noStack(result.stderr);
  } finally {
    await cleanup();
  }
});

test('a DATA_DIR that cannot be created (under /proc): serve stops at once, naming the directory', async () => {
  const result = await runCli(['serve'], { DATA_DIR: '/proc/altsports/data', PORT: '0' });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /cannot open the store at \/proc\/altsports\/data\/altsports\.db: .*mkdir '\/proc\/altsports'/,
  );
  noStack(result.stderr);
});
