import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createApiKey,
  hashKey,
  keyVerifier,
  listApiKeys,
  revokeApiKey,
  setApiKeyLimits,
} from '../../src/access/api-keys.ts';
import { CodedError } from '../../src/domain/errors.ts';
import { describeEachStore } from '../helpers/stores.ts';

test('hashKey: the SHA-256 of the key, in hex', () => {
  assert.equal(hashKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

describeEachStore('keyVerifier', (open) => {
  test('a known key is verified with its scope and limits; an unknown one is null', async () => {
    const store = await open();
    const { key, info } = await createApiKey(store, {
      name: 'partner',
      competitions: ['wsl'],
      ratePerMinute: 5,
      ratePerDay: null,
    });
    const verify = keyVerifier(store);
    assert.deepEqual(await verify(key), {
      id: info.id,
      name: 'partner',
      competitions: ['wsl'],
      ratePerMinute: 5,
      ratePerDay: null,
      monthlyQuota: null,
    });
    assert.equal(await verify(`${key}x`), null);
    assert.equal(await verify(''), null);
  });

  test('answers are remembered for the time to live: a revocation takes effect once it has passed', async () => {
    const store = await open();
    const { key, info } = await createApiKey(store, { name: 'soon revoked' });
    const verify = keyVerifier(store, 200);
    assert.equal((await verify(key))?.id, info.id);
    await revokeApiKey(store, info.id);
    assert.equal((await verify(key))?.id, info.id, 'still remembered');
    await sleep(250);
    assert.equal(await verify(key), null, 'revoked once the answer has expired');
  });

  test('a key created after it was asked for is found once the remembered "none" has expired', async () => {
    const store = await open();
    const verify = keyVerifier(store, 200);
    const key = 'ask_created-later-0123456789';
    assert.equal(await verify(key), null);
    await createApiKey(store, { name: 'later', key });
    assert.equal(await verify(key), null, 'the answer "none" is remembered too');
    await sleep(250);
    assert.equal((await verify(key))?.name, 'later');
  });

  test("a connection's last answer is kept until it expires: a revocation still takes effect within the time to live", async () => {
    const store = await open();
    const { key, info } = await createApiKey(store, { name: 'polling' });
    const verify = keyVerifier(store, 200);
    const connection = {};
    const first = await verify(key, connection);
    assert.equal(first?.id, info.id);
    await revokeApiKey(store, info.id);
    assert.equal(
      verify(key, connection),
      first,
      'the same answer, at once (no promise), remembered with the connection',
    );
    await sleep(250);
    assert.equal(await verify(key, connection), null, 'revoked once the answer has expired');
  });

  test('a different key on the same connection is verified for itself', async () => {
    const store = await open();
    const a = await createApiKey(store, { name: 'first', competitions: ['wsl'] });
    const b = await createApiKey(store, { name: 'second', competitions: ['sls'] });
    const verify = keyVerifier(store);
    const connection = {};
    assert.equal((await verify(a.key, connection))?.id, a.info.id);
    assert.equal((await verify(b.key, connection))?.id, b.info.id);
    assert.equal(await verify(`${b.key}x`, connection), null);
    assert.equal((await verify(a.key, connection))?.id, a.info.id);
  });

  test('many requests for one key at once share one answer', async () => {
    const store = await open();
    const { key } = await createApiKey(store, { name: 'busy' });
    const verify = keyVerifier(store);
    const answers = await Promise.all(Array.from({ length: 50 }, () => verify(key)));
    assert.equal(new Set(answers).size, 1, 'the same object: one lookup');
  });
});

describeEachStore('revoking and limiting a key by a prefix', (open) => {
  test('the start of the id or of the key names one key; a prefix of several changes none and names them', async () => {
    const store = await open();
    const a = await createApiKey(store, { name: 'first', key: 'ask_shared-aaaa-0123456789' });
    const b = await createApiKey(store, { name: 'second', key: 'ask_shared-bbbb-0123456789' });
    await assert.rejects(revokeApiKey(store, 'ask_shared'), (error: unknown) => {
      assert.ok(error instanceof CodedError);
      assert.equal(error.code, 'API_KEY_AMBIGUOUS');
      assert.match(error.message, /"ask_shared" names 2 active keys/);
      assert.deepEqual(new Set(error.metadata.candidates as string[]), new Set([a.info.id, b.info.id]));
      return true;
    });
    assert.equal((await setApiKeyLimits(store, 'ask_shared-a', { ratePerMinute: 7 })).id, a.info.id);
    assert.equal((await revokeApiKey(store, b.info.id.slice(0, 8))).id, b.info.id);
    assert.equal((await revokeApiKey(store, 'ask_shared')).id, a.info.id, 'the only active one left');
    await assert.rejects(revokeApiKey(store, 'ask_shared'), /No active API key has an id or prefix "ask_shared"/);
    const listed = await listApiKeys(store);
    assert.deepEqual(
      // Both keys may share a createdAt millisecond, and ties list by random id: compare by name.
      listed.map((k) => [k.name, k.ratePerMinute, k.revokedAt !== null]).sort(),
      [
        ['first', 7, true],
        ['second', null, true],
      ],
    );
  });
});
