// The demo generator's thread entry (demo/generate-thread.ts). Worker threads do not inherit the
// process's loader hooks (`--import tsx`, or bin/altsports.js's register()): the thread registers tsx
// itself, then runs the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./generate-worker.ts');
