import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN_KEY, fixtureApp, sharedFixture } from '../helpers/app.ts';
import { describeEachStore } from '../helpers/stores.ts';

const ERROR_FIELDS = ['code', 'message', 'metadata', 'stack', 'statusCode', 'timestamp'];

function assertErrorBody(body: string, status: number) {
  const parsed = JSON.parse(body);
  assert.deepEqual(Object.keys(parsed).sort(), ERROR_FIELDS);
  assert.equal(parsed.statusCode, status);
  assert.equal(typeof parsed.message, 'string');
  assert.ok(!Number.isNaN(Date.parse(parsed.timestamp)));
  assert.equal(typeof parsed.metadata, 'object');
  return parsed;
}

describeEachStore('errors', (open, kind) => {
  // Tests that neither write nor change the app share one; the others build their own.
  const shared = sharedFixture(kind, fixtureApp);

  test('unknown routes are 404s with the error body, keyed or not', async () => {
    const { app, get } = shared();
    assertErrorBody((await get('/api/v1/public/nothing-here')).body, 404);
    assertErrorBody((await app.inject({ method: 'GET', url: '/' })).body, 404);
    assertErrorBody((await app.inject({ method: 'DELETE', url: '/api/v1/public/sports' })).body, 404);
  });

  test('malformed admin requests get 4xx error bodies that show no internals', async () => {
    const { app } = shared();
    const post = (payload: string, contentType = 'application/json') =>
      app.inject({
        method: 'POST',
        url: '/api/v1/admin/feed',
        headers: { 'x-api-key': ADMIN_KEY, 'content-type': contentType },
        payload,
      });
    const broken = assertErrorBody((await post('{"events": [')).body, 400);
    assert.equal(broken.message, "Request body is not valid JSON: a ']' was expected at line 1, column 13");
    assertErrorBody((await post('events=1', 'application/x-www-form-urlencoded')).body, 415);
    assertErrorBody((await post('[]')).body, 400);
    assertErrorBody((await post('"text"')).body, 400);
    const utf16 = assertErrorBody((await post('{}', 'application/json; charset=utf-16')).body, 415);
    assert.equal(utf16.message, 'Unsupported charset "utf-16": send JSON as UTF-8');
    assert.deepEqual(utf16.metadata, { charset: 'utf-16' });
    assertErrorBody((await post('{}', 'application/json; charset=latin1')).body, 415);
    for (const contentType of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"']) {
      const accepted = await post('{}', contentType);
      assert.equal(accepted.statusCode, 200, `${contentType}: ${accepted.body}`);
    }
  });

  test('an oversized body is a 413 with the error body', async () => {
    const store = await open();
    const { app } = await fixtureApp(store, { BODY_LIMIT_MB: '1' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/admin/feed',
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      payload: JSON.stringify({ tours: [], padding: 'x'.repeat(1_100_000) }),
    });
    assertErrorBody(res.body, 413);
  });

  test('a failure inside a handler is a 500 that hides its cause, unless DEBUG_ERRORS is on', async () => {
    const store = await open();
    const { get } = await fixtureApp(store);
    await store.close();
    const res = await get('/api/v1/public/events');
    assert.ok(res.statusCode === 500 || res.statusCode === 503, String(res.statusCode));
    const body = assertErrorBody(res.body, res.statusCode);
    assert.equal(body.stack, '');
    assert.doesNotMatch(body.message, /sqlite|postgres|pool|destroy|select/i);
    assert.equal(typeof body.metadata.requestId, 'string');
  });

  test('every response carries a request id, echoing a sensible X-Request-ID', async () => {
    const { get } = shared();
    assert.equal(
      (await get('/api/v1/public/sports', { 'x-request-id': 'abc-123' })).headers['x-request-id'],
      'abc-123',
    );
    assert.match(
      String(
        (await get('/api/v1/public/sports', { 'x-request-id': 'not a valid id; has spaces' })).headers['x-request-id'],
      ),
      /^[0-9a-f-]{36}$/,
    );
  });
});
