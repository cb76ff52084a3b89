import pino from 'pino';
import { stdoutLines } from '../../src/http/log-lines.ts';

/**
 * A process logging through the server's destination, then ending: `exit` calls process.exit, `natural`
 * lets the event loop run out of work. Usage: log-lines-child.ts <exit|natural> <lines>
 */
const [ending, count] = process.argv.slice(2);
const logger = pino({ base: null, timestamp: false }, stdoutLines({ batchLines: 128, flushMs: 60_000 }));
for (let n = 0; n < Number(count); n++) logger.info({ n });
if (ending === 'exit') process.exit(0);
