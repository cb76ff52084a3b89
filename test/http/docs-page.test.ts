/**
 * The docs page at the HTTP level: its copy of the document carries a getting-started section
 * and, for every public operation, example values chosen from the store that run as they are; the
 * published document stays store-independent; the demo key is handed to the page only when it is on.
 * The page in a browser is test/browser/board.test.ts. SQLite only: the examples come from the read
 * layer, which the store tests cover on both stores.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { ensureApiKey } from '../../src/access/api-keys.ts';
import { DEFAULT_DEMO_API_KEY, loadConfig } from '../../src/config.ts';
import { loadDemoData } from '../../src/demo/load-demo.ts';
import { buildTestApp } from '../helpers/app.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
}
interface Document {
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
}

const PUBLIC = '/api/v1/public';
const KEY = DEFAULT_DEMO_API_KEY;
/** Every competition a sport-specific route serves, and two athlete competitions: every example can be found. */
const COMPETITIONS = ['wsl', 'spr', 'gsoc', 'mltt', 'nll', '3ice', 'jaialai'];

async function demoApp(store: TestStore['store'], env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = loadConfig({ DEMO_DATA: 'on', RATE_LIMIT_PER_MINUTE: '0', ...env });
  if (config.demoApiKey) await ensureApiKey(store, 'demo', config.demoApiKey);
  return buildTestApp({ config, store, logger: false });
}

/** Every `example` anywhere in `value`. */
function examplesIn(value: unknown, path = '$', out: string[] = []): string[] {
  if (Array.isArray(value))
    value.forEach((item, i) => {
      examplesIn(item, `${path}[${i}]`, out);
    });
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'example' || key === 'examples') out.push(`${path}.${key}`);
      else examplesIn(item, `${path}.${key}`, out);
    }
  }
  return out;
}

