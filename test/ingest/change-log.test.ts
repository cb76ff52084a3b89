/**
 * The change log as the ingest writes it: what each kind of change appends, with what data,
 * and what appends nothing; its bound and its ids.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import type { ChangeRecord, StoredChange } from '../../src/domain/changes.ts';
import { FeedValidationError } from '../../src/ingest/feed-errors.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { changesRepository } from '../../src/store/repositories/changes-repository.ts';
import { fixtureFeed, MASL_GAME, WSL_FUTURE, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { BKFC_EVENT, resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore, openTestStore, type TestStore } from '../helpers/stores.ts';

type Feed = Required<FeedDocument>;
type Item<C extends keyof Feed> = Feed[C][number];

const WSL_LIVE_ID = `wsl:${WSL_LIVE}`;
const MASL_ID = `masl:${MASL_GAME}`;

/** A fixture item, found by its id, to send again changed. */
function item<C extends keyof Feed>(collection: C, id: string): Item<C> {
  for (const feed of [fixtureFeed(), resultsFeed(), oddsFeed()]) {
    const found = (feed[collection] as Array<Item<C> & { id?: string }> | undefined)?.find(
      (row) => row.id === id || row.id?.endsWith(`:${id}`),
    );
    if (found) return structuredClone(found);
  }
  throw new Error(`no ${collection} item ${id}`);
}
const event = (id: string, changes: Partial<Item<'events'>>) => ({ ...item('events', id), ...changes });
const heatEntry = (id: string, changes: Partial<Item<'heatEntries'>>) => ({ ...item('heatEntries', id), ...changes });
const odd = (id: string, changes: Partial<Item<'odds'>>) => ({ ...item('odds', id), ...changes });

/** Update times later than every fixture row, each later than the one before: every batch is newer. */
let clock = Date.parse('2026-06-01T00:00:00.000Z');
const later = (): string => {
  clock += 60_000;
  return new Date(clock).toISOString();
};

/** The fixture, its results and odds. */
async function loaded(store: Store): Promise<Store> {
  await ingestFeed(store, fixtureFeed());
  await ingestFeed(store, resultsFeed());
  await ingestFeed(store, oddsFeed());
  return store;
}

/**
 * A heat of its own for one test (the store is shared by the suite's tests): `status` in round
 * `roundId`, with one entry `e-<name>` for `athleteId` and, for lap racing, its first lap.
 */
async function ownHeat(
  store: Store,
  name: string,
  options: { roundId: string; athleteId: string; status: string; lap?: boolean },
): Promise<{ heatId: string; entryId: string }> {
  const at = later();
  const heatId = `h-${name}`;
  const entryId = `e-${name}`;
  await ingestFeed(store, {
    heats: [
      { id: heatId, roundId: options.roundId, heatName: name, heatNo: 50, heatStatus: options.status, updatedAt: at },
    ],
    heatEntries: [
      {
        id: entryId,
        heatId,
        athleteId: options.athleteId,
        seed: 1,
        position: 1,
        heatScore: 1,
        totalLaps: 3,
        updatedAt: at,
      },
    ],
    ...(options.lap ? { laps: [{ heatEntryId: entryId, lapNo: 1, lapTime: 52.1, position: 1, updatedAt: at }] } : {}),
  });
  return { heatId, entryId };
}
const wslHeat = (store: Store, name: string, status = 'LIVE') =>
  ownHeat(store, name, { roundId: 'r-live-2', athleteId: 'ath-1', status });
const sprHeat = (store: Store, name: string, status = 'LIVE') =>
  ownHeat(store, name, { roundId: 'sx-r1', athleteId: 'sx-a', status, lap: true });

async function log(store: Store): Promise<StoredChange[]> {
  return changesRepository(store.db).since(0, 100_000);
}

/**
 * The records as logged, less the outcomes a settlement record says moved: those are the settlements
 * ledger's, which every store keeps (test/http/settlement-lifecycle.test.ts checks them).
 */
const records = (changes: readonly StoredChange[]): ChangeRecord[] =>
  changes.map(({ kind, competition, eventId, data }) => {
    const { outcomes: _, ...logged } = data as { outcomes?: unknown };
    return { kind, competition, eventId, data: kind === 'settlement' ? logged : data };
  });

/**
 * Ingests `batch` and returns what it logged, after checking that the log grew by exactly the
 * entries the summary reports, stamped with the time of the ingest.
 */
