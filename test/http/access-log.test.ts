import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { accessFields } from '../../src/http/access-log.ts';

interface Seen {
  id: string;
  method: string;
  url: string;
  host: string | undefined;
  ip: string | undefined;
  remotePort: number | undefined;
  statusCode: number;
  elapsedTime: number;
}

/** The request and reply the access line reads, as Fastify hands them over, on `socket` (a new connection by default). */
function exchange(seen: Seen, socket: object = { remotePort: seen.remotePort }): [FastifyRequest, FastifyReply] {
  const request = { id: seen.id, method: seen.method, url: seen.url, host: seen.host, ip: seen.ip, socket };
  const reply = { statusCode: seen.statusCode, elapsedTime: seen.elapsedTime };
  return [request as unknown as FastifyRequest, reply as unknown as FastifyReply];
}

/** The members pino's own line had, made the way it made them (one JSON.stringify of the object). */
function pinoMembers(seen: Seen): string {
  const req = {
    method: seen.method,
    url: seen.url,
    host: seen.host,
    remoteAddress: seen.ip,
    remotePort: seen.remotePort,
  };
  const line = { reqId: seen.id, req, res: { statusCode: seen.statusCode }, responseTime: seen.elapsedTime };
  return JSON.stringify(line).slice(1, -1);
}

const seen = fc.record({
  id: fc.oneof(fc.uuid(), fc.string()),
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS'),
  url: fc.oneof(fc.webPath(), fc.string({ unit: 'grapheme' })),
  host: fc.option(fc.oneof(fc.domain(), fc.string()), { nil: undefined }),
  ip: fc.option(fc.oneof(fc.ipV4(), fc.ipV6()), { nil: undefined }),
  remotePort: fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
  statusCode: fc.integer({ min: 100, max: 599 }),
  elapsedTime: fc.double({ min: 0, max: 1e6, noNaN: true }),
});

describe('the access line', () => {
  test("its members are byte for byte those of pino's line, whatever the request carries", () => {
    fc.assert(
      fc.property(seen, (s) => {
        assert.equal(accessFields(...exchange(s)), pinoMembers(s));
      }),
    );
  });

  test('requests after one another on a connection each get their own members (its last request is remembered)', () => {
    const connection = fc.record({
      ip: fc.option(fc.ipV4(), { nil: undefined }),
      remotePort: fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
    });
    // Few URLs, methods and hosts, so that a request often repeats the one before it.
    const asked = fc.record({
      id: fc.uuid(),
      method: fc.constantFrom('GET', 'HEAD'),
      url: fc.constantFrom('/a', '/b', '/a?x=1'),
      host: fc.constantFrom('h', 'h:1', undefined),
      statusCode: fc.constantFrom(200, 304, 429),
      elapsedTime: fc.double({ min: 0, max: 100, noNaN: true }),
    });
    fc.assert(
      fc.property(connection, fc.array(asked, { minLength: 1, maxLength: 8 }), (peer, requests) => {
        const socket = { remotePort: peer.remotePort };
        for (const request of requests) {
          const s: Seen = { ...request, ...peer };
          assert.equal(accessFields(...exchange(s, socket)), pinoMembers(s));
        }
      }),
    );
  });

  const cases: Array<[string, Partial<Seen>]> = [
    ['an HTTP/1.0 request without a Host', { host: undefined }],
    ['a connection whose peer is gone (no address, no port)', { ip: undefined, remotePort: undefined }],
    ['quotes, backslashes and control characters in the URL', { url: '/a"b\\c\u0001d' }],
  ];
  for (const [name, differs] of cases) {
    test(`${name}: valid JSON, pino's members`, () => {
      const s: Seen = {
        id: 'r-1',
        method: 'GET',
        url: '/x',
        host: 'h',
        ip: '127.0.0.1',
        remotePort: 5000,
        statusCode: 200,
        elapsedTime: 1.5,
        ...differs,
      };
      const members = accessFields(...exchange(s));
      assert.doesNotThrow(() => JSON.parse(`{${members}}`));
      assert.equal(members, pinoMembers(s));
    });
  }
});
