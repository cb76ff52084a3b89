/**
 * The published OpenAPI document and the docs page. The document is generated from the route schemas
 * and does not depend on the store, so these tests run on SQLite only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { ERRORS, type ErrorCode } from '../../src/domain/errors.ts';
import { statusOf } from '../../src/http/error-statuses.ts';
import { fixtureApp } from '../helpers/app.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

type Json = Record<string, unknown>;

interface Operation {
  summary?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; deprecated?: boolean; schema?: Json }>;
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
}

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
  security?: Array<Record<string, string[]>>;
}

const OPENAPI_URL = '/api/v1/public/openapi.json';

/** Every route the document must describe: [path, method]. */
const PUBLIC_ROUTES: Array<[string, string]> = [
  ['/api/v1/public/sports', 'get'],
  ['/api/v1/public/events', 'get'],
  ['/api/v1/public/events/{eventId}', 'get'],
  ['/api/v1/public/events/{eventId}/participants', 'get'],
  ['/api/v1/public/events/{eventId}/heats/{heatId}', 'get'],
  ['/api/v1/public/events/{eventId}/{oddType}', 'get'],
  ['/api/v1/public/events/{eventId}/sgp', 'post'],
  ['/api/v1/public/events/gsoc/{eventId}', 'get'],
  ['/api/v1/public/events/gsoc/{id}/odds', 'get'],
  ['/api/v1/public/events/mltt/{eventId}', 'get'],
  ['/api/v1/public/events/mltt/{id}/odds', 'get'],
  ['/api/v1/public/events/nll/{eventId}', 'get'],
  ['/api/v1/public/events/nll/{id}/odds', 'get'],
  ['/api/v1/public/events/3ice/{eventId}', 'get'],
  ['/api/v1/public/events/3ice/bracket/{tourYearId}', 'get'],
  ['/api/v1/public/events/jaialai/{id}', 'get'],
  ['/api/v1/public/events/jaialai/{id}/odds', 'get'],
  ['/api/v1/public/futures', 'get'],
  ['/api/v1/public/futures/{sportType}/tour/{tourId}/odds/{futureType}', 'get'],
];
const ADMIN_ROUTES: Array<[string, string]> = [
  ['/api/v1/admin/feed', 'post'],
  ['/api/v1/admin/events/{eventId}/markets/generate', 'post'],
];

/** Every `$ref` string anywhere in `value`. */
function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') out.push(item);
      else collectRefs(item, out);
    }
  }
  return out;
}

