import { Worker } from 'node:worker_threads';
import type { FeedDocument } from '../ingest/feed-schema.ts';
import type { DemoOptions } from './generate.ts';

/** DemoOptions as a thread receives them: its times as milliseconds. */
export interface ThreadOptions extends Omit<DemoOptions, 'now' | 'clock'> {
  now: number;
  clock?: number;
}

/** Feed documents being generated on another thread, taken in the order they were made. */
export interface DocumentsInThread extends AsyncIterable<FeedDocument> {
  /** Ends the thread early (the documents not taken are dropped); resolves once it has ended. */
  close(): Promise<void>;
}

/**
 * The demo dataset's documents (generateDemoFeeds, the same ones) made on a worker thread, started
 * at once: `altsports serve` builds the app and writes the first documents while the rest are priced
 * (docs/decisions.md, "The demo's first start"). A thread that fails rejects the iteration.
 */
export function generateInThread(options: DemoOptions): DocumentsInThread {
  const worker = new Worker(new URL('./generate-worker.ts', import.meta.url), {
    workerData: threadOptions(options),
  });
  const made: FeedDocument[] = [];
  let done = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (document: FeedDocument | null) => {
    if (document === null) done = true;
    else made.push(document);
    notify();
  });
  worker.on('error', (error: Error) => {
    failure = error;
    notify();
  });
  worker.on('exit', (code) => {
    if (!done && !failure) failure = new Error(`the demo generator's thread stopped (exit code ${code})`);
    notify();
  });
  let taken = 0;
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          if (taken < made.length) {
            const document = made[taken] as FeedDocument;
            // Dropped once taken: the documents are large.
            made[taken++] = undefined as unknown as FeedDocument;
            yield document;
          } else if (done) return;
          else if (failure) throw failure;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      } finally {
        if (!done) await worker.terminate();
      }
    },
    async close() {
      await worker.terminate();
    },
  };
}

function threadOptions({ now, clock, ...rest }: DemoOptions): ThreadOptions {
  return { ...rest, now: now.getTime(), ...(clock === undefined ? {} : { clock: clock.getTime() }) };
}
