import { writeSync } from 'node:fs';
import pino from 'pino';

/**
 * The server's log destination: JSON lines on stdout, written asynchronously in batches. Lines are
 * gathered here and handed to pino's destination (sonic-boom, in buffer mode) as one buffer of
 * `batchLines` lines, or of what `flushMs` brought. Handed one line at a time, sonic-boom measures the
 * bytes of everything it holds on every line it takes (its string mode's `Buffer.byteLength` of the
 * pending batch): 2.6 µs a line in 4 KiB batches and 5.3 µs in 32 KiB ones, against 0.8 µs a line
 * handed over 128 at a time (2026-11-29, docs/decisions.md "Logs"). pino's other way to write without
 * blocking, a transport, runs a thread of its own whose CPU every answer would pay as well.
 *
 * Lines keep their order: every line, the access line and pino's own, goes through the same batch.
 */
export class LogLines {
  readonly #destination: ReturnType<typeof pino.destination>;
  readonly #batchLines: number;
  #lines: string[] = [];
  /** The destination ended (pino ends it when the process runs out of work): nothing more is written. */
  #ended = false;
  /** Bytes handed to the destination, and written by it: a flush's callback waits for the first to be the second. */
  #handed = 0;
  #written = 0;
  #waiting: Array<{ upTo: number; done: (error?: Error) => void }> = [];

  constructor(destination: ReturnType<typeof pino.destination>, { batchLines = 128, flushMs = 250 } = {}) {
    this.#destination = destination;
    this.#batchLines = batchLines;
    destination.once('close', () => {
      this.#ended = true;
    });
    destination.on('write', (bytes: number) => {
      this.#written += bytes;
      while (this.#waiting[0] && this.#waiting[0].upTo <= this.#written) this.#waiting.shift()?.done();
    });
    destination.on('error', (error: Error) => {
      for (const waiting of this.#waiting.splice(0)) waiting.done(error);
    });
    // A quiet server's last lines do not wait for the batch to fill.
    setInterval(() => this.flush(), flushMs).unref();
    // Before pino's own handler, which flushes its destination and ends it when the process runs out of work.
    process.prependListener('beforeExit', () => this.flush());
    // After pino's, which writes what its destination holds: the lines still here follow them.
    process.once('exit', () => this.writeSync());
  }

  /** pino's stream interface: takes one line (or several), never refuses. */
  write(line: string): boolean {
    this.#lines.push(line);
    if (this.#lines.length >= this.#batchLines) this.flush();
    return true;
  }

  /**
   * Hands the lines held to the destination, which writes them without blocking; `done` (pino's
   * `logger.flush(cb)`) runs once everything handed over so far is written. (sonic-boom's own flush
   * calls back at once when it batches nothing itself, with a write still under way.)
   */
  flush(done?: (error?: Error) => void): void {
    if (this.#lines.length > 0 && !this.#ended) {
      const batch = Buffer.from(this.#lines.join(''));
      this.#lines = [];
      this.#handed += batch.length;
      this.#destination.write(batch as unknown as string);
    }
    if (!done) return;
    if (this.#written >= this.#handed) done();
    else this.#waiting.push({ upTo: this.#handed, done });
  }

  /** The process is exiting: writes the lines still held at once, past the destination (which can no longer write them). */
  writeSync(): void {
    if (this.#lines.length === 0 || this.#ended) return;
    const text = this.#lines.join('');
    this.#lines = [];
    try {
      // sonic-boom's file descriptor: a public field its types leave out.
      writeSync((this.#destination as unknown as { fd: number }).fd, text);
    } catch {
      // Not open yet (the process ends as it starts), or closed: the lines cannot be written anywhere.
    }
  }
}

/** JSON lines to standard output, in batches (see LogLines). */
export function stdoutLines(options?: { batchLines?: number; flushMs?: number }): LogLines {
  return new LogLines(pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }), options);
}
