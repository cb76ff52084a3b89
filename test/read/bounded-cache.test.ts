import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { BoundedCache } from '../../src/read/bounded-cache.ts';

const sized = (max: number) => new BoundedCache<{ bytes: number }>(max, (value) => value.bytes);

test('BoundedCache forgets the least recently used entries past its budget', () => {
  const cache = sized(100);
  cache.set('a', { bytes: 40 });
  cache.set('b', { bytes: 40 });
  assert.ok(cache.get('a'), 'a is now the most recently used');
  cache.set('c', { bytes: 40 });
  assert.equal(cache.get('b'), undefined, 'b, least recently used, went');
  assert.ok(cache.get('a'));
  assert.ok(cache.get('c'));
  assert.equal(cache.bytes(), 80);
});

test('BoundedCache keeps the entry just stored even when it alone is over budget', () => {
  const cache = sized(100);
  cache.set('a', { bytes: 10 });
  cache.set('huge', { bytes: 500 });
  assert.equal(cache.size, 1);
  assert.ok(cache.get('huge'));
});

test('BoundedCache counts an entry at its size when the budget is checked', () => {
  const cache = sized(100);
  const growing = { bytes: 10 };
  cache.set('growing', growing);
  cache.set('b', { bytes: 10 });
  growing.bytes = 95;
  cache.set('c', { bytes: 10 });
  assert.equal(cache.get('growing'), undefined, 'grown past the budget, it went first');
  assert.equal(cache.bytes(), 20);
});

test('BoundedCache: after any sequence of stores, within budget or holding only the last one', () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 80 })), { maxLength: 40 }),
      (stores) => {
        const cache = sized(100);
        for (const [key, bytes] of stores) {
          cache.set(key, { bytes });
          assert.ok(cache.bytes() <= 100 || cache.size === 1, `${cache.bytes()} bytes in ${cache.size} entries`);
          assert.equal(cache.get(key)?.bytes, bytes, 'the last stored is held');
        }
      },
    ),
  );
});

test('BoundedCache.getOrLoad: one load per key at a time, stored once made; a failed load is not kept', async () => {
  const cache = sized(100);
  let loads = 0;
  const load = async () => {
    loads += 1;
    return { bytes: 10 };
  };
  const [a, b] = await Promise.all([cache.getOrLoad('a', load), cache.getOrLoad('a', load)]);
  assert.equal(loads, 1, 'callers asking while it loads share the load');
  assert.equal(a, b);
  assert.equal(cache.getOrLoad('a', load), a, 'held: answered at once, not as a promise');
  await assert.rejects(
    Promise.resolve(cache.getOrLoad('b', async () => Promise.reject(new Error('draw failed')))),
    /draw failed/,
  );
  assert.equal(cache.get('b'), undefined);
  assert.deepEqual(await cache.getOrLoad('b', load), { bytes: 10 }, 'the next caller loads again');
});
