/**
 * Open streams follow their key: a revoked key's streams, token streams included, end with
 * an `event: close` that says why, and so do streams whose key's competitions changed, whichever
 * process changed the key (the check reads the store, as a CLI or another node writes it).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { revokeApiKey } from '../../src/access/api-keys.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { type SseEvent, SseStream } from '../helpers/sse.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';

async function keyId(store: Store, name: string): Promise<string> {
  const keys = await store.db.selectFrom('apiKeys').select(['id', 'name']).execute();
  return (keys.find((k) => k.name === name) as { id: string }).id;
}

/** Events until the stream's `close` (heartbeats and changes skipped); bounded by the reader's wait. */
async function closeEvent(stream: SseStream): Promise<SseEvent> {
  const events = await stream.eventsUntil((event) => event.event === 'close');
  await stream.ended;
  return events.at(-1) as SseEvent;
}

describeEachStore('open streams follow their key', (open) => {
  test("a revoked key's streams, by key and by token, end with a close that says why", async () => {
    const store = await open();
    const { app } = await fixtureApp(store, { STREAM_KEY_CHECK_SECONDS: '1', STREAM_HEARTBEAT_SECONDS: '1' });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${BASE}`;
      const issued = await app.inject({
        method: 'POST',
        url: `${BASE}/stream/tokens`,
        headers: { 'x-api-key': TEST_KEY },
      });
      const { token } = JSON.parse(issued.body) as { token: string };
      const byKey = await SseStream.open(`${base}/stream`, { 'x-api-key': TEST_KEY });
      const byToken = await SseStream.open(`${base}/stream?token=${encodeURIComponent(token)}`);
      const other = await SseStream.open(`${base}/stream`, { 'x-api-key': WSL_ONLY_KEY });
      try {
        for (const stream of [byKey, byToken, other]) assert.equal((await stream.nextEvent()).event, 'ready');
        await revokeApiKey(store, await keyId(store, 'full'));
        for (const stream of [byKey, byToken]) {
          const close = await closeEvent(stream);
          assert.deepEqual(close.json, {
            reason: 'keyRevoked',
            message: 'The API key of this stream was revoked.',
          });
        }
        // Another key's stream stays open: its next message is a heartbeat or a change, not the end.
        assert.notEqual((await other.next()).event, 'close');
      } finally {
        await Promise.all([byKey.close(), byToken.close(), other.close()]);
      }
    } finally {
      await app.close();
    }
  });

  test("a change of a key's competitions ends its open streams, which reconnect under the new scope", async () => {
    const store = await open();
    const { app } = await fixtureApp(store, { STREAM_KEY_CHECK_SECONDS: '1' });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${BASE}`;
      const stream = await SseStream.open(`${base}/stream`, { 'x-api-key': WSL_ONLY_KEY });
      try {
        assert.equal((await stream.nextEvent()).event, 'ready');
        await store.db
          .updateTable('apiKeys')
          .set({ competitions: JSON.stringify(['wsl', 'masl']) })
          .where('id', '=', await keyId(store, 'wsl only'))
          .execute();
        const close = await closeEvent(stream);
        assert.equal((close.json as { reason: string }).reason, 'keyChanged');
      } finally {
        await stream.close();
      }
    } finally {
      await app.close();
    }
  });
});