async function ingestLogged(store: Store, batch: FeedDocument): Promise<ChangeRecord[]> {
  const before = await log(store);
  const now = new Date('2026-11-21T10:00:00.000Z');
  const summary = await ingestFeed(store, batch, { now });
  const after = await log(store);
  assert.deepEqual(after.slice(0, before.length), before, 'earlier entries are kept as they were');
  assert.deepEqual(
    after.slice(before.length),
    summary.changes,
    'the log grew by exactly the entries the summary reports',
  );
  for (const change of summary.changes) assert.equal(change.createdAt, now.toISOString());
  return records(summary.changes);
}

async function rejected(store: Store, batch: unknown, message: RegExp): Promise<void> {
  const before = await log(store);
  await assert.rejects(
    ingestFeed(store, batch),
    (error) => error instanceof FeedValidationError && message.test(JSON.stringify(error.problems)),
  );
  assert.deepEqual(await log(store), before, 'a rejected batch logs nothing');
}

const about = (uuid: string, competition: string) => ({ eventId: `${competition}:${uuid}`, competition });
const heatScore = (
  uuid: string,
  competition: string,
  updatedAt: string,
  heatIds: string[],
  roundIds: string[] = [],
): ChangeRecord => ({
  kind: 'heatScore',
  competition,
  eventId: uuid,
  data: { ...about(uuid, competition), heatIds, roundIds, updatedAt },
});
/** `eventFinal` is the event's state after the batch: the results fixture's events are COMPLETED, and an earlier test completes WSL_LIVE. */
const settlement = (
  uuid: string,
  competition: string,
  updatedAt: string,
  data: { heatIds?: string[]; oddIds?: string[]; eventFinal?: boolean },
): ChangeRecord => ({
  kind: 'settlement',
  competition,
  eventId: uuid,
  data: {
    ...about(uuid, competition),
    heatIds: data.heatIds ?? [],
    oddIds: data.oddIds ?? [],
    eventFinal: data.eventFinal ?? false,
    updatedAt,
  },
});

