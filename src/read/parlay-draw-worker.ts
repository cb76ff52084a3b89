import { Piscina } from 'piscina';
import { MatchSamples } from '../domain/pricing/match-samples.ts';
import { ScopeSamples } from '../domain/pricing/parlay.ts';
import { Random } from '../domain/random.ts';
import type { DrawReply, DrawRequest } from './parlay-draws.ts';

/**
 * The draw of one simulation on a thread of the pool (read/parlay-draws.ts): a scope's places are handed
 * back (moved, not copied); a match's scores are copied.
 */
export function draw(request: DrawRequest): DrawReply {
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
    // Moved only as the value returned itself: piscina transfers nothing nested in an object.
    return Piscina.move(places) as typeof places;
  }
  const scores = MatchSamples.simulate(request.format, request.model, request.samples, uniform).scoresOf();
  return scores;
}

/**
 * The pool's handler, as piscina calls it. A null task only starts the thread (ParlayPool.warmUp): the
 * loading is what takes time.
 */
export default (request: DrawRequest | null): DrawReply | null => (request === null ? null : draw(request));
