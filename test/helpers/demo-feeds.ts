/**
 * What the demo generator's test files share: the clock they generate at, a collection across documents,
 * and the validator answering from the chunks validated so far. The generator's tests are spread over
 * several files because a few of them take a minute or more of CPU each, and files run in parallel.
 */
import assert from 'node:assert/strict';
import { FeedValidationError } from '../../src/ingest/feed-errors.ts';
import { FEED_COLLECTIONS, type FeedCollection, type FeedDocument } from '../../src/ingest/feed-schema.ts';
import { type ExistingLookup, type NormalizedFeed, validateFeed } from '../../src/ingest/validate-feed.ts';

export const NOW = new Date('2026-03-10T15:42:17.250Z');

/** Answers the validator from the ids of the chunks validated so far, as the store would. */
export function priorChunks() {
  const seen = new Map<FeedCollection, Map<string, string | null>>(FEED_COLLECTIONS.map((c) => [c, new Map()]));
  const lookup: ExistingLookup = async (collection, ids) => {
    const known = seen.get(collection) ?? new Map<string, string | null>();
    return new Map(ids.filter((id) => known.has(id)).map((id) => [id, known.get(id) ?? null]));
  };
  const validate = async (doc: FeedDocument) => {
    let feed: NormalizedFeed;
    try {
      feed = await validateFeed(doc, lookup, NOW);
    } catch (error) {
      if (error instanceof FeedValidationError) assert.fail(JSON.stringify(error.problems, null, 1).slice(0, 3000));
      throw error;
    }
    for (const collection of FEED_COLLECTIONS) {
      const into = seen.get(collection);
      for (const item of feed[collection] as Array<{ id: string; competition?: string }>)
        into?.set(item.id, item.competition ?? null);
    }
  };
  return { validate };
}

type Items<K extends FeedCollection> = NonNullable<FeedDocument[K]>[number];

/** One collection across all documents. */
export function all<K extends FeedCollection>(docs: readonly FeedDocument[], key: K): Items<K>[] {
  const out: Items<K>[] = [];
  for (const doc of docs) for (const item of (doc[key] ?? []) as Items<K>[]) out.push(item);
  return out;
}
