/**
 * The SQL of every repository method, on SQLite and on PostgreSQL, kept in checked-in files
 * (test/store/repositories/sql/<repository>.<dialect>.sql), so that a review shows the SQL a change
 * makes. Every Kysely query of the application lives in a repository (src/store/repositories/) or a
 * migration; outside them only connection plumbing runs SQL: connection.ts's `select 1` (the health
 * check's ping, on no table), besides the PRAGMAs and LISTEN that the connections and change notices
 * send on node:sqlite and pg themselves, not through Kysely. The ingest's advisory lock is the feed
 * facts repository's (`takeIngestLock`): every writer of feed facts takes it first.
 *
 * Each method is called with representative arguments on a Kysely instance that compiles as the store
 * does (store/compile-only.ts: the dialect's adapter and compiler, the store's plugins) and whose
 * driver records each statement and answers with the rows a case gives (none by default), so that a
 * method that reads before it writes takes the path that writes. No database is needed.
 *
 * The files differ from what the methods run: this test fails with the difference.
 * `npm run sql:update` (UPDATE_SQL=1 on this file) rewrites them; review the diff.
 * A repository method, or a repository, that no case calls fails the test too.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import type { DatabaseConnection, Driver, Kysely } from 'kysely';
import { compileOnly } from '../../../src/store/compile-only.ts';
import type { StoreDialect } from '../../../src/store/connection.ts';
import { changesRepository } from '../../../src/store/repositories/changes-repository.ts';
import { type EventWithTour, eventsRepository } from '../../../src/store/repositories/events-repository.ts';
import { feedActivityRepository } from '../../../src/store/repositories/feed-activity-repository.ts';
import { feedFactsRepository } from '../../../src/store/repositories/feed-facts-repository.ts';
import { futuresRepository } from '../../../src/store/repositories/futures-repository.ts';
import { keysRepository } from '../../../src/store/repositories/keys-repository.ts';
import { oddsHistoryRepository } from '../../../src/store/repositories/odds-history-repository.ts';
import { oddsRepository } from '../../../src/store/repositories/odds-repository.ts';
import { plansRepository } from '../../../src/store/repositories/plans-repository.ts';
import { resultsRepository } from '../../../src/store/repositories/results-repository.ts';
import { scopeFactsRepository } from '../../../src/store/repositories/scope-facts-repository.ts';
import { settlementsRepository } from '../../../src/store/repositories/settlements-repository.ts';
import { streamSecretsRepository } from '../../../src/store/repositories/stream-secrets-repository.ts';
import { usageRepository } from '../../../src/store/repositories/usage-repository.ts';
import type { ApiKeyRow, Database, MarketRow } from '../../../src/store/schema.ts';
import { formatSql } from '../../helpers/format-sql.ts';

const FILES = new URL('./sql/', import.meta.url);
const REPOSITORIES = new URL('../../../src/store/repositories/', import.meta.url);
const DIALECTS: readonly StoreDialect[] = ['sqlite', 'postgres'];
const UPDATE = process.env.UPDATE_SQL === '1';

/** The rows the recording driver answers a statement with. */
type Rows = (sql: string) => object[];

interface Call<R> {
  /** The method's name, then what this call shows when a method has several: `list (every filter)`. */
  name: string;
  run: (repository: R, dialect: StoreDialect) => Promise<unknown>;
  rows?: Rows;
  /** The stores on which the method sends SQL (both unless said): on the other it must send none. */
  sqlOn?: StoreDialect[];
}

interface Repository<R> {
  /** The module in src/store/repositories/ and the name of its SQL files. */
  module: string;
  make: (db: Kysely<Database>) => R;
  calls: Call<R>[];
  /** Functions the module exports besides its repository, none of which runs SQL. */
  plainExports?: string[];
}

function repository<R extends object>(spec: Repository<R>): Repository<object> {
  return spec as unknown as Repository<object>;
}

