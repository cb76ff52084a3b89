import { writeSync } from 'node:fs';
import pino from 'pino';

/**
 * The server's log destination: JSON lines on stdout, written asynchronously in batches. Each line is
 * encoded into the batch's buffer as it comes, and the buffer is handed to pino's destination
 * (sonic-boom, in buffer mode) once it holds `batchLines` lines, or what `flushMs` brought.
 *
 * Why not hand sonic-boom each line: its string mode measures the bytes of everything it holds on
 * every line it takes (`Buffer.byteLength` of the pending batch), 2.6 µs a line in 4 KiB batches.
 * Why encode each line at once rather than join a batch of strings: a line is made of many pieces (a
 * template's parts), and flattening 128 such lines at once, their pieces long out of the CPU's cache,
 * cost 0.9 µs a line in a busy server's profile (docs/decisions.md "Logs"). pino's other way to write
 * without blocking, a transport, runs a thread of its own whose CPU every answer would pay as well.
 *
 * A line may also be given as the function that makes it (`later`): it is made with the batch, when
 * the batch is handed over or before the next line written, so that a busy server makes its access
 * lines together rather than one in each answer (docs/decisions.md "The cost of a polling answer").
 *
 * Lines keep their order: every line, the access line and pino's own, goes through the same batch.
 */
export class LogLines {
  readonly #destination: ReturnType<typeof pino.destination>;
  readonly #batchLines: number;
  /** The batch being filled: `#used` bytes of `#batch`, `#count` lines. A buffer handed over is not written to again. */
  #batch = Buffer.allocUnsafe(BATCH_BYTES);
  #used = 0;
  #count = 0;
  /** Lines given by `later`, to be made in order before anything else is written. */
  #unmade: Array<() => string> = [];
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
    this.#makeUnmade();
    this.#append(line);
    if (this.#count >= this.#batchLines) this.flush();
    return true;
  }

  /** Takes a line as the function that makes it, called once, with the batch (see above). */
  later(make: () => string): void {
    this.#unmade.push(make);
    if (this.#count + this.#unmade.length >= this.#batchLines) this.flush();
  }

  #makeUnmade(): void {
    if (this.#unmade.length === 0) return;
    const unmade = this.#unmade;
    this.#unmade = [];
    for (const make of unmade) this.#append(make());
  }

  #append(line: string): void {
    // Room for the line however it encodes (UTF-8 takes at most 3 bytes per UTF-16 unit).
    if (this.#used + line.length * 3 > this.#batch.length) {
      if (this.#used > 0) this.#hand(this.#take());
      if (line.length * 3 > this.#batch.length) {
        this.#hand(Buffer.from(line));
        return;
      }
    }
    this.#used += this.#batch.write(line, this.#used);
    this.#count++;
  }

  /**
   * Hands the lines held to the destination, which writes them without blocking; `done` (pino's
   * `logger.flush(cb)`) runs once everything handed over so far is written. (sonic-boom's own flush
   * calls back at once when it batches nothing itself, with a write still under way.)
   */
  flush(done?: (error?: Error) => void): void {
    this.#makeUnmade();
    if (this.#used > 0) this.#hand(this.#take());
    if (!done) return;
    if (this.#written >= this.#handed) done();
    else this.#waiting.push({ upTo: this.#handed, done });
  }

  /** The lines held, as bytes; the next lines go into a new buffer. */
  #take(): Buffer {
    const held = this.#batch.subarray(0, this.#used);
    this.#batch = Buffer.allocUnsafe(BATCH_BYTES);
    this.#used = 0;
    this.#count = 0;
    return held;
  }

  #hand(bytes: Buffer): void {
    if (this.#ended) return;
    this.#handed += bytes.length;
    this.#destination.write(bytes as unknown as string);
  }

  /** The process is exiting: writes the lines still held at once, past the destination (which can no longer write them). */
  writeSync(): void {
    if (this.#ended) return;
    // The lines still to be made follow the batch's, in one write (made into the batch, they could overflow it).
    const unmade = this.#unmade.splice(0).map((make) => make());
    const held = unmade.length === 0 ? this.#take() : Buffer.concat([this.#take(), Buffer.from(unmade.join(''))]);
    if (held.length === 0) return;
    try {
      // sonic-boom's file descriptor: a public field its types leave out.
      writeSync((this.#destination as unknown as { fd: number }).fd, held);
    } catch {
      // Not open yet (the process ends as it starts), or closed: the lines cannot be written anywhere.
    }
  }
}

/** A batch's buffer: 128 access lines of about 330 bytes, with room to spare. */
const BATCH_BYTES = 64 * 1024;

/** JSON lines to standard output, in batches (see LogLines). */
export function stdoutLines(options?: { batchLines?: number; flushMs?: number }): LogLines {
  return new LogLines(pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }), options);
}
