import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fail } from '../domain/errors.ts';
import { jsonBytesChecker } from '../domain/json-bytes.ts';
import type { FeedBody } from '../ingest/feed-slices.ts';
import { LARGE_JSON_BYTES } from '../ingest/large-json.ts';

/**
 * A request body as it arrived: in memory when small, else in a file of its own (the admin
 * feed's 60 MB body is read in slices from there, not held whole). `discard` removes the file.
 */
export type StagedBody = FeedBody;

/** The 413 of a body past `limit` bytes, declared or read. */
export const tooLarge = (limit: number) => fail('BODY_TOO_LARGE', { limit }, { limit });

/**
 * A JSON body's chunks as they arrive, each checked (nesting, UTF-8: domain/json-bytes.ts) and counted
 * (413 past `limit`) before it is kept, so a body is refused at its first bad byte, not once held.
 */
async function* checkedChunks(payload: Readable, limit: number): AsyncGenerator<Buffer> {
  const checker = jsonBytesChecker();
  let size = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    checker.push(chunk);
    yield chunk;
  }
  checker.end();
}

/** A JSON body read whole into memory, checked as it arrives (the parser of every route but the feed). */
export async function readJsonBody(payload: Readable, limit: number): Promise<Buffer> {
  const held: Buffer[] = [];
  for await (const chunk of checkedChunks(payload, limit)) held.push(chunk);
  return Buffer.concat(held);
}

/** Reads `payload` up to `limit` bytes (413 past it), checked, spilling to a temporary file past LARGE_JSON_BYTES. */
export async function stageBody(payload: Readable, limit: number): Promise<StagedBody> {
  const held: Buffer[] = [];
  let size = 0;
  let file: string | undefined;
  let out: ReturnType<typeof createWriteStream> | undefined;
  try {
    for await (const chunk of checkedChunks(payload, limit)) {
      size += chunk.length;
      if (out) {
        if (!out.write(chunk)) await new Promise((resolve) => out?.once('drain', resolve));
      } else held.push(chunk);
      if (!out && size > LARGE_JSON_BYTES) {
        file = join(await mkdtemp(join(tmpdir(), 'altsports-body-')), 'body.json');
        out = createWriteStream(file);
        for (const part of held.splice(0)) out.write(part);
      }
    }
    if (!out || !file) return { bytes: Buffer.concat(held) };
    out.end();
    await finished(out);
    return { file };
  } catch (error) {
    out?.destroy();
    if (file) await discard({ file });
    throw error;
  }
}

/** True for what stageBody returned (a body of another content type is parsed as Fastify does). */
export function isStaged(body: unknown): body is StagedBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    (Buffer.isBuffer((body as { bytes?: unknown }).bytes) || typeof (body as { file?: unknown }).file === 'string')
  );
}

/** Removes a staged body's file (and its directory); nothing for a body held in memory. */
export async function discard(body: StagedBody): Promise<void> {
  if ('file' in body) await rm(join(body.file, '..'), { recursive: true, force: true });
}
