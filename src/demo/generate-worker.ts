import { parentPort, workerData } from 'node:worker_threads';
import { generateDemoFeeds } from './generate.ts';
import type { ThreadOptions } from './generate-thread.ts';

/**
 * The demo's feed documents generated on a thread of their own (demo/generate-thread.ts): each posted
 * as it is made, in order, then null.
 */
const { now, clock, ...options } = workerData as ThreadOptions;
const port = parentPort;
if (port) {
  for (const document of generateDemoFeeds({
    ...options,
    now: new Date(now),
    ...(clock === undefined ? {} : { clock: new Date(clock) }),
  }))
    port.postMessage(document);
  port.postMessage(null);
}
