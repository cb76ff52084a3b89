// The demo generator's thread entry (demo/generate-thread.ts): the worker, compiled or through tsx
// (import-source.mjs).
import { importSource } from '../import-source.mjs';

await importSource(new URL('./generate-worker.ts', import.meta.url));
