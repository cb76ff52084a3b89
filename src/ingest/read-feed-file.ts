import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { jsonSyntaxProblem } from '../domain/text.ts';
import { FeedValidationError } from './feed-errors.ts';
import { FEED_COLLECTIONS, type FeedDocument } from './feed-schema.ts';

/**
 * Reads a feed file: one JSON feed document, or NDJSON with one feed document per line (blank lines
 * skipped). The whole file is one batch; NDJSON lines are merged in order, and `lineOf` tells which
 * line an item came from so that errors can name it.
 */
export interface FeedFile {
  document: FeedDocument;
  lineOf: (collection: string, index: number) => number | undefined;
}

export async function readFeedFile(path: string, onBytes?: (read: number, total: number) => void): Promise<FeedFile> {
  const { size } = await stat(path);
  let read = 0;
  const stream = createReadStream(path, { encoding: 'utf8' });
  stream.on('data', (chunk) => {
    read += Buffer.byteLength(chunk as string);
    onBytes?.(read, size);
  });
  // NDJSON is merged line by line as it is read (no copy of the file's text is kept); a file whose
  // first line is not a document of its own is one JSON document, parsed whole.
  let first: { line: string; json: boolean } | undefined;
  let ndjson: ReturnType<typeof ndjsonMerger> | undefined;
  const lines: string[] = [];
  let number = 0;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    number += 1;
    if (ndjson) ndjson.add(line, number);
    else if (first === undefined) {
      lines.push(line);
      if (line.trim()) first = { line, json: isJson(line) };
    } else if (first.json && line.trim()) {
      ndjson = mergeNdjsonLines(lines);
      lines.length = 0;
      ndjson.add(line, number);
    } else lines.push(line);
  }
  if (ndjson) return ndjson.result();
  const text = lines.join('\n');
  try {
    return { document: JSON.parse(text) as FeedDocument, lineOf: () => undefined };
  } catch {
    // Not one JSON document: NDJSON when its first line stands alone as a document.
    if (!first?.json) throw notJson('document', jsonSyntaxProblem(text));
  }
  return mergeNdjson(lines);
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

export function mergeNdjson(lines: string[]): FeedFile {
  return mergeNdjsonLines(lines).result();
}

/** A merger that has taken `lines`, numbered from 1. */
function mergeNdjsonLines(lines: readonly string[]) {
  const merger = ndjsonMerger();
  for (let i = 0; i < lines.length; i++) merger.add(lines[i] as string, i + 1);
  return merger;
}

/** Merges NDJSON lines, one at a time and in order, into one feed document, remembering each item's line. */
function ndjsonMerger() {
  const merged: Record<string, unknown[]> = {};
  const origins: Record<string, number[]> = {};
  let updatedAt: string | undefined;
  const add = (line: string, number: number): void => {
    if (!line.trim()) return;
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw notJson(`line ${number}`, jsonSyntaxProblem(line).replace(/ at line 1, /, ' at '));
    }
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
      throw new FeedValidationError([
        { item: `line ${number}`, field: '', message: 'must be a JSON object (a feed document)' },
      ]);
    }
    for (const [key, value] of Object.entries(doc)) {
      if (key === 'updatedAt' && typeof value === 'string') updatedAt ??= value;
      else if ((FEED_COLLECTIONS as readonly string[]).includes(key) && Array.isArray(value)) {
        merged[key] ??= [];
        origins[key] ??= [];
        for (const item of value) {
          merged[key].push(item);
          origins[key].push(number);
        }
      } else {
        throw new FeedValidationError([{ item: `line ${number}`, field: key, message: 'is not a feed collection' }]);
      }
    }
  };
  const result = (): FeedFile => ({
    document: { ...(updatedAt ? { updatedAt } : {}), ...merged } as FeedDocument,
    lineOf: (collection, index) => origins[collection]?.[index],
  });
  return { add, result };
}
