import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { requestId } from '../../src/http/request-id.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const withHeaders = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('requestId', () => {
  const cases: [string, Record<string, string>, string | RegExp][] = [
    ['a sane X-Request-ID is kept', { 'x-request-id': 'trace-me-42' }, 'trace-me-42'],
    ['dots, colons and underscores are sane', { 'x-request-id': 'a.b:c_d' }, 'a.b:c_d'],
    ['spaces are not: a new id', { 'x-request-id': 'not a valid id' }, UUID_V4],
    ['65 characters are too many: a new id', { 'x-request-id': 'x'.repeat(65) }, UUID_V4],
    ['an empty one: a new id', { 'x-request-id': '' }, UUID_V4],
    ['none: a new id', {}, UUID_V4],
  ];
  for (const [name, headers, expected] of cases) {
    test(name, () => {
      const id = requestId(withHeaders(headers));
      if (typeof expected === 'string') assert.equal(id, expected);
      else assert.match(id, expected);
    });
  }
});
