import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeRecords, MAX_RECORDS_PER_BATCH } from '../../src/domain/changes.ts';
import { batchChangesCollector } from '../../src/ingest/batch-changes.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const AT = '2026-06-01T00:00:00.000Z';

describeEachStore('the batch changes collector', (open) => {
  test('a batch of more events than a batch may log keeps, per event, one changed odd and a settled one', async () => {
    const store = await open();
    const { tours, tourYears, events } = fixtureFeed();
    const template = events?.[0] as NonNullable<typeof events>[number];
    const count = MAX_RECORDS_PER_BATCH + 20;
    const ids = Array.from({ length: count }, (_, i) => `wsl:e0e0e0e0-0000-4000-8000-${String(i).padStart(12, '0')}`);
    await ingestFeed(store, {
      tours,
      tourYears,
      events: ids.map((id, i) => ({ ...template, id, eventNumber: 1000 + i, updatedAt: AT })),
    });
    // Three odds per event, the second of every third event settled; the event ids as the store keeps them.
    const eventIds = (await store.db.selectFrom('events').select('id').orderBy('eventNumber').execute())
      .map((e) => e.id)
      .filter((id) => ids.some((full) => full.endsWith(id)));
    const rows = eventIds.flatMap((eventId, e) =>
      [0, 1, 2].map((k) => ({
        id: `odd-${e}-${k}`,
        eventId,
        marketId: `market-${e}-${k}`,
        decimalOdds: 2 + k,
        status: 'OPEN',
        settlement: k === 1 && e % 3 === 0 ? 'WIN' : null,
        updatedAt: AT,
      })),
    );
    const collector = batchChangesCollector();
    await collector.written(
      'markets',
      rows.map(({ marketId, eventId }) => ({ id: marketId, eventId, updatedAt: AT })),
      rows.map((r) => r.marketId),
    );
    await collector.written(
      'odds',
      rows,
      rows.map((r) => r.id),
    );
    const batch = await store.db.transaction().execute((trx) => collector.resolve(trx));

    assert.equal(batch.events.size, count);
    eventIds.forEach((eventId, e) => {
      const changes = batch.events.get(eventId);
      assert.ok(changes, eventId);
      assert.equal(changes.marketIds.length, 1);
      const settled = changes.odds.filter((o) => o.settlement !== null).map((o) => o.id);
      assert.deepEqual(settled, e % 3 === 0 ? [`odd-${e}-1`] : [], eventId);
      assert.ok(changes.odds.length >= 1 && changes.odds.length <= 2, `${eventId}: ${changes.odds.length} odds kept`);
    });
    assert.deepEqual(
      changeRecords(batch).map((r) => r.kind),
      ['reset'],
    );
  });
});
