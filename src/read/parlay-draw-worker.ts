import { parentPort } from 'node:worker_threads';
import { MatchSamples } from '../domain/pricing/match-samples.ts';
import { ScopeSamples } from '../domain/pricing/parlay.ts';
import { Random } from '../domain/random.ts';
import type { DrawRequest } from './parlay-draws.ts';

/** The worker thread of `parlay-draws.ts`: one draw per message, its arrays handed back (transferred). */

const port = parentPort;
if (!port) throw new Error('parlay-draw-worker.ts runs as a worker thread (read/parlay-draws.ts starts it)');

port.on('message', ({ id, request }: { id: number; request: DrawRequest }) => {
  try {
    const rng = new Random(request.seed);
    const uniform = () => rng.next();
    if (request.kind === 'scope') {
      const places = (
        request.strengths
          ? ScopeSamples.simulate(
              request.runners,
              { shape: request.shape, strengths: request.strengths },
              request.samples,
              uniform,
            )
          : ScopeSamples.fitted(request.runners, request.win, request.shape, request.samples, uniform)
      ).placesOf();
      port.postMessage({ id, places }, [places.buffer as ArrayBuffer]);
    } else {
      const scores = MatchSamples.simulate(request.format, request.model, request.samples, uniform).scoresOf();
      port.postMessage({ id, scores }, [
        scores.periodScores.buffer as ArrayBuffer,
        scores.matchScores.buffer as ArrayBuffer,
      ]);
    }
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
