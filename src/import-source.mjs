// Imports one of the project's TypeScript modules: its compiled copy when the caller runs from dist/
// (npm run build, scripts/build.ts), else the source through tsx's loader. The loader is registered
// once per thread: worker threads do not inherit the process's hooks. Plain JavaScript, so that the
// entry points (bin/altsports.js, the worker threads' boot files) can load it before any loader.
import { existsSync } from 'node:fs';

let registered = false;

/** `source`: the URL of a `.ts` file. */
export async function importSource(source) {
  const compiled = new URL(source.href.replace(/\.ts$/, '.js'));
  if (existsSync(compiled)) return import(compiled.href);
  if (!registered) {
    (await import('tsx/esm/api')).register();
    registered = true;
  }
  return import(source.href);
}