describeEachStore('change log', (open, kind) => {
  // One loaded store for the suite (a fresh PostgreSQL schema per test costs most of a second); each
  // test changes rows of its own, with update times later than any before.
  let shared: TestStore;
  let store: Store;
  before(async () => {
    shared = await openTestStore(kind);
    store = await loaded(shared.store);
  });
  after(() => shared.cleanup());

  test("an event's status: event; a final status adds a settlement", async () => {
    const live = later();
    assert.deepEqual(
      await ingestLogged(store, { events: [event(MASL_GAME, { eventStatus: 'LIVE', updatedAt: live })] }),
      [
        {
          kind: 'event',
          competition: 'masl',
          eventId: MASL_GAME,
          data: { eventId: MASL_ID, competition: 'masl', eventStatus: 'LIVE', updatedAt: live },
        },
      ],
    );
    const completed = later();
    assert.deepEqual(
      await ingestLogged(store, { events: [event(WSL_LIVE, { eventStatus: 'COMPLETED', updatedAt: completed })] }),
      [
        {
          kind: 'event',
          competition: 'wsl',
          eventId: WSL_LIVE,
          data: { eventId: WSL_LIVE_ID, competition: 'wsl', eventStatus: 'COMPLETED', updatedAt: completed },
        },
        settlement(WSL_LIVE, 'wsl', completed, { eventFinal: true }),
      ],
    );
  });

  test('a heat score in a live heat: heatScore only', async () => {
    const { heatId, entryId } = await wslHeat(store, 'score');
    const at = later();
    assert.deepEqual(
      await ingestLogged(store, {
        heatEntries: [{ id: entryId, heatId, athleteId: 'ath-1', heatScore: 6.5, updatedAt: at }],
      }),
      [heatScore(WSL_LIVE, 'wsl', at, [heatId])],
    );
  });

  test('a heat completing: heatScore and settlement of that heat', async () => {
    const { heatId } = await wslHeat(store, 'completing');
    const at = later();
    assert.deepEqual(
      await ingestLogged(store, {
        heats: [
          {
            id: heatId,
            roundId: 'r-live-2',
            heatName: 'completing',
            heatNo: 50,
            heatStatus: 'COMPLETED',
            updatedAt: at,
          },
        ],
      }),
      [
        heatScore(WSL_LIVE, 'wsl', at, [heatId]),
        settlement(WSL_LIVE, 'wsl', at, { heatIds: [heatId], eventFinal: true }),
      ],
    );
  });

  test('a lap in a live heat: heatScore of its heat', async () => {
    const { heatId, entryId } = await sprHeat(store, 'lap');
    const at = later();
    assert.deepEqual(
      await ingestLogged(store, {
        laps: [{ heatEntryId: entryId, lapNo: 2, lapTime: 49.9, position: 1, updatedAt: at }],
      }),
      [heatScore(SPR_EVENT, 'spr', at, [heatId])],
    );
  });

  test('a correction to a completed heat (its entries, its laps) may move its settlements: heatScore and settlement', async () => {
    // sx-h1 is COMPLETED with sx-a first: the heat-winner (m-sx-heat) and fastest-lap (m-sx-fast) markets settle from it.
    const entries = later();
    assert.deepEqual(
      await ingestLogged(store, {
        heatEntries: [
          heatEntry('e-sx-a', { position: 2, updatedAt: entries }),
          heatEntry('e-sx-b', { position: 1, updatedAt: entries }),
        ],
      }),
      [
        heatScore(SPR_EVENT, 'spr', entries, ['sx-h1']),
        settlement(SPR_EVENT, 'spr', entries, { heatIds: ['sx-h1'], eventFinal: true }),
      ],
      'heat entries',
    );
    const laps = later();
    assert.deepEqual(
      await ingestLogged(store, {
        laps: [{ heatEntryId: 'e-sx-c', lapNo: 2, lapTime: 45.1, position: 3, updatedAt: laps }],
      }),
      [
        heatScore(SPR_EVENT, 'spr', laps, ['sx-h1']),
        settlement(SPR_EVENT, 'spr', laps, { heatIds: ['sx-h1'], eventFinal: true }),
      ],
      'laps',
    );
  });

  test("a participant's final place in a completed event may move its event settlements: heatScore and settlement", async () => {
    // The supercross event is COMPLETED with sx-a placed 1st: eventWinner, podiums and the like settle from the places.
    const at = later();
    const logged = await ingestLogged(store, {
      eventParticipants: [
        { ...item('eventParticipants', 'p-sx-a'), place: 3, updatedAt: at },
        { ...item('eventParticipants', 'p-sx-b'), place: 1, updatedAt: at },
      ],
    });
    assert.deepEqual(
      logged.map((r) => [r.kind, r.eventId]),
      [
        ['heatScore', SPR_EVENT],
        ['settlement', SPR_EVENT],
      ],
    );
  });

  test('a heat result: heatScore, and settlement when its heat is COMPLETED (settlement waits for it)', async () => {
    const added = later();
    assert.deepEqual(
      await ingestLogged(store, {
        heatResults: [{ heatId: 'bk-h4', winnerAthleteId: 'bk-blue', method: 'decision', updatedAt: added }],
      }),
      [heatScore(BKFC_EVENT, 'bkfc', added, ['bk-h4'])],
    );
    const changed = later();
    assert.deepEqual(
      await ingestLogged(store, {
        heatResults: [{ heatId: 'bk-h2', winnerAthleteId: 'bk-gold', method: 'decision', updatedAt: changed }],
      }),
      [
        heatScore(BKFC_EVENT, 'bkfc', changed, ['bk-h2']),
        settlement(BKFC_EVENT, 'bkfc', changed, { heatIds: ['bk-h2'], eventFinal: true }),
      ],
    );
  });

  test('a round score: heatScore with the round', async () => {
    const at = later();
    assert.deepEqual(
      await ingestLogged(store, { roundScores: [{ ...item('roundScores', 'rs-1'), goals: 2, updatedAt: at }] }),
      [heatScore(MASL_GAME, 'masl', at, [], ['r-masl-1'])],
    );
  });

  test('a price: odds with the new price', async () => {
    const at = later();
    assert.deepEqual(await ingestLogged(store, { odds: [odd('o-sx-win-a', { odds: 2.7, updatedAt: at })] }), [
      {
        kind: 'odds',
        competition: 'spr',
        eventId: SPR_EVENT,
        data: {
          ...about(SPR_EVENT, 'spr'),
          marketIds: [],
          odds: [{ id: 'o-sx-win-a', marketId: 'm-sx-win', decimalOdds: 2.7, status: 'OPEN' }],
          updatedAt: at,
        },
      },
    ]);
  });

  test('an operator settlement on an odd: odds and settlement naming the odd', async () => {
    const at = later();
    const logged = await ingestLogged(store, { odds: [odd('o-sx-win-b', { settlement: 'LOSE', updatedAt: at })] });
    assert.deepEqual(
      logged.map((r) => r.kind),
      ['odds', 'settlement'],
    );
    assert.deepEqual(
      ((logged[0] as ChangeRecord).data.odds as Array<{ id: string }>).map((o) => o.id),
      ['o-sx-win-b'],
    );
    assert.deepEqual(logged[1], settlement(SPR_EVENT, 'spr', at, { oddIds: ['o-sx-win-b'], eventFinal: true }));
    // Two settled odds of another event in one batch: one settlement record naming both.
    const both = later();
    const second = await ingestLogged(store, {
      odds: [
        odd('o-bk1-red', { settlement: 'WIN', updatedAt: both }),
        odd('o-bk1-blue', { settlement: 'LOSE', updatedAt: both }),
      ],
    });
    assert.deepEqual(
      second.map((r) => r.kind),
      ['odds', 'settlement'],
    );
    assert.deepEqual(
      second[1],
      settlement(BKFC_EVENT, 'bkfc', both, { oddIds: ['o-bk1-blue', 'o-bk1-red'], eventFinal: true }),
    );
  });

  test("a future's odds: one future record for its competition", async () => {
    const at = later();
    assert.deepEqual(
      await ingestLogged(store, {
        futureOdds: [{ ...item('futureOdds', 'fo-1'), odds: [{ outcomeName: 'Yes', decimalOdds: 4 }], updatedAt: at }],
      }),
      [
        {
          kind: 'future',
          competition: 'wsl',
          eventId: null,
          data: { competition: 'wsl', futureIds: [WSL_FUTURE], updatedAt: at },
        },
      ],
    );
  });

  test('an athlete renamed (a shared fact): one reset for the whole batch', async () => {
    const { heatId, entryId } = await wslHeat(store, 'rename');
    const at = later();
    const logged = await ingestLogged(store, {
      athletes: [{ ...item('athletes', 'ath-2'), lastName: 'Florence Jr', updatedAt: at }],
      heatEntries: [{ id: entryId, heatId, athleteId: 'ath-1', heatScore: 4.4, updatedAt: at }],
    });
    assert.equal(logged.length, 1, 'one reset stands for the whole batch');
    const [reset] = logged as [ChangeRecord];
    assert.equal(reset.kind, 'reset');
    assert.equal(reset.competition, null);
    assert.equal(reset.eventId, null);
    assert.equal(reset.data.reason, 'reference');
    assert.match(String(reset.data.message), /athletes/);
  });

  test('a batch sent again logs nothing', async () => {
    const { heatId, entryId } = await wslHeat(store, 'replay');
    const at = later();
    const batch = {
      heatEntries: [{ id: entryId, heatId, athleteId: 'ath-1', heatScore: 6.5, updatedAt: at }],
      odds: [odd('o-sx-win-d', { americanOdds: -150, updatedAt: at })],
    };
    assert.deepEqual(
      (await ingestLogged(store, batch)).map((r) => [r.kind, r.competition]),
      [
        ['heatScore', 'wsl'],
        ['odds', 'spr'],
      ],
    );
    assert.deepEqual(await ingestLogged(store, batch), []);
    // Newer, with the same facts: nothing changed, nothing logged.
    assert.deepEqual(
      await ingestLogged(store, {
        heatEntries: [{ ...(batch.heatEntries[0] as Item<'heatEntries'>), updatedAt: later() }],
      }),
      [],
    );
    // Older than what is stored: stale, nothing logged.
    assert.deepEqual(
      await ingestLogged(store, {
        heatEntries: [
          { ...(batch.heatEntries[0] as Item<'heatEntries'>), heatScore: 1, updatedAt: '2026-01-01T00:00:00.000Z' },
        ],
      }),
      [],
    );
  });

  test('a rejected batch logs nothing and leaves the log as it was', async () => {
    const { heatId, entryId } = await wslHeat(store, 'rejected');
    const change = { id: entryId, heatId, athleteId: 'ath-1', heatScore: 6.5, updatedAt: later() };
    // Refused by validation, before the transaction.
    await rejected(
      store,
      {
        heatEntries: [change],
        heats: [
          { id: 'h-x', roundId: 'no-such-round', heatName: 'X', heatNo: 9, heatStatus: 'LIVE', updatedAt: later() },
        ],
      },
      /no-such-round/,
    );
    // Refused inside the transaction (a reference id already held) after the heat entry was written: rolled back.
    const held = await store.db
      .selectFrom('odds')
      .select('referenceId')
      .where('id', '=', 'o-sx-second-b')
      .executeTakeFirstOrThrow();
    await rejected(
      store,
      {
        heatEntries: [change],
        odds: [odd('o-sx-second-a', { odds: 3.3, referenceId: Number(held.referenceId), updatedAt: later() })],
      },
      /already used by/,
    );
    // The change itself was not kept: sent alone now, it is logged.
    assert.deepEqual(await ingestLogged(store, { heatEntries: [change] }), [
      heatScore(WSL_LIVE, 'wsl', change.updatedAt, [heatId]),
    ]);
  });

  test('ids increase across batches; a batch about several events lists them by event id', async () => {
    const first = await ingestFeed(store, {
      roundScores: [{ ...item('roundScores', 'rs-2'), goals: 1, updatedAt: later() }],
    });
    const at = later();
    const second = await ingestFeed(store, {
      heatResults: [{ heatId: 'bk-h3', winnerAthleteId: 'bk-red', method: 'decision', updatedAt: at }],
      roundScores: [{ ...item('roundScores', 'rs-2'), goals: 2, updatedAt: at }],
    });
    const third = await ingestFeed(store, { odds: [odd('o-sx-win-c', { americanOdds: 350, updatedAt: later() })] });
    const ids = [first, second, third].flatMap((s) => s.changes.map((c) => c.id));
    assert.equal(ids.length, 1 + 3 + 1);
    for (let i = 1; i < ids.length; i++)
      assert.ok((ids[i] as number) > (ids[i - 1] as number), `ids increase: ${ids.join(', ')}`);
    // By stored event id: the masl game (b2b2...) before the fight card (d4d4...).
    assert.deepEqual(
      second.changes.map((c) => [c.kind, c.eventId]),
      [
        ['heatScore', MASL_GAME],
        ['heatScore', BKFC_EVENT],
        ['settlement', BKFC_EVENT],
      ],
    );
    assert.deepEqual(
      (await log(store)).slice(-5).map((c) => c.id),
      ids,
    );
  });

  test('the log keeps its last changeLogSize entries: the oldest go, ids keep increasing', async () => {
    const small = await loaded(await open({ changeLogSize: 3 }));
    assert.equal(small.changeLogSize, 3);
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      const summary = await ingestFeed(small, {
        heatEntries: [heatEntry('e-h3-b', { heatScore: 5 + i, updatedAt: later() })],
      });
      assert.equal(summary.changes.length, 1);
      const id = (summary.changes[0] as StoredChange).id;
      if (seen.length > 0) assert.ok(id > (seen.at(-1) as number), `id ${id} after ${seen.at(-1)}`);
      seen.push(id);
      const held = (await log(small)).map((c) => c.id);
      assert.ok(held.length <= 3, `at most 3 entries held, got ${held.join(', ')}`);
      assert.equal(held.at(-1), id, 'the newest entry is held');
    }
    assert.deepEqual(
      (await log(small)).map((c) => c.id),
      seen.slice(-3),
      'exactly the last three remain',
    );
    assert.deepEqual(await changesRepository(small.db).bounds(), { first: seen.at(-3), last: seen.at(-1) });
    assert.deepEqual(
      (await log(small)).map((c) => (c.data as { heatIds: string[] }).heatIds),
      [['h-3'], ['h-3'], ['h-3']],
      'the entries held keep their data',
    );
  });
});