/** Rows for statements whose SQL matches a pattern: the first that matches answers. */
function answer(...pairs: Array<[RegExp, object[]]>): Rows {
  return (sql) => structuredClone(pairs.find(([pattern]) => pattern.test(sql))?.[1] ?? []);
}

const AT = '2026-11-29T12:00:00.000Z';
const EARLIER = '2026-11-28T12:00:00.000Z';

const EVENT = {
  id: 'event-1',
  referenceId: 1,
  competition: 'wsl',
  teams: '[{"teamId":"team-1","isHomeTeam":true}]',
  tourName: 'Championship Tour',
  tourReferenceId: 1,
} as unknown as EventWithTour;

const KEY: ApiKeyRow = {
  id: 'key-1',
  name: 'desk',
  keyHash: 'hash',
  keyPrefix: 'as_live_ab',
  competitions: null,
  createdAt: EARLIER,
  revokedAt: null,
  ratePerMinute: null,
  ratePerDay: null,
  planId: null,
};

const market = (fields: Partial<MarketRow>) =>
  ({ heatId: null, teamMarketType: null, roundId: null, athleteIds: null, ...fields }) as MarketRow;

const REPOSITORIES_CALLED = [
  repository({
    module: 'changes',
    make: changesRepository,
    calls: [
      {
        name: 'append (the log trimmed)',
        run: (r, dialect) =>
          r.append(
            [{ kind: 'event', competition: 'wsl', eventId: 'event-1', data: {} }],
            AT,
            10_000,
            dialect === 'postgres' ? 'altsports_changes' : null,
          ),
        rows: answer([/^insert/, [{ id: 10_001 }]]),
      },
      {
        name: 'append (within the log)',
        run: (r, dialect) =>
          r.append(
            [{ kind: 'event', competition: 'wsl', eventId: 'event-1', data: {} }],
            AT,
            10_000,
            dialect === 'postgres' ? 'altsports_changes' : null,
          ),
        rows: answer([/^insert/, [{ id: 5 }]]),
      },
      { name: 'since', run: (r) => r.since(5, 100) },
      { name: 'bounds', run: (r) => r.bounds() },
    ],
  }),
  repository({
    module: 'events',
    make: eventsRepository,
    calls: [
      { name: 'list', run: (r) => r.list({ sortOrder: 'ASC' }) },
      {
        name: 'list (every filter)',
        run: (r) =>
          r.list({
            competitions: ['wsl', 'sls'],
            statuses: ['LIVE', 'UPCOMING'],
            endsFrom: EARLIER,
            startsBefore: AT,
            updatedSince: EARLIER,
            sortOrder: 'DESC',
            after: { startDate: EARLIER, referenceId: 7 },
            limit: 50,
          }),
      },
      { name: 'findById', run: (r) => r.findById('event-1') },
      {
        name: 'findDocument',
        run: (r) => r.findDocument('event-1'),
        rows: answer([/from "events"/, [EVENT]]),
      },
      { name: 'documentsOf', run: (r) => r.documentsOf([EVENT]) },
      { name: 'findCard', run: (r) => r.findCard('JAI:2026-11-29_dania') },
      { name: 'bracketGames', run: (r) => r.bracketGames('tour-year-1') },
      { name: 'findTourYear', run: (r) => r.findTourYear('tour-year-1') },
      { name: 'findPricingFacts', run: (r) => r.findPricingFacts('event-1') },
      { name: 'statusesOf', run: (r) => r.statusesOf(['event-1', 'event-2']) },
      { name: 'competitionsOf', run: (r) => r.competitionsOf(['event-1', 'event-2']) },
      { name: 'roundStatuses', run: (r) => r.roundStatuses('event-1') },
      { name: 'statesOf', run: (r) => r.statesOf(['event-1', 'event-2']) },
      { name: 'heatStates', run: (r) => r.heatStates(['heat-1', 'heat-2']) },
      { name: 'eventsOfRounds', run: (r) => r.eventsOfRounds(['round-1', 'round-2']) },
      { name: 'touchContent', run: (r) => r.touchContent(new Map([['event-1', AT]])) },
      { name: 'touchLastChanged', run: (r) => r.touchLastChanged(['event-1', 'event-2'], AT) },
      { name: 'isEmpty', run: (r) => r.isEmpty() },
      { name: 'startDatesOf', run: (r) => r.startDatesOf(['event-1', 'event-2']) },
      { name: 'progressOf', run: (r) => r.progressOf(['event-1', 'event-2']) },
    ],
  }),
  repository({
    module: 'feed-activity',
    make: feedActivityRepository,
    calls: [
      { name: 'touch', run: (r, dialect) => r.touch(['event-1', 'event-2'], AT, dialect === 'postgres') },
      { name: 'anyStale', run: (r) => r.anyStale(EARLIER) },
      {
        name: 'claimStale',
        run: (r) => r.claimStale(EARLIER, AT),
        rows: answer([/^select/, [{ eventId: 'event-1', competition: 'wsl' }]]),
      },
      { name: 'markScoreChanged', run: (r) => r.markScoreChanged(['event-1', 'event-2'], AT) },
      { name: 'scoreStops', run: (r) => r.scoreStops(EARLIER) },
      { name: 'setScoreStopPublished', run: (r) => r.setScoreStopPublished(['event-1'], AT) },
      { name: 'lastByCompetition', run: (r) => r.lastByCompetition() },
      { name: 'liveEvents', run: (r) => r.liveEvents() },
      { name: 'liveEvents (of some events)', run: (r) => r.liveEvents(['event-1', 'event-2']) },
    ],
  }),
  repository({
    module: 'feed-facts',
    make: feedFactsRepository,
    plainExports: ['ReferenceIdConflict'],
    calls: [
      { name: 'takeIngestLock', run: (r, dialect) => r.takeIngestLock(dialect), sqlOn: ['postgres'] },
      {
        name: 'upsertNewer (new events, reference ids assigned)',
        run: (r, dialect) =>
          r.upsertNewer(
            'events',
            [
              { id: 'event-1', name: 'Pipe Pro', eventStatus: 'UPCOMING', updatedAt: AT },
              { id: 'event-2', name: 'Sunset Open', eventStatus: 'UPCOMING', updatedAt: AT },
            ],
            { dialect, contentUpdatedAt: true },
          ),
        rows: answer([/max\(reference_id\)/, [{ max: 4 }]]),
      },
      {
        name: 'upsertNewer (stored odds, explicit reference ids)',
        run: (r, dialect) =>
          r.upsertNewer(
            'odds',
            [
              { id: 'odd-1', referenceId: 11, decimalOdds: 2.5, status: 'OPEN', updatedAt: AT },
              { id: 'odd-2', referenceId: 12, decimalOdds: 3.1, status: 'OPEN', updatedAt: AT },
            ],
            { dialect },
          ),
        rows: answer(
          [/"reference_id" in/, [{ id: 'odd-1', referenceId: 11 }]],
          [
            /"updated_at" from "odds"/,
            [
              { id: 'odd-1', referenceId: 11, updatedAt: EARLIER },
              { id: 'odd-2', referenceId: 12, updatedAt: EARLIER },
            ],
          ],
          [/^insert/, [{ id: 'odd-1' }]],
        ),
      },
      {
        name: 'upsertNewer (a new future, created at its updatedAt)',
        run: (r, dialect) =>
          r.upsertNewer('futures', [{ id: 'future-1', referenceId: 3, name: 'Title', updatedAt: AT }], {
            dialect,
            createdAt: true,
          }),
      },
      {
        name: 'upsertNewer (stored laps, no reference ids)',
        run: (r, dialect) =>
          r.upsertNewer('laps', [{ id: 'lap-1', heatEntryId: 'entry-1', lapNo: 1, updatedAt: AT }], {
            dialect,
            referenceIds: false,
          }),
        rows: answer([/^select/, [{ id: 'lap-1', updatedAt: EARLIER }]]),
      },
      { name: 'findExisting (tours)', run: (r) => r.findExisting('tours', ['tour-1', 'tour-2']) },
      { name: 'findExisting (rounds)', run: (r) => r.findExisting('rounds', ['round-1', 'round-2']) },
      { name: 'findExisting (heats)', run: (r) => r.findExisting('heats', ['heat-1', 'heat-2']) },
      { name: 'findExisting (heatEntries)', run: (r) => r.findExisting('heatEntries', ['entry-1', 'entry-2']) },
      { name: 'findExisting (markets)', run: (r) => r.findExisting('markets', ['market-1', 'market-2']) },
      { name: 'findExisting (athletes)', run: (r) => r.findExisting('athletes', ['athlete-1', 'athlete-2']) },
    ],
  }),
  repository({
    module: 'futures',
    make: futuresRepository,
    calls: [
      { name: 'list', run: (r) => r.list() },
      { name: 'list (of some competitions)', run: (r) => r.list(['wsl', 'sls']) },
      {
        name: 'findWithOdds',
        run: (r) => r.findWithOdds('wsl', 'tour-1', 'winner'),
        rows: answer([/from "futures"/, [{ id: 'future-1' }, { id: 'future-2' }]]),
      },
      { name: 'competitionsOf', run: (r) => r.competitionsOf(['future-1', 'future-2']) },
    ],
  }),
  repository({
    module: 'keys',
    make: keysRepository,
    calls: [
      { name: 'insert', run: (r) => r.insert(KEY) },
      { name: 'findActiveByHash', run: (r) => r.findActiveByHash('hash') },
      { name: 'findActiveById', run: (r) => r.findActiveById('key-1') },
      { name: 'findActiveByIds', run: (r) => r.findActiveByIds(['key-1', 'key-2']) },
      { name: 'findByHash', run: (r) => r.findByHash('hash') },
      { name: 'find', run: (r) => r.find('key-1'), rows: answer([/^select/, [KEY]]) },
      { name: 'list', run: (r) => r.list() },
      { name: 'revoke', run: (r) => r.revoke('key-1', AT), rows: answer([/^select/, [KEY]]) },
      {
        name: 'setLimits',
        run: (r) => r.setLimits('key-1', { ratePerMinute: 60, ratePerDay: 10_000, planId: null }),
        rows: answer([/^select/, [KEY]]),
      },
      {
        name: 'setSecret',
        run: (r) => r.setSecret('key-1', 'hash-2', 'as_live_cd'),
        rows: answer([/^select/, [KEY]]),
      },
    ],
  }),
  repository({
    module: 'odds-history',
    make: oddsHistoryRepository,
    calls: [
      { name: 'record', run: (r) => r.record(['odd-1', 'odd-2']) },
      { name: 'changesOf', run: (r) => r.changesOf(['odd-1', 'odd-2']) },
      { name: 'changesOf (a window)', run: (r) => r.changesOf(['odd-1', 'odd-2'], EARLIER, AT) },
      { name: 'firstOf', run: (r) => r.firstOf(['odd-1', 'odd-2']) },
      { name: 'lastOpenOf', run: (r) => r.lastOpenOf(['odd-1', 'odd-2']) },
      { name: 'prune', run: (r) => r.prune(EARLIER) },
    ],
  }),
  repository({
    module: 'odds',
    make: oddsRepository,
    calls: [
      { name: 'recordModel', run: (r) => r.recordModel('event-1', '{"kind":"plackett-luce"}', AT) },
      { name: 'recordedModel', run: (r) => r.recordedModel('event-1') },
      { name: 'marketsOfEvent', run: (r) => r.marketsOfEvent('event-1') },
      {
        name: 'marketsOfEvent (one odd type, exactas, over/under)',
        run: (r) =>
          r.marketsOfEvent('event-1', {
            oddType: 'overUnder',
            exactasType: 2,
            overUnderSubMarketType: 'points',
          }),
      },
      {
        name: 'marketsOfEvent (odd types)',
        run: (r) => r.marketsOfEvent('event-1', { oddType: ['eventWinner', 'heatWinner'] }),
      },
      { name: 'oddsOfMarkets', run: (r) => r.oddsOfMarkets('event-1', ['market-1', 'market-2']) },
      { name: 'oddsOfEvent', run: (r) => r.oddsOfEvent('event-1') },
      { name: 'suspend', run: (r) => r.suspend(['odd-1', 'odd-2'], 'EVENT_STARTED') },
      { name: 'outcomesPage', run: (r) => r.outcomesPage('event-1', {}) },
      {
        name: 'outcomesPage (every option)',
        run: (r) =>
          r.outcomesPage('event-1', { oddType: ['heatWinner'], outcome: '42', afterReferenceId: 40, limit: 100 }),
      },
      { name: 'findOdds', run: (r) => r.findOdds(['odd-1', '42']) },
      { name: 'marketShapes', run: (r) => r.marketShapes(['market-1', 'market-2']) },
      { name: 'findMarkets', run: (r) => r.findMarkets(['market-1', 'market-2']) },
      { name: 'oddsVersion', run: (r) => r.oddsVersion('event-1') },
      { name: 'placesOfEvent', run: (r) => r.placesOfEvent('event-1') },
    ],
  }),
  repository({
    module: 'plans',
    make: plansRepository,
    calls: [
      {
        name: 'insert',
        run: (r) =>
          r.insert({
            id: 'plan-1',
            name: 'pro',
            monthlyQuota: 1_000_000,
            ratePerMinute: 600,
            ratePerDay: null,
            competitions: null,
            createdAt: AT,
          }),
      },
      { name: 'list', run: (r) => r.list() },
      { name: 'find', run: (r) => r.find('pro') },
      { name: 'findByIds', run: (r) => r.findByIds(['plan-1', 'plan-2']) },
      { name: 'update', run: (r) => r.update('plan-1', { monthlyQuota: 2_000_000, ratePerDay: 50_000 }) },
    ],
  }),
  repository({
    module: 'results',
    make: resultsRepository,
    calls: [
      {
        name: 'findHeatResults',
        run: (r) => r.findHeatResults('heat-1'),
        rows: answer(
          [/from "heats"/, [{ id: 'heat-1', eventId: 'event-1' }]],
          [/from "heat_entries"/, [{ heatId: 'heat-1', athleteId: 'athlete-1', teamId: 'team-1' }]],
          [/from "athletes"/, [{ id: 'athlete-1', teamId: 'team-2' }]],
        ),
      },
      {
        name: 'findHeatsResults',
        run: (r) => r.findHeatsResults(['heat-1', 'heat-2']),
        rows: answer(
          [/from "heats"/, [{ id: 'heat-1', eventId: 'event-1' }]],
          [/from "heat_entries"/, [{ heatId: 'heat-1', athleteId: 'athlete-1', teamId: null }]],
          [/from "athletes"/, [{ id: 'athlete-1', teamId: 'team-1' }]],
        ),
      },
      { name: 'participantPlaces', run: (r) => r.participantPlaces('event-1') },
      { name: 'eliminatedAthletes', run: (r) => r.eliminatedAthletes('event-1') },
      { name: 'knownAthletes', run: (r) => r.knownAthletes(['athlete-1', 'athlete-2']) },
      { name: 'entriesWithHeatStatus', run: (r) => r.entriesWithHeatStatus('event-1') },
      { name: 'entriesOfEvent', run: (r) => r.entriesOfEvent('event-1') },
      {
        name: 'findParticipants',
        run: (r) => r.findParticipants('event-1'),
        rows: answer(
          [/from "event_participants"/, [{ athleteId: 'athlete-1' }]],
          [/from "athletes"/, [{ id: 'athlete-1', teamId: 'team-1' }]],
        ),
      },
      { name: 'athletesByIds', run: (r) => r.athletesByIds(['athlete-1', 'athlete-2', null]) },
      { name: 'teamsByIds', run: (r) => r.teamsByIds(['team-1', 'team-2']) },
      { name: 'entrantsOf (heatEntries)', run: (r) => r.entrantsOf('heatEntries', ['heat-1', 'heat-2']) },
      {
        name: 'entrantsOf (eventParticipants)',
        run: (r) => r.entrantsOf('eventParticipants', ['event-1', 'event-2']),
      },
      { name: 'heatsOfEntries', run: (r) => r.heatsOfEntries(['entry-1', 'entry-2']) },
      { name: 'resultsHeld (events)', run: (r) => r.resultsHeld('events', ['event-1', 'event-2']) },
      { name: 'resultsHeld (heatResults)', run: (r) => r.resultsHeld('heatResults', ['heat-1', 'heat-2']) },
    ],
  }),
  repository({
    module: 'scope-facts',
    make: scopeFactsRepository,
    calls: [
      {
        name: 'resultsOf (heat, lap, match and event scopes)',
        run: (r) =>
          r.resultsOf({ id: 'event-1', eventStatus: 'LIVE' }, 'supercross-laps', [
            market({ id: 'market-1', oddType: 'heatWinner', heatId: 'heat-1' }),
            market({ id: 'market-2', oddType: 'fastestLap' }),
            market({ id: 'market-3', oddType: 'teamMarkets', teamMarketType: 'moneyline' }),
            market({ id: 'market-4', oddType: 'eventWinner' }),
          ]),
        rows: answer([/select "id" from "heats"/, [{ id: 'heat-2' }]]),
      },
      { name: 'heatsOfEvent', run: (r) => r.heatsOfEvent('event-1') },
    ],
  }),
  repository({
    module: 'settlements',
    make: settlementsRepository,
    plainExports: ['ledgerEntryOf'],
    calls: [
      { name: 'ofEvent', run: (r) => r.ofEvent('event-1') },
      {
        name: 'keep',
        run: (r) =>
          r.keep([
            {
              oddId: 'odd-1',
              eventId: 'event-1',
              marketId: 'market-1',
              entry: {
                settlement: 'WIN',
                settlementReason: undefined,
                deadHeatFactor: 1,
                settlementStatus: undefined,
                settledAt: AT,
              },
            },
          ]),
      },
    ],
  }),
  repository({
    module: 'stream-secrets',
    make: streamSecretsRepository,
    calls: [
      { name: 'list', run: (r) => r.list() },
      {
        name: 'rotate',
        run: (r) => r.rotate({ id: 's2', secret: 'c2VjcmV0', createdAt: AT, retiredAt: null }, EARLIER),
      },
    ],
  }),
  repository({
    module: 'usage',
    make: usageRepository,
    calls: [
      {
        name: 'add',
        run: (r) =>
          r.add([
            { keyId: 'key-1', day: '2026-11-29', route: '/events', requests: 3 },
            { keyId: 'key-1', day: '2026-11-29', route: '/odds', requests: 1 },
          ]),
      },
      { name: 'between', run: (r) => r.between('2026-11-01', '2026-11-30') },
      { name: 'between (one key)', run: (r) => r.between('2026-11-01', '2026-11-30', 'key-1') },
      { name: 'totalsSince', run: (r) => r.totalsSince(['key-1', 'key-2'], '2026-11-01') },
    ],
  }),
];

