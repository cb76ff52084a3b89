import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashSeed, Random } from '../../src/domain/random.ts';

test('the same seed replays the same sequence; another seed does not', () => {
  const draw = (seed: number) => {
    const rng = new Random(seed);
    return Array.from({ length: 20 }, () => rng.uint32());
  };
  assert.deepEqual(draw(42), draw(42));
  assert.notDeepEqual(draw(42), draw(43));
  assert.equal(hashSeed('a', 1), hashSeed('a', 1));
  assert.notEqual(hashSeed('a', 1), hashSeed('a1'));
});

test('helpers stay in range', () => {
  const rng = new Random(1);
  for (let i = 0; i < 2000; i++) {
    const n = rng.int(-3, 5);
    assert.ok(Number.isInteger(n) && n >= -3 && n <= 5);
    const x = rng.next();
    assert.ok(x >= 0 && x < 1);
  }
  const items = [1, 2, 3, 4, 5, 6];
  assert.deepEqual([...rng.shuffle(items)].sort(), items);
  assert.equal(new Set(rng.sample(items, 4)).size, 4);
  assert.throws(() => rng.pick([]));
  const mean = Array.from({ length: 5000 }, () => rng.normal(10, 2)).reduce((a, b) => a + b, 0) / 5000;
  assert.ok(Math.abs(mean - 10) < 0.2, String(mean));
});

test('uuids are v4-shaped, lowercase and distinct', () => {
  const rng = new Random(9);
  const ids = Array.from({ length: 500 }, () => rng.uuid());
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(new Set(ids).size, ids.length);
});
