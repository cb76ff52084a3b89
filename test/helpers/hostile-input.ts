/**
 * Hostile input for the fuzz suite (test/http/fuzz.test.ts): fast-check arbitraries for
 * path segments, query strings, headers and request bodies that a careless or malicious client
 * sends, and the checks every answer to them must pass (never a 5xx, always the specification's
 * error body, no internals, no write after a refusal).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import type { Store } from '../../src/store/database.ts';
import type { Database } from '../../src/store/schema.ts';

// --- run parameters ------------------------------------------------------------------------------

function positiveInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name}="${raw}" must be a positive whole number`);
  return value;
}

/** Runs per property: small in `npm test`, large in `npm run fuzz`. */
export const FUZZ_RUNS = positiveInteger(process.env.FUZZ_RUNS, 60, 'FUZZ_RUNS');

/**
 * fast-check parameters: FUZZ_SEED (and FUZZ_PATH) replay a failure that fast-check reported with
 * its seed and path. Without them every run draws a fresh seed, printed on failure.
 */
export function fuzzParameters<T>(examples: T[] = [], runs = FUZZ_RUNS): fc.Parameters<[T]> {
  const seed = process.env.FUZZ_SEED?.trim() ? Number(process.env.FUZZ_SEED) : undefined;
  if (seed !== undefined && !Number.isInteger(seed))
    throw new Error(`FUZZ_SEED="${process.env.FUZZ_SEED}" must be an integer`);
  const path = process.env.FUZZ_PATH?.trim() || undefined;
  return {
    numRuns: runs,
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined ? { path } : {}),
    // The failure message names the request and what came back; without this only the cause has it.
    includeErrorInReport: true,
    examples: examples.map((example) => [example] as [T]),
  };
}

// --- hostile text --------------------------------------------------------------------------------

export const SQL_META = [
  "' OR 1=1 --",
  "' OR '1'='1",
  "'; DROP TABLE events; --",
  '"; DROP TABLE "events"; --',
  ';DROP TABLE odds',
  "1' UNION SELECT 1,2,3 --",
  '%',
  '_',
  '%_%',
  '%%',
  '\\',
  '\\\\',
  "\\'",
  "''",
  '"',
  '$1',
  '?',
  ':name',
  '/*',
  '*/',
  "' || '",
  'NULL',
  "E'\\x00'",
  '`',
  '[',
  ']',
] as const;

/** Raw path segments: traversal, encoded slashes and dots, broken percent-encoding. */
export const RAW_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2e%2e%2f',
  '%2E%2E%2F',
  '..%2f..%2f',
  '..%2F..%2Fpackage.json',
  '%252e%252e%252f',
  '.%2e',
  '..%5c..%5c',
  '%2F',
  'a%2Fb',
  '%5C',
  '....%2f%2f',
  '%00',
  'a%00b',
  '%0d%0aX-Injected:%201',
  '%',
  '%zz',
  '%2',
  '%%32%65',
  '%C0%AF',
  '%C0%AE%C0%AE%C0%AF',
  '%ED%A0%80',
  '%ED%BF%BF',
  '%F4%90%80%80',
  '%FF%FE',
  '%E2%80%AE',
  '%EF%BB%BF',
  '~',
  '*',
  ';',
  ';jsessionid=1',
  '@',
  '!',
  "'",
  '(',
  ')',
  ',',
  '+',
] as const;

/** Unicode that trips naive code: emoji, RTL, NUL, combining marks, lone surrogates, BOM, separators. */
export const UNICODE_TEXT = [
  '😀',
  '👩‍👩‍👧‍👦',
  'مرحبا',
  'שלום',
  '\u202Eevil\u202C',
  '\u200F',
  '\u200B',
  'e\u0301\u0302\u0303\u0304',
  'Z\u0337\u0322\u031b\u0353a\u0338l\u0336g\u0335o\u0337',
  '\u0000',
  'a\u0000b',
  '\uFEFF',
  '\u2028\u2029',
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\ude00b',
  'İı',
  'ß',
  '\u{10FFFF}',
  '𝕏𝕐',
  '\t',
  '\r\n',
  '\u007f',
  '\u0085',
] as const;

