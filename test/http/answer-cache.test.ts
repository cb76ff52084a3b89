import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { StoredChange } from '../../src/domain/changes.ts';
import { AnswerCache, codingTag, entityTag, notModified } from '../../src/http/answer-cache.ts';

const change = (id: number, eventId: string | null, competition: string | null = 'wsl'): StoredChange => ({
  id,
  kind: competition === null ? 'reset' : 'event',
  competition,
  eventId,
  data: {},
  createdAt: '2026-11-29T00:00:00.000Z',
});

function filed(cache: AnswerCache, key: string, tags: string[], body = '{"a":1}') {
  const etag = entityTag(body);
  return cache.file(
    key,
    { etag, lastModified: cache.lastModified(tags), tags, compressible: false, link: undefined },
    Buffer.from(body),
  );
}

describe('AnswerCache', () => {
  test('a change drops the documents filed under its event or its competition, and no other', () => {
    const cache = new AnswerCache();
    filed(cache, 'event a', ['event:a', 'competition:wsl']);
    filed(cache, 'event b', ['event:b', 'competition:wsl']);
    filed(cache, 'list spr', ['competition:spr']);
    cache.drop([change(1, 'a')]);
    // The change names competition wsl as well: both of its events' documents go, spr's list stays.
    assert.deepEqual(
      ['event a', 'event b', 'list spr'].map((key) => cache.get(key) !== undefined),
      [false, false, true],
    );
    assert.deepEqual(cache.size(), { entries: 1, bytes: 7, filings: 1 });
  });

  test('a change that arrives twice (at commit, then through the feed) moves the generation once', () => {
    const cache = new AnswerCache();
    cache.drop([change(7, 'a')]);
    cache.drop([change(7, 'a')]);
    assert.equal(cache.generation, 1);
  });

  test('a reset drops everything', () => {
    const cache = new AnswerCache();
    filed(cache, 'list spr', ['competition:spr']);
    cache.drop([change(2, null, null)]);
    assert.equal(cache.get('list spr'), undefined);
  });

  test('a requested URL resolves to the key it validated to', () => {
    const cache = new AnswerCache();
    assert.equal(cache.resolvedKey('* /api/v1/public/sports'), undefined);
    cache.resolve('* /api/v1/public/sports', 'sports key');
    assert.equal(cache.resolvedKey('* /api/v1/public/sports'), 'sports key');
  });
});

describe('notModified', () => {
  const etag = '"abc"';
  const lastModified = { ms: Date.parse('2026-11-29T10:00:00.400Z'), header: '', sharedSecond: false };
  const cases: Array<[string, Record<string, string>, boolean]> = [
    ['the same tag', { 'if-none-match': '"abc"' }, true],
    ['a weak form of it', { 'if-none-match': 'W/"abc"' }, true],
    ['its gzip coding', { 'if-none-match': codingTag(etag, 'gzip') }, true],
    ['one of a list', { 'if-none-match': '"x", "abc"' }, true],
    ['any', { 'if-none-match': '*' }, true],
    ['another tag', { 'if-none-match': '"abd"' }, false],
    [
      'If-None-Match wins over a later If-Modified-Since',
      { 'if-none-match': '"x"', 'if-modified-since': 'Sun, 29 Nov 2026 11:00:00 GMT' },
      false,
    ],
    ['a date in the same second', { 'if-modified-since': 'Sun, 29 Nov 2026 10:00:00 GMT' }, true],
    ['a date the second before', { 'if-modified-since': 'Sun, 29 Nov 2026 09:59:59 GMT' }, false],
    ['a date that is not one', { 'if-modified-since': 'yesterday' }, false],
    ['no validator', {}, false],
  ];
  for (const [name, headers, expected] of cases)
    test(name, () => assert.equal(notModified(headers, etag, lastModified), expected));

  test('not a date in a second that saw two changes', () => {
    const shared = { ...lastModified, sharedSecond: true };
    assert.equal(notModified({ 'if-modified-since': 'Sun, 29 Nov 2026 10:00:00 GMT' }, etag, shared), false);
  });
});
