import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * The thread wal-checkpointer.ts starts: its own connection to the store's file, a PASSIVE checkpoint
 * for each message, 'done' after each, and the connection closed on 'close'.
 */

const port = parentPort;
if (!port) throw new Error('wal-checkpoint-thread.ts runs as a worker thread of wal-checkpointer.ts');
const db = new DatabaseSync((workerData as { file: string }).file, { timeout: 5000 });
port.on('message', (message) => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // A busy store is checkpointed at the next write.
  }
  port.postMessage('done');
});
