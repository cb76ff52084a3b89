import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CodedError, ERRORS, type ErrorCode, fail } from '../../src/domain/errors.ts';
import { KIND_STATUS, statusOf } from '../../src/http/error-statuses.ts';
import { errorBody } from '../../src/http/plugins/errors.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The TypeScript sources under src/, with their text. */
function sources(): Array<{ file: string; text: string }> {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => ({ file, text: readFileSync(join(SRC, file), 'utf8') }));
}

/**
 * Error classes that are not the catalogue's, each a signal caught within its own module or the next,
 * which never reaches a client or the CLI as itself.
 */
const INTERNAL_SIGNALS = new Set([
  'NotCut', // ingest/large-json.ts: the cutter cannot read the bytes; they are parsed whole
  'NotSliced', // ingest/feed-slices.ts: likewise, for a feed document read in slices
  'ReferenceIdConflict', // store/repositories/feed-facts-repository.ts: ingest turns it into FEED_ITEM_INVALID
]);

test("every error class in src/ is the catalogue's (CodedError) or an internal signal", () => {
  const foreign: string[] = [];
  for (const { file, text } of sources())
    for (const [, name, base] of text.matchAll(/class (\w+) extends (\w+Error)\b/g))
      if (base !== 'CodedError' && name !== 'CodedError' && !INTERNAL_SIGNALS.has(name ?? ''))
        foreign.push(`${file}: ${name} extends ${base}`);
  assert.deepEqual(foreign, [], 'declare the error in domain/errors.ts and throw fail(code, ...)');
});

test('nothing builds an error body from a bare status: every thrown failure names a catalogued code', () => {
  const codes = new Set(Object.keys(ERRORS));
  const unknown: string[] = [];
  const bare: string[] = [];
  for (const { file, text } of sources()) {
    for (const [, code] of text.matchAll(/\bfail\(\s*'([A-Z_0-9]+)'/g))
      if (!codes.has(code ?? '')) unknown.push(`${file}: ${code}`);
    // The helpers of old (badRequest, notFound, ...) and a status beside a message are gone.
    for (const [found] of text.matchAll(
      /\b(badRequest|unauthorized|forbidden|notFound|unprocessable|unavailable|gone|ApiError)\(/g,
    ))
      bare.push(`${file}: ${found}`);
  }
  assert.deepEqual(unknown, []);
  assert.deepEqual(bare, []);
});

/** Where codes are declared rather than given: the catalogue, and the codes each route's document lists. */
const DECLARATIONS = (file: string) =>
  file === join('domain', 'errors.ts') ||
  file === join('http', 'error-statuses.ts') ||
  file.startsWith(`${join('http', 'schemas')}${sep}`);

test('every code of the catalogue is given somewhere, and has a status', () => {
  const text = sources()
    .filter(({ file }) => !DECLARATIONS(file))
    .map(({ text }) => text)
    .join('\n');
  for (const code of Object.keys(ERRORS) as ErrorCode[]) {
    assert.ok(text.includes(`'${code}'`), `${code} is declared but never given`);
    assert.ok(KIND_STATUS[ERRORS[code].kind] >= 400, code);
  }
});

test('codes are stable words in upper snake case', () => {
  for (const code of Object.keys(ERRORS)) assert.match(code, /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
});

test('domain/ names no HTTP status: the HTTP layer maps each kind of failure to one', () => {
  for (const { file, text } of sources().filter(({ file }) => file.startsWith('domain')))
    assert.doesNotMatch(text, /statusCode/, file);
  const catalogue = readFileSync(join(SRC, 'domain', 'errors.ts'), 'utf8');
  assert.doesNotMatch(catalogue, /\b[45]\d\d\b/, 'domain/errors.ts names an HTTP status');
});

test("an error body carries the code beside the specification's fields, with the status of its kind", () => {
  const error = fail('EVENT_NOT_FOUND', { eventId: 'wsl:x' }, { eventId: 'wsl:x' });
  assert.ok(error instanceof CodedError);
  const body = errorBody(error);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'metadata', 'stack', 'statusCode', 'timestamp']);
  assert.deepEqual([body.code, body.statusCode, body.message], ['EVENT_NOT_FOUND', 404, 'Event "wsl:x" not found']);
  assert.deepEqual(body.metadata, { eventId: 'wsl:x' });
  assert.equal(statusOf('ODD_TYPE_NOT_OFFERED'), 404);
  assert.equal(statusOf('EVENT_OF_OTHER_SPORT'), 400);
  assert.equal(statusOf('PARLAY_LEGS_REFUSED'), 422);
  assert.equal(statusOf('RATE_LIMITED'), 429);
});
