/**
 * One version, package.json's: `altsports --version` and `-v`, /healthz and the OpenAPI
 * document's info.version (the docs page's badge) all say it. And a Node that cannot run the
 * TypeScript sources hands the command to the Node `npm ci` installed, or says in one line what to do.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { fixtureApp } from '../helpers/app.ts';
import { BIN, REPO_ROOT, runCli } from '../helpers/cli.ts';
import { openTestStore } from '../helpers/stores.ts';

const run = promisify(execFile);
const VERSION = (JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

test('altsports --version and -v print package.json version', async () => {
  for (const flag of ['--version', '-v']) {
    const result = await runCli([flag], {});
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${VERSION}\n`);
  }
});

test('/healthz and the OpenAPI document carry the same version; the description names the path version v1', async () => {
  const testStore = await openTestStore('sqlite');
  const { app } = await fixtureApp(testStore.store);
  try {
    const health = await app.inject({ url: '/healthz' });
    assert.equal(health.json().version, VERSION);
    const document = (await app.inject({ url: '/api/v1/public/openapi.json' })).json();
    assert.equal(document.info.version, VERSION);
    assert.match(
      document.info.description,
      /version 1 of the provider's interface \(the `\/api\/v1\/` in their paths\)/,
    );
  } finally {
    await app.close();
    await testStore.cleanup();
  }
});

/**
 * bin/altsports.js copied into a project of its own, version 9.9.9, run by this Node with type
 * stripping turned off: an older Node as far as the command can tell. `bundled` puts a Node where
 * `npm ci` installs one (node_modules/node-<platform>-<arch>/bin/node, a link to this Node).
 */
async function olderNode(bundled: boolean, args: string[]) {
  const root = await mkdtemp(join(tmpdir(), 'altsports-old-node-'));
  try {
    await mkdir(join(root, 'bin'));
    await copyFile(BIN, join(root, 'bin', 'altsports.js'));
    await writeFile(join(root, 'package.json'), '{ "name": "altsports", "version": "9.9.9", "type": "module" }');
    if (bundled) {
      const dir = join(root, 'node_modules', `node-${process.platform}-${process.arch}`);
      await mkdir(join(dir, 'bin'), { recursive: true });
      await writeFile(join(dir, 'package.json'), '{ "name": "node-bundled", "version": "24.0.0" }');
      await symlink(process.execPath, join(dir, 'bin', 'node'));
    }
    return await run(process.execPath, ['--no-experimental-strip-types', join(root, 'bin', 'altsports.js'), ...args], {
      cwd: root,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test('a Node that cannot run the sources hands the command to the Node npm ci installed', async () => {
  const result = await olderNode(true, ['-v']);
  assert.equal(result.stdout, '9.9.9\n');
});

test('without one, it says in one line what to install, and exits 1', async () => {
  const result = await olderNode(false, ['config']);
  assert.equal('code' in result ? result.code : 0, 1);
  assert.equal(result.stdout, '');
  assert.match(
    result.stderr,
    /^altsports needs Node\.js 24 \(or 22\.18 and later\); this is Node [\d.]+\. Install Node 24 LTS, or run `npm ci` in the project, which installs it into node_modules\.\n$/,
  );
});
