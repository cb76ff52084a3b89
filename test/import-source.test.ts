import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const IMPORT_SOURCE = new URL('../src/import-source.mjs', import.meta.url);
/** The project's dependencies (tsx among them), wherever this test runs from. */
const NODE_MODULES = fileURLToPath(import.meta.resolve('tsx')).replace(/(node_modules)\/.*$/, '$1');

/**
 * A checkout in miniature: src/ with import-source.mjs and a module, scripts/build.ts, and a dist/
 * holding the module's compiled copy. Each module says where it was loaded from.
 */
async function checkout() {
  const root = await mkdtemp(join(tmpdir(), 'altsports-import-source-'));
  for (const dir of ['src', 'scripts', 'dist/src']) await mkdir(join(root, dir), { recursive: true });
  await copyFile(IMPORT_SOURCE, join(root, 'src', 'import-source.mjs'));
  await symlink(NODE_MODULES, join(root, 'node_modules'));
  await writeFile(join(root, 'package.json'), '{ "type": "module" }');
  await writeFile(join(root, 'scripts', 'build.ts'), '');
  await writeFile(join(root, 'src', 'where.ts'), "export const where: string = 'source';\n");
  await writeFile(join(root, 'src', 'notes.json'), '{}');
  const past = new Date(Date.now() - 60_000);
  for (const file of ['scripts/build.ts', 'src/where.ts', 'src/notes.json', 'src/import-source.mjs'])
    await utimes(join(root, file), past, past);
  await writeFile(join(root, 'dist', 'src', 'where.js'), "export const where = 'dist';\n");
  await writeFile(join(root, 'dist', 'src', 'notes.json'), '{}');
  await copyFile(IMPORT_SOURCE, join(root, 'dist', 'src', 'import-source.mjs'));
  await writeFile(join(root, 'dist', '.build-stamp'), 'stamp');
  const load = async (copy: number) => {
    // A URL of its own each time: one module instance per load, as in a new process.
    const { importSource } = await import(`${pathToFileURL(join(root, 'src', 'import-source.mjs')).href}?${copy}`);
    return (await importSource(pathToFileURL(join(root, 'src', 'where.ts')))) as { where: string };
  };
  return { root, load, cleanup: () => rm(root, { recursive: true, force: true }) };
}

test('from the checkout, a module is loaded from dist/ while every source file is built, else from its source', async () => {
  const { root, load, cleanup } = await checkout();
  try {
    assert.equal((await load(1)).where, 'dist');
    // A source file changed since the build: the sources, through tsx.
    await utimes(join(root, 'src', 'notes.json'), new Date(), new Date(Date.now() + 60_000));
    assert.equal((await load(2)).where, 'source');
  } finally {
    await cleanup();
  }
});

test('a build script newer than the build, or no build at all, means the sources', async () => {
  const { root, load, cleanup } = await checkout();
  try {
    await utimes(join(root, 'scripts', 'build.ts'), new Date(), new Date(Date.now() + 60_000));
    assert.equal((await load(3)).where, 'source');
    await rm(join(root, 'dist'), { recursive: true });
    assert.equal((await load(4)).where, 'source');
  } finally {
    await cleanup();
  }
});
