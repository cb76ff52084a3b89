// The parlay draw pool's worker entry (read/parlay-draws.ts). Worker threads do not inherit the
// process's loader hooks (`--import tsx`, or bin/altsports.js's register()): the thread registers tsx
// itself, then hands piscina the TypeScript worker's handler. A null task only starts the thread
// (ParlayPool.warmUp): the loading is what takes time.
import { existsSync } from 'node:fs';

// Run from dist/ (npm run build), the compiled worker sits beside this file; elsewhere tsx compiles it.
const built = existsSync(new URL('./parlay-draw-worker.js', import.meta.url));
if (!built) (await import('tsx/esm/api')).register();
const { draw } = await import(built ? './parlay-draw-worker.js' : './parlay-draw-worker.ts');
export default (request) => (request === null ? null : draw(request));
