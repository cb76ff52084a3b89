/**
 * The onRequest stage as one hook (src/http/plugins/request-steps.ts): steps run in the order they were
 * added, whether each answers at once or waits; the first that throws, rejects or sends an answer ends
 * the stage, and no later step nor the handler runs. Through app.inject on a bare Fastify app.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import Fastify from 'fastify';
import { type RequestStep, requestStepsPlugin } from '../../src/http/plugins/request-steps.ts';

type Kind = 'pass' | 'wait' | 'throw' | 'reject' | 'send' | 'send-later';
const KINDS: readonly Kind[] = ['pass', 'wait', 'throw', 'reject', 'send', 'send-later'];

/** A step of `kind` that notes its number in `ran` when it runs. */
function stepOf(kind: Kind, n: number, ran: number[]): RequestStep {
  return (_request, reply) => {
    ran.push(n);
    switch (kind) {
      case 'pass':
        return undefined;
      case 'wait':
        return new Promise((resolve) => setImmediate(resolve));
      case 'throw':
        throw Object.assign(new Error(`step ${n}`), { statusCode: 418 });
      case 'reject':
        return Promise.reject(Object.assign(new Error(`step ${n}`), { statusCode: 418 }));
      case 'send':
        reply.code(203).send(`sent by ${n}`);
        return undefined;
      case 'send-later':
        return new Promise((resolve) =>
          setImmediate(() => {
            reply.code(203).send(`sent by ${n}`);
            resolve(undefined);
          }),
        );
    }
  };
}

/** What a request to an app with these steps gets, and which steps and whether the handler ran. */
async function run(kinds: readonly Kind[]) {
  const ran: number[] = [];
  const app = Fastify();
  await app.register(requestStepsPlugin);
  kinds.forEach((kind, n) => {
    app.onRequestStep(stepOf(kind, n, ran));
  });
  let handled = false;
  app.get('/', async () => {
    handled = true;
    return 'handled';
  });
  const response = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return { ran, handled, status: response.statusCode, body: response.body };
}

test('request steps: the cases, each as the stage ends', async () => {
  const table: Array<[Kind[], { ran: number[]; handled: boolean; status: number; body?: string }]> = [
    [[], { ran: [], handled: true, status: 200, body: 'handled' }],
    [['pass', 'wait', 'pass', 'wait'], { ran: [0, 1, 2, 3], handled: true, status: 200, body: 'handled' }],
    [['pass', 'throw', 'pass'], { ran: [0, 1], handled: false, status: 418 }],
    [['wait', 'reject', 'pass'], { ran: [0, 1], handled: false, status: 418 }],
    [['pass', 'send', 'pass'], { ran: [0, 1], handled: false, status: 203, body: 'sent by 1' }],
    [['wait', 'send-later', 'wait'], { ran: [0, 1], handled: false, status: 203, body: 'sent by 1' }],
  ];
  for (const [kinds, expected] of table) {
    const { body, ...outcome } = await run(kinds);
    const { body: expectedBody, ...expectedOutcome } = expected;
    assert.deepEqual(outcome, expectedOutcome, kinds.join(', '));
    if (expectedBody !== undefined) assert.equal(body, expectedBody, kinds.join(', '));
  }
});

test('request steps: any sequence runs up to the first step that ends the stage, and the answer is that step’s', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.constantFrom(...KINDS), { maxLength: 8 }), async (kinds) => {
      const { ran, handled, status } = await run(kinds);
      const end = kinds.findIndex((kind) => kind !== 'pass' && kind !== 'wait');
      const through = end === -1 ? kinds.length : end + 1;
      assert.deepEqual(
        ran,
        kinds.slice(0, through).map((_, n) => n),
      );
      assert.equal(handled, end === -1);
      const ending = kinds[end];
      const expected = ending === undefined ? 200 : ending === 'throw' || ending === 'reject' ? 418 : 203;
      assert.equal(status, expected);
    }),
    { numRuns: 60 },
  );
});
