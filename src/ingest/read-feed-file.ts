import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { CodedError } from '../domain/errors.ts';
import { jsonBytesChecker } from '../domain/json-bytes.ts';
import { jsonSyntaxProblem } from '../domain/text.ts';
import { FeedValidationError } from './feed-errors.ts';
import { FEED_COLLECTIONS } from './feed-schema.ts';
import type { FeedBytes } from './feed-slices.ts';
import type { NumberedDocument } from './ingest-feed.ts';

/**
 * Reads a feed file's documents, one at a time: one JSON feed document, or NDJSON with one feed
 * document per line (blank lines skipped). NDJSON is parsed line by line as it is read, so a file of
 * any size takes the memory of its largest line; a file whose first line is not a document of its own
 * is one JSON document, parsed whole (no line). `onBytes` follows the reading.
 */
export async function* readFeedDocuments(
  path: string,
  onBytes?: (read: number, total: number) => void,
): AsyncGenerator<NumberedDocument> {
  // readline decodes the bytes as UTF-8 itself, a character cut between two chunks included.
  const input = Readable.from(reported(path, onBytes));
  let ndjson: boolean | undefined;
  const held: string[] = [];
  let number = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    number += 1;
    if (ndjson) {
      if (line.trim()) yield { document: ndjsonLine(line, number), line: number };
    } else if (ndjson === undefined && line.trim()) {
      ndjson = isJson(line);
      if (ndjson) yield { document: ndjsonLine(line, number), line: number };
      else held.push(line);
    } else held.push(line);
  }
  if (ndjson) return;
  const text = held.join('\n');
  try {
    yield { document: JSON.parse(text) };
  } catch (error) {
    if (error instanceof SyntaxError) throw notJson('document', jsonSyntaxProblem(text));
    throw error;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function notJson(item: string, detail: string): FeedValidationError {
  return new FeedValidationError([{ item, field: '', message: `is not valid JSON: ${detail}` }]);
}

/** One NDJSON line as a feed document: a JSON object whose keys are feed collections (or updatedAt). */
function ndjsonLine(line: string, number: number): unknown {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    throw notJson(`line ${number}`, jsonSyntaxProblem(line).replace(/ at line 1, /, ' at '));
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new FeedValidationError([
      { item: `line ${number}`, field: '', message: 'must be a JSON object (a feed document)' },
    ]);
  }
  for (const key of Object.keys(doc)) {
    if (key !== 'updatedAt' && !(FEED_COLLECTIONS as readonly string[]).includes(key))
      throw new FeedValidationError([{ item: `line ${number}`, field: key, message: 'is not a feed collection' }]);
  }
  return doc;
}

/**
 * A feed file's bytes for ingestInSlices (a large file that is one document is read a slice at a time):
 * in order, each reading reported to `onBytes` from its start, and by range. `checked`: the bytes were
 * checked as they arrived (an admin feed's staged body), so they are not scanned again.
 */
export function feedFileBytes(
  path: string,
  onBytes?: (read: number, total: number) => void,
  { checked = false } = {},
): FeedBytes {
  return {
    chunks: () => reported(path, onBytes, !checked),
    range: (start, end) => createReadStream(path, { start, end }),
  };
}

/**
 * A file's chunks, each reading reported to `onBytes` (bytes read so far, the file's size), and each
 * checked before it is used (domain/json-bytes.ts): bytes that are not UTF-8 would otherwise be read
 * as U+FFFD and stored as other text than was sent, and nesting is bounded as on the API.
 */
async function* reported(
  path: string,
  onBytes?: (read: number, total: number) => void,
  check = true,
): AsyncGenerator<Buffer> {
  const { size } = await stat(path);
  const checker = check ? jsonBytesChecker() : { push: () => {}, end: () => {} };
  let read = 0;
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      read += chunk.length;
      onBytes?.(read, size);
      checker.push(chunk);
      yield chunk;
    }
    checker.end();
  } catch (error) {
    if (error instanceof CodedError && !(error instanceof FeedValidationError))
      throw new FeedValidationError([{ item: 'document', field: '', message: unprefixed(error.message) }]);
    throw error;
  }
}

/** The checker's message as a feed problem: "is not valid UTF-8 at byte N", "is nested more than …". */
const unprefixed = (message: string) => message.replace(/^Request body /, '').replace(/: send JSON as UTF-8$/, '');
