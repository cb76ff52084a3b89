import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureFeed, MASL_GAME } from '../helpers/feed-fixture.ts';
import { refusedBatch, tableCounts } from '../helpers/feed-problems.ts';
import { BKFC_EVENT, resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const RESULT_TABLES = ['eventParticipants', 'heatEntries', 'laps', 'heatResults', 'teamGames'] as const;

const counts = (store: Store) => tableCounts(store, RESULT_TABLES);
const problemsOf = (store: Store, feed: unknown) => refusedBatch(store, feed, RESULT_TABLES);

async function seeded(open: () => Promise<Store>) {
  const store = await open();
  await ingestFeed(store, fixtureFeed());
  await ingestFeed(store, resultsFeed());
  return store;
}

describeEachStore('ingest of results', (open) => {
  test('writes every results collection, and replays as a no-op', async () => {
    const store = await seeded(open);
    assert.deepEqual(await counts(store), {
      eventParticipants: 3,
      heatEntries: 26,
      laps: 9,
      heatResults: 4,
      teamGames: 1,
    });
    const again = await ingestFeed(store, resultsFeed());
    for (const collection of RESULT_TABLES)
      assert.equal(again[collection].unchanged, again[collection].received, collection);
  });

  test('laps arrive on their own during a race and find their heat through the stored entry', async () => {
    const store = await seeded(open);
    const summary = await ingestFeed(store, {
      laps: [{ heatEntryId: 'e-sx-a', lapNo: 4, lapTime: 47.1, position: 1, updatedAt: '2026-05-01T03:00:00Z' }],
    });
    assert.equal(summary.laps.inserted, 1);
    const row = await store.db.selectFrom('laps').selectAll().where('id', '=', 'e-sx-a/4').executeTakeFirstOrThrow();
    assert.equal(row.heatId, 'sx-h1');
    // A newer correction of a lap wins; an older one is stale.
    const corrected = await ingestFeed(store, {
      laps: [{ heatEntryId: 'e-sx-a', lapNo: 4, lapTime: 47.3, position: 1, updatedAt: '2026-05-01T03:01:00Z' }],
    });
    assert.equal(corrected.laps.updated, 1);
    const stale = await ingestFeed(store, {
      laps: [{ heatEntryId: 'e-sx-a', lapNo: 4, lapTime: 40, position: 1, updatedAt: '2026-05-01T02:59:00Z' }],
    });
    assert.equal(stale.laps.stale, 1);
  });

  test('a result fact for a format that has none names the item and field', async () => {
    const store = await seeded(open);
    const table: Array<[string, unknown, string, string, RegExp]> = [
      [
        'laps on a surf heat',
        { laps: [{ heatEntryId: 'e-h1-a', lapNo: 1, lapTime: 30 }] },
        'laps[0]',
        'heatEntryId',
        /"wsl", which has no per-lap records/,
      ],
      [
        'a fight result on a surf heat',
        { heatResults: [{ heatId: 'h-1', winnerAthleteId: 'ath-1', method: 'KO' }] },
        'heatResults[0]',
        'heatId',
        /no fight or battle results/,
      ],
      [
        'a team game on a fight',
        { teamGames: [{ heatId: 'bk-h1', homeTeamId: 'pbr-gamblers', awayTeamId: 'pbr-stampede' }] },
        'teamGames[0]',
        'heatId',
        /no team games/,
      ],
      [
        'participants of a team sport',
        { eventParticipants: [{ id: 'p-x', eventId: MASL_GAME, athleteId: 'ath-1' }] },
        'eventParticipants[0]',
        'eventId',
        /publishes teams/,
      ],
      [
        'a winner on a draw',
        { heatResults: [{ heatId: 'bk-h2', winnerAthleteId: 'bk-green', method: 'Majority Draw' }] },
        'heatResults[0]',
        'winnerAthleteId',
        /must be null/,
      ],
      [
        'a winner on a no contest',
        { heatResults: [{ heatId: 'bk-h3', winnerAthleteId: 'bk-red', method: 'no-contest' }] },
        'heatResults[0]',
        'winnerAthleteId',
        /must be null/,
      ],
      [
        'an unknown heat',
        { heatEntries: [{ id: 'e-x', heatId: 'nope', athleteId: 'ath-1' }] },
        'heatEntries[0]',
        'heatId',
        /neither in this batch nor in the store/,
      ],
      [
        'an unknown athlete',
        { heatEntries: [{ id: 'e-x', heatId: 'h-1', athleteId: 'nobody' }] },
        'heatEntries[0]',
        'athleteId',
        /neither/,
      ],
      [
        'an unknown heat entry',
        { laps: [{ heatEntryId: 'nope', lapNo: 1, lapTime: 50 }] },
        'laps[0]',
        'heatEntryId',
        /neither/,
      ],
      [
        'a lap with neither time nor position',
        { laps: [{ heatEntryId: 'e-sx-a', lapNo: 9 }] },
        'laps[0]',
        'lapTime',
        /needs a lapTime, a position/,
      ],
      [
        'a trick scored above 10',
        { heatEntries: [{ id: 'e-sls-a', heatId: 'sls-h1', athleteId: 'sls-a', trick5Score: 10.5 }] },
        'heatEntries[0]',
        'trick5Score',
        /10/,
      ],
      [
        'an unknown lap status',
        { heatEntries: [{ id: 'e-sx-a', heatId: 'sx-h1', athleteId: 'sx-a', lapStatus: 'CRASHED' }] },
        'heatEntries[0]',
        'lapStatus',
        /ACT, DNF/,
      ],
      [
        'home and away the same team',
        { teamGames: [{ heatId: 'pbr-h2', homeTeamId: 'pbr-gamblers', awayTeamId: 'pbr-gamblers' }] },
        'teamGames[0]',
        'awayTeamId',
        /must differ/,
      ],
      [
        'a team of another competition',
        { teamGames: [{ heatId: 'pbr-h2', homeTeamId: 'pbr-gamblers', awayTeamId: 'sockers' }] },
        'teamGames[0]',
        'awayTeamId',
        /competition "masl", not "pbr"/,
      ],
      [
        'an athlete entered twice in a heat',
        {
          heatEntries: [
            { id: 'e-y', heatId: 'h-2', athleteId: 'ath-1' },
            { id: 'e-z', heatId: 'h-2', athleteId: 'ath-1' },
          ],
        },
        'heatEntries[1]',
        'athleteId',
        /again/,
      ],
      [
        'an athlete already entered in the heat under another id',
        { heatEntries: [{ id: 'e-h1-again', heatId: 'h-1', athleteId: 'ath-1' }] },
        'heatEntries[0]',
        'athleteId',
        /already entered there as "e-h1-a"/,
      ],
      [
        'an athlete already a participant under another id',
        { eventParticipants: [{ id: 'p-again', eventId: `spr:${SPR_EVENT}`, athleteId: 'sx-d' }] },
        'eventParticipants[0]',
        'athleteId',
        /already entered there as "p-sx-d"/,
      ],
      [
        'a lap twice',
        {
          laps: [
            { heatEntryId: 'e-sx-a', lapNo: 1, lapTime: 1 },
            { heatEntryId: 'e-sx-a', lapNo: 1, lapTime: 2 },
          ],
        },
        'laps[1]',
        'lapNo',
        /repeats/,
      ],
    ];
    for (const [name, feed, item, field, message] of table) {
      const problems = await problemsOf(store, feed);
      const found = problems.find((p) => p.item === item && p.field === field);
      assert.ok(found, `${name}: ${JSON.stringify(problems)}`);
      assert.match(found.message, message, name);
    }
  });

  test('an entry may move to another athlete while another entry takes its athlete, in one batch', async () => {
    const store = await seeded(open);
    const summary = await ingestFeed(store, {
      heatEntries: [
        { id: 'e-h1-a', heatId: 'h-1', athleteId: 'ath-2', seed: 1, updatedAt: '2026-06-01T00:00:00Z' },
        { id: 'e-h1-b', heatId: 'h-1', athleteId: 'ath-1', seed: 2, updatedAt: '2026-06-01T00:00:00Z' },
      ],
    });
    assert.equal(summary.heatEntries.updated, 2);
  });

  test('results for heats sent in the same batch are checked through the batch', async () => {
    const store = await open();
    await ingestFeed(store, fixtureFeed());
    const feed = resultsFeed();
    feed.laps = [...(feed.laps ?? []), { heatEntryId: 'e-bk1-red', lapNo: 1, lapTime: 60 }];
    const problems = await problemsOf(store, feed);
    assert.deepEqual(
      problems.map((p) => [p.item, p.field]),
      [['laps[9]', 'heatEntryId']],
    );
    assert.match(problems[0]?.message ?? '', /"bkfc"/);
    assert.equal((await store.db.selectFrom('events').select('id').where('id', '=', BKFC_EVENT).execute()).length, 0);
  });
});
