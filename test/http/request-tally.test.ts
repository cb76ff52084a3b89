/**
 * RequestTally (src/http/request-tally.ts): requests by route, method and status, and their latency
 * histogram, as Prometheus text. The exposition is read back line by line, as a scraper would.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { bucketOf, RequestTally } from '../../src/http/request-tally.ts';

const NAMES = {
  requests: { name: 'requests_total', help: 'Requests' },
  duration: { name: 'duration_seconds', help: 'Latency' },
};
const BOUNDS = [0.001, 0.01, 0.1];

/** Sample lines of the exposition as `name{labels}` to value. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    found.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return found;
}

describe('bucketOf', () => {
  const cases: Array<[value: number, bucket: number, why: string]> = [
    [0, 0, 'below the first bound'],
    [0.001, 0, 'on a bound: buckets are "less than or equal"'],
    [0.0011, 1, 'just above a bound'],
    [0.1, 2, 'on the last bound'],
    [0.5, 3, 'above every bound: the +Inf slot'],
  ];
  for (const [value, bucket, why] of cases) {
    test(`${value} s falls in bucket ${bucket} (${why})`, () => assert.equal(bucketOf(BOUNDS, value), bucket));
  }
});

describe('RequestTally', () => {
  test('counts by route, method and status, and writes cumulative buckets, +Inf, sum and count per route and method', () => {
    const tally = new RequestTally(NAMES, BOUNDS);
    tally.count('/events/:eventId', 'GET', 200, 0.0005);
    tally.count('/events/:eventId', 'GET', 200, 0.05);
    tally.count('/events/:eventId', 'GET', 304, 0.2);
    tally.count('/events', 'HEAD', 200, 0.002);
    const text = tally.exposition();
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 2), ['# HELP requests_total Requests', '# TYPE requests_total counter']);
    assert.ok(lines.includes('# TYPE duration_seconds histogram'));
    const event = 'route="/events/:eventId",method="GET"';
    const list = 'route="/events",method="HEAD"';
    assert.deepEqual(
      samples(text),
      new Map([
        [`requests_total{${event},status="200"}`, 2],
        [`requests_total{${event},status="304"}`, 1],
        [`requests_total{${list},status="200"}`, 1],
        [`duration_seconds_bucket{le="0.001",${event}}`, 1],
        [`duration_seconds_bucket{le="0.01",${event}}`, 1],
        [`duration_seconds_bucket{le="0.1",${event}}`, 2],
        [`duration_seconds_bucket{le="+Inf",${event}}`, 3],
        [`duration_seconds_sum{${event}}`, 0.0005 + 0.05 + 0.2],
        [`duration_seconds_count{${event}}`, 3],
        [`duration_seconds_bucket{le="0.001",${list}}`, 0],
        [`duration_seconds_bucket{le="0.01",${list}}`, 1],
        [`duration_seconds_bucket{le="0.1",${list}}`, 1],
        [`duration_seconds_bucket{le="+Inf",${list}}`, 1],
        [`duration_seconds_sum{${list}}`, 0.002],
        [`duration_seconds_count{${list}}`, 1],
      ]),
    );
  });

  test('escapes backslash, double quote and line feed in label values, as the text format requires', () => {
    const tally = new RequestTally(NAMES, BOUNDS);
    tally.count('a\\b"c\nd', 'GET', 200, 0);
    assert.ok(samples(tally.exposition()).has('requests_total{route="a\\\\b\\"c\\nd",method="GET",status="200"}'));
  });

  test('before any request: the HELP and TYPE lines and no samples', () => {
    const text = new RequestTally(NAMES, BOUNDS).exposition();
    assert.equal(samples(text).size, 0);
    assert.equal(text.split('\n').filter((line) => line.startsWith('# TYPE')).length, 2);
  });

  test('property: buckets never fall, +Inf and count are the requests, sum is their seconds, statuses add up to the count', () => {
    const request = fc.record({
      route: fc.constantFrom('/a', '/b/:id'),
      method: fc.constantFrom('GET', 'HEAD'),
      status: fc.constantFrom(200, 304, 404, 429),
      seconds: fc.double({ min: 0, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(request, { maxLength: 60 }), (requests) => {
        const tally = new RequestTally(NAMES, BOUNDS);
        for (const r of requests) tally.count(r.route, r.method, r.status, r.seconds);
        const found = samples(tally.exposition());
        for (const route of ['/a', '/b/:id']) {
          for (const method of ['GET', 'HEAD']) {
            const mine = requests.filter((r) => r.route === route && r.method === method);
            const labels = `route="${route}",method="${method}"`;
            if (mine.length === 0) {
              assert.equal(found.has(`duration_seconds_count{${labels}}`), false);
              continue;
            }
            const buckets = [...BOUNDS.map(String), '+Inf'].map(
              (le) => found.get(`duration_seconds_bucket{le="${le}",${labels}}`) as number,
            );
            buckets.slice(1).forEach((count, i) => {
              assert.ok(count >= (buckets[i] as number));
            });
            assert.equal(buckets.at(-1), mine.length);
            assert.equal(found.get(`duration_seconds_count{${labels}}`), mine.length);
            const sum = found.get(`duration_seconds_sum{${labels}}`) as number;
            assert.ok(Math.abs(sum - mine.reduce((total, r) => total + r.seconds, 0)) < 1e-9);
            const statuses = [200, 304, 404, 429].map(
              (status) => found.get(`requests_total{${labels},status="${status}"}`) ?? 0,
            );
            assert.equal(
              statuses.reduce((a, b) => a + b, 0),
              mine.length,
            );
          }
        }
      }),
    );
  });
});
