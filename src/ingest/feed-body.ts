import { readFile } from 'node:fs/promises';
import type { Store } from '../store/database.ts';
import { ingestSliced } from './feed-slices.ts';
import { type IngestOptions, type IngestSummary, ingestFeed } from './ingest-feed.ts';
import { parseJsonBody } from './large-json.ts';
import { feedFileBytes } from './read-feed-file.ts';

/**
 * An admin feed's body as it was received: in memory when small, else kept in a file while it arrived
 * (its bytes already checked: UTF-8, nesting, size).
 */
export type FeedBody = { bytes: Buffer } | { file: string };

/** Ingests a feed body: a small one parsed whole; a large one in slices, or whole when it must be (feed-slices.ts). */
export async function ingestFeedBody(
  store: Store,
  body: FeedBody,
  options: IngestOptions = {},
): Promise<IngestSummary> {
  if ('bytes' in body) return ingestFeed(store, await parseJsonBody(body.bytes), options);
  const { file } = body;
  return ingestSliced(
    store,
    { ...feedFileBytes(file, undefined, { checked: true }), whole: async () => parseJsonBody(await readFile(file)) },
    options,
  );
}
