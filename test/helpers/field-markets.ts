/**
 * A test oracle, not the engine: the engine prices exactly (src/domain/pricing/exact-field.ts); the
 * tests check it against these sampled estimates, which no production code needs.
 *
 * Fair probabilities of the field markets of one event or heat, all read from one set of simulated
 * finishing orders (finishing-order.ts), so that they cannot disagree with each other: the winner,
 * each place, top k, head-to-head, exactas to superfectas and over/under finishing position.
 * Positions are 1-based, as published.
 */
export class FieldMarkets {
  readonly samples: number;
  /** ranks[s * runners + i]: runner i's place (1-based) in sample s. */
  private readonly ranks: Int32Array;
  /** placeCounts[i * runners + (k - 1)]: samples in which runner i finished k-th. */
  private readonly placeCounts: Float64Array;

  private readonly orders: Int32Array;
  readonly runners: number;

  constructor(orders: Int32Array, runners: number) {
    this.orders = orders;
    this.runners = runners;
    if (runners < 2 || orders.length === 0 || orders.length % runners !== 0)
      throw new RangeError('orders must hold whole finishing orders of at least two runners');
    this.samples = orders.length / runners;
    this.ranks = new Int32Array(orders.length);
    this.placeCounts = new Float64Array(runners * runners);
    for (let s = 0; s < this.samples; s++) {
      for (let k = 0; k < runners; k++) {
        const runner = orders[s * runners + k] as number;
        this.ranks[s * runners + runner] = k + 1;
        this.placeCounts[runner * runners + k] = (this.placeCounts[runner * runners + k] as number) + 1;
      }
    }
  }

  private check(runner: number): void {
    if (!Number.isInteger(runner) || runner < 0 || runner >= this.runners) throw new RangeError(`no runner ${runner}`);
  }

  /** P(runner finishes exactly `place`-th). */
  place(runner: number, place: number): number {
    this.check(runner);
    if (!Number.isInteger(place) || place < 1 || place > this.runners) return 0;
    return (this.placeCounts[runner * this.runners + place - 1] as number) / this.samples;
  }

  win(runner: number): number {
    return this.place(runner, 1);
  }

  /** P(runner finishes in the top `k`): podiums and shows are k = 3, raceTop5/10 are 5 and 10. */
  top(runner: number, k: number): number {
    let sum = 0;
    for (let place = 1; place <= Math.min(k, this.runners); place++) sum += this.place(runner, place);
    return sum;
  }

  /** P(a finishes ahead of b). */
  headToHead(a: number, b: number): number {
    this.check(a);
    this.check(b);
    if (a === b) throw new RangeError('a head-to-head needs two runners');
    let ahead = 0;
    for (let s = 0; s < this.samples; s++)
      if ((this.ranks[s * this.runners + a] as number) < (this.ranks[s * this.runners + b] as number)) ahead += 1;
    return ahead / this.samples;
  }

  /** P(the first places are exactly `sequence`): exacta (2), trifecta (3), superfecta (4). */
  sequence(sequence: readonly number[]): number {
    for (const runner of sequence) this.check(runner);
    if (new Set(sequence).size !== sequence.length) return 0;
    let hits = 0;
    for (let s = 0; s < this.samples; s++) {
      let all = true;
      for (let k = 0; k < sequence.length && all; k++) all = this.orders[s * this.runners + k] === sequence[k];
      if (all) hits += 1;
    }
    return hits / this.samples;
  }

  /** Over/under on a runner's finishing position: OVER wins when the position is above `line` (x.5). */
  finishingPosition(runner: number, line: number): { over: number; under: number } {
    if (!Number.isFinite(line) || Math.abs((line % 1) - 0.5) > 1e-9)
      throw new RangeError('a finishing-position line is a half (3.5), so that it cannot push');
    const under = this.top(runner, Math.floor(line));
    return { over: 1 - under, under };
  }
}
