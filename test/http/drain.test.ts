/**
 * drainableServer (src/http/drain.ts): once the drain begins, every answer whose headers go out says
 * `Connection: close`, whether its request arrived before or after; answers sent before say keep-alive.
 * Over real HTTP on loopback; the graceful-shutdown system test covers the whole stop.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { drainableServer, drainerOf } from '../../src/http/drain.ts';

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

test('after begin(), answers in flight and answers with headers still to write say Connection: close; earlier ones keep-alive', async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived: () => void = () => {};
  const slowArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = drainableServer({}, (request, response) => {
    if (request.url === '/slow') {
      arrived();
      // Answered through the implicit-header path (write, then end), as a stream or a plain end would.
      void held.then(() => {
        response.statusCode = 200;
        response.write('slow');
        response.end();
      });
      return;
    }
    response.writeHead(200, ['content-type', 'text/plain']);
    response.end('fast');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  try {
    const before = await get(port, '/fast', agent);
    assert.equal(before.headers.connection, 'keep-alive', 'before the drain');

    const slow = get(port, '/slow', agent);
    await slowArrived;
    const drain = drainerOf(server);
    drain.begin();
    drain.begin();
    assert.equal(server.listening, false, 'no new connections once the drain began');
    release();
    assert.equal((await slow).headers.connection, 'close', 'the request in flight when the drain began');

    await drain.settle(5_000);
    const left = await new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count)));
    assert.equal(left, 0, 'settle resolves once no connection is left');
  } finally {
    agent.destroy();
    server.closeAllConnections();
  }
});

test('drainerOf refuses a server drainableServer did not make', () => {
  assert.throws(() => drainerOf(createServer()), /not made by drainableServer/);
});

test("under load V8 optimizes the server's request path: the response class does not throw its optimizations away", async () => {
  // As `class extends ServerResponse` it did, ~800 times in 20 s of the bench, and a cached answer
  // cost 1.6 times the CPU (src/http/drain.ts responseClass). Read from V8's optimization trace.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--trace-opt', 'test/helpers/drainable-load.ts'],
    {
      env: { ...process.env, REQUESTS: '20000' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const aborted = stdout
    .split('\n')
    .filter((line) => line.startsWith('[aborted optimizing') && /parserOnIncoming |DrainableResponse /.test(line));
  assert.deepEqual(aborted, [], 'no optimization of the response path thrown away');
  assert.match(
    stdout,
    /\[completed optimizing [^\n]*<JSFunction parserOnIncoming /,
    'parserOnIncoming, which constructs each response, is optimized',
  );
});
