import { parentPort } from 'node:worker_threads';
import { ScopeSamples } from '../domain/pricing/parlay.ts';
import { Random } from '../domain/random.ts';
import type { ScopeDraw } from './scope-draws.ts';

/** The worker thread of `scope-draws.ts`: draws one scope's finishing orders per message. */

const port = parentPort;
if (!port) throw new Error('scope-draw-worker.ts runs as a worker thread (read/scope-draws.ts starts it)');

port.on('message', (message: { id: number; draw: ScopeDraw }) => {
  const { id, draw } = message;
  try {
    const rng = new Random(draw.seed);
    const places = ScopeSamples.fitted(draw.runners, draw.win, draw.shape, draw.samples, () => rng.next()).placesOf();
    port.postMessage({ id, places }, [places.buffer as ArrayBuffer]);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
