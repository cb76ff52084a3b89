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
  const lines: string[] = [];
  const stream = createReadStream(path, { encoding: 'utf8' });
  stream.on('data', (chunk) => {
    read += Buffer.byteLength(chunk as string);
    onBytes?.(read, size);
  });
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) lines.push(line);
  const text = lines.join('\n');
  try {
    return { document: JSON.parse(text) as FeedDocument, lineOf: () => undefined };
  } catch {
    // Not one JSON document: NDJSON when its first line stands alone as a document.
    const first = lines.find((l) => l.trim()) ?? '';
    if (!isJson(first)) throw notJson('document', jsonSyntaxProblem(text));
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
  const merged: Record<string, unknown[]> = {};
  const origins: Record<string, number[]> = {};
  let updatedAt: string | undefined;
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw notJson(`line ${i + 1}`, jsonSyntaxProblem(line).replace(/ at line 1, /, ' at '));
    }
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
      throw new FeedValidationError([
        { item: `line ${i + 1}`, field: '', message: 'must be a JSON object (a feed document)' },
      ]);
    }
    for (const [key, value] of Object.entries(doc)) {
      if (key === 'updatedAt' && typeof value === 'string') updatedAt ??= value;
      else if ((FEED_COLLECTIONS as readonly string[]).includes(key) && Array.isArray(value)) {
        merged[key] ??= [];
        origins[key] ??= [];
        for (const item of value) {
          merged[key].push(item);
          origins[key].push(i + 1);
        }
      } else {
        throw new FeedValidationError([{ item: `line ${i + 1}`, field: key, message: 'is not a feed collection' }]);
      }
    }
  });
  return {
    document: { ...(updatedAt ? { updatedAt } : {}), ...merged } as FeedDocument,
    lineOf: (collection, index) => origins[collection]?.[index],
  };
}
