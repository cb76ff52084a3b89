import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeUtf8Paced, LARGE_JSON_CHARS, parseJsonPaced } from '../../src/http/large-json.ts';

/** What the whole parse gives, as the paced parse must give it: the value, or the error's message. */
const whole = (text: string) => JSON.parse(text) as unknown;

async function outcome(parse: () => unknown): Promise<{ value?: unknown; error?: string }> {
  try {
    return { value: await parse() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** `text` made large enough to be cut, by trailing white space (which JSON allows). */
const large = (text: string) => text + ' '.repeat(Math.max(0, LARGE_JSON_CHARS - text.length));

test('a large body parses to what JSON.parse gives, or fails as it does', async () => {
  const cases = [
    '{"tours":[{"id":"a","name":"x]}\\"{"}],"updatedAt":"2026-01-01T00:00:00Z","odds":[]}',
    '{ "laps" : [ 1 , 2.5e3 , true , null , "s" , [ [ ] ] , { } ] , "n" : { "a" : [ 1 ] } }',
    '{}',
    '[1,2,3]',
    '"text"',
    '{"a":[1,2,}',
    '{"a":[1,2]',
    '{"a":[1 2]}',
    '{"a":[{"__proto__":{"x":1}}]}',
    '{"__proto__":[]}',
    '{"constructor":{"prototype":{}}}',
    '{"a":[1]} x',
    '{"a":"\\u00e9\\\\","b":[{"c":"]"}]}',
  ];
  for (const text of cases) {
    const body = large(text);
    assert.deepEqual(await outcome(() => parseJsonPaced(body, whole)), await outcome(() => whole(body)), text);
  }
});

test('any JSON value, made large, parses to what JSON.parse gives (property)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (value) => {
      const body = large(JSON.stringify(value));
      assert.deepEqual(await parseJsonPaced(body, whole), JSON.parse(body));
    }),
    { numRuns: 50 },
  );
});

test('a large body is decoded as Buffer#toString gives it: a byte order mark kept, bad bytes replaced, characters across slices whole', async () => {
  const text = `\uFEFF{"a":["é€😀"]}`;
  // Characters of 2, 3 and 4 bytes at every offset against the 1 MiB slices.
  const filler = 'x'.repeat(1024 * 1024 - 7);
  for (let shift = 0; shift < 6; shift++) {
    const body = Buffer.concat([
      Buffer.from(filler + 'y'.repeat(shift) + text),
      Buffer.from([0xff, 0xc3]),
      Buffer.from(' '.repeat(1024 * 1024)),
    ]);
    assert.equal(await decodeUtf8Paced(body), body.toString('utf8'), `shift ${shift}`);
  }
});
