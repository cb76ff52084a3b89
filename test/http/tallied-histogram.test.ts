import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Histogram, Registry } from 'prom-client';
import { TalliedHistogram } from '../../src/http/tallied-histogram.ts';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const config = { name: 'latency_seconds', help: 'Latency, by route and method', buckets: BUCKETS };

/** The same observations in a TalliedHistogram and in prom-client's own histogram, each in a registry of its own. */
function both() {
  const ours = new Registry();
  const theirs = new Registry();
  const tallied = new TalliedHistogram({ ...config, labelNames: ['route', 'method'], registers: [ours] });
  const reference = new Histogram({ ...config, labelNames: ['route', 'method'], registers: [theirs] });
  return {
    observe(route: string, method: string, value: number) {
      tallied.tally(route, method, value);
      reference.observe({ route, method }, value);
    },
    tallied,
    ours,
    theirs,
  };
}

const observation = fc.record({
  route: fc.constantFrom('/api/v1/public/events', '/api/v1/public/events/:eventId', 'unmatched', 'a "quoted"\\ route'),
  method: fc.constantFrom('GET', 'HEAD', 'POST'),
  // Bounds themselves (a value on a bound is in its bucket), values between them, past the last, and zero.
  value: fc.oneof(fc.constantFrom(0, ...BUCKETS), fc.double({ min: 0, max: 20, noNaN: true })),
});

test('TalliedHistogram (property): its exposition is byte for byte prom-client histogram’s, text and JSON', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
      const { observe, ours, theirs } = both();
      for (const { route, method, value } of observations) observe(route, method, value);
      assert.equal(await ours.metrics(), await theirs.metrics());
      assert.deepEqual(await ours.getMetricsAsJSON(), await theirs.getMetricsAsJSON());
    }),
    { numRuns: 200 },
  );
});

test('TalliedHistogram: reset forgets every series', async () => {
  const { observe, tallied, ours } = both();
  observe('/api/v1/public/events', 'GET', 0.002);
  assert.match(await ours.metrics(), /latency_seconds_count\{route="\/api\/v1\/public\/events",method="GET"\} 1/);
  tallied.reset();
  assert.doesNotMatch(await ours.metrics(), /latency_seconds_count/);
});