/** Numbers as text: huge, negative, not finite, not numbers, and a few that are valid somewhere. */
export const HOSTILE_NUMBERS = [
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  '+Infinity',
  '1e400',
  '-1e400',
  '1e-400',
  '1e308',
  '1.7976931348623157e309',
  '9007199254740993',
  '-9007199254740993',
  '99999999999999999999999999',
  '2147483648',
  '-2147483649',
  '-1',
  '0',
  '-0',
  '0.5',
  '1.0',
  '0x10',
  '0b1',
  '1_000',
  '+1',
  ' 1',
  '1 ',
  '00001',
  '1e3',
  '1,2',
  '',
  'true',
  'null',
  '[]',
  '{}',
  '1',
  '2',
  '3',
  '4',
] as const;

const LONG_UNITS = ['x', 'é', '😀', "'", '%', '\\', '\u0301'] as const;

/** Very long text: past the 200-character id limits, past the router's 500, and 10k. */
export const longText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(199, 200, 201, 499, 500, 501, 2_000, 10_000), fc.constantFrom(...LONG_UNITS))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Text of any kind, hostile more often than not. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<string>(...SQL_META, ...UNICODE_TEXT, ...HOSTILE_NUMBERS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.oneof(fc.constantFrom<string>(...SQL_META, ...UNICODE_TEXT), loneSurrogate),
      maxLength: 6,
    }),
  },
  { weight: 1, arbitrary: longText },
);

/**
 * Percent-encodes any JS string, lone surrogates included (as the WTF-8 bytes a careless client
 * would send, which are invalid UTF-8), which encodeURIComponent refuses.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

/** decodeURIComponent that keeps what it cannot decode. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A path segment, already encoded: a real value, hostile text, a raw hostile segment, a mangled real value. */
export function hostileSegment(real: readonly string[]): fc.Arbitrary<string> {
  const reals = real.length > 0 ? real : ['x'];
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...reals).map(encodeURIComponent) },
    { weight: 3, arbitrary: hostileText.map(percentEncode) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...reals),
          fc.constantFrom<string>(...SQL_META, ...UNICODE_TEXT, ' ', '/', ':', '::'),
          fc.boolean(),
        )
        .map(([value, extra, before]) => percentEncode(before ? extra + value : value + extra)),
    },
    { weight: 1, arbitrary: fc.constantFrom(...reals).map((value) => percentEncode(value.toUpperCase())) },
  );
}

// --- query strings -------------------------------------------------------------------------------

export interface QueryParameter {
  name: string;
  /** Values that are valid for it (enumerations, real ids, dates), mixed in so requests get past validation. */
  valid: readonly string[];
}

/** Names under which the same parameter arrives: plain, repeated with [], bracketed keys, indexed. */
function nameVariants(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(name) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        `${name}[]`,
        `${name}[a]`,
        `${name}[0]`,
        `${name}[999999]`,
        `${name}[-1]`,
        `${name}[][]`,
        `${name}[0][0]`,
        `${name}.a`,
        name.toUpperCase(),
        ` ${name}`,
      ),
    },
  );
}

const GENERIC_QUERY_NAMES = [
  'limit',
  'cursor',
  'envelope',
  'eventStatus',
  'competition',
  'sportType',
  'lastEventId',
  'kind',
  'eventId',
  'sortOrder',
  'updatedSince',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '',
  '[]',
  'a[b][c]',
];

