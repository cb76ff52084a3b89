/**
 * Migrations over a store that already holds data: 0007-integrators fills each event's lastChangedAt
 * from the rows it holds, 0009-odds-history starts the price history, run here on the fixture feed as a store of the release before
 * it would hold it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrations.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { resultsFeed } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const LATE = '2026-04-05T00:16:07Z';

describeEachStore('0007-integrators on a store that holds data', (open) => {
  test("fills each event's lastChangedAt with the latest updatedAt among its rows", async () => {
    const store = await open();
    await ingestFeed(store, fixtureFeed(), { now: new Date('2026-11-01T00:00:00Z') });
    // A heat score stamped after its event's own document.
    await ingestFeed(store, {
      heatEntries: [{ id: 'he-late', heatId: 'h-3', athleteId: 'ath-1', heatScore: 7.5, updatedAt: LATE }],
    });
    // Back to the store 0006 left, its data kept: the migrations after 0008, 0008's objects, then
    // 0007's, and their records.
    await undoAfter0008(store);
    await sql`drop table feed_activity`.execute(store.db);
    for (const table of ['markets', 'odds'])
      await sql`alter table ${sql.table(table)} drop column status_reason`.execute(store.db);
    await sql`drop index events_last_changed_at`.execute(store.db);
    await sql`alter table events drop column last_changed_at`.execute(store.db);
    await sql`delete from kysely_migration where name in ('0007-integrators', '0008-trading', '0009-odds-history', '0010-settlement', '0011-in-play', '0012-model-probability', '0013-stream-secrets', '0014-usage-plans')`.execute(
      store.db,
    );

    assert.deepEqual(await migrateToLatest(store), [
      '0007-integrators',
      '0008-trading',
      '0009-odds-history',
      '0010-settlement',
      '0011-in-play',
      '0012-model-probability',
      '0013-stream-secrets',
      '0014-usage-plans',
    ]);
    const events = await store.db.selectFrom('events').select(['id', 'updatedAt', 'lastChangedAt']).execute();
    const latest = await latestRowTimes(store);
    assert.equal(events.length, 3);
    for (const event of events) {
      const expected = [event.updatedAt, ...(latest.get(event.id) ?? [])].sort().at(-1);
      assert.equal(event.lastChangedAt, expected, event.id);
    }
    // The backfill looked past the event document, to its newest row.
    assert.deepEqual(
      events.filter((e) => e.lastChangedAt !== e.updatedAt).map((e) => e.lastChangedAt),
      ['2026-04-05T00:16:07.000Z'],
    );
  });
});

describeEachStore('0009-odds-history on a store that holds odds', (open) => {
  test("starts each held odd's history at its present price, not marked as its first", async () => {
    const store = await open();
    for (const feed of [fixtureFeed(), resultsFeed(), oddsFeed()]) await ingestFeed(store, feed);
    // Back to the store 0008 left, and its records.
    await undoAfter0008(store);
    const later = [
      '0009-odds-history',
      '0010-settlement',
      '0011-in-play',
      '0012-model-probability',
      '0013-stream-secrets',
      '0014-usage-plans',
    ];
    await sql`delete from kysely_migration where name in (${sql.join(later)})`.execute(store.db);

    assert.deepEqual(await migrateToLatest(store), later);
    const odds = await store.db.selectFrom('odds').select(['id', 'decimalOdds', 'status', 'updatedAt']).execute();
    const history = await store.db
      .selectFrom('oddsHistory')
      .select(['oddId as id', 'decimalOdds', 'status', 'changedAt as updatedAt', 'isFirst'])
      .execute();
    assert.ok(odds.length > 20);
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    assert.deepEqual(
      history.sort(byId),
      odds.sort(byId).map((o) => ({ ...o, isFirst: 0 })),
    );
  });
});

/**
 * Undoes what the migrations after 0008 made, their records left to the caller: 0011's columns, 0010's
 * objects, 0009's table. A migration added later is undone here too.
 */
async function undoAfter0008(store: Store): Promise<void> {
  for (const table of ['odds', 'odds_history'])
    await sql`alter table ${sql.table(table)} drop column probability`.execute(store.db);
  for (const column of ['score_changed_at', 'score_stop_published_at'])
    await sql`alter table feed_activity drop column ${sql.ref(column)}`.execute(store.db);
  await sql`drop table settlements`.execute(store.db);
  for (const [table, column] of [
    ['events', 'result_status'],
    ['events', 'abandoned'],
    ['heat_results', 'result_status'],
    ['odds', 'dead_heat_factor'],
  ])
    await sql`alter table ${sql.table(table as string)} drop column ${sql.ref(column as string)}`.execute(store.db);
  await sql`drop table odds_history`.execute(store.db);
  await sql`drop table stream_token_secrets`.execute(store.db);
  await undoUsagePlans(store);
}

async function undoUsagePlans(store: Store): Promise<void> {
  await sql`alter table api_keys drop column plan_id`.execute(store.db);
  await sql`drop table plans`.execute(store.db);
  await sql`drop table key_usage`.execute(store.db);
}

/** Each event's rows' updatedAt, read through Kysely rather than the migration's SQL. */
async function latestRowTimes(store: Store): Promise<Map<string, string[]>> {
  const times = new Map<string, string[]>();
  const add = (rows: Array<{ eventId: string | null; updatedAt: string }>) => {
    for (const { eventId, updatedAt } of rows)
      if (eventId) times.set(eventId, [...(times.get(eventId) ?? []), updatedAt]);
  };
  const db = store.db;
  for (const table of ['rounds', 'roundScores', 'heats', 'eventParticipants', 'markets', 'odds'] as const)
    add(await db.selectFrom(table).select(['eventId', 'updatedAt']).execute());
  const heatEvent = new Map(
    (await db.selectFrom('heats').select(['id', 'eventId']).execute()).map((h) => [h.id, h.eventId]),
  );
  for (const table of ['heatEntries', 'laps'] as const) {
    const rows = await db.selectFrom(table).select(['heatId', 'updatedAt']).execute();
    add(rows.map((r) => ({ eventId: heatEvent.get(r.heatId) ?? null, updatedAt: r.updatedAt })));
  }
  for (const table of ['heatResults', 'teamGames'] as const) {
    const rows = await db.selectFrom(table).select(['id', 'updatedAt']).execute();
    add(rows.map((r) => ({ eventId: heatEvent.get(r.id) ?? null, updatedAt: r.updatedAt })));
  }
  return times;
}

describeEachStore('0012-model-probability on a store that holds odds', (open) => {
  test('the odds held are fed prices: no model probability', async () => {
    const store = await open();
    for (const feed of [fixtureFeed(), resultsFeed(), oddsFeed()]) await ingestFeed(store, feed);
    for (const table of ['odds', 'odds_history'])
      await sql`alter table ${sql.table(table)} drop column probability`.execute(store.db);
    // The migrations after it go too, so that they run again in order.
    await sql`drop table stream_token_secrets`.execute(store.db);
    await undoUsagePlans(store);
    await sql`delete from kysely_migration where name in ('0012-model-probability', '0013-stream-secrets', '0014-usage-plans')`.execute(
      store.db,
    );

    assert.deepEqual(await migrateToLatest(store), [
      '0012-model-probability',
      '0013-stream-secrets',
      '0014-usage-plans',
    ]);
    const odds = await store.db.selectFrom('odds').select(['id', 'probability']).execute();
    assert.ok(odds.length > 20);
    assert.ok(odds.every((o) => o.probability === null));
  });
});
