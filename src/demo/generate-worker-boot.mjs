// The demo generator's thread entry (demo/generate-thread.ts). Worker threads do not inherit the
// process's loader hooks (`--import tsx`, or bin/altsports.js's register()): run from dist/ (npm run
// build), the compiled worker sits beside this file; elsewhere the thread registers tsx itself.
import { existsSync } from 'node:fs';

const built = existsSync(new URL('./generate-worker.js', import.meta.url));
if (!built) (await import('tsx/esm/api')).register();
await import(built ? './generate-worker.js' : './generate-worker.ts');