/** A driver that runs nothing: it notes each statement, and answers with the rows `rows` gives. */
function recordingDriver(into: { statements: string[]; rows: Rows }): Driver {
  const connection: DatabaseConnection = {
    async executeQuery(query) {
      into.statements.push(query.sql);
      return { rows: into.rows(query.sql) as never[] };
    },
    streamQuery() {
      throw new Error('no repository streams');
    },
  };
  const note = async (statement: string) => {
    into.statements.push(statement);
  };
  return {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: () => note('begin'),
    commitTransaction: () => note('commit'),
    rollbackTransaction: () => note('rollback'),
    releaseConnection: async () => {},
    destroy: async () => {},
  };
}

const DIALECT_NAMES: Record<StoreDialect, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** The file's text: each call's statements, formatted, under its name. */
async function sqlFile(spec: Repository<object>, dialect: StoreDialect): Promise<string> {
  const recorded = { statements: [] as string[], rows: (() => []) as Rows };
  const db = compileOnly<Database>(dialect, () => recordingDriver(recorded));
  const repository = spec.make(db);
  const sections = [
    `-- The SQL each method of store/repositories/${spec.module}-repository.ts runs on ${DIALECT_NAMES[dialect]},` +
      '\n-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;' +
      '\n-- `npm run sql:update` rewrites it.',
  ];
  for (const call of spec.calls) {
    recorded.statements = [];
    recorded.rows = call.rows ?? (() => []);
    await call.run(repository, dialect);
    if (call.sqlOn && !call.sqlOn.includes(dialect)) {
      assert.deepEqual(recorded.statements, [], `${spec.module}: ${call.name} ran SQL on ${DIALECT_NAMES[dialect]}`);
      sections.push(`-- ${call.name}\n-- (none on ${DIALECT_NAMES[dialect]})`);
      continue;
    }
    assert.ok(recorded.statements.length > 0, `${spec.module}: ${call.name} ran no SQL`);
    const formatted = recorded.statements.map((statement) => {
      const text = formatSql(statement);
      assert.equal(text.replace(/\s+/g, ''), statement.replace(/\s+/g, ''), 'formatting changed more than whitespace');
      return `${text};`;
    });
    sections.push(`-- ${call.name}\n${formatted.join('\n\n')}`);
  }
  await db.destroy();
  return `${sections.join('\n\n')}\n`;
}

