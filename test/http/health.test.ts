/**
 * GET /healthz: once a read finds the SQLite file corrupt, the node says so (503) rather
 * than ok, so that a load balancer takes it out; the read that found it is a 500 as before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixtureApp } from '../helpers/app.ts';
import { openTestStore } from '../helpers/stores.ts';

test('a read that finds the store corrupt turns /healthz to 503 naming it', async () => {
  const testStore = await openTestStore('sqlite');
  const { app } = await fixtureApp(testStore.store);
  try {
    // What node:sqlite raises when a page it reads is not a valid b-tree page (SQLITE_CORRUPT_INDEX).
    app.get('/corrupt-read', { config: { access: 'open' } }, async () => {
      throw Object.assign(new Error('database disk image is malformed'), {
        code: 'ERR_SQLITE_ERROR',
        errcode: 779,
        errstr: 'database disk image is malformed',
      });
    });
    assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
    const read = await app.inject({ url: '/corrupt-read' });
    assert.equal(read.statusCode, 500);
    assert.equal(JSON.parse(read.body).message, 'Internal server error');
    const health = await app.inject({ url: '/healthz' });
    assert.equal(health.statusCode, 503, health.body);
    assert.equal(
      JSON.parse(health.body).message,
      'The sqlite store is corrupt (database disk image is malformed): repair or restore it',
    );
  } finally {
    await app.close();
    await testStore.cleanup();
  }
});
