import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest, openStore, type Store } from '../../src/store/database.ts';
import type { Database } from '../../src/store/schema.ts';
import { describeEachStore } from '../helpers/stores.ts';

const TABLES = [
  'api_keys',
  'athletes',
  'changes',
  'event_participants',
  'events',
  'feed_activity',
  'future_odds',
  'futures',
  'heat_entries',
  'heat_results',
  'heats',
  'key_usage',
  'laps',
  'markets',
  'odds',
  'odds_history',
  'plans',
  'pricing_models',
  'round_scores',
  'rounds',
  'settlements',
  'stream_token_secrets',
  'team_games',
  'teams',
  'tour_years',
  'tours',
];

const T0 = '2025-03-01T08:00:00.000Z';
const T1 = '2025-03-09T17:30:00.000Z';

/** One row per table, in foreign-key order; ids and values exercise text, integer, 0/1 and null columns. */
type PlainRow<T> = { [C in keyof T]: T[C] extends import('kysely').Generated<infer V> ? V : T[C] };

const ROWS: { [K in keyof Database]: PlainRow<Database[K]> } = {
  tours: {
    id: 'tour-1',
    referenceId: 2_000_000_001,
    competition: 'wsl',
    name: 'Championship Tour',
    gender: 'women',
    updatedAt: T0,
  },
  tourYears: {
    id: 'ty-1',
    referenceId: 11,
    tourId: 'tour-1',
    year: 2025,
    startDate: '2025-01-27',
    endDate: null,
    updatedAt: T0,
  },
  teams: {
    id: 'team-1',
    referenceId: 21,
    competition: 'slr',
    name: 'Rockets',
    shortName: 'RKT',
    logo: null,
    updatedAt: T0,
  },
  athletes: {
    id: 'ath-1',
    referenceId: 31,
    firstName: 'Ana',
    middleName: '',
    lastName: "O'Neill – Ünal",
    nationality: 'PT',
    stance: 'goofy',
    teamId: 'team-1',
    hometown: null,
    height: '170',
    weight: null,
    gender: 'women',
    weightClass: null,
    dob: '1999-12-31',
    providerId: 'p-31',
    updatedAt: T0,
  },
  events: {
    id: 'ev-1',
    referenceId: 41,
    competition: 'wsl',
    tourId: 'tour-1',
    tourYearId: 'ty-1',
    name: 'Pipe Pro',
    startDate: T0,
    endDate: T1,
    year: 2025,
    eventNumber: 1,
    eventStatus: 'LIVE',
    eventLocation: 'Oahu',
    eventLocationNumericId: -7,
    eventLocationGroup: null,
    providerId: null,
    seasonType: 'regular',
    teams: '[{"teamId":"team-1","isHomeTeam":true}]',
    cardId: 'jaialai:2025-01-02_dania-beach',
    eventType: 'Doubles',
    streamUrl: 'https://example.com/live',
    onServe: 'away',
    bracketRound: 2,
    bracketSlot: 1,
    updatedAt: T1,
    contentUpdatedAt: T1,
    lastChangedAt: T1,
    resultStatus: 'PROVISIONAL',
    abandoned: 0,
  },
  rounds: {
    id: 'rd-1',
    referenceId: 51,
    eventId: 'ev-1',
    roundName: 'Round 1',
    roundNo: 1,
    roundStatus: 'COMPLETED',
    startDate: T0,
    endDate: null,
    providerId: null,
    gameType: 'doubles',
    homeLineup: 'Lily Zhang / Kanak Jha',
    awayLineup: null,
    updatedAt: T0,
  },
  heats: {
    id: 'ht-1',
    referenceId: 61,
    roundId: 'rd-1',
    eventId: 'ev-1',
    heatName: 'Heat 1',
    heatNo: 1,
    heatStatus: 'UPCOMING',
    startDate: null,
    endDate: null,
    providerId: 'p-61',
    updatedAt: T0,
  },
  roundScores: {
    id: 'rs-1',
    referenceId: 71,
    roundId: 'rd-1',
    eventId: 'ev-1',
    teamId: 'team-1',
    goals: 0,
    updatedAt: T0,
  },
  eventParticipants: {
    id: 'ep-1',
    referenceId: 72,
    eventId: 'ev-1',
    athleteId: 'ath-1',
    seedNo: null,
    status: 'ACTIVE',
    place: 2,
    updatedAt: T0,
  },
  heatEntries: {
    id: 'he-1',
    referenceId: 73,
    heatId: 'ht-1',
    athleteId: 'ath-1',
    teamId: 'team-1',
    seed: 4,
    position: 0,
    heatScore: 14.37,
    lapTime: 47.125,
    penaltyTime: 0,
    jokerLapTime: null,
    jokerLap: null,
    lapStatus: 'DNF',
    totalLaps: 20,
    lineScore1: 8.5,
    lineScore2: null,
    trick1Score: 9.25,
    trick2Score: 0,
    trick3Score: null,
    trick4Score: null,
    trick5Score: null,
    trick6Score: 10,
    riderScore: 88.75,
    bullScore: 44.5,
    updatedAt: T1,
  },
  laps: { id: 'he-1/1', heatEntryId: 'he-1', heatId: 'ht-1', lapNo: 1, lapTime: 51.003, position: 3, updatedAt: T1 },
  heatResults: {
    id: 'ht-1',
    winnerAthleteId: 'ath-1',
    method: 'Split Decision',
    resultStatus: 'PROVISIONAL',
    updatedAt: T1,
  },
  teamGames: { id: 'ht-1', homeTeamId: 'team-1', awayTeamId: 'team-1', eventType: null, updatedAt: T1 },
  futures: {
    id: 'fu-1',
    referenceId: 81,
    competition: 'wsl',
    tourId: 'tour-1',
    tourYearId: 'ty-1',
    type: 'winner',
    gender: null,
    startDate: T0,
    endDate: T1,
    year: 2025,
    isMarketOpen: 1,
    createdAt: T0,
    updatedAt: T1,
  },
  futureOdds: {
    id: 'fo-1',
    referenceId: 91,
    futureId: 'fu-1',
    name: 'Ana',
    athleteId: 'ath-1',
    teamId: null,
    prices: '[{"outcomeName":"yes","decimalOdds":3.25}]',
    updatedAt: T1,
  },
  markets: {
    id: 'mk-1',
    referenceId: 93,
    eventId: 'ev-1',
    oddType: 'overUnder',
    heatId: 'ht-1',
    exactasType: null,
    overUnderSubMarketType: 'points',
    line: 14.5,
    athleteIds: '["ath-1"]',
    places: null,
    proposition: null,
    teamMarketType: 'total',
    roundId: 'rd-1',
    status: 'SUSPENDED',
    statusReason: 'SCORE_CHANGE',
    updatedAt: T1,
  },
  odds: {
    id: 'odd-1',
    referenceId: 95,
    marketId: 'mk-1',
    eventId: 'ev-1',
    athleteId: 'ath-1',
    athleteIds: null,
    teamId: 'team-1',
    side: 'OVER',
    name: null,
    position: 1,
    decimalOdds: 1.9523,
    probability: 51.2345,
    status: 'OPEN',
    statusReason: null,
    settlement: 'PUSH',
    deadHeatFactor: 0.5,
    updatedAt: T1,
  },
  plans: {
    id: 'plan-1',
    name: 'starter',
    monthlyQuota: 100_000,
    ratePerMinute: 60,
    ratePerDay: null,
    competitions: '["wsl"]',
    createdAt: T0,
  },
  keyUsage: { keyId: 'key-1', day: '2026-11-28', route: '/events/{eventId}', requests: 42 },
  apiKeys: {
    id: 'key-1',
    name: 'ci',
    keyHash: 'a'.repeat(64),
    keyPrefix: 'ask_1234',
    competitions: null,
    createdAt: T0,
    revokedAt: null,
    planId: null,
    ratePerMinute: 60,
    ratePerDay: 0,
  },
  streamTokenSecrets: {
    id: 'secret-1',
    secret: 'b'.repeat(43),
    createdAt: T0,
    retiredAt: T1,
  },
  changes: {
    id: 7,
    kind: 'odds',
    competition: 'wsl',
    eventId: 'event-1',
    data: '{"eventId":"wsl:event-1"}',
    createdAt: T1,
  },
  pricingModels: { id: 'event-1', model: '{"scopes":{}}', updatedAt: T1 },
  feedActivity: {
    eventId: 'event-1',
    competition: 'wsl',
    lastMessageAt: T1,
    stalePublishedAt: null,
    scoreChangedAt: T1,
    scoreStopPublishedAt: null,
  },
  settlements: {
    oddId: 'odd-1',
    eventId: 'ev-1',
    marketId: 'mk-1',
    settlement: 'WIN',
    settlementReason: 'DEAD_HEAT',
    deadHeatFactor: 0.5,
    settlementStatus: 'PROVISIONAL',
    settledAt: T1,
  },
  oddsHistory: {
    id: 1,
    oddId: 'odd-1',
    decimalOdds: 2.75,
    probability: null,
    status: 'OPEN',
    statusReason: null,
    changedAt: T1,
    isFirst: 1,
  },
};

