import pino from 'pino';
import { stdoutLines } from '../../src/http/log-lines.ts';

/**
 * A process logging through the server's destination, then ending: `exit` calls process.exit, `natural`
 * lets the event loop run out of work. Every third line is given as the function that makes it, as
 * the access line is. Usage: log-lines-child.ts <exit|natural> <lines>
 */
const [ending, count] = process.argv.slice(2);
const lines = stdoutLines({ batchLines: 128, flushMs: 60_000 });
const logger = pino({ base: null, timestamp: false }, lines);
for (let n = 0; n < Number(count); n++) {
  if (n % 3 === 2) lines.later(() => `{"level":30,"n":${n}}\n`);
  else logger.info({ n });
}
if (ending === 'exit') process.exit(0);
