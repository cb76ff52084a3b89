/**
 * Bodies refused before they cost: a JSON body nested past the limit is a 400 found while
 * it is read, a declared length over the limit is a 413 before any of the body is read (with
 * `Expect: 100-continue`, without the 100), and bytes that are not UTF-8 are a 400 naming their offset.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { ADMIN_KEY, fixtureApp, TEST_KEY, type TestApp } from '../helpers/app.ts';
import { rawExchange } from '../helpers/raw-http.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

const SGP = '/api/v1/public/events/any-event/sgp';
const FEED = '/api/v1/admin/feed';

let testStore: TestStore;
let fixture: TestApp;
let port: number;

before(async () => {
  testStore = await openTestStore('sqlite');
  fixture = await fixtureApp(testStore.store, { BODY_LIMIT_MB: '4' });
  await fixture.app.listen({ port: 0, host: '127.0.0.1' });
  port = (fixture.app.server.address() as { port: number }).port;
});
after(async () => {
  await fixture.app.close();
  await testStore.cleanup();
});

test('a body nested past the limit is a 400, on a public route and on the admin feed', async () => {
  const deep = Buffer.from('['.repeat(3 * 1024 * 1024));
  for (const [url, key] of [
    [SGP, TEST_KEY],
    [FEED, ADMIN_KEY],
  ] as const) {
    const res = await fixture.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: deep,
    });
    assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
    assert.match(JSON.parse(res.body).message, /nested more than 64 deep \(at byte 64\)/, url);
  }
  const objects = Buffer.from(`{"a":${'{"a":'.repeat(100)}1${'}'.repeat(101)}`);
  const res = await fixture.app.inject({
    method: 'POST',
    url: FEED,
    headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
    payload: objects,
  });
  assert.equal(res.statusCode, 400, res.body);
  assert.match(JSON.parse(res.body).message, /nested more than 64 deep/);
  // Brackets inside strings are text, not nesting.
  const inString = await fixture.app.inject({
    method: 'POST',
    url: SGP,
    headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
    payload: Buffer.from(JSON.stringify({ oddIds: ['['.repeat(200), '{"\\"[['] })),
  });
  assert.doesNotMatch(JSON.parse(inString.body).message, /nested/);
});

test('a declared Content-Length over the limit is a 413 before the body, Expect: 100-continue without the 100', async () => {
  const length = 300 * 1024 * 1024;
  for (const expect of [false, true]) {
    const answer = await rawExchange(
      port,
      `POST ${FEED} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${ADMIN_KEY}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${length}\r\n${expect ? 'Expect: 100-continue\r\n' : ''}\r\n`,
    );
    const [statusLine] = answer.split('\r\n');
    assert.equal(statusLine, 'HTTP/1.1 413 Payload Too Large', `expect: ${expect}\n${answer.slice(0, 400)}`);
    assert.match(answer, /"statusCode":413/);
    assert.match(answer, /x-request-id: /i);
    assert.match(answer, /connection: close/i);
  }
});

test('Expect: 100-continue within the limit gets its 100, then the answer to the body sent after it', async () => {
  const body = JSON.stringify({ oddIds: ['a', 'b'] });
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n') && !socket.writableEnded) socket.end(body);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(
      `POST ${SGP} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${TEST_KEY}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    );
  });
  const [interim, final] = answer.split('\r\n\r\n');
  assert.equal(interim, 'HTTP/1.1 100 Continue');
  // The body was read: the event is unknown (404), not a request that never completed (408).
  assert.match(final ?? '', /^HTTP\/1\.1 404 /);
});

test('a JSON body that is not UTF-8 is a 400 naming the offset of the first bad byte', async () => {
  const prefix = Buffer.from('{"oddIds":["ab');
  const body = Buffer.concat([prefix, Buffer.from([0xff]), Buffer.from('","cd"]}')]);
  const overlong = Buffer.concat([prefix, Buffer.from([0xc0, 0xaf]), Buffer.from('","cd"]}')]);
  const surrogate = Buffer.concat([prefix, Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","cd"]}')]);
  for (const [url, key] of [
    [SGP, TEST_KEY],
    [FEED, ADMIN_KEY],
  ] as const)
    for (const payload of [body, overlong, surrogate]) {
      const res = await fixture.app.inject({
        method: 'POST',
        url,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        payload,
      });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.match(JSON.parse(res.body).message, /not valid UTF-8 at byte 14/, url);
    }
  // Valid multi-byte text passes the check (and then fails on the unknown odd, as any id would).
  const fine = await fixture.app.inject({
    method: 'POST',
    url: SGP,
    headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
    payload: Buffer.from(JSON.stringify({ oddIds: ['é€😀', 'b'] })),
  });
  assert.doesNotMatch(JSON.parse(fine.body).message, /UTF-8/);
});

test('a body of the wrong type is refused naming the field, not coerced (a string is not a list of one)', async () => {
  for (const url of [SGP, `${SGP}/options`]) {
    const res = await fixture.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
      payload: { oddIds: 'not-a-list' },
    });
    assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
    assert.match(JSON.parse(res.body).message, /oddIds/, url);
  }
  // Query strings are still read as text and converted: a repeated or single value of a list parameter.
  const list = await fixture.get('/api/v1/public/events?eventStatus=LIVE&limit=2');
  assert.equal(list.statusCode, 200, list.body);
});
