import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FeedValidationError } from '../../src/ingest/feed-errors.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { ADMIN_KEY, fixtureApp } from '../helpers/app.ts';
import { fixtureFeed, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { refusedBatch } from '../helpers/feed-problems.ts';
import { describeEachStore } from '../helpers/stores.ts';

async function counts(store: Store) {
  const out: Record<string, number> = {};
  for (const table of [
    'tours',
    'tourYears',
    'teams',
    'athletes',
    'events',
    'rounds',
    'heats',
    'roundScores',
    'futures',
    'futureOdds',
  ] as const) {
    const row = await store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

async function rejects(store: Store, feed: unknown): Promise<FeedValidationError> {
  try {
    await ingestFeed(store, feed);
  } catch (error) {
    assert.ok(error instanceof FeedValidationError, String(error));
    return error;
  }
  assert.fail('the batch was accepted');
}

describeEachStore('ingest', (open) => {
  test('text no store can hold as sent (NUL, a lone surrogate) refuses the batch, naming item and field', async () => {
    const store = await open();
    const feed = fixtureFeed();
    const [first, second] = feed.tours ?? [];
    const tours = [
      { ...first, name: 'World \u0000 Tour' },
      { ...second, name: 'Lone \uD800 surrogate' },
    ];
    const problems = await refusedBatch(store, { tours }, ['tours', 'events', 'changes']);
    assert.deepEqual(
      problems.map((p) => [p.item, p.field]),
      [
        ['tours[0]', 'name'],
        ['tours[1]', 'name'],
      ],
    );
    assert.match(problems[0]?.message ?? '', /NUL/);
    assert.match(problems[1]?.message ?? '', /lone surrogate/);
  });

  test('a batch is written whole, with counts per collection', async () => {
    const store = await open();
    const summary = await ingestFeed(store, fixtureFeed());
    assert.deepEqual(summary.events, { received: 3, inserted: 3, updated: 0, unchanged: 0, stale: 0 });
    assert.deepEqual(await counts(store), {
      tours: 2,
      tourYears: 2,
      teams: 2,
      athletes: 2,
      events: 3,
      rounds: 3,
      heats: 3,
      roundScores: 2,
      futures: 1,
      futureOdds: 2,
    });
    assert.equal(summary.changedEventIds.length, 3);
  });

  test('the same batch twice changes nothing', async () => {
    const store = await open();
    await ingestFeed(store, fixtureFeed());
    const before = await store.db.selectFrom('events').selectAll().orderBy('id').execute();
    const again = await ingestFeed(store, fixtureFeed());
    const { changedEventIds, changes, ...collections } = again;
    for (const [collection, c] of Object.entries(collections)) assert.equal(c.inserted + c.updated, 0, collection);
    assert.deepEqual(changedEventIds, []);
    assert.deepEqual(changes, [], 'a replay logs no change');
    assert.deepEqual(await store.db.selectFrom('events').selectAll().orderBy('id').execute(), before);
  });

  test('a batch without timestamps replays as a no-op too', async () => {
    const store = await open();
    const feed = { tours: [{ id: 't', competition: 'sls', name: 'SLS Championship Tour' }] };
    await ingestFeed(store, feed, { now: new Date('2026-05-01T00:00:00Z') });
    const again = await ingestFeed(store, feed, { now: new Date('2026-05-02T00:00:00Z') });
    assert.deepEqual(again.tours, { received: 1, inserted: 0, updated: 0, unchanged: 1, stale: 0 });
    const row = await store.db.selectFrom('tours').selectAll().executeTakeFirstOrThrow();
    assert.equal(row.updatedAt, '2026-05-01T00:00:00.000Z');
  });

  test('a newer update wins; an older one is ignored and counted stale', async () => {
    const store = await open();
    await ingestFeed(store, fixtureFeed());
    const tour = { id: 'wsl-ct-men', competition: 'wsl', name: 'Renamed Tour' };
    const stale = await ingestFeed(store, { tours: [{ ...tour, updatedAt: '2025-12-31T00:00:00Z' }] });
    assert.deepEqual(stale.tours, { received: 1, inserted: 0, updated: 0, unchanged: 0, stale: 1 });
    assert.equal(
      (await store.db.selectFrom('tours').select('name').where('id', '=', 'wsl-ct-men').executeTakeFirstOrThrow()).name,
      "Men's Championship Tour",
    );
    const newer = await ingestFeed(store, { tours: [{ ...tour, updatedAt: '2026-06-01T00:00:00Z' }] });
    assert.deepEqual(newer.tours, { received: 1, inserted: 0, updated: 1, unchanged: 0, stale: 0 });
    const row = await store.db.selectFrom('tours').selectAll().where('id', '=', 'wsl-ct-men').executeTakeFirstOrThrow();
    assert.equal(row.name, 'Renamed Tour');
    assert.equal(row.referenceId, 1, 'an update keeps the reference id');
  });

  test('a heat change moves its event document updatedAt forward, and only that event', async () => {
    const store = await open();
    await ingestFeed(store, fixtureFeed());
    const summary = await ingestFeed(store, {
      heats: [
        {
          id: 'h-3',
          roundId: 'r-live-2',
          heatName: 'Heat 1',
          heatNo: 1,
          heatStatus: 'COMPLETED',
          updatedAt: '2026-04-03T10:00:00Z',
        },
      ],
    });
    assert.deepEqual(summary.changedEventIds, [WSL_LIVE]);
    const events = await store.db
      .selectFrom('events')
      .select(['id', 'contentUpdatedAt', 'updatedAt'])
      .orderBy('id')
      .execute();
    const live = events.find((e) => e.id === WSL_LIVE);
    assert.equal(live?.contentUpdatedAt, '2026-04-03T10:00:00.000Z');
    assert.equal(live?.updatedAt, '2026-04-02T00:00:00.000Z');
    for (const other of events.filter((e) => e.id !== WSL_LIVE)) assert.equal(other.contentUpdatedAt, other.updatedAt);
  });

  test('a bad batch writes nothing and names the item and field', async () => {
    const store = await open();
    const feed = fixtureFeed();
    (feed.events as Array<Record<string, unknown>>)[2] = { ...(feed.events?.[2] as object), eventStatus: 'FINISHED' };
    const error = await rejects(store, feed);
    assert.deepEqual(error.problems[0], {
      item: 'events[2]',
      id: 'masl:b2b2b2b2-0000-4000-8000-000000000003',
      field: 'eventStatus',
      message: 'must be one of LIVE, UPCOMING, NEXT, IN_WINDOW, COMPLETED, CANCELLED, POSTPONED',
    });
    assert.match(
      error.message,
      /events\[2\] \(id "masl:b2b2b2b2-0000-4000-8000-000000000003"\)\.eventStatus must be one of/,
    );
    assert.equal(error.code, 'FEED_ITEM_INVALID');
    assert.deepEqual(Object.values(await counts(store)), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  test('references must resolve in the batch or the store, within one competition', async () => {
    const store = await open();
    await ingestFeed(store, fixtureFeed());
    const error = await rejects(store, {
      rounds: [
        {
          id: 'r-x',
          eventId: 'a1a1a1a1-0000-4000-8000-00000000ffff',
          roundName: 'R',
          roundNo: 1,
          roundStatus: 'UPCOMING',
        },
      ],
      heats: [{ id: 'h-x', roundId: 'r-live-1', heatName: 'Heat 9', heatNo: 9, heatStatus: 'UPCOMING' }],
      events: [
        {
          id: 'sls:d4d4d4d4-0000-4000-8000-000000000001',
          competition: 'sls',
          tourId: 'wsl-ct-men',
          name: 'Wrong tour',
          startDate: '2026-05-01T00:00:00Z',
          endDate: '2026-05-02T00:00:00Z',
          eventNumber: 1,
          eventStatus: 'UPCOMING',
        },
      ],
    });
    const summary = error.problems.map((p) => `${p.item}.${p.field}`);
    assert.deepEqual(summary.sort(), ['events[0].tourId', 'rounds[0].eventId']);
    assert.match(error.problems.find((p) => p.item === 'events[0]')?.message ?? '', /competition "wsl", not "sls"/);
    assert.equal((await counts(store)).heats, 3, 'the valid heat of the rejected batch was not written');
  });

  test('duplicate ids, reversed dates, prices and id prefixes are checked before writing', async () => {
    const store = await open();
    const feed = fixtureFeed();
    feed.tours?.push({ id: 'wsl-ct-men', competition: 'wsl', name: 'Again' });
    (feed.events?.[0] as { endDate: string }).endDate = '2026-01-01T00:00:00Z';
    (feed.events?.[1] as { id: string }).id = `sls:${WSL_LIVE}`;
    (feed.futureOdds?.[0] as { odds: unknown[] }).odds = [{ outcomeName: 'Yes', decimalOdds: 2, americanOdds: 100 }];
    (feed.futureOdds?.[1] as { odds: unknown[] }).odds = [{ outcomeName: 'Yes', americanOdds: 50 }];
    const error = await rejects(store, feed);
    assert.deepEqual(
      error.problems.map((p) => `${p.item}.${p.field}`),
      [
        'tours[2].id',
        'events[0].endDate',
        'events[1].id',
        'futureOdds[0].odds[0]',
        'futureOdds[1].odds[0].americanOdds',
      ],
    );
  });

  test('an explicit referenceId already held by another item is rejected, writing nothing', async () => {
    const store = await open();
    await ingestFeed(store, fixtureFeed());
    const error = await rejects(store, {
      tours: [
        { id: 'new-tour', competition: 'sls', name: 'New', referenceId: 77 },
        { id: 'other-tour', competition: 'sls', name: 'Other', referenceId: 1 },
      ],
    });
    assert.deepEqual(
      error.problems.map((p) => `${p.item}.${p.field}`),
      ['tours[1].referenceId'],
    );
    assert.equal((await counts(store)).tours, 2);
  });

  test('POST /api/v1/admin/feed ingests, and answers 400 naming the item and field for a bad batch', async () => {
    const store = await open();
    const { app } = await fixtureApp(store);
    const post = (payload: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/admin/feed',
        headers: { 'x-api-key': ADMIN_KEY },
        payload: payload as object,
      });
    const ok = await post({
      tours: [{ id: 'sls-tour', competition: 'sls', name: 'SLS Championship Tour', updatedAt: '2026-01-01T00:00:00Z' }],
    });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(JSON.parse(ok.body).collections.tours, {
      received: 1,
      inserted: 1,
      updated: 0,
      unchanged: 0,
      stale: 0,
    });
    const bad = await post({ athletes: [{ id: 'a', firstName: 'A', lastName: 'B', height: -3 }] });
    assert.equal(bad.statusCode, 400);
    const body = JSON.parse(bad.body);
    assert.match(body.message, /^Invalid feed: athletes\[0\] \(id "a"\)\.height/);
    assert.equal(body.metadata.problems[0].field, 'height');
    const unknownField = await post({ tours: [{ id: 'x', competition: 'sls', name: 'X', colour: 'red' }] });
    assert.match(JSON.parse(unknownField.body).message, /tours\[0\] \(id "x"\)\.colour is not a field of this item/);
  });
});
