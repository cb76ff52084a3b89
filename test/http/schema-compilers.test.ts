/**
 * The app's schema compilers (src/http/schema-compilers.ts): each route's validators and serializers are
 * compiled on its first request, and every one of them compiles, so no first request meets a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { type BuildSerializer, type BuildValidator, lazyCompilers } from '../../src/http/schema-compilers.ts';
import { ServerErrorResponse } from '../../src/http/schemas/common.ts';
import { fixtureApp } from '../helpers/app.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

const config = loadConfig({ DEMO_DATA: 'off', ADMIN_API_KEY: 'admin-key-for-tests-0123456789' });

describe('schema compilers', () => {
  let testStore: TestStore;
  before(async () => {
    testStore = await openTestStore('sqlite');
  });
  after(() => testStore.cleanup());

  test("every route's validators and serializers compile (Fastify's own eager compilers, at ready)", async () => {
    const app = await buildApp({ config, store: testStore.store, logger: false, schemaController: {} });
    await app.ready();
    assert.ok(app.hasRoute({ method: 'GET', url: '/api/v1/public/sports' }));
    await app.close();
  });

  test('a route is compiled on its first request, once, and validates as before', async () => {
    const compiles = { validators: 0, serializers: 0 };
    const ajv = AjvCompiler();
    const counting: BuildValidator = (schemas, options) => {
      const compile = ajv(schemas, options);
      return (route) => {
        compiles.validators++;
        return compile(route);
      };
    };
    const selector = SerializerSelector();
    const countingSerializer: BuildSerializer = (schemas, options) => {
      const compile = selector(schemas, options);
      return (route) => {
        compiles.serializers++;
        return compile(route);
      };
    };
    const { app, get } = await fixtureApp(testStore.store, {}, lazyCompilers(counting, countingSerializer));
    await app.ready();
    assert.deepEqual(compiles, { validators: 0, serializers: 0 }, 'nothing is compiled at start');

    const bad = await get('/api/v1/public/events?eventStatus=NOPE');
    assert.equal(bad.statusCode, 400);
    const body = bad.json();
    assert.deepEqual(Object.keys(body).sort(), Object.keys(ServerErrorResponse.properties).sort(), bad.body);
    assert.match(body.message, /eventStatus/);
    const afterFirst = { ...compiles };
    assert.ok(afterFirst.validators > 0, 'the route compiled its validators for its first request');

    const good = await get('/api/v1/public/events?eventStatus=LIVE,UPCOMING');
    assert.equal(good.statusCode, 200);
    await get('/api/v1/public/events?eventStatus=LIVE');
    assert.equal(compiles.validators, afterFirst.validators, 'compiled once');
    assert.ok(compiles.serializers > 0 && compiles.serializers <= afterFirst.serializers + 1);
    await app.close();
  });
});
