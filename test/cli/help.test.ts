import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { HELP_FILE, helpDocument } from '../../scripts/cli-help.ts';
import { REPO_ROOT, tempDir } from '../helpers/cli.ts';

test("src/cli/help.json holds every command's help as the commands declare it (else: npm run cli:help)", async () => {
  assert.equal(await readFile(HELP_FILE, 'utf8'), await helpDocument());
});

test('--help is answered without TypeScript: the command and its help file alone, no node_modules', async () => {
  const { dir, cleanup } = await tempDir('altsports-help-');
  try {
    await mkdir(join(dir, 'bin'));
    await mkdir(join(dir, 'src', 'cli'), { recursive: true });
    await copyFile(join(REPO_ROOT, 'bin', 'altsports.js'), join(dir, 'bin', 'altsports.js'));
    await copyFile(HELP_FILE, join(dir, 'src', 'cli', 'help.json'));
    const texts = JSON.parse(await readFile(HELP_FILE, 'utf8')) as Record<string, string>;
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, [join(dir, 'bin', 'altsports.js'), ...args]);
    assert.equal((await run('--help')).stdout, `${texts['']}\n`);
    for (const command of Object.keys(texts).filter(Boolean)) {
      assert.equal((await run(command, '--help')).stdout, `${texts[command]}\n`, command);
      assert.equal((await run(command, '-h')).stdout, `${texts[command]}\n`, command);
    }
    // Anything else needs the TypeScript sources, which this copy lacks.
    await assert.rejects(run('keys', 'list'), /Cannot find (package|module)/);
  } finally {
    await cleanup();
  }
});
