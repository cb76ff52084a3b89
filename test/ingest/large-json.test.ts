import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JsonCutter, LARGE_JSON_BYTES, parseJsonBody } from '../../src/ingest/large-json.ts';

/** What parsing `body` gives: the value, or the error's code and message. */
async function outcome(parse: () => unknown): Promise<{ value?: unknown; error?: string }> {
  try {
    return { value: await parse() };
  } catch (error) {
    return { error: `${(error as { code?: string }).code}: ${(error as Error).message}` };
  }
}

/** `text` made large enough to be cut, by trailing white space (which JSON allows). */
const large = (text: string) => Buffer.from(text + ' '.repeat(Math.max(0, LARGE_JSON_BYTES - Buffer.byteLength(text))));

/** The cut parse and the whole parse of `body` (a body of any size is parsed whole below Infinity bytes). */
const bothWays = async (body: Buffer) => [
  await outcome(() => parseJsonBody(body)),
  await outcome(() => parseJsonBody(body, Number.POSITIVE_INFINITY)),
];

test('a large body parses to what the whole parse gives, or is refused as it is', async () => {
  const cases = [
    '{"tours":[{"id":"a","name":"x]}\\"{"}],"updatedAt":"2026-01-01T00:00:00Z","odds":[]}',
    '{ "laps" : [ 1 , 2.5e3 , true , null , "s" , [ [ ] ] , { } ] , "n" : { "a" : [ 1 ] } }',
    '{}',
    '[1,2,3]',
    '"text"',
    '\uFEFF{"a":[1]}',
    '{"a":[1,2,}',
    '{"a":[1,2]',
    '{"a":[1 2]}',
    '{"a":[tru]}',
    '{"a":[1]"b":[]}',
    '{"a":[{"__proto__":{"x":1}}]}',
    '{"a":[{"\\u005f_proto__":{"x":1}}]}',
    '{"a":[{"constructor":{"prototype":{}}}]}',
    '{"__proto__":[]}',
    '{"constructor":{"prototype":{}}}',
    '{"a":[1],"a":[2]}',
    '{"a":[1]} x',
    '{"a":"\\u00e9\\\\","b":[{"c":"]"}]}',
  ];
  for (const text of cases) {
    const [cut, whole] = await bothWays(large(text));
    assert.deepEqual(cut, whole, text);
  }
});

/** A key secure-json-parse refuses by design (the cases above): not what this property is about. */
const REFUSED_KEY = /(^|[^\\])"(__proto__|constructor)":/;

test('any JSON value, made large, parses to what JSON.parse gives (property)', async () => {
  const documents = fc
    .dictionary(fc.string(), fc.jsonValue())
    .filter((value) => !REFUSED_KEY.test(JSON.stringify(value)));
  await fc.assert(
    fc.asyncProperty(documents, async (value) => {
      const body = large(JSON.stringify(value));
      assert.deepEqual(await parseJsonBody(body), JSON.parse(body.toString()));
    }),
    { numRuns: 50 },
  );
});

test('characters of 2, 3 and 4 bytes across the slices the body is cut in are read whole', async () => {
  const text = '{"a":["é€😀"],"b":"é€😀"}';
  for (let shift = 0; shift < 6; shift++) {
    const body = large(`{"pad":["${'x'.repeat(64 * 1024 - 12 + shift)}"],${text.slice(1)}`);
    assert.deepEqual(await parseJsonBody(body), JSON.parse(body.toString()), `shift ${shift}`);
  }
});

test('the cutter gives each member and item, and the byte offsets of each array, however the chunks cut them', () => {
  const text = '{"u":"é","a":[{"x":"]"},2,"s"],"b":[]}';
  const bytes = Buffer.from(text);
  for (const size of [1, 2, 3, 5, bytes.length]) {
    const seen: unknown[] = [];
    const cutter = new JsonCutter({
      member: (name, value, offset) => seen.push(['member', name, value, offset]),
      array: (name, offset) => seen.push(['array', name, offset]),
      item: (name, index, value) => seen.push(['item', name, index, value]),
      close: (name, offset) => seen.push(['close', name, offset]),
    });
    for (let at = 0; at < bytes.length; at += size) cutter.write(bytes.subarray(at, at + size));
    cutter.end();
    assert.deepEqual(
      seen,
      [
        ['member', 'u', 'é', 5],
        ['array', 'a', 14],
        ['item', 'a', 0, { x: ']' }],
        ['item', 'a', 1, 2],
        ['item', 'a', 2, 's'],
        ['close', 'a', 30],
        ['array', 'b', 36],
        ['close', 'b', 37],
      ],
      `chunks of ${size}`,
    );
  }
});