describe('docs page over the demo data [sqlite]', () => {
  let testStore: TestStore;
  let app: FastifyInstance;
  let doc: Document;

  before(async () => {
    testStore = await openTestStore('sqlite');
    await loadDemoData(testStore.store, { competitions: COMPETITIONS });
    app = await demoApp(testStore.store);
    const response = await app.inject({ url: '/docs/json' });
    assert.equal(response.statusCode, 200, response.body);
    doc = response.json() as Document;
  });
  after(async () => {
    await app?.close();
    await testStore?.cleanup();
  });

  test('every public operation but the stream runs as pre-filled: its examples answer 2xx', async () => {
    const ran: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.startsWith(PUBLIC) || path === `${PUBLIC}/stream`) continue;
      for (const [method, operation] of Object.entries(item)) {
        const parameters = operation.parameters ?? [];
        const missing = parameters.filter((p) => p.in === 'path' && p.example === undefined).map((p) => p.name);
        assert.deepEqual(missing, [], `${method.toUpperCase()} ${path}: path parameters without an example`);
        const url = new URL(
          path.replace(/\{(\w+)\}/g, (_, name: string) =>
            encodeURIComponent(String(parameters.find((p) => p.name === name)?.example)),
          ),
          'http://docs',
        );
        for (const p of parameters)
          if (p.in === 'query' && p.example !== undefined)
            url.searchParams.set(p.name, ([] as unknown[]).concat(p.example).join(','));
        const body = operation.requestBody?.content?.['application/json']?.example;
        if (operation.requestBody) assert.ok(body, `${method.toUpperCase()} ${path}: no request body example`);
        const response = await app.inject({
          method: method.toUpperCase() as 'GET' | 'POST',
          url: `${url.pathname}${url.search}`,
          headers: { 'x-api-key': KEY },
          ...(body === undefined ? {} : { payload: body as Json }),
        });
        assert.ok(
          response.statusCode === 200 || response.statusCode === 201,
          `${method.toUpperCase()} ${url.pathname}${url.search}: ${response.statusCode} ${response.body.slice(0, 300)}`,
        );
        ran.push(`${method} ${path}`);
      }
    }
    // The 26 public operations besides the stream (the parlay, the bet builder, GET /changes, GET /feed-status and the price history among them).
    assert.equal(ran.length, 26, ran.join('\n'));
    assert.ok(ran.includes(`post ${PUBLIC}/events/{eventId}/sgp`));
    assert.ok(ran.includes(`post ${PUBLIC}/events/{eventId}/sgp/options`));
  });

  test('the docs copy, examples and all, is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Json);
    assert.ok(result.valid, `invalid OpenAPI document:\n${JSON.stringify(result.errors, null, 2)}`);
    assert.ok(examplesIn(doc.paths).length > 20, 'the docs copy has examples');
  });

  test('the examples are ids of this store: a live WSL event and its live heat; a parlay of two odds of one event', async () => {
    const liveWsl = (
      await app.inject({ url: `${PUBLIC}/events?competition=wsl&eventStatus=LIVE`, headers: { 'x-api-key': KEY } })
    ).json() as Array<{ id: string }>;
    const eventParameter = doc.paths[`${PUBLIC}/events/{eventId}`]?.get?.parameters?.find((p) => p.name === 'eventId');
    assert.equal(eventParameter?.example, liveWsl[0]?.id);
    const event = (
      await app.inject({ url: `${PUBLIC}/events/${liveWsl[0]?.id}`, headers: { 'x-api-key': KEY } })
    ).json() as { rounds: Array<{ heats: Array<{ id: string; heatStatus: string }> }> };
    const liveHeat = event.rounds.flatMap((r) => r.heats).find((h) => h.heatStatus === 'LIVE');
    const heatParameter = doc.paths[`${PUBLIC}/events/{eventId}/heats/{heatId}`]?.get?.parameters?.find(
      (p) => p.name === 'heatId',
    );
    assert.equal(heatParameter?.example, liveHeat?.id);
    const sgp = doc.paths[`${PUBLIC}/events/{eventId}/sgp`]?.post;
    const legs =
      (sgp?.requestBody?.content?.['application/json']?.example as { oddIds: string[] } | undefined)?.oddIds ?? [];
    assert.equal(legs.length, 2);
    const sgpEvent = sgp?.parameters?.find((p) => p.name === 'eventId')?.example as string;
    for (const leg of legs)
      assert.ok(leg.startsWith(`${sgpEvent.split(':')[1]}:`), `${leg} is not an odd of ${sgpEvent}`);
  });

  test('the getting-started section: the demo key, the board, polling with ETags, the stream, a parlay, with real ids', () => {
    const text = doc.info.description;
    const eventId = doc.paths[`${PUBLIC}/events/{eventId}`]?.get?.parameters?.find((p) => p.name === 'eventId')
      ?.example as string;
    assert.match(text, new RegExp(`KEY=${KEY}`));
    assert.match(text, /\]\(\/board\)/, 'links the live board');
    assert.ok(text.includes(`EVENT=${eventId}`), 'the polling snippet uses a live event of this store');
    assert.match(text, /If-None-Match: \$ETAG/);
    assert.match(text, /api\.poll\('\/events\/\{eventId\}'/);
    assert.match(text, /curl -N -H "X-API-KEY: \$KEY" .*\/stream/);
    assert.match(text, /Last-Event-ID: /);
    assert.match(text, /api\.subscribe\(/);
    const sgpBody = doc.paths[`${PUBLIC}/events/{eventId}/sgp`]?.post?.requestBody?.content?.['application/json'];
    const legs = (sgpBody?.example as { oddIds: string[] } | undefined)?.oddIds ?? [];
    assert.ok(text.includes(`"oddIds": ["${legs[0]}", "${legs[1]}"]`), 'the parlay snippet uses the example legs');
    assert.ok(text.includes(`api.sgp(`));
  });

  test('the published document is the same whatever the store holds: no examples, no getting-started', async () => {
    const published = (await app.inject({ url: `${PUBLIC}/openapi.json` })).json() as Document;
    assert.deepEqual(examplesIn(published.paths), []);
    assert.doesNotMatch(published.info.description, /Getting started/);
    const empty = await openTestStore('sqlite');
    try {
      const emptyApp = await demoApp(empty.store);
      try {
        assert.deepEqual((await emptyApp.inject({ url: `${PUBLIC}/openapi.json` })).json(), published);
        // The docs page works over an empty store too, without examples.
        const docs = await emptyApp.inject({ url: '/docs/json' });
        assert.equal(docs.statusCode, 200);
        assert.deepEqual(examplesIn((docs.json() as Document).paths), []);
        assert.match((docs.json() as Document).info.description, /<event id>/);
      } finally {
        await emptyApp.close();
      }
    } finally {
      await empty.cleanup();
    }
  });

  test('the page is given the demo key to authorize, and only while it is on', async () => {
    const initializer = await app.inject({ url: '/docs/static/swagger-initializer.js' });
    assert.equal(initializer.statusCode, 200);
    assert.match(initializer.body, new RegExp(`"altsportsDemoKey":"${KEY}"`));
    const page = await app.inject({ url: '/docs/' });
    assert.match(page.body, /theme\/docs-preauthorize\.js/);
    const script = await app.inject({ url: '/docs/static/theme/docs-preauthorize.js' });
    assert.equal(script.statusCode, 200);
    assert.match(script.body, /preauthorizeApiKey\('ApiKeyAuth'/);

    const off = await openTestStore('sqlite');
    try {
      const offApp = await demoApp(off.store, { DEMO_DATA: 'off' });
      try {
        assert.doesNotMatch(
          (await offApp.inject({ url: '/docs/static/swagger-initializer.js' })).body,
          /altsportsDemoKey/,
        );
        assert.match(
          ((await offApp.inject({ url: '/docs/json' })).json() as Document).info.description,
          /KEY=<your key>/,
        );
      } finally {
        await offApp.close();
      }
    } finally {
      await off.cleanup();
    }
  });
});

