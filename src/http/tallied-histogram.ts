import { Histogram, type Registry } from 'prom-client';
import { entryOf } from '../base/map-entry.ts';

/**
 * A prom-client histogram over two labels whose observations are tallied in plain arrays and read at
 * scrape. prom-client's own `observe` builds a string of the labels and looks it up as a property on
 * every call, and finds the bucket's count by a number turned into a property name: 0.8 µs of a
 * polling answer's CPU in a busy server's profile, against a few map lookups and a short loop here
 * (docs/decisions.md "The cost of a polling answer"). prom-client has no public way to set a
 * histogram's counts, so this one reports its tallies itself, in prom-client's format, through both
 * ways its registry reads a histogram: `get()` and, for the text exposition, `getForPromString()`. Its
 * test checks the exposition byte for byte against prom-client's own histogram fed the same values.
 */
export class TalliedHistogram<A extends string, B extends string> extends Histogram<A | B> {
  readonly #name: string;
  readonly #help: string;
  readonly #bounds: readonly number[];
  readonly #labels: readonly [A, B];
  readonly #tallies = new Map<string, Map<string, Tally>>();
  /** The same tallies in the order their series began, the order prom-client reports them in. */
  #series: Tally[] = [];

  constructor(config: {
    name: string;
    help: string;
    labelNames: readonly [A, B];
    buckets: number[];
    registers: Registry[];
  }) {
    super({ ...config, labelNames: [...config.labelNames] });
    this.#name = config.name;
    this.#help = config.help;
    this.#bounds = [...config.buckets].sort((a, b) => a - b);
    this.#labels = config.labelNames;
  }

  /** One observation of `value` under the two labels' values (its only way in: `observe` is prom-client's own). */
  tally(first: string, second: string, value: number): void {
    const tally = this.#seriesOf(first, second);
    let bucket = 0;
    while (bucket < this.#bounds.length && value > (this.#bounds[bucket] as number)) bucket++;
    if (bucket < this.#bounds.length) tally.counts[bucket] = (tally.counts[bucket] as number) + 1;
    tally.sum += value;
    tally.count += 1;
  }

  #seriesOf(first: string, second: string): Tally {
    const bySecond = entryOf(this.#tallies, first, () => new Map<string, Tally>());
    return entryOf(bySecond, second, () => {
      const [firstName, secondName] = this.#labels;
      const labels = { [firstName]: first, [secondName]: second };
      const tally = { labels, counts: new Array<number>(this.#bounds.length).fill(0), sum: 0, count: 0 };
      this.#series.push(tally);
      return tally;
    });
  }

  override reset(): void {
    super.reset();
    // prom-client's constructor resets too, before this class's fields exist.
    if (!(#tallies in this)) return;
    this.#tallies.clear();
    this.#series = [];
  }

  /** For the JSON form (`registry.getMetricsAsJSON()`): each sample's labels with the series' labels in them. */
  override async get(): ReturnType<Histogram<A | B>['get']> {
    const report = this.getForPromString();
    const values = report.values.map(({ labels, sharedLabels, ...value }) => ({
      ...value,
      labels: { ...labels, ...sharedLabels },
    }));
    // As prom-client's own returns it: its declared type (an enum for `type`, a `collect`) is not what it returns.
    return { ...report, values } as unknown as Awaited<ReturnType<Histogram<A | B>['get']>>;
  }

  /** What prom-client's registry writes as text: each series' cumulative buckets, then its sum and count. */
  getForPromString() {
    const values: Sample[] = [];
    for (const { labels: sharedLabels, counts, sum, count } of this.#series) {
      let cumulative = 0;
      this.#bounds.forEach((le, bucket) => {
        cumulative += counts[bucket] as number;
        values.push(sample(`${this.#name}_bucket`, { le }, sharedLabels, cumulative, null));
      });
      values.push(
        sample(`${this.#name}_bucket`, { le: '+Inf' }, sharedLabels, count, null),
        sample(`${this.#name}_sum`, {}, sharedLabels, sum),
        sample(`${this.#name}_count`, {}, sharedLabels, count),
      );
    }
    return { name: this.#name, help: this.#help, type: 'histogram' as const, values, aggregator: 'sum' as const };
  }
}

interface Tally {
  labels: Record<string, string>;
  /** Per bucket, the observations that fell in it alone (made cumulative at scrape). */
  counts: number[];
  sum: number;
  count: number;
}

interface Sample {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
  /** prom-client's: null on a bucket (this histogram keeps no exemplars), absent on the sum and count. */
  exemplar: null | undefined;
}

const sample = (
  metricName: string,
  labels: Sample['labels'],
  sharedLabels: Sample['sharedLabels'],
  value: number,
  exemplar?: null,
): Sample => ({ labels, sharedLabels, value, metricName, exemplar });