/** One `name=value` pair, encoded or raw (raw when the value is ASCII that a sloppy client leaves as is). */
function queryPair(parameters: readonly QueryParameter[]): fc.Arbitrary<string> {
  const known = parameters.length > 0 ? parameters : [{ name: 'limit', valid: ['1'] }];
  const declared = fc.constantFrom(...known).chain((parameter) =>
    fc.tuple(
      nameVariants(parameter.name),
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...(parameter.valid.length > 0 ? parameter.valid : ['x'])) },
        { weight: 3, arbitrary: hostileText },
        {
          weight: 1,
          arbitrary: fc
            .array(fc.constantFrom(...(parameter.valid.length > 0 ? parameter.valid : ['x']), 'x', ''), {
              minLength: 2,
              maxLength: 4,
            })
            .map((values) => values.join(',')),
        },
      ),
    ),
  );
  const generic = fc.tuple(fc.oneof(fc.constantFrom(...GENERIC_QUERY_NAMES), hostileText), hostileText);
  return fc
    .tuple(
      fc.oneof({ weight: 4, arbitrary: declared }, { weight: 1, arbitrary: generic }),
      fc.constantFrom('encoded', 'encoded', 'encoded', 'raw', 'bare'),
    )
    .map(([[name, value], mode]) => {
      if (mode === 'bare') return percentEncode(name);
      // Raw only where it stays one pair: `&`, `#` and spaces would change what the test sent.
      if (mode === 'raw' && /^[\x21-\x7e]*$/.test(value) && !/[&#]/.test(value))
        return `${percentEncode(name)}=${value}`;
      return `${percentEncode(name)}=${percentEncode(value)}`;
    });
}

/** A query string (without `?`): declared parameters, duplicated and conflicting, plus strays. */
export function hostileQuery(parameters: readonly QueryParameter[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: 8,
      arbitrary: fc.array(queryPair(parameters), { minLength: 1, maxLength: 5 }).map((pairs) => pairs.join('&')),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '&&&',
        '=',
        '==',
        '&=&',
        '?',
        '??a=1',
        '%',
        '%zz=1',
        'a=%',
        'a=%ED%A0%80',
        'a=1#fragment',
        'a=1;b=2',
        `${'a=1&'.repeat(2_000)}a=1`,
        `limit=${'9'.repeat(5_000)}`,
      ),
    },
  );
}

// --- headers -------------------------------------------------------------------------------------

/**
 * Header text as it arrives through Node's HTTP parser: Latin-1 (obs-text) allowed, control
 * characters not (the parser refuses them before the app sees the request).
 */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .filter((c) => c !== 0x7f)
        .map((c) => String.fromCharCode(c)),
      maxLength: 40,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom<string>(
      ...HOSTILE_NUMBERS,
      ...SQL_META,
      '*',
      'W/"x"',
      '"',
      'W/',
      ',,,',
      '"a", "b"',
      'W/"*"',
      'Sun, 06 Nov 1994 08:49:37 GMT',
      'Thu, 01 Jan 1970 00:00:00 GMT',
      'Fri, 31 Dec 9999 23:59:59 GMT',
      '2026-13-45',
      'yesterday',
      'Ã©tÃ©',
      '\u00ff\u00fe',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(200, 8_000).map((n) => 'a'.repeat(n)) },
);

export type Headers = Record<string, string | string[]>;

/**
 * The key headers of a request: mostly the given key (`weight` in 17 times more than any other
 * choice), sometimes none, a wrong one, a repeated one or a mangled one.
 */
