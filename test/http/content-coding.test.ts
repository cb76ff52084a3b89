import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { CONTENT_CODINGS, type Coding, codingFor, encode } from '../../src/http/content-coding.ts';

test('codingFor: the Accept-Encoding cases of RFC 9110 section 12.5.3', () => {
  const cases: Array<[string | undefined, Coding, string]> = [
    [undefined, 'identity', 'no header: the client asked for no coding'],
    ['', 'identity', 'an empty header: identity only'],
    ['gzip', 'gzip', 'one coding'],
    ['br', 'br', 'one coding'],
    ['gzip, deflate', 'gzip', "Node's fetch over http"],
    ['gzip, deflate, br', 'br', 'browsers: a tie goes to br, the smaller'],
    ['br;q=0.5, gzip', 'gzip', 'the higher weight wins'],
    ['br;q=0.5, gzip;q=0.8, identity;q=0.1', 'gzip', 'the highest weight of three'],
    ['GZIP', 'gzip', 'names are case-insensitive'],
    ['x-gzip', 'gzip', 'x-gzip is gzip'],
    ['gzip;q=0', 'identity', 'q=0 refuses a coding'],
    ['gzip;q=0, br;q=0', 'identity', 'every coding refused'],
    ['deflate', 'identity', 'a coding not offered'],
    ['compress, zstd', 'identity', 'codings not offered'],
    ['*', 'br', 'any coding: the preferred one'],
    ['*;q=0.5, gzip', 'gzip', 'a named coding outweighs the wildcard'],
    ['*;q=0', 'identity', 'the wildcard refused, nothing named'],
    ['br;q=0, *', 'gzip', 'the wildcard stands for what is not named'],
    ['gzip;q=0.5, identity', 'identity', 'identity weighs more'],
    ['gzip, identity', 'gzip', 'a tie with identity goes to the coding'],
    ['identity', 'identity', 'identity asked for'],
    ['gzip;q=0.001', 'gzip', 'the smallest weight above zero: identity, unnamed, weighs no more'],
    ['gzip;q=0.5', 'gzip', 'identity, unnamed, is the last resort'],
    ['gzip;q=0.5, *;q=0.8', 'br', 'the wildcard weighs identity and br alike; br wins the tie'],
    ['gzip;q=0, identity;q=0', 'identity', 'everything refused: identity all the same'],
    ['gzip;q=1.000', 'gzip', 'the largest weight, three decimals'],
    ['gzip;q=2', 'gzip', 'a weight out of range is read as the largest'],
    ['gzip;q=abc', 'identity', 'a malformed weight counts as zero'],
    ['gzip ; q=0.7 , br ; q = 0.6', 'gzip', 'whitespace around the parameters'],
    ['gzip;level=9', 'gzip', 'parameters other than q are ignored'],
    [' , ,gzip', 'gzip', 'empty list items are skipped'],
  ];
  for (const [header, expected, why] of cases)
    assert.equal(codingFor(header), expected, `${JSON.stringify(header)}: ${why}`);
});

test('codingFor: never a coding the client weighed at 0, nor one not offered', () => {
  const name = fc.constantFrom('br', 'gzip', 'x-gzip', 'deflate', 'identity', '*', 'zstd', 'BR', 'Gzip');
  const weight = fc.option(fc.constantFrom('0', '0.0', '0.1', '0.5', '1', '1.0', 'x', '3'), { nil: undefined });
  const item = fc.tuple(name, weight).map(([n, q]) => (q === undefined ? n : `${n};q=${q}`));
  fc.assert(
    fc.property(fc.array(item, { maxLength: 6 }), (items) => {
      const header = items.join(', ');
      const chosen = codingFor(header);
      assert.ok(chosen === 'identity' || (CONTENT_CODINGS as readonly string[]).includes(chosen));
      if (chosen === 'identity') return;
      const refused = items.some((i) => {
        const [n = '', q] = i.toLowerCase().split(';q=');
        return (n === chosen || (chosen === 'gzip' && n === 'x-gzip')) && q !== undefined && !(Number(q) > 0);
      });
      const named = items.some((i) => {
        const n = i.toLowerCase().split(';')[0];
        return n === chosen || n === '*' || (chosen === 'gzip' && n === 'x-gzip');
      });
      assert.ok(named, `${header}: ${chosen} was never asked for`);
      if (refused) {
        // Refused under one name, it can still be asked for under another (x-gzip) at a weight above 0.
        const askedElsewhere = items.some((i) => {
          const [n = '', q] = i.toLowerCase().split(';q=');
          return (n === chosen || (chosen === 'gzip' && n === 'x-gzip')) && (q === undefined || Number(q) > 0);
        });
        assert.ok(askedElsewhere, `${header}: ${chosen} was refused`);
      }
    }),
  );
});

test('codingFor answers a header value the same every time (it is remembered)', () => {
  for (const header of ['gzip, deflate, br', 'gzip;q=0', 'br', 'gzip, deflate, br', 'br;q=0, *', 'br;q=0, *'])
    assert.equal(codingFor(header), codingFor(header.slice()), header);
});

test('encode: br and gzip give the bytes back, smaller', () => {
  const body = Buffer.from(
    JSON.stringify(
      Array.from({ length: 200 }, (_, i) => ({ id: `wsl:${i}`, name: `Event ${i}`, eventStatus: 'COMPLETED' })),
    ),
  );
  const br = encode(body, 'br');
  const gzip = encode(body, 'gzip');
  assert.deepEqual(brotliDecompressSync(br), body);
  assert.deepEqual(gunzipSync(gzip), body);
  assert.ok(br.length < body.length / 4, `br: ${br.length} of ${body.length}`);
  assert.ok(gzip.length < body.length / 4, `gzip: ${gzip.length} of ${body.length}`);
});
