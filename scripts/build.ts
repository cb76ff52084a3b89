/**
 * `npm run build`: the checkout compiled to JavaScript in `dist/`, file for file (docs/decisions.md,
 * "Runtime"). Node 20 runs TypeScript only through tsx's loader hooks, which answer every import from a
 * second thread: loading the app that way costs about 3 s of CPU, against 1 s compiled. `dist/` holds
 * every file of the checkout (so that files read at run time, the pages and help.json, sit where the
 * code looks for them), and beside each `.ts` its `.js`, stripped of types by esbuild, with relative
 * imports of `.ts` files renamed `.js`. bin/altsports.js and the parlay draw thread load the compiled
 * files when they run from `dist/`, tsx otherwise. `npm test` and `npm start` build first.
 *
 * A build writes only what changed since the last one: a file whose copy in `dist/` is newer than it is
 * left alone, so that `npm start` pays tens of milliseconds when nothing changed rather than two
 * seconds. A change of this script or of esbuild rebuilds everything (BUILD_STAMP). Files
 * since deleted from the checkout stay in `dist/` until then; nothing imports them.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { transformSync, version } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
/** Never mirrored: dependencies, the build itself, local data and scratch files. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'data', '.scratch', 'tmp']);

/** A relative import or export of a `.ts` file (static, dynamic or bare), to be renamed `.js`. */
const TS_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"'\n]+?)\.ts\2/g;

export function renameImports(code: string): string {
  return code.replace(
    TS_IMPORT,
    (_, keyword: string, quote: string, path: string) => `${keyword}${quote}${path}.js${quote}`,
  );
}

/**
 * `file` compiled for `target`, and its source map, kept in a file of its own beside it (linked): stack
 * traces name the original under --enable-source-maps, as the tests run, while a process that does not
 * ask for maps (`npm start`) does not hold one in the text of every module it loads, in every thread.
 */
function compile(source: string, file: string, target: string): { code: string; map: string } {
  const { code, map } = transformSync(source, {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    sourcemap: 'external',
    sourcefile: relative(dirname(target), file),
  });
  return { code: `${renameImports(code)}//# sourceMappingURL=${basename(target)}.map\n`, map };
}

function mirror(from: string, to: string): number {
  let compiled = 0;
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      compiled += mirror(source, target);
      continue;
    }
    if (!entry.isFile()) continue;
    const changed = statSync(source).mtimeMs;
    if (!isNewer(target, changed)) copyFileSync(source, target);
    if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      const compiledTarget = target.replace(/\.ts$/, '.js');
      if (isNewer(compiledTarget, changed)) continue;
      const { code, map } = compile(readFileSync(source, 'utf8'), source, compiledTarget);
      writeFileSync(`${compiledTarget}.map`, map);
      writeFileSync(compiledTarget, code);
      compiled++;
    }
  }
  return compiled;
}

/** True when `file` exists and was written after `mtimeMs`. */
function isNewer(file: string, mtimeMs: number): boolean {
  return (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1) >= mtimeMs;
}

/** What the compiled files depend on besides their sources: this script and the compiler. */
const BUILD_STAMP = join(DIST, '.build-stamp');

/** Compiles what changed since the last build (everything after a change of BUILD_STAMP); the count compiled. */
export function build(): number {
  const stamp = `esbuild ${version}\n${readFileSync(import.meta.filename, 'utf8')}`;
  const previous = statSync(BUILD_STAMP, { throwIfNoEntry: false }) ? readFileSync(BUILD_STAMP, 'utf8') : null;
  if (previous !== stamp) rmSync(DIST, { recursive: true, force: true });
  const compiled = mirror(ROOT, DIST);
  writeFileSync(BUILD_STAMP, stamp);
  return compiled;
}

if (process.argv[1] === import.meta.filename) {
  const began = performance.now();
  const compiled = build();
  // Quiet when nothing changed: `npm start` runs this first.
  if (compiled > 0)
    console.log(`dist/: ${compiled} TypeScript files compiled in ${Math.round(performance.now() - began)} ms`);
}
