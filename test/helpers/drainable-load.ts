import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drainableServer } from '../../src/http/drain.ts';

/**
 * Child process of test/http/drain.test.ts, run with `--trace-opt`: serves and fetches `REQUESTS`
 * answers from a drainable server over 10 keep-alive connections, so that V8's optimization trace
 * shows whether the response class is optimized or its attempts are thrown away.
 */
const total = Number(process.env.REQUESTS ?? 20_000);
const body = Buffer.alloc(4096, 'x');
const server = drainableServer({}, (_request, response) => {
  response.writeHead(200, ['content-type', 'text/plain', 'content-length', String(body.length)]);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  let started = 0;
  let finished = 0;
  const next = (): void => {
    if (started === total) return;
    started++;
    request({ host: '127.0.0.1', port, path: '/', agent }, (response) => {
      response.resume();
      response.once('end', () => {
        finished++;
        if (finished === total) {
          agent.destroy();
          server.close();
        } else next();
      });
    }).end();
  };
  for (let i = 0; i < 10; i++) next();
});
