import assert from 'node:assert/strict';
import type { FeedProblem } from '../../src/ingest/feed-errors.ts';
import { FeedValidationError } from '../../src/ingest/feed-errors.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import type { Database } from '../../src/store/schema.ts';

/** Row counts of these tables. */
export async function tableCounts(
  store: Store,
  tables: ReadonlyArray<keyof Database>,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of tables) {
    const row = await store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

/** Ingests a batch that must be refused, checks that it wrote nothing to these tables, and returns its problems. */
export async function refusedBatch(
  store: Store,
  feed: unknown,
  tables: ReadonlyArray<keyof Database>,
): Promise<FeedProblem[]> {
  const before = await tableCounts(store, tables);
  try {
    await ingestFeed(store, feed);
  } catch (error) {
    assert.ok(error instanceof FeedValidationError, String(error));
    assert.deepEqual(await tableCounts(store, tables), before, 'a rejected batch writes nothing');
    return error.problems;
  }
  assert.fail('the batch was accepted');
}