for (const spec of REPOSITORIES_CALLED)
  for (const dialect of DIALECTS) {
    const file = new URL(`${spec.module}.${dialect}.sql`, FILES);
    test(`${spec.module}-repository.ts on ${DIALECT_NAMES[dialect]}: the SQL is sql/${spec.module}.${dialect}.sql`, async () => {
      const actual = await sqlFile(spec, dialect);
      if (UPDATE) {
        mkdirSync(FILES, { recursive: true });
        writeFileSync(file, actual);
        return;
      }
      assert.ok(existsSync(file), `${file.pathname} is missing: run with UPDATE_SQL=1 to write it`);
      assert.equal(
        actual,
        readFileSync(file, 'utf8'),
        `the SQL of ${spec.module}-repository.ts changed: UPDATE_SQL=1 rewrites the file; review its diff`,
      );
    });
  }

test('every repository, and every method of each, is called above', async () => {
  const modules = readdirSync(REPOSITORIES)
    .filter((name) => name.endsWith('-repository.ts'))
    .map((name) => name.replace(/-repository\.ts$/, ''))
    .sort();
  assert.deepEqual(REPOSITORIES_CALLED.map((spec) => spec.module).sort(), modules);
  const db = compileOnly<Database>('sqlite');
  for (const spec of REPOSITORIES_CALLED) {
    const methods = Object.keys(spec.make(db)).sort();
    const called = [...new Set(spec.calls.map((call) => call.name.split(' ')[0]))].sort();
    assert.deepEqual(called, methods, `${spec.module}-repository.ts: the methods called and those it has`);
    // A function of the module's own that runs SQL would escape the files: each export is the repository or plain.
    const exported = await import(new URL(`${spec.module}-repository.ts`, REPOSITORIES).href);
    const functions = Object.entries(exported)
      .filter(([, value]) => typeof value === 'function' && value !== spec.make)
      .map(([name]) => name)
      .sort();
    assert.deepEqual(functions, (spec.plainExports ?? []).sort(), `${spec.module}-repository.ts: its other exports`);
  }
});
