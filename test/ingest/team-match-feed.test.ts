import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { refusedBatch, tableCounts } from '../helpers/feed-problems.ts';
import { describeEachStore } from '../helpers/stores.ts';
import {
  GSOC_DONE,
  GSOC_LIVE,
  ICE_SF2,
  JAI_1,
  JAI_CARD,
  JAI_SOLO,
  JAI_SOLO_CARD,
  MLTT_MATCH,
  NLL_GAME,
  teamMatchFeed,
} from '../helpers/team-match-fixture.ts';

const T = '2026-04-01T00:00:00.000Z';
const TABLES = [
  'tours',
  'tourYears',
  'teams',
  'events',
  'rounds',
  'roundScores',
  'markets',
  'odds',
  'futures',
  'futureOdds',
] as const;

const NEW_EVENT = (n: number) => `aaaaaaaa-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

/** A new event of a competition of the fixture (its tour, teams as given). */
function event(n: number, competition: string, extra: Record<string, unknown> = {}) {
  return {
    id: `${competition}:${NEW_EVENT(n)}`,
    competition,
    tourId: `tm-${competition}-tour`,
    name: `New ${competition} event ${n}`,
    startDate: '2026-04-01T19:00:00Z',
    endDate: '2026-04-01T21:00:00Z',
    eventNumber: n,
    eventStatus: 'UPCOMING',
    updatedAt: T,
    ...extra,
  };
}

async function seeded(open: () => Promise<Store>) {
  const store = await open();
  await ingestFeed(store, teamMatchFeed());
  return store;
}

async function problemsOf(store: Store, feed: unknown) {
  return (await refusedBatch(store, feed, TABLES)).map((p) => [p.item, p.field, p.message]);
}

/** Problems are named by item and field exactly; their messages by the words that matter. */
function assertProblems(problems: string[][], expected: Array<[item: string, field: string, message: RegExp]>) {
  assert.deepEqual(
    problems.map(([item, field]) => [item, field]),
    expected.map(([item, field]) => [item, field]),
  );
  expected.forEach(([, , message], i) => {
    assert.match(problems[i]?.[2] ?? '', message);
  });
}

/** A side problem as [item, field, the market type it names, the sides it lists]. */
function sideProblem([item, field, message]: string[]) {
  const named = /is required for an outcome of a teamMarkets (\w+) market \(([^)]*)\)/.exec(message ?? '');
  return [item, field, named?.[1] ?? message, (named?.[2]?.match(/[A-Z]+/g) ?? []).sort()];
}

describeEachStore('ingest of team-match facts', (open) => {
  test('a good batch stores the curling, table tennis, Jai Alai and 3ICE fields and the typed markets', async () => {
    const store = await open();
    const summary = await ingestFeed(store, teamMatchFeed());
    assert.equal(summary.events.inserted, 15);
    const events = new Map((await store.db.selectFrom('events').selectAll().execute()).map((e) => [e.id, e]));
    assert.deepEqual(JSON.parse(events.get(GSOC_DONE)?.teams ?? '[]'), [
      { teamId: 'tm-gsoc-homan', isHomeTeam: true, stoneColor: 'red', firstHammer: true },
      { teamId: 'tm-gsoc-einarson', isHomeTeam: false, stoneColor: 'yellow' },
    ]);
    const jai = events.get(JAI_1);
    assert.deepEqual(
      [jai?.cardId, jai?.eventType, jai?.streamUrl, jai?.onServe],
      [JAI_CARD, 'Doubles', 'https://stream.example.com/dania/1', 'home'],
    );
    assert.equal(events.get(JAI_SOLO)?.cardId, JAI_SOLO_CARD, 'derived from the competition, UTC start date and venue');
    assert.equal(events.get(GSOC_DONE)?.cardId, null, 'only Jai Alai matches are on cards');
    assert.deepEqual([events.get(ICE_SF2)?.bracketRound, events.get(ICE_SF2)?.bracketSlot], [2, 2]);
    assert.deepEqual([events.get(NLL_GAME)?.bracketRound, events.get(NLL_GAME)?.onServe], [null, null]);
    const game3 = await store.db
      .selectFrom('rounds')
      .selectAll()
      .where('id', '=', 'tt-game-3')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [game3.eventId, game3.gameType, game3.homeLineup, game3.awayLineup],
      [MLTT_MATCH, 'doubles', 'Kanak Jha / Lily Zhang', 'Jiwei Xia / Adriana Diaz'],
    );
    const markets = new Map((await store.db.selectFrom('markets').selectAll().execute()).map((m) => [m.id, m]));
    assert.deepEqual(
      ['tm-gd-ml', 'tm-gd-spread', 'tm-gd-total', 'tm-gd-end1'].map((id) => [
        markets.get(id)?.teamMarketType,
        markets.get(id)?.line,
        markets.get(id)?.roundId,
      ]),
      [
        ['moneyline', null, null],
        ['spread', -2, null],
        ['total', 9.5, null],
        ['moneyline', null, 'gd-end-1'],
      ],
    );
    const odds = new Map((await store.db.selectFrom('odds').selectAll().execute()).map((o) => [o.id, o]));
    assert.deepEqual(
      ['tm-gd-end1-draw', 'tm-gd-total-under', 'tm-tt-ml-home'].map((id) => [
        odds.get(id)?.side,
        odds.get(id)?.eventId,
        odds.get(id)?.decimalOdds,
      ]),
      [
        ['DRAW', GSOC_DONE, 3],
        ['UNDER', GSOC_DONE, 1.9091],
        ['HOME', MLTT_MATCH, 1.6667],
      ],
    );
  });

  test('re-sending the same document changes nothing', async () => {
    const store = await seeded(open);
    const before = await tableCounts(store, TABLES);
    const rows = await store.db.selectFrom('events').selectAll().orderBy('id').execute();
    const again = await ingestFeed(store, teamMatchFeed());
    for (const collection of TABLES) {
      const c = again[collection];
      assert.deepEqual([c.inserted, c.updated, c.stale, c.unchanged], [0, 0, 0, c.received], collection);
    }
    assert.deepEqual(again.changedEventIds, []);
    assert.deepEqual(await tableCounts(store, TABLES), before);
    assert.deepEqual(await store.db.selectFrom('events').selectAll().orderBy('id').execute(), rows);
  });

  test('sport-specific event fields outside their sport, half a bracket place, a bad card date and two first hammers are refused by item and field', async () => {
    const store = await seeded(open);
    const problems = await problemsOf(store, {
      events: [
        event(1, 'nll', {
          teams: [
            { teamId: 'tm-nll-buffalo', isHomeTeam: true, stoneColor: 'red' },
            { teamId: 'tm-nll-toronto', isHomeTeam: false, firstHammer: true },
          ],
        }),
        event(2, 'mltt', { cardId: 'mltt:2026-04-01_atlanta', onServe: 'home' }),
        event(3, '3ice', { bracketRound: 2 }),
        event(4, 'nll', { bracketRound: 1, bracketSlot: 1 }),
        event(5, 'jaialai', { cardId: 'jaialai:2026-02-30_dania-beach' }),
        event(6, 'gsoc', {
          teams: [
            { teamId: 'tm-gsoc-homan', isHomeTeam: true, firstHammer: true },
            { teamId: 'tm-gsoc-einarson', isHomeTeam: false, firstHammer: true },
          ],
        }),
        event(7, 'gsoc', { onServe: 'away' }),
      ],
    });
    assertProblems(problems, [
      ['events[0]', 'teams[0].stoneColor', /curling/],
      ['events[0]', 'teams[1].firstHammer', /curling/],
      ['events[1]', 'cardId', /Jai Alai/],
      ['events[1]', 'onServe', /Jai Alai/],
      ['events[2]', 'bracketSlot', /bracketRound and bracketSlot/],
      ['events[3]', 'bracketRound', /3-on-3 hockey/],
      ['events[3]', 'bracketSlot', /3-on-3 hockey/],
      ['events[4]', 'cardId', /real date/],
      ['events[5]', 'teams', /first hammer/],
      ['events[6]', 'onServe', /Jai Alai/],
    ]);
    // A slot without its round is named the other way round.
    const slotOnly = await problemsOf(store, { events: [event(8, '3ice', { bracketSlot: 1 })] });
    assertProblems(slotOnly, [['events[0]', 'bracketRound', /bracketRound and bracketSlot/]]);
  });

  test('a card id of the wrong form, a serve side and a game type outside their vocabularies are schema problems', async () => {
    const store = await seeded(open);
    const problems = await problemsOf(store, {
      events: [event(1, 'jaialai', { cardId: 'jaialai-2026-04-01' }), event(2, 'jaialai', { onServe: 'left' })],
      rounds: [
        {
          id: 'tm-new-round',
          eventId: MLTT_MATCH,
          roundName: 'Game 8',
          roundNo: 8,
          roundStatus: 'UPCOMING',
          gameType: 'triples',
          updatedAt: T,
        },
      ],
    });
    assert.deepEqual(
      problems.map(([item, field]) => [item, field]),
      [
        ['events[0]', 'cardId'],
        ['events[1]', 'onServe'],
        ['rounds[0]', 'gameType'],
      ],
    );
  });

  test('typed team markets: type on another odd type, lines missing or out of place, a period on an untyped market', async () => {
    const store = await seeded(open);
    const problems = await problemsOf(store, {
      markets: [
        { id: 'x-type', eventId: GSOC_DONE, oddType: 'eventWinner', teamMarketType: 'moneyline', updatedAt: T },
        { id: 'x-spread', eventId: GSOC_DONE, oddType: 'teamMarkets', teamMarketType: 'spread', updatedAt: T },
        {
          id: 'x-total',
          eventId: NLL_GAME,
          oddType: 'teamMarkets',
          teamMarketType: 'total',
          roundId: 'nl-q-1',
          updatedAt: T,
        },
        {
          id: 'x-ml-line',
          eventId: MLTT_MATCH,
          oddType: 'teamMarkets',
          teamMarketType: 'moneyline',
          line: 1.5,
          updatedAt: T,
        },
        { id: 'x-untyped', eventId: GSOC_DONE, oddType: 'teamMarkets', roundId: 'gd-end-2', updatedAt: T },
      ],
    });
    assertProblems(problems, [
      ['markets[0]', 'teamMarketType', /applies to teamMarkets/],
      ['markets[1]', 'line', /required.*spread/],
      ['markets[2]', 'line', /required.*total/],
      ['markets[3]', 'line', /applies to/],
      ['markets[4]', 'roundId', /teamMarketType/],
    ]);
  });

  test('outcome sides must fit the typed market of the batch', async () => {
    const store = await seeded(open);
    const problems = await problemsOf(store, {
      markets: [
        { id: 'x-ml', eventId: GSOC_LIVE, oddType: 'teamMarkets', teamMarketType: 'moneyline', updatedAt: T },
        { id: 'x-total', eventId: GSOC_LIVE, oddType: 'teamMarkets', teamMarketType: 'total', line: 8.5, updatedAt: T },
        {
          id: 'x-spread',
          eventId: GSOC_LIVE,
          oddType: 'teamMarkets',
          teamMarketType: 'spread',
          line: -2.5,
          updatedAt: T,
        },
      ],
      odds: [
        { id: 'x-ml-over', marketId: 'x-ml', side: 'OVER', odds: 1.9, updatedAt: T },
        { id: 'x-ml-none', marketId: 'x-ml', odds: 1.9, updatedAt: T },
        { id: 'x-total-home', marketId: 'x-total', side: 'HOME', odds: 1.9, updatedAt: T },
        { id: 'x-spread-draw', marketId: 'x-spread', side: 'DRAW', odds: 3, updatedAt: T },
      ],
    });
    assert.deepEqual(problems.map(sideProblem), [
      ['odds[0]', 'side', 'moneyline', ['AWAY', 'DRAW', 'HOME']],
      ['odds[1]', 'side', 'moneyline', ['AWAY', 'DRAW', 'HOME']],
      ['odds[2]', 'side', 'total', ['OVER', 'UNDER']],
      ['odds[3]', 'side', 'spread', ['AWAY', 'HOME']],
    ]);
    // The good ones go in.
    const accepted = await ingestFeed(store, {
      markets: [{ id: 'x-ml', eventId: GSOC_LIVE, oddType: 'teamMarkets', teamMarketType: 'moneyline', updatedAt: T }],
      odds: [
        { id: 'x-ml-home', marketId: 'x-ml', side: 'HOME', odds: 2.1, updatedAt: T },
        { id: 'x-ml-draw', marketId: 'x-ml', side: 'DRAW', odds: 9, updatedAt: T },
      ],
    });
    assert.deepEqual([accepted.markets.inserted, accepted.odds.inserted], [1, 2]);
  });

  test('a price tick on a stored typed market is checked against its type: right sides go in, wrong or missing sides are named', async () => {
    const store = await seeded(open);
    const tick = await ingestFeed(store, {
      odds: [
        {
          id: 'tm-gl-total-over',
          marketId: 'tm-gl-total',
          side: 'OVER',
          odds: 2.05,
          updatedAt: '2026-03-15T01:05:00Z',
        },
      ],
    });
    assert.equal(tick.odds.updated, 1);
    const row = await store.db
      .selectFrom('odds')
      .select(['decimalOdds', 'side', 'eventId'])
      .where('id', '=', 'tm-gl-total-over')
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.decimalOdds, row.side, row.eventId], [2.05, 'OVER', GSOC_LIVE]);
    const problems = await problemsOf(store, {
      odds: [
        { id: 'x-stored-total', marketId: 'tm-gl-total', side: 'HOME', odds: 1.9, updatedAt: T },
        { id: 'x-stored-none', marketId: 'tm-tt-g2-total', odds: 1.9, updatedAt: T },
      ],
    });
    assert.deepEqual(problems.map(sideProblem), [
      ['odds[0]', 'side', 'total', ['OVER', 'UNDER']],
      ['odds[1]', 'side', 'total', ['OVER', 'UNDER']],
    ]);
  });

  test("a typed market's period must be a round of its own match", async () => {
    const store = await seeded(open);
    const problems = await problemsOf(store, {
      markets: [
        {
          id: 'x-foreign',
          eventId: GSOC_DONE,
          oddType: 'teamMarkets',
          teamMarketType: 'moneyline',
          roundId: 'tt-game-1',
          updatedAt: T,
        },
      ],
    });
    assertProblems(problems, [
      ['markets[0]', 'roundId', /is a period of event "[0-9a-f-]+", not of this market's event/],
      ['markets[0]', 'roundId', /"tt-game-1" of competition "mltt", not "gsoc"/],
    ]);
    // End 1 of the live match is not a period of the completed one: a market on it could never settle.
    const other = await problemsOf(store, {
      markets: [
        {
          id: 'x-other-match',
          eventId: GSOC_DONE,
          oddType: 'teamMarkets',
          teamMarketType: 'moneyline',
          roundId: 'gl-end-1',
          updatedAt: T,
        },
      ],
    });
    assert.deepEqual(
      other.map(([item, field]) => [item, field]),
      [['markets[0]', 'roundId']],
    );
  });

  test('typed team markets need a match between two teams: a bull-riding event has no score to settle them from', async () => {
    const store = await seeded(open);
    const problems = await problemsOf(store, {
      tours: [{ id: 'tm-pbr-tour', competition: 'pbr', name: 'PBR test tour', updatedAt: T }],
      events: [event(1, 'pbr', { eventStatus: 'COMPLETED' })],
      markets: [
        {
          id: 'x-pbr-total',
          eventId: NEW_EVENT(1),
          oddType: 'teamMarkets',
          teamMarketType: 'total',
          line: 10.5,
          updatedAt: T,
        },
      ],
      odds: [{ id: 'x-pbr-under', marketId: 'x-pbr-total', side: 'UNDER', odds: 1.9, updatedAt: T }],
    });
    assert.ok(
      problems.some(([item, field]) => item === 'markets[0]' && (field === 'teamMarketType' || field === 'eventId')),
      `expected the typed market on a pbr event to be refused, got ${JSON.stringify(problems)}`,
    );
  });
});
