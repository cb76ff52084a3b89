import { hashSeed, Random } from '../domain/random.ts';

/**
 * A Random that counts its draws, so that its stream can be picked up again at any point: the demo
 * draws a competition's events from one stream, and the simulator rebuilds one event at a later time
 * from where that stream stood when the event's turn came.
 */
export class ReplayRandom extends Random {
  draws = 0;

  readonly seed: number;

  constructor(seed: number) {
    super(seed);
    this.seed = seed;
  }

  override uint32(): number {
    this.draws++;
    return super.uint32();
  }

  /** Random.fork's stream (the same draws), counted. */
  static fork(parent: Random, label: string | number): ReplayRandom {
    return new ReplayRandom(hashSeed(parent.uint32(), label));
  }

  /** The stream of `seed` after its first `draws` draws. */
  static resume(seed: number, draws: number): ReplayRandom {
    const rng = new ReplayRandom(seed);
    while (rng.draws < draws) rng.uint32();
    return rng;
  }
}