test('a one-row score batch on PostgreSQL: no reference-id scan for a known row, and the trim and the notification in one statement', async (t) => {
  const { store, cleanup } = await openTestStore('postgres', { changeLogSize: 3 });
  t.after(cleanup);
  await loaded(store);
  // Fill the log past its bound, so that the batch measured trims it.
  for (let i = 0; i < 4; i++)
    await ingestFeed(store, { heatEntries: [heatEntry('e-h3-b', { heatScore: 20 + i, updatedAt: later() })] });
  const statements: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const sent = args[0] as string | { text?: string };
    statements.push((typeof sent === 'string' ? sent : (sent.text ?? '')).replace(/\s+/g, ' '));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await ingestFeed(store, { heatEntries: [heatEntry('e-h3-b', { heatScore: 30, updatedAt: later() })] });
  } finally {
    pg.Client.prototype.query = query;
  }
  assert.equal(
    statements.filter((s) => /max\(reference_id\)/.test(s)).length,
    0,
    'the row exists: no max(reference_id)',
  );
  const notify = statements.filter((s) => /pg_notify/.test(s));
  assert.equal(notify.length, 1);
  assert.match(notify[0] as string, /^with trimmed as \(delete from changes where id <= \$1\) select pg_notify/);
  assert.equal(statements.filter((s) => /^delete /.test(s)).length, 0, 'no separate trim');
  // 3 lookups of validation, begin, the ingest lock, the stored row, the upsert, the heat and event of
  // the change record, the event's markets (none: nothing to settle, the settlements ledger reads no
  // more), the event's lastChangedAt, the feed activity's upsert (one statement), the LIVE event's
  // score change time (SCORE_CHANGE, one statement), the change-log insert, the trim with the
  // notification, commit (15 before the ledger was kept by every store, 14 before that).
  assert.equal(statements.length, 16, statements.join('\n'));
  assert.deepEqual((await log(store)).length, 3);
});