describe('OpenAPI document and docs page [sqlite]', () => {
  let testStore: TestStore;
  let app: FastifyInstance;
  let doc: OpenApiDocument;

  before(async () => {
    testStore = await openTestStore('sqlite');
    ({ app } = await fixtureApp(testStore.store));
    const response = await app.inject({ method: 'GET', url: OPENAPI_URL });
    assert.equal(response.statusCode, 200, response.body);
    doc = response.json() as OpenApiDocument;
  });

  after(async () => {
    await app?.close();
    await testStore?.cleanup();
  });

  test("the parlay routes' bodies state SGP_MAX_LEGS (12 by default) as their lists' maxItems", () => {
    for (const path of ['/api/v1/public/events/{eventId}/sgp', '/api/v1/public/events/{eventId}/sgp/options']) {
      const schema = doc.paths[path]?.post?.requestBody?.content?.['application/json']?.schema;
      const maxItems = [...JSON.stringify(schema).matchAll(/"maxItems":(\d+)/g)].map((m) => Number(m[1]));
      assert.deepEqual(maxItems, [12, 12], path);
    }
  });

  test('GET /api/v1/public/openapi.json needs no key and answers JSON', async () => {
    const response = await app.inject({ method: 'GET', url: OPENAPI_URL });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    // A wrong key does not get in the way either: the route is open.
    const withBadKey = await app.inject({
      method: 'GET',
      url: OPENAPI_URL,
      headers: { 'x-api-key': 'wrong-key-0123456789abcdef' },
    });
    assert.equal(withBadKey.statusCode, 200);
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.info.title.length > 0);
    assert.ok(doc.info.version.length > 0);
  });

  test('the document is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Json);
    assert.equal(validator.version, '3.1');
    assert.ok(result.valid, `invalid OpenAPI document:\n${JSON.stringify(result.errors, null, 2)}`);
  });

  test('every $ref points at a schema in components', () => {
    const refs = collectRefs(doc.paths).concat(collectRefs(doc.components));
    assert.ok(refs.length > 0);
    const missing = [...new Set(refs)].filter((ref) => {
      const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
      return !match || !(decodeURIComponent(match[1] as string) in doc.components.schemas);
    });
    assert.deepEqual(missing, []);
  });

  test('every public route and the admin feed route has a summary, a 200 schema and ServerErrorResponse errors', () => {
    for (const [path, method] of [...PUBLIC_ROUTES, ...ADMIN_ROUTES]) {
      const operation = doc.paths[path]?.[method];
      assert.ok(operation, `${method.toUpperCase()} ${path} is missing from the document`);
      assert.ok(operation.summary && operation.summary.trim().length > 0, `${path}: no summary`);

      // The parlay route creates a calculation: 201.
      const ok = operation.responses['200'] ?? operation.responses['201'];
      const okSchema = ok?.content?.['application/json']?.schema;
      assert.ok(okSchema, `${path}: no 200 response schema`);
      assert.ok(Object.keys(okSchema).length > 0, `${path}: empty 200 response schema`);

      const errorCodes = Object.keys(operation.responses).filter((code) => /^[45]\d\d$/.test(code));
      assert.ok(errorCodes.includes('401'), `${path}: no 401 response`);
      assert.ok(errorCodes.includes('400'), `${path}: no 400 response`);
      for (const code of errorCodes) {
        const response: Operation['responses'][string] | undefined = operation.responses[code];
        assert.ok(response?.description, `${path} ${code}: no description`);
        // The body's schema, with the codes (domain/errors.ts) this response may carry.
        const schema = response.content?.['application/json']?.schema as
          | { allOf: [unknown, { properties: { code: { enum: string[] } } }] }
          | undefined;
        assert.deepEqual(
          schema?.allOf[0],
          { $ref: '#/components/schemas/ServerErrorResponse' },
          `${path} ${code}: the error body is not a ServerErrorResponse`,
        );
        assert.ok((schema?.allOf[1].properties.code.enum.length ?? 0) > 0, `${path} ${code}: no error codes listed`);
      }
    }
    // Routes that name a resource also document their 404.
    assert.ok(doc.paths['/api/v1/public/events/{eventId}']?.get?.responses['404']);
    assert.ok(doc.paths['/api/v1/public/futures/{sportType}/tour/{tourId}/odds/{futureType}']?.get?.responses['404']);
    assert.ok(doc.paths['/api/v1/public/events/{eventId}/heats/{heatId}']?.get?.responses['404']);
    const participants = doc.paths['/api/v1/public/events/{eventId}/participants']?.get?.responses;
    assert.ok(participants?.['400'] && participants['404']);
    assert.ok(doc.paths['/api/v1/public/events/{eventId}/{oddType}']?.get?.responses['404']);
    const sgp = doc.paths['/api/v1/public/events/{eventId}/sgp']?.post?.responses;
    assert.ok(sgp?.['201'] && sgp['404'] && sgp['422']);
  });

  /** The codes an operation's error response of `status` lists. */
  const codesOf = (path: string, method: string, status: number): string[] => {
    const schema = doc.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema as
      | { allOf?: [unknown, { properties: { code: { enum: string[] } } }] }
      | undefined;
    return schema?.allOf?.[1].properties.code.enum ?? [];
  };

  test("each route's error responses list the codes that route gives, not every code of the status", () => {
    const sports = '/api/v1/public/sports';
    const parlay = '/api/v1/public/events/{eventId}/sgp';
    assert.deepEqual(codesOf(sports, 'get', 400), ['INVALID_PARAMETER']);
    assert.deepEqual(codesOf(sports, 'get', 401), ['API_KEY_MISSING', 'API_KEY_INVALID']);
    assert.deepEqual(codesOf(sports, 'get', 429), ['RATE_LIMITED', 'QUOTA_EXCEEDED']);
    assert.ok(codesOf(parlay, 'post', 422).includes('PARLAY_LEGS_REFUSED'));
    assert.ok(codesOf(parlay, 'post', 400).includes('PARLAY_NOT_OFFERED'));
    assert.ok(codesOf(parlay, 'post', 400).includes('BODY_NOT_JSON'), 'a route with a body lists its reading');
    assert.ok(codesOf(parlay, 'post', 429).includes('TOO_MANY_SIMULATIONS'));
    assert.ok(!codesOf('/api/v1/public/events/{eventId}', 'get', 400).includes('BODY_NOT_JSON'), 'a GET has no body');
    assert.deepEqual(codesOf('/api/v1/public/events/{eventId}', 'get', 404), ['EVENT_NOT_FOUND']);
    assert.ok(codesOf('/api/v1/public/stream', 'get', 429).includes('TOO_MANY_STREAMS'));
    assert.ok(codesOf('/api/v1/public/stream', 'get', 401).includes('STREAM_TOKEN_INVALID'));
    assert.deepEqual(codesOf('/healthz', 'get', 503), ['STORE_UNAVAILABLE', 'STORE_CORRUPT']);
    assert.deepEqual(codesOf('/api/v1/admin/plans', 'post', 409), ['PLAN_NAME_TAKEN']);
    // A code of the parlay routes only is listed by no other; the feed route declares no codes of its
    // own, so its responses list every code of their status that admin routes may give.
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item)) {
        if (path === parlay || path.endsWith('/sgp/options') || path === '/api/v1/admin/feed') continue;
        for (const status of Object.keys(operation.responses))
          assert.ok(!codesOf(path, method, Number(status)).includes('PARLAY_LEGS_REFUSED'), `${method} ${path}`);
      }
  });

  test("every code listed is the catalogue's and has the response's status; the routes' declarations are not published", () => {
    let listed = 0;
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(item)) {
        assert.ok(!('x-error-codes' in operation), `${method} ${path}: x-error-codes left in the document`);
        for (const status of Object.keys(operation.responses).filter((s) => /^[45]\d\d$/.test(s)))
          for (const code of codesOf(path, method, Number(status))) {
            assert.ok(code in ERRORS, `${method} ${path} ${status}: ${code} is not in the catalogue`);
            assert.equal(statusOf(code as ErrorCode), Number(status), `${method} ${path} ${status}: ${code}`);
            listed++;
          }
      }
    assert.ok(listed > 100);
  });

  test('public routes document their rate-limit headers and 429; document GETs their validators, the conditional headers, 304 and content codings', () => {
    for (const [path, method] of PUBLIC_ROUTES) {
      const operation = doc.paths[path]?.[method] as Operation & { parameters?: Array<{ name: string; in: string }> };
      const ok = (operation.responses['200'] ?? operation.responses['201']) as { headers?: Record<string, unknown> };
      assert.ok(ok.headers?.['X-RateLimit-Remaining'], `${path}: no X-RateLimit-Remaining`);
      assert.ok(operation.responses['429'], `${path}: no 429`);
      if (method !== 'get') continue;
      assert.ok(ok.headers?.ETag && ok.headers['Last-Modified'], `${path}: no ETag and Last-Modified`);
      assert.ok(operation.responses['304'], `${path}: no 304`);
      const headers = (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
      assert.ok(
        headers.includes('If-None-Match') && headers.includes('If-Modified-Since'),
        `${path}: conditional headers`,
      );
      assert.ok(
        headers.includes('Accept-Encoding') && ok.headers['Content-Encoding'] && ok.headers.Vary,
        `${path}: content codings`,
      );
    }
  });

  test('200 schemas reference the named listing schemas', () => {
    const okSchema = (path: string, method = 'get') =>
      doc.paths[path]?.[method]?.responses['200']?.content?.['application/json']?.schema;
    assert.deepEqual(okSchema('/api/v1/public/sports'), {
      type: 'array',
      items: { $ref: '#/components/schemas/SportListingItem' },
    });
    assert.deepEqual(okSchema('/api/v1/public/events'), {
      type: 'array',
      items: { $ref: '#/components/schemas/EventListItem' },
    });
    assert.deepEqual(okSchema('/api/v1/public/events/{eventId}'), { $ref: '#/components/schemas/Event' });
    assert.deepEqual(okSchema('/api/v1/public/events/{eventId}/participants'), {
      type: 'array',
      items: { $ref: '#/components/schemas/Participant' },
    });
    assert.deepEqual(okSchema('/api/v1/public/events/{eventId}/heats/{heatId}'), {
      type: 'array',
      items: { $ref: '#/components/schemas/HeatScoreRow' },
    });
    // Every field of section 2.5 is described; the required list is the specification's.
    const row = doc.components.schemas.HeatScoreRow as { properties: Record<string, Json>; required: string[] };
    const SECTION_2_5_REQUIRED =
      'id numericSportId sportKey sportName numericCompetitionId competitionKey competitionName referenceId heatStatus eventId numericEventId heatId athleteRoundSeed athleteRoundRank athleteHeatScore athleteLapTime athletePenaltyTime athleteJokerLapTime athleteJokerLap athleteLapStatus totalLaps roundScore lineScore1 lineScore2 trick1Score trick2Score trick3Score trick4Score trick5Score trick6Score riderScore bullScore athlete updatedAt'.split(
        ' ',
      );
    for (const field of SECTION_2_5_REQUIRED)
      assert.ok(row.required.includes(field), `HeatScoreRow does not require ${field}`);
    for (const field of [
      'winBy',
      'isTeamEvent',
      'eventType',
      'athleteLapsLed',
      'athleteFastestLapCount',
      'athleteFastestLapSeconds',
      'athleteFastestLapNo',
    ]) {
      assert.ok(field in row.properties, `HeatScoreRow does not describe ${field}`);
    }
    assert.ok(!row.required.includes('winBy') && !row.required.includes('isTeamEvent'));
    assert.deepEqual(okSchema('/api/v1/public/futures'), {
      type: 'array',
      items: { $ref: '#/components/schemas/FutureListingItem' },
    });
    assert.deepEqual(okSchema('/api/v1/public/futures/{sportType}/tour/{tourId}/odds/{futureType}'), {
      type: 'array',
      items: { $ref: '#/components/schemas/FutureOddsItem' },
    });
    const error = doc.components.schemas.ServerErrorResponse as { properties: Json; required: string[] };
    assert.deepEqual(Object.keys(error.properties).sort(), [
      'code',
      'message',
      'metadata',
      'stack',
      'statusCode',
      'timestamp',
    ]);
    assert.deepEqual([...error.required].sort(), ['code', 'message', 'metadata', 'stack', 'statusCode', 'timestamp']);
  });

  test('GET /events documents its query parameters; sportType is deprecated in favour of competition', () => {
    const parameters = doc.paths['/api/v1/public/events']?.get?.parameters ?? [];
    const byName = new Map(parameters.map((p) => [p.name, p]));
    for (const name of ['startDate', 'endDate', 'competition', 'sportType', 'sortOrder', 'eventStatus']) {
      assert.equal(byName.get(name)?.in, 'query', `query parameter ${name} is missing`);
    }
    const sportType = byName.get('sportType');
    assert.ok(sportType);
    assert.notEqual(byName.get('competition')?.deprecated, true);
    assert.deepEqual(
      (sportType.schema as { enum?: string[] }).enum,
      (byName.get('competition')?.schema as { enum?: string[] } | undefined)?.enum,
    );
    assert.equal((byName.get('eventStatus')?.schema as { type?: string } | undefined)?.type, 'array');
    // The Parameter Object's own `deprecated` field is what tools (Swagger UI, client generators) read;
    // a `deprecated` inside the parameter's schema alone is only a JSON Schema annotation.
    assert.equal(
      sportType.deprecated,
      true,
      `sportType is not deprecated at the parameter level: ${JSON.stringify(sportType)}`,
    );
  });

  test('security schemes: an API key in X-API-KEY and bearer for public routes, the admin scheme for admin routes', () => {
    const schemes = doc.components.securitySchemes;
    const apiKeySchemes = Object.entries(schemes).filter(
      ([, s]) => s.type === 'apiKey' && s.in === 'header' && s.name === 'X-API-KEY',
    );
    assert.ok(apiKeySchemes.length > 0, 'no apiKey scheme in header X-API-KEY');
    const bearer = Object.entries(schemes).filter(
      ([, s]) => s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer',
    );
    assert.ok(bearer.length > 0, 'no bearer scheme');
    assert.ok(schemes.AdminKeyAuth, 'no admin scheme');

    // Public routes: the operation's security, or the document's when the operation has none.
    for (const [path, method] of PUBLIC_ROUTES) {
      const operation = doc.paths[path]?.[method];
      const security = operation?.security ?? doc.security ?? [];
      const names = security.flatMap((requirement) => Object.keys(requirement));
      assert.ok(names.includes('ApiKeyAuth'), `${path}: the API key scheme does not apply`);
      assert.ok(names.includes('BearerAuth'), `${path}: the bearer scheme does not apply`);
      assert.ok(!names.includes('AdminKeyAuth'), `${path}: a public route accepts the admin scheme`);
      // Alternatives (either header), not both at once.
      assert.ok(
        security.every((requirement) => Object.keys(requirement).length === 1),
        `${path}: schemes are required together`,
      );
    }
    for (const [path, method] of ADMIN_ROUTES) {
      assert.deepEqual(doc.paths[path]?.[method]?.security, [{ AdminKeyAuth: [] }], `${path}: not the admin scheme`);
    }
  });

  test("the feed document schema is in components and is the admin route's body", () => {
    const feed = doc.components.schemas.FeedDocument as { type?: string; properties?: Json };
    assert.ok(feed, 'FeedDocument is not in components.schemas');
    assert.equal(feed.type, 'object');
    for (const collection of [
      'tours',
      'tourYears',
      'teams',
      'athletes',
      'events',
      'rounds',
      'heats',
      'roundScores',
      'futures',
      'futureOdds',
    ]) {
      assert.ok(feed.properties && collection in feed.properties, `FeedDocument has no ${collection}`);
    }
    const body = doc.paths['/api/v1/admin/feed']?.post?.requestBody?.content?.['application/json']?.schema;
    assert.deepEqual(body, { $ref: '#/components/schemas/FeedDocument' });
  });

  test('GET /docs and /docs/ answer HTML without a key', async () => {
    for (const url of ['/docs', '/docs/']) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, `${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.match(response.body, /<html/i);
      assert.match(response.body, /swagger/i);
    }
  });
});
