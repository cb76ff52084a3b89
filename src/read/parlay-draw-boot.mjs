// The parlay draw pool's worker entry (read/parlay-draws.ts). Worker threads do not inherit the
// process's loader hooks (`--import tsx`, or bin/altsports.js's register()): the thread registers tsx
// itself, then hands piscina the TypeScript worker's handler. A null task only starts the thread
// (ParlayPool.warmUp): the loading is what takes time.
import { setPriority } from 'node:os';
import { register } from 'tsx/esm/api';

// Draws are background work: the thread runs at the lowest priority, so that on a busy machine the
// kernel schedules the event loop's thread (every request, the ingest) first. Linux keeps a nice value
// per thread; elsewhere this call would lower the whole process, so there the thread keeps its own.
if (process.platform === 'linux') setPriority(19);
register();
const { draw } = await import('./parlay-draw-worker.ts');
export default (request) => (request === null ? null : draw(request));
