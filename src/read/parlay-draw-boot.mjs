// The parlay draw pool's worker entry (read/parlay-draws.ts). Worker threads do not inherit the
// process's loader hooks: the thread loads the worker compiled or through tsx (import-source.mjs), then
// hands piscina its handler. A null task only starts the thread (ParlayPool.warmUp): the loading is
// what takes time.
import { importSource } from '../import-source.mjs';

const { draw } = await importSource(new URL('./parlay-draw-worker.ts', import.meta.url));
export default (request) => (request === null ? null : draw(request));
