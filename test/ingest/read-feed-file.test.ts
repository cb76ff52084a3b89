import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FeedValidationError } from '../../src/ingest/feed-errors.ts';
import type { NumberedDocument } from '../../src/ingest/ingest-feed.ts';
import { readFeedDocuments } from '../../src/ingest/read-feed-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'altsports-read-feed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function all(path: string): Promise<NumberedDocument[]> {
  const out: NumberedDocument[] = [];
  for await (const document of readFeedDocuments(path)) out.push(document);
  return out;
}

async function problem(path: string): Promise<[string, string, string]> {
  const error = await all(path).catch((e: unknown) => e);
  assert.ok(error instanceof FeedValidationError, String(error));
  const [first] = error.problems;
  return [first?.item ?? '', first?.field ?? '', first?.message ?? ''];
}

describe('readFeedDocuments', () => {
  test('NDJSON: one document per line, with its line number; blank lines skipped', async () => {
    const path = file('a.ndjson', '{"tours":[]}\n\n{"events":[],"updatedAt":"2026-01-01T00:00:00Z"}\r\n\n');
    assert.deepEqual(await all(path), [
      { document: { tours: [] }, line: 1 },
      { document: { events: [], updatedAt: '2026-01-01T00:00:00Z' }, line: 3 },
    ]);
  });

  test('a file whose first line is not a document of its own is one JSON document', async () => {
    const path = file('a.json', '\n{\n  "tours": [],\n  "events": []\n}\n');
    assert.deepEqual(await all(path), [{ document: { tours: [], events: [] } }]);
  });

  test('a line that is not JSON, not an object, or holds something other than collections is named', async () => {
    const [item, , message] = await problem(file('b.ndjson', '{"tours":[]}\n{"events":[}\n'));
    assert.equal(item, 'line 2');
    assert.match(message, /is not valid JSON/);
    assert.deepEqual(await problem(file('c.ndjson', '{"tours":[]}\n[1]\n')), [
      'line 2',
      '',
      'must be a JSON object (a feed document)',
    ]);
    assert.deepEqual(await problem(file('d.ndjson', '{"tours":[]}\n{"horses":[]}\n')), [
      'line 2',
      'horses',
      'is not a feed collection',
    ]);
    const [whole, , wholeMessage] = await problem(file('e.json', '{\n "tours": [\n'));
    assert.equal(whole, 'document');
    assert.match(wholeMessage, /is not valid JSON/);
  });

  test('reads as it yields: the first document comes before most of a large file is read', async () => {
    const line = `${JSON.stringify({ tours: [{ id: 'x'.repeat(1000) }] })}\n`;
    const path = file('large.ndjson', line.repeat(2000));
    let read = 0;
    let total = 0;
    let readAtFirst: number | undefined;
    let count = 0;
    for await (const _ of readFeedDocuments(path, (bytes, size) => {
      read = bytes;
      total = size;
    })) {
      readAtFirst ??= read;
      count += 1;
    }
    assert.equal(count, 2000);
    assert.equal(read, total);
    assert.ok(readAtFirst !== undefined && readAtFirst < total / 4, `${readAtFirst} of ${total} bytes read`);
  });

  test('bytes that are not UTF-8 are refused naming their offset, not read as U+FFFD', async () => {
    const bad = (text: string) => Buffer.concat([Buffer.from(text), Buffer.from([0xff]), Buffer.from('"}]}\n')]);
    for (const path of [
      file('bad.json', bad('{\n  "tours": [{"id": "t-1", "name": "A')),
      file('bad.ndjson', Buffer.concat([Buffer.from('{"tours":[]}\n'), bad('{"tours":[{"name":"A')])),
    ]) {
      const [item, , message] = await problem(path);
      assert.equal(item, 'document', path);
      assert.match(message, /is not valid UTF-8 at byte (38|33)/, path);
    }
  });
});
