// The parlay draw pool's worker entry (read/parlay-draws.ts). Worker threads do not inherit the
// process's loader hooks (`--import tsx`, or bin/altsports.js's register()): the thread registers tsx
// itself, then hands piscina the TypeScript worker's handler. A null task only starts the thread
// (ParlayPool.warmUp): the loading is what takes time.
import { register } from 'tsx/esm/api';

register();
const { draw } = await import('./parlay-draw-worker.ts');
export default (request) => (request === null ? null : draw(request));