/** Table names of the store's own schema (PostgreSQL introspection lists every schema). */
/** The PostgreSQL schema the store works in (its search_path); undefined for SQLite. */
async function currentSchema(store: Store): Promise<string | undefined> {
  if (store.dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
  return rows[0]?.schema;
}

async function tableNames(store: Store): Promise<string[]> {
  const tables = await store.db.introspection.getTables();
  const schema = await currentSchema(store);
  return tables
    .filter((t) => schema === undefined || t.schema === schema)
    .map((t) => t.name)
    .sort();
}

/** A loopback port with nothing listening on it (it was free a moment ago). */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describeEachStore('store', (open) => {
  test('migrations create every table, and a second run applies nothing', async () => {
    const store = await open({ migrate: false });
    assert.deepEqual(await tableNames(store), []);
    assert.deepEqual(await migrateToLatest(store), [
      '0001-initial',
      '0002-results',
      '0003-markets',
      '0004-team-matches',
      '0005-live-data',
      '0006-pricing-models',
      '0007-integrators',
      '0008-trading',
      '0009-odds-history',
      '0010-settlement',
      '0011-in-play',
      '0012-model-probability',
      '0013-stream-secrets',
      '0014-usage-plans',
    ]);
    assert.deepEqual(await tableNames(store), TABLES);
    assert.deepEqual(await migrateToLatest(store), []);
  });

  test('ping answers on an open store and rejects once it is closed', async () => {
    const store = await open();
    await store.ping();
    await store.close();
    await assert.rejects(store.ping());
  });

  test('two stores migrate independently in one database', async () => {
    // Unmigrated PostgreSQL stores are schemas of one database (migrated ones are databases of their own).
    const first = await open({ migrate: false });
    const second = await open({ migrate: false });
    // Each keeps its migration table in its own schema, as test stores always did.
    await migrateToLatest(first, await currentSchema(first));
    assert.deepEqual(await tableNames(second), []);
    await migrateToLatest(second, await currentSchema(second));
    await first.db.insertInto('apiKeys').values(ROWS.apiKeys).execute();
    assert.equal((await first.db.selectFrom('apiKeys').select('id').execute()).length, 1);
    assert.equal((await second.db.selectFrom('apiKeys').select('id').execute()).length, 0);
  });

  test('a row round-trips through every table with the same JS types', async () => {
    const store = await open();
    for (const table of Object.keys(ROWS) as Array<keyof Database>) {
      const row = ROWS[table];
      await store.db.insertInto(table).values(row).execute();
      // The feed activity is keyed by its event, a key's usage by its key; every other table by its id.
      const [key, value] =
        'id' in row ? ['id', row.id] : 'eventId' in row ? ['eventId', row.eventId] : ['keyId', row.keyId];
      const stored = await store.db
        .selectFrom(table)
        .selectAll()
        .where(key as never, '=', value as never)
        .execute();
      // The price history's id is a PostgreSQL bigserial, read as text there: it only orders rows.
      if (table === 'oddsHistory') for (const r of stored) Object.assign(r, { id: Number(r.id) });
      // deepStrictEqual also fails on '2000000001' vs 2000000001 or on a Date instead of text.
      assert.deepEqual(stored, [row], table);
    }
  });

  test('double precision and integer expressions come back as JS numbers', async () => {
    const store = await open();
    const { rows } = await sql<{ price: number; flag: number; big: number }>`
      select cast(${3.25} as double precision) as price, cast(${1} as integer) as flag,
             cast(${2_147_483_647} as integer) as big`.execute(store.db);
    assert.deepEqual(rows, [{ price: 3.25, flag: 1, big: 2_147_483_647 }]);
  });
});

describe('store [postgres] unreachable', () => {
  test('ping rejects when nothing listens at the URL', async () => {
    const port = await unusedPort();
    const store = openStore({
      databaseUrl: `postgres://postgres@127.0.0.1:${port}/altsports_test`,
      pgSchema: 'unreachable',
    });
    try {
      assert.equal(store.location, `127.0.0.1:${port}/altsports_test (schema unreachable)`);
      await assert.rejects(store.ping(), { code: 'ECONNREFUSED' });
    } finally {
      await store.close();
    }
  });
});
