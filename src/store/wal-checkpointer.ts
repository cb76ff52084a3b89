import { Worker } from 'node:worker_threads';

/**
 * Checkpoints a SQLite file store's WAL on a thread of its own. SQLite's automatic checkpoint runs
 * inside the COMMIT that takes the WAL past 1,000 pages, on the committing connection: after a large
 * batch it copies the whole batch into the database file in one step (1.2 s for a 56 MB feed, with
 * every request waiting: docs/decisions.md, "Writes never stall reads"). The writer turns it off
 * (`wal_autocheckpoint = 0`), and after each write this thread's own connection runs a PASSIVE
 * checkpoint, which waits for no reader or writer.
 * Requests are coalesced: one checkpoint running, at most one more asked for.
 */
export interface WalCheckpointer {
  /** Asks for a checkpoint after a write (cheap when one is already due). */
  wrote(): void;
  close(): Promise<void>;
}

export function walCheckpointer(file: string): WalCheckpointer {
  const worker = new Worker(new URL('./wal-checkpoint-thread.ts', import.meta.url), { workerData: { file } });
  worker.unref();
  let running = false;
  let due = false;
  let closed = false;
  const start = () => {
    running = true;
    due = false;
    worker.postMessage('checkpoint');
  };
  worker.on('message', () => {
    running = false;
    if (due && !closed) start();
  });
  // A thread that cannot open the file leaves checkpoints to SQLite's next start; it never stops the server.
  worker.on('error', () => {
    closed = true;
  });
  return {
    wrote() {
      if (closed) return;
      if (running) due = true;
      else start();
    },
    async close() {
      if (closed) return;
      closed = true;
      // The thread closes its connection after the checkpoint it may be running, then ends.
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      // Unreferenced while it serves (it never keeps a process alive), referenced while it is awaited.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