describe('board page [sqlite]', () => {
  test('served without a key: the page with the demo key, its script and styles; no demo key when it is off', async () => {
    for (const [env, demoKey] of [
      [{}, KEY],
      [{ DEMO_DATA: 'off' }, null],
    ] as const) {
      const { store, cleanup } = await openTestStore('sqlite');
      const app = await demoApp(store, env);
      try {
        const page = await app.inject({ url: '/board' });
        assert.equal(page.statusCode, 200);
        assert.match(String(page.headers['content-type']), /^text\/html/);
        assert.match(page.body, /<script type="module" src="\/board\/board\.js"><\/script>/);
        if (demoKey) assert.ok(page.body.includes(`<meta name="altsports-demo-key" content="${demoKey}">`));
        else assert.doesNotMatch(page.body, /altsports-demo-key"/);
        const script = await app.inject({ url: '/board/board.js' });
        assert.equal(script.statusCode, 200);
        assert.match(String(script.headers['content-type']), /^text\/javascript/);
        assert.match(script.body, /const API = '\/api\/v1\/public';/);
        assert.match(script.body, /\$\{API\}\/stream\?/);
        const styles = await app.inject({ url: '/board/board.css' });
        assert.equal(styles.statusCode, 200);
        assert.match(String(styles.headers['content-type']), /^text\/css/);
        assert.equal((await app.inject({ url: '/board/nothing.js' })).statusCode, 404);
        // The site's icon, without a key, where the board's page and browsers ask for it (it was a 404).
        assert.match(page.body, /<link rel="icon" href="\/favicon\.ico"/);
        const icon = await app.inject({ url: '/favicon.ico' });
        assert.equal(icon.statusCode, 200);
        assert.match(String(icon.headers['content-type']), /^image\/svg\+xml/);
        assert.match(icon.body, /<svg/);
        // Hidden from the published document.
        const published = (await app.inject({ url: `${PUBLIC}/openapi.json` })).json() as Document;
        assert.deepEqual(
          Object.keys(published.paths).filter((p) => p.startsWith('/board') || p.startsWith('/docs')),
          [],
        );
      } finally {
        await app.close();
        await cleanup();
      }
    }
  });
});