export function keyHeaders(key: string, otherKeys: readonly string[], weight = 12): fc.Arbitrary<Headers> {
  return fc.oneof(
    { weight, arbitrary: fc.constant({ 'x-api-key': key }) },
    { weight: 1, arbitrary: fc.constant({ authorization: `Bearer ${key}` }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...(otherKeys.length > 0 ? otherKeys : [key]))
        .map((other) => ({ 'x-api-key': other })),
    },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constant<Headers>({}),
        fc.constant<Headers>({ 'x-api-key': [key, key] }),
        fc.constant<Headers>({ 'x-api-key': [key, 'other-key-0123456789abcdef'] }),
        fc.constant<Headers>({ 'x-api-key': ` ${key} ` }),
        fc.constant<Headers>({ 'x-api-key': '' }),
        fc.constant<Headers>({ 'x-api-key': key.toUpperCase() }),
        fc.constant<Headers>({ 'x-api-key': `${key}\u00e9` }),
        fc.constant<Headers>({ 'x-api-key': 'k'.repeat(10_000) }),
        fc.constant<Headers>({ authorization: 'Bearer' }),
        fc.constant<Headers>({ authorization: 'Bearer    ' }),
        fc.constant<Headers>({ authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` }),
        fc.constant<Headers>({ authorization: `bearer ${key}`, 'x-api-key': 'wrong-key-0123456789abcdef' }),
        headerText.map((value) => ({ 'x-api-key': value })),
        headerText.map((value) => ({ authorization: `Bearer ${value}` })),
      ),
    },
  );
}

/** Headers besides the key: conditional-request and stream-resume garbage, odd Accept and friends. */
export const oddHeaders: fc.Arbitrary<Headers> = fc
  .record(
    {
      'if-none-match': headerText,
      'if-modified-since': headerText,
      'last-event-id': fc.oneof(
        headerText,
        fc.constantFrom('1', '0', '-1', '1e400', 'Infinity', '99999999999999999999'),
      ),
      accept: fc.constantFrom('text/event-stream', 'application/xml', '*/*;q=0', 'application/json;q=abc', 'ÿÿ', ''),
      'x-request-id': headerText,
      'content-type': fc.constantFrom(
        'text/plain',
        'application/json; charset=utf-16',
        'multipart/form-data; boundary=x',
        'ÿ/ÿ',
      ),
      'accept-encoding': fc.constantFrom('gzip', 'br;q=abc', '*', 'identity;q=0'),
      range: fc.constantFrom('bytes=0-0', 'bytes=-1', 'bytes=abc'),
      'x-forwarded-for': headerText,
    },
    { requiredKeys: [] },
  )
  .map((headers) => headers as Headers);

// --- JSON bodies ---------------------------------------------------------------------------------

/** JSON text emitted as is: numbers JSON.stringify cannot write (1e400, NaN) and other broken tokens. */
export class RawJson {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/** An object as ordered entries, so that keys may repeat or be `__proto__`. */
export class JsonObject {
  readonly entries: ReadonlyArray<readonly [string, JsonLike]>;

  constructor(entries: ReadonlyArray<readonly [string, JsonLike]>) {
    this.entries = entries;
  }
}

export type JsonLike = null | boolean | number | string | RawJson | JsonObject | JsonLike[];

export function jsonText(value: JsonLike): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonObject)
    return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  return JSON.stringify(value) ?? 'null';
}

/** Plain JSON (as JSON.parse returns it) to JsonLike. */
export function fromJson(value: unknown): JsonLike {
  if (Array.isArray(value)) return value.map(fromJson);
  if (value !== null && typeof value === 'object')
    return new JsonObject(Object.entries(value).map(([key, item]) => [key, fromJson(item)] as const));
  return value as JsonLike;
}

/** Every string in a JsonLike, keys included: what an error message may legitimately echo. */
export function jsonStrings(value: JsonLike, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value instanceof RawJson) out.push(value.text);
  else if (value instanceof JsonObject) {
    for (const [key, item] of value.entries) {
      out.push(key);
      jsonStrings(item, out);
    }
  } else if (Array.isArray(value)) for (const item of value) jsonStrings(item, out);
  return out;
}

export const hostileNumberJson: fc.Arbitrary<JsonLike> = fc.oneof(
  fc.constantFrom<JsonLike>(
    0,
    -1,
    1,
    2,
    0.5,
    -0.5,
    1e308,
    -1e308,
    5e-324,
    Number.MAX_SAFE_INTEGER + 2,
    -(2 ** 53) - 2,
    2 ** 31,
    1800,
    0.05,
    0.4999,
    1000000,
  ),
  fc
    .constantFrom(
      '1e400',
      '-1e400',
      'NaN',
      'Infinity',
      '-Infinity',
      '1e-400',
      '0x10',
      '01',
      '-',
      '1.',
      '.5',
      '+1',
      '1e',
      '99999999999999999999999999999999',
    )
    .map((text) => new RawJson(text)),
  fc.constantFrom<JsonLike>('1', '1e400', 'NaN', '', '0.5'),
  fc.double().map((n) => (Number.isFinite(n) ? n : new RawJson(String(n)))),
);

/** Any JSON value, the wrong type for most places. */
export function anyHostileJson(strings: fc.Arbitrary<string>): fc.Arbitrary<JsonLike> {
  const leaf = fc.oneof(
    { weight: 3, arbitrary: strings },
    { weight: 2, arbitrary: hostileNumberJson },
    { weight: 1, arbitrary: fc.constantFrom<JsonLike>(null, true, false, [], new JsonObject([]), [null], '') },
  );
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(strings, leaf), { maxLength: 3 }).map((entries) => new JsonObject(entries)),
    },
  );
}

/** Deeply nested JSON text, with `inner` (default a number) at the bottom. */
export function deepJson(depth: number, shape: 'array' | 'object', inner = '1'): string {
  return shape === 'array'
    ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
}

/** JSON text a parser must refuse, or accept only as something other than what it looks like. */
export const MALFORMED_JSON = [
  '',
  ' ',
  '{',
  '}',
  '{"tours": [',
  '{"a":}',
  '{"a" 1}',
  "{'a': 1}",
  '{a: 1}',
  '[1,]',
  '{"a":1,}',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":-Infinity}',
  '{"a":1e400}',
  '{"a":01}',
  '\uFEFF{}',
  'undefined',
  'null',
  'true',
  '0',
  '"text"',
  '{"tours":[]}{"tours":[]}',
  '{"tours":[]} trailing',
  '\u0000',
  '{"a":"\u0000"}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  '{"a":"\\uZZZZ"}',
  '{"a":"\\x41"}',
  '{"a":"unterminated}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"tours":[],"tours":{"x":1}}',
  '/* comment */ {}',
  '{"a":1}\u0000',
] as const;

// --- checking answers ----------------------------------------------------------------------------

export interface SentRequest {
  method: string;
  url: string;
  headers: Headers;
  /** Short description of the body, if any. */
  body?: string;
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);

export function describeRequest(request: SentRequest): string {
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.map((v) => clip(v, 80)) : clip(value, 80),
    ]),
  );
  return `${request.method} ${clip(request.url)}\n  headers: ${JSON.stringify(headers)}${request.body === undefined ? '' : `\n  body: ${request.body}`}`;
}

export function describeBody(payload: string | Buffer): string {
  const text = typeof payload === 'string' ? payload : `<${payload.length} bytes> ${payload.toString('latin1')}`;
  return JSON.stringify(clip(text, 200));
}

/** What an error body must never show: stack frames, source paths, SQL, driver and runtime errors. */
export const LEAK_PATTERNS: readonly RegExp[] = [
  /\n\s+at /,
  /\bat (?:async )?[\w$.<>[\]]+ \(/,
  /\.[cm]?[jt]s:\d+(?::\d+)?/,
  /\/work\//,
  /node_modules/,
  /file:\/\//,
  /\bsrc\/(?:http|store|read|ingest|domain|access)\//,
  /SQLITE_/,
  /sqlite/i,
  /\bpostgres/i,
  /\bkysely\b/i,
  /syntax error at or near/i,
  /invalid input syntax/i,
  /violates (?:not-null|unique|foreign key|check) constraint/i,
  /relation "[^"]*" does not exist/i,
  /column "[^"]*" (?:does not exist|of relation)/i,
  /invalid byte sequence/i,
  /unterminated quoted/i,
  /out of range for type/i,
  /\bselect\b[\s\S]{0,200}\bfrom\b/i,
  /\binsert\s+into\b/i,
  /\bdelete\s+from\b/i,
  /\bupdate\s+"?\w+"?\s+set\b/i,
  /Cannot read propert/i,
  /is not a function/,
  /is not defined/,
  /is not iterable/,
  /Maximum call stack/i,
  /\b(?:TypeError|RangeError|ReferenceError|SyntaxError)\b/,
  /Unexpected token/,
  /in JSON at position/,
  /FST_ERR/,
];

/** Strings inside a parsed body, keys included. */
function bodyStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) bodyStrings(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      bodyStrings(item, out);
    }
  }
  return out;
}

/**
 * Removes what the client sent from text before looking for leaks, so that echoing a hostile id
 * ("Event "' OR 1=1 --" not found") is not taken for SQL. Short inputs stay: removing them could
 * hide a real leak.
 */
function scrub(text: string, sent: readonly string[]): string {
  let out = text;
  const tokens = [...new Set(sent.flatMap((s) => [s, safeDecode(s), s.trim(), JSON.stringify(s).slice(1, -1)]))]
    .filter((s) => s.length >= 4)
    .sort((a, b) => b.length - a.length);
  for (const token of tokens) out = out.split(token).join('');
  return out;
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const ERROR_FIELDS = ['code', 'message', 'metadata', 'stack', 'statusCode', 'timestamp'];

/**
 * The checks every answer passes: no 5xx; a 4xx is the specification's error body (section 7)
 * with exactly its five fields, as JSON, its statusCode the HTTP status, no stack (DEBUG_ERRORS is
 * off) and nothing of the server's internals. `sent` lists what the request carried.
 */
export function assertSafeAnswer(
  request: SentRequest,
  res: LightMyRequestResponse,
  sent: readonly string[],
  body = res.body,
): void {
  const context = () =>
    `${describeRequest(request)}\n  answer: ${res.statusCode} ${res.headers['content-type'] ?? '(no content-type)'} ${clip(body, 600)}`;
  assert.ok(res.statusCode < 500, `5xx for a client's request:\n${context()}`);
  if (res.statusCode < 400 || request.method === 'HEAD') return;
  assert.match(
    String(res.headers['content-type'] ?? ''),
    /^application\/json\b/,
    `an error that is not JSON:\n${context()}`,
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    assert.fail(`an error body that does not parse:\n${context()}`);
  }
  assert.ok(
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed),
    `an error body that is not an object:\n${context()}`,
  );
  const error = parsed as Record<string, unknown>;
  assert.deepEqual(Object.keys(error).sort(), ERROR_FIELDS, `not the ServerErrorResponse fields:\n${context()}`);
  assert.ok(typeof error.message === 'string' && error.message.trim() !== '', `an empty error message:\n${context()}`);
  assert.equal(error.statusCode, res.statusCode, `statusCode is not the HTTP status:\n${context()}`);
  assert.ok(
    typeof error.timestamp === 'string' &&
      ISO_TIMESTAMP.test(error.timestamp) &&
      !Number.isNaN(Date.parse(error.timestamp)),
    `timestamp is not ISO 8601:\n${context()}`,
  );
  assert.ok(
    error.metadata !== null && typeof error.metadata === 'object' && !Array.isArray(error.metadata),
    `metadata is not an object:\n${context()}`,
  );
  assert.equal(error.stack, '', `a stack with DEBUG_ERRORS off:\n${context()}`);
  const shown = scrub(bodyStrings(error).join('\n'), [request.url, ...sent]);
  for (const pattern of LEAK_PATTERNS)
    assert.doesNotMatch(shown, pattern, `an error body shows internals (${pattern}):\n${context()}`);
}

/** What a URL carries, decoded as the server would: path segments, query names and values. */
export function urlStrings(url: string): string[] {
  const [path = '', query = ''] = url.split(/\?(.*)/s, 2);
  const out = [path, safeDecode(path), ...path.split('/').map(safeDecode)];
  for (const pair of query.split('&')) {
    const [name = '', value = ''] = pair.split(/=(.*)/s, 2).map((part) => safeDecode(part.replace(/\+/g, ' ')));
    out.push(name, value, ...value.split(','));
  }
  return out;
}

export function headerStrings(headers: Headers): string[] {
  return Object.values(headers).flatMap((value) => (Array.isArray(value) ? [...value, value.join(', ')] : [value]));
}

// --- the store -----------------------------------------------------------------------------------

/**
 * Every table, true where a snapshot looks at it; `satisfies` makes the typecheck fail when a table
 * is added and not listed here. The usage record is left out: every counted request adds to it,
 * refused input included, by design (a key is billed for what it sends).
 */
const TABLES = {
  tours: true,
  tourYears: true,
  teams: true,
  athletes: true,
  events: true,
  rounds: true,
  heats: true,
  roundScores: true,
  eventParticipants: true,
  heatEntries: true,
  laps: true,
  heatResults: true,
  teamGames: true,
  futures: true,
  futureOdds: true,
  markets: true,
  odds: true,
  apiKeys: true,
  plans: true,
  keyUsage: false,
  streamTokenSecrets: true,
  changes: true,
  pricingModels: true,
  feedActivity: true,
  settlements: true,
  oddsHistory: true,
} as const satisfies Record<keyof Database, boolean>;

export type StoreSnapshot = Record<string, { rows: number; sha256: string }>;

/** Row count and a hash of the content of every table: equal snapshots mean nothing was written. */
export async function storeSnapshot(store: Store): Promise<StoreSnapshot> {
  const tables = (Object.keys(TABLES) as Array<keyof Database>).filter((table) => TABLES[table]);
  // Column order is fixed per table, so rows compare as they come; their order need not be.
  const snapshots = await Promise.all(
    tables.map(async (table) => {
      const rows = await store.db.selectFrom(table).selectAll().execute();
      const lines = rows.map((row) => JSON.stringify(row)).sort();
      return [
        table,
        { rows: rows.length, sha256: createHash('sha256').update(lines.join('\n')).digest('hex') },
      ] as const;
    }),
  );
  return Object.fromEntries(snapshots);
}

/** The tables whose snapshots differ, for the failure message. */
export function changedTables(before: StoreSnapshot, after: StoreSnapshot): string[] {
  return Object.keys(before)
    .filter((table) => before[table]?.rows !== after[table]?.rows || before[table]?.sha256 !== after[table]?.sha256)
    .map((table) => `${table} (${before[table]?.rows} -> ${after[table]?.rows} rows)`);
}
