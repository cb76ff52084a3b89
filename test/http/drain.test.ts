/**
 * The drain (the listeners plugin, src/http/plugins/listeners.ts): once a graceful close begins, no new
 * connection is accepted and every answer whose headers go out says `Connection: close`, whether its
 * request arrived before or after; answers sent before say keep-alive. Over real HTTP on loopback;
 * the graceful-shutdown system test covers the whole stop of `altsports serve`.
 */
import assert from 'node:assert/strict';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { listenersPlugin } from '../../src/http/plugins/listeners.ts';
import { requestStepsPlugin } from '../../src/http/plugins/request-steps.ts';

function get(port: number, path: string, agent: Agent): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res));
    });
    req.once('error', reject);
    req.end();
  });
}

test('a graceful close: answers in flight say Connection: close, earlier ones keep-alive, no new connections', async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived: () => void = () => {};
  const slowArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const app = Fastify();
  await app.register(requestStepsPlugin);
  await app.register(listenersPlugin, { config: loadConfig({ DEMO_DATA: 'off' }) });
  app.get('/fast', async () => 'fast');
  app.get('/slow', async () => {
    arrived();
    await held;
    return 'slow';
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const before = await get(port, '/fast', agent);
    assert.equal(before.headers.connection, 'keep-alive', 'before the drain');

    const slow = get(port, '/slow', agent);
    await slowArrived;
    const closed = app.closeGracefully({ idleMs: 200, timeoutMs: 5_000 });
    assert.equal(app.server.listening, false, 'no new connections once the drain began');
    release();
    assert.equal((await slow).headers.connection, 'close', 'the request in flight when the drain began');
    await closed;
    const left = await new Promise<number>((resolve) => app.server.getConnections((_, count) => resolve(count)));
    assert.equal(left, 0, 'no connection is left once closed');
  } finally {
    agent.destroy();
    app.server.closeAllConnections();
  }
});
