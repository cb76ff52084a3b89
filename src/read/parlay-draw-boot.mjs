// The parlay draw pool's worker entry (read/parlay-draws.ts). Worker threads do not inherit the
// process's loader hooks (`--import tsx`, or bin/altsports.js's register()): the thread registers tsx
// itself, then hands piscina the TypeScript worker's handler. A null task only starts the thread
// (ParlayPool.warmUp): the loading is what takes time.
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';

// Run from dist/ (npm run build), the compiled worker sits beside this file; elsewhere tsx compiles it.
const built = existsSync(new URL('./parlay-draw-worker.js', import.meta.url));
if (!built) (await import('tsx/esm/api')).register();
const { draw } = await import(built ? './parlay-draw-worker.js' : './parlay-draw-worker.ts');
// Draws are background work: the thread runs at the lowest priority, so that on a busy machine the
// kernel schedules the event loop's thread (every request, the ingest) first. Only once loaded: a
// server closing waits for a thread still starting. Linux keeps a nice value per thread; elsewhere
// this call would lower the whole process, so there the thread keeps its own.
if (process.platform === 'linux') setPriority(19);
export default (request) => (request === null ? null : draw(request));
