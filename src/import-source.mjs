// Imports one of the project's TypeScript modules: its compiled copy when the caller runs from dist/
// (npm run build, scripts/build.ts), or runs from the checkout while dist/ holds a build no older than
// any source file; else the source through tsx's loader. The loader is registered once per thread:
// worker threads do not inherit the process's hooks. Plain JavaScript, so that the entry points
// (bin/altsports.js, the worker threads' boot files) can load it before any loader.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let registered = false;

/** `source`: the URL of a `.ts` file. */
export async function importSource(source) {
  const compiled = new URL(source.href.replace(/\.ts$/, '.js'));
  if (existsSync(compiled)) return import(compiled.href);
  const built = builtCopy(source);
  if (built) return import(built.href);
  if (!registered) {
    (await import('tsx/esm/api')).register();
    registered = true;
  }
  return import(source.href);
}

const ROOT = new URL('../', import.meta.url);
const DIST = new URL('dist/', ROOT);
let distFresh;

/** The compiled copy in dist/ of a checkout's source, when every source file is built (else null). */
function builtCopy(source) {
  if (!source.href.startsWith(ROOT.href)) return null;
  // Once per process: a few hundred stats, about as long as starting tsx takes in a hundredth.
  distFresh ??= isBuilt(fileURLToPath(new URL('src/', ROOT)), fileURLToPath(new URL('src/', DIST)));
  if (!distFresh) return null;
  return new URL(source.href.slice(ROOT.href.length).replace(/\.ts$/, '.js'), DIST);
}

/** True when `built` holds, for every file under `from`, a copy (or a compiled `.js`) written after it. */
function isBuilt(from, built) {
  const stamp = statSync(fileURLToPath(new URL('.build-stamp', DIST)), { throwIfNoEntry: false });
  if (!stamp || stamp.mtimeMs < statSync(fileURLToPath(new URL('scripts/build.ts', ROOT))).mtimeMs) return false;
  for (const entry of readdirSync(from, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = `${entry.parentPath ?? entry.path}/${entry.name}`;
    const relative = path.slice(from.length);
    const target =
      relative.endsWith('.ts') && !relative.endsWith('.d.ts') ? relative.replace(/\.ts$/, '.js') : relative;
    const copy = statSync(`${built}${target}`, { throwIfNoEntry: false });
    if (!copy || copy.mtimeMs < statSync(path).mtimeMs) return false;
  }
  return true;
}
