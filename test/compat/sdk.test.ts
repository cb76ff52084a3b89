/**
 * The provider's own SDK (`altsportsdata` 1.1.0) pointed at a running altsports server must work
 * unchanged (DESIGN, "Compatibility with existing clients"). These tests drive every SDK method that
 * the routes of this server answer, over real HTTP, on both stores, and assert the fixture's values.
 *
 * What the SDK sends (node_modules/altsportsdata/dist/index.mjs): `X-API-KEY`, `Content-Type:
 * application/json` even on GET, the league as `sportType`, statuses as indexed `eventStatus[0]`
 * (upper-cased through its alias table), `sortOrder` upper-cased. It unwraps `{ status, message,
 * data }` bodies and maps 401/404/400+422 to its error classes.
 *
 * The second block covers odds (route 6, through every alias of the SDK's market table), fair
 * probabilities, markets, settlement, polling and parlays (route 7, `{ "oddIds": [...] }`), over the
 * settled supercross main and fight card of test/helpers/odds-fixture.ts and a live field whose fair
 * markets the pricing engine generated (test/helpers/sdk-odds.ts), so that values can be checked
 * against known settlements and closed forms.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import {
  AltSportsData,
  AltSportsDataError,
  AuthenticationError,
  decimalToAmerican,
  NotFoundError,
  ValidationError,
} from 'altsportsdata';
import { ODD_TYPES } from '../../src/domain/enumerations.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { fixtureApp, TEST_KEY, WSL_ONLY_KEY } from '../helpers/app.ts';
import { close } from '../helpers/close.ts';
import { MASL_GAME, WSL_FUTURE, WSL_LIVE, WSL_PAST } from '../helpers/feed-fixture.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { BKFC_EVENT, resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import {
  FIELD,
  FIELD_UUID,
  FIELD_WIN,
  fairOdds,
  fieldOddsFeed,
  rider,
  sdkMarketAliases,
  secondPlaceProbability,
  wslHeatExactaFeed,
} from '../helpers/sdk-odds.ts';
import { describeEachStore, openTestStore, type StoreKind } from '../helpers/stores.ts';

const PIPE_PRO = `wsl:${WSL_PAST}`;
const BELLS = `wsl:${WSL_LIVE}`;
const MASL = `masl:${MASL_GAME}`;

interface Running {
  client: AltSportsData;
  baseUrl: string;
}

interface Server extends Running {
  close(): Promise<void>;
}

interface ServerConfig {
  env: Record<string, string>;
  /** Also load the results fixture (route 4 and 5 answers). */
  withResults: boolean;
  /** Then the odds fixtures (withOdds). */
  withOdds: boolean;
}

/** Builds the fixture app over a fresh store and listens on a free loopback port. */
async function startServer(kind: StoreKind, config: ServerConfig): Promise<Server> {
  const testStore = await openTestStore(kind);
  const { store } = testStore;
  const { app } = await fixtureApp(store, config.env);
  const stop = async () => {
    await app.close();
    await testStore.cleanup();
  };
  try {
    if (config.withResults) await ingestFeed(store, resultsFeed());
    if (config.withOdds)
      for (const feed of [oddsFeed(), fieldOddsFeed(), wslHeatExactaFeed(BELLS)]) await ingestFeed(store, feed);
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await stop();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const client = new AltSportsData({ apiKey: TEST_KEY, baseUrl, maxRetries: 0, timeout: 10_000 });
  return { client, baseUrl, close: stop };
}

type Servers = (config: ServerConfig) => Promise<Running>;

/**
 * The servers of a describe block, one per configuration, started on first use and closed after its
 * last test: every test only reads (SDK calls are GETs, and parlay pricing writes nothing).
 */
function sharedServers(kind: StoreKind): Servers {
  const started = new Map<string, Promise<Server>>();
  after(async () => {
    for (const server of started.values())
      await server.then(
        (running) => running.close(),
        () => {},
      );
  });
  return (config) => {
    const key = JSON.stringify(config);
    const server = started.get(key) ?? startServer(kind, config);
    started.set(key, server);
    return server;
  };
}

/** Runs `fn` against the fixture server of this configuration. */
async function withServer(
  servers: Servers,
  fn: (running: Running) => Promise<void>,
  env: Record<string, string> = {},
  withResults = false,
): Promise<void> {
  await fn(await servers({ env, withResults, withOdds: false }));
}

/** Asserts that `promise` rejects with an instance of `cls` carrying `statusCode`, and returns the error. */
async function rejectsWith<E extends AltSportsDataError>(
  promise: Promise<unknown>,
  cls: new (...args: never[]) => E,
  statusCode: number,
): Promise<E> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught, `expected a ${cls.name}, but the call succeeded`);
  assert.ok(
    caught instanceof cls,
    `expected a ${cls.name}, got ${(caught as Error).name}: ${(caught as Error).message}`,
  );
  assert.equal((caught as E).statusCode, statusCode);
  return caught as E;
}

const ids = (items: ReadonlyArray<{ id?: unknown }>) => items.map((item) => item.id);

describeEachStore('altsportsdata SDK 1.1.0 against the server', (_open, kind) => {
  const servers = sharedServers(kind);

  test("getLeagues lists every competition with the specification's names and the SDK's market menus", async () => {
    await withServer(servers, async ({ client }) => {
      const leagues = await client.getLeagues();
      assert.equal(leagues.length, 30);
      assert.deepEqual(
        leagues.slice(0, 4).map((l) => l.league),
        ['wsl', 'sls', 'spr', 'masl'],
      );

      const wsl = leagues.find((l) => l.league === 'wsl');
      assert.ok(wsl);
      assert.equal(wsl.name, 'World Surf League');
      assert.equal(wsl.archetype, 'heat_elimination');
      assert.equal(wsl.dataShape, 'bracket');
      // Every one of wsl's supportedMarkets is in the SDK's catalogue, sorted by category then name.
      assert.deepEqual(wsl.marketTypes, [
        'heat_winner',
        'matchup',
        'moneyline',
        'podium',
        'second_place',
        'show',
        'over_under',
        'props',
        'dream_team',
        'exacta',
        'heat_exacta',
      ]);
      assert.equal(wsl.marketCount, 11);
      assert.equal(wsl.markets, wsl.marketTypes.join(', '));

      // The specification wins over the SDK's own table: gsoc is curling, not "Goal Soccer".
      const gsoc = leagues.find((l) => l.league === 'gsoc');
      assert.equal(gsoc?.name, 'Grand Slam of Curling');
      // Keys the SDK does not know still come through, named by the server.
      const ifl = leagues.find((l) => l.league === 'ifl');
      assert.equal(ifl?.name, 'Indoor Football League');
      assert.equal(ifl?.archetype, null);
    });
  });

  test('getLeagues filters by archetype and by market (client side, over /sports)', async () => {
    await withServer(servers, async ({ client }) => {
      const heats = await client.getLeagues({ archetype: 'heat_elimination' });
      assert.deepEqual(
        heats.map((l) => l.league),
        ['wsl', 'sls', 'fdrift'],
      );
      const combat = await client.getLeagues({ archetype: 'combat' });
      assert.deepEqual(
        combat.map((l) => l.league),
        ['bkfc', 'byb', 'powerslap', 'lux', 'raf'],
      );
      const holeShot = await client.getLeagues({ market: 'hole_shot' });
      assert.deepEqual(
        holeShot.map((l) => l.league),
        ['spr', 'motocrs', 'sprmtcrs'],
      );
      const heatExacta = await client.getLeagues({ market: 'HEAT_EXACTA' });
      assert.deepEqual(
        heatExacta.map((l) => l.league),
        ['wsl', 'sls', 'xgame', 'spectation'],
      );
      assert.deepEqual(await client.getLeagues({ archetype: 'combat', market: 'moneyline' }), []);
    });
  });

  test('getLeagueInfo and listMarketTypes', async () => {
    await withServer(servers, async ({ client }) => {
      const info = await client.getLeagueInfo('WSL');
      assert.ok(info);
      assert.equal(info.league, 'wsl');
      assert.equal(info.name, 'World Surf League');
      assert.equal(info.archetype, 'heat_elimination');
      assert.equal(info.dataShape, 'bracket');
      assert.equal(info.marketCount, 11);
      assert.equal(info.markets[0], 'heat_winner');
      assert.deepEqual(
        info.marketDetails.find((d) => d.name === 'moneyline'),
        {
          name: 'moneyline',
          method: 'getMoneylines(eventId)',
          description: 'Who wins the event/race',
          category: 'core',
        },
      );
      assert.ok(info.contractHints?.contractTypes.includes('heat_winner'));

      const spr = await client.getLeagueInfo('spr');
      assert.equal(spr?.name, 'Supercross');
      assert.ok(spr?.markets.includes('hole_shot'));
      assert.equal(await client.getLeagueInfo('nope'), null);

      const types = await client.listMarketTypes();
      // Every odd type of the catalogue that the SDK knows; `teamMarkets` is unknown to it and skipped,
      // and no competition offers trifectas.
      assert.deepEqual(types.map((t) => t.name).sort(), [
        'dream_team',
        'exacta',
        'fastest_lap',
        'heat_exacta',
        'heat_winner',
        'hole_shot',
        'matchup',
        'moneyline',
        'multi_over_under',
        'over_under',
        'podium',
        'props',
        'second_place',
        'show',
        'top_10',
        'top_3',
        'top_5',
      ]);
      assert.equal(types[0]?.category, 'core');
      assert.equal(types.find((t) => t.name === 'moneyline')?.apiName, 'eventWinner');
    });
  });

  test('getEvents: everything, by league (sent as sportType), and sorted', async () => {
    await withServer(servers, async ({ client }) => {
      const all = await client.getEvents();
      assert.deepEqual(ids(all), [PIPE_PRO, MASL, BELLS]);
      const bells = all[2];
      assert.ok(bells);
      assert.equal(bells.name, 'Rip Curl Pro Bells Beach');
      assert.equal(bells.eventStatus, 'LIVE');
      assert.equal(bells.tourName, "Men's Championship Tour");
      assert.equal(bells.startDate, '2026-04-01T00:00:00.000Z');
      assert.equal(bells.eventLocation, 'Bells Beach');
      assert.equal(bells.eventLocationGroup, 'Australia');
      assert.equal(bells.eventNumber, 4);

      assert.deepEqual(ids(await client.getEvents({ league: 'wsl' })), [PIPE_PRO, BELLS]);
      assert.deepEqual(ids(await client.getEvents({ league: 'MASL' })), [MASL]);
      assert.deepEqual(await client.getEvents({ league: 'sls' }), []);

      assert.deepEqual(ids(await client.getEvents({ sort: 'desc' })), [BELLS, MASL, PIPE_PRO]);
      assert.deepEqual(ids(await client.getEvents({ sort: 'asc' })), [PIPE_PRO, MASL, BELLS]);
      assert.deepEqual(ids(await client.getEvents({ league: 'wsl', sort: 'desc' })), [BELLS, PIPE_PRO]);
    });
  });

  test('getEvents: status as a string and as an array (sent as eventStatus[0], eventStatus[1])', async () => {
    await withServer(servers, async ({ client }) => {
      const live = await client.getEvents({ status: 'live' });
      assert.deepEqual(ids(live), [BELLS]);
      assert.equal(live[0]?.eventStatus, 'LIVE');
      assert.deepEqual(ids(await client.getEvents({ status: 'COMPLETED' })), [PIPE_PRO]);
      assert.deepEqual(ids(await client.getEvents({ status: ['live', 'upcoming'] })), [MASL, BELLS]);
      assert.deepEqual(ids(await client.getEvents({ status: ['UPCOMING', 'completed', 'LIVE'] })), [
        PIPE_PRO,
        MASL,
        BELLS,
      ]);
      assert.deepEqual(await client.getEvents({ status: 'cancelled' }), []);
      assert.deepEqual(ids(await client.getEvents({ league: 'wsl', status: ['upcoming', 'completed'] })), [PIPE_PRO]);
    });
  });

  test('getEvents: startDate and endDate select events overlapping the range', async () => {
    await withServer(servers, async ({ client }) => {
      assert.deepEqual(ids(await client.getEvents({ startDate: '2026-02-15', endDate: '2026-03-15' })), [MASL]);
      assert.deepEqual(ids(await client.getEvents({ startDate: '2026-02-01' })), [PIPE_PRO, MASL, BELLS]);
      assert.deepEqual(ids(await client.getEvents({ startDate: '2026-03-02' })), [BELLS]);
      assert.deepEqual(ids(await client.getEvents({ endDate: '2026-03-01' })), [PIPE_PRO, MASL]);
      assert.deepEqual(ids(await client.getEvents({ endDate: '2026-02-28T23:59:59Z' })), [PIPE_PRO]);
      assert.deepEqual(ids(await client.getEvents({ startDate: '2026-04-05', endDate: '2026-04-06', league: 'wsl' })), [
        BELLS,
      ]);
      assert.deepEqual(await client.getEvents({ startDate: '2027-01-01' }), []);
    });
  });

  test('getEvent returns the event document with rounds, heats and teams', async () => {
    await withServer(servers, async ({ client }) => {
      const bells = await client.getEvent(BELLS);
      assert.equal(bells.id, BELLS);
      assert.equal(bells.name, 'Rip Curl Pro Bells Beach');
      assert.equal(bells.sportId, 'wsl');
      assert.equal(bells.tourId, 'wsl-ct-men');
      assert.equal(bells.eventStatus, 'LIVE');
      assert.equal(bells.seasonType, 'regular');
      assert.equal(bells.year, 2026);
      const rounds = bells.rounds as unknown as Array<{
        roundName: string;
        roundStatus: string;
        heats: Array<{ heatName: string; heatStatus: string }>;
      }>;
      assert.deepEqual(
        rounds.map((r) => [r.roundName, r.roundStatus, r.heats.map((h) => `${h.heatName}:${h.heatStatus}`)]),
        [
          ['Opening Round', 'COMPLETED', ['Heat 1:COMPLETED', 'Heat 2:COMPLETED']],
          ['Elimination Round', 'LIVE', ['Heat 1:LIVE']],
        ],
      );

      // A bare uuid is accepted too.
      const byUuid = await client.getEvent(WSL_LIVE);
      assert.equal(byUuid.id, BELLS);

      const game = await client.getEvent(MASL);
      assert.equal(game.name, 'San Diego Sockers vs Milwaukee Wave');
      assert.equal(game.eventStatus, 'UPCOMING');
      const teams = game.teams as unknown as Array<{
        id: string;
        name: string;
        shortName: string | null;
        isHomeTeam: boolean;
      }>;
      assert.deepEqual(
        teams.map((t) => [t.id, t.name, t.shortName, t.isHomeTeam]),
        [
          ['sockers', 'San Diego Sockers', 'SD', true],
          ['wave', 'Milwaukee Wave', 'MIL', false],
        ],
      );
      const scores = (game.rounds as unknown as Array<{ scores: Array<{ teamId: string; goals: number }> }>)[0]?.scores;
      assert.deepEqual(
        scores?.map((s) => [s.teamId, s.goals]),
        [
          ['sockers', 0],
          ['wave', 0],
        ],
      );
    });
  });

  test('getParticipants and getHeatScores read routes 4 and 5', async () => {
    await withServer(
      servers,
      async ({ client }) => {
        const participants = (await client.getParticipants(BELLS)) as unknown as Array<{
          seedNo: number;
          status: string;
          athlete: { lastName: string };
        }>;
        assert.deepEqual(
          participants.map((p) => [p.seedNo, p.status, p.athlete.lastName]),
          [
            [1, 'ACTIVE', 'Florence'],
            [2, 'ELIMINATED', 'Ferreira'],
          ],
        );
        const heat = await client.getHeatScores(BELLS, 'h-1');
        assert.deepEqual(
          heat.map((row) => [row.athlete?.lastName, row.athleteHeatScore, row.athleteRoundRank, row.athleteLapStatus]),
          [
            ['Ferreira', 15.5, 1, 'ACT'],
            ['Florence', 12.1, 2, 'ACT'],
          ],
        );
        const race = await client.getHeatScores(`spr:${SPR_EVENT}`, 'sx-h1');
        assert.deepEqual(
          race.map((row) => [row.athleteLapTime, row.totalLaps, row.athleteFastestLapNo]),
          [
            [47.8, 3, 2],
            [47.7, 3, 3],
            [48.5, 3, 2],
            [null, 3, null],
          ],
        );
        // The SDK's ValidationError always carries 422, whatever the 400 or 422 it maps.
        const teams = await rejectsWith(client.getParticipants(MASL), ValidationError, 422);
        assert.match(teams.message, /publishes teams/);
        await rejectsWith(client.getHeatScores(BELLS, 'no-such-heat'), NotFoundError, 404);
      },
      {},
      true,
    );
  });

  test('listFutures and getFutures(tour, type, league)', async () => {
    await withServer(servers, async ({ client }) => {
      const futures = await client.listFutures();
      assert.equal(futures.length, 1);
      const future = futures[0];
      assert.ok(future);
      assert.equal(future.id, `wsl:${WSL_FUTURE}`);
      assert.equal(future.type, 'winner');
      assert.equal(future.tourId, 'wsl-ct-men');
      assert.equal(future.tourName, "Men's Championship Tour");
      assert.equal(future.year, 2026);
      assert.equal(future.gender, 'men');
      assert.equal(future.isMarketOpen, true);
      assert.equal(future.tourYearId, 'wsl-ct-men-2026');

      const odds = await client.getFutures('wsl-ct-men', 'winner', 'WSL');
      assert.deepEqual(
        odds.map((o) => [o.name, o.publicId, o.futureType, o.odds]),
        [
          [
            'Italo Ferreira',
            `wsl:${WSL_FUTURE}`,
            'winner',
            [{ outcomeName: 'Yes', americanOdds: 250, decimalOdds: 3.5 }],
          ],
          [
            'John John Florence',
            `wsl:${WSL_FUTURE}`,
            'winner',
            [{ outcomeName: 'Yes', americanOdds: -150, decimalOdds: 1.6667 }],
          ],
        ],
      );
      // `type` defaults to winner.
      assert.equal((await client.getFutures('wsl-ct-men', undefined, 'wsl')).length, 2);
      await rejectsWith(client.getFutures('wsl-ct-men', 'top5', 'wsl'), NotFoundError, 404);
      await rejectsWith(client.getFutures('no-such-tour', 'winner', 'wsl'), NotFoundError, 404);
    });
  });

  test("a league-scoped client from getLeague('wsl')", async () => {
    await withServer(servers, async ({ client }) => {
      const wsl = client.getLeague('WSL');
      assert.equal(wsl.league, 'wsl');
      assert.equal(wsl.leagueName, 'World Surf League');
      assert.equal(wsl.dataShape, 'bracket');
      assert.deepEqual(ids(await wsl.getEvents()), [PIPE_PRO, BELLS]);
      assert.deepEqual(ids(await wsl.getEvents({ status: 'live' })), [BELLS]);
      assert.deepEqual(ids(await wsl.getEvents({ sort: 'desc' })), [BELLS, PIPE_PRO]);
      // An explicit league overrides the client's.
      assert.deepEqual(ids(await wsl.getEvents({ league: 'masl' })), [MASL]);
      const odds = await wsl.getFutures('wsl-ct-men');
      assert.deepEqual(
        odds.map((o) => o.name),
        ['Italo Ferreira', 'John John Florence'],
      );
      assert.equal((await wsl.getEvent(PIPE_PRO)).name, 'Pipe Pro');
    });
  });

  test("errors map to the SDK's classes", async () => {
    await withServer(servers, async ({ client, baseUrl }) => {
      const notFound = await rejectsWith(
        client.getEvent('wsl:00000000-0000-4000-8000-000000000000'),
        NotFoundError,
        404,
      );
      assert.match(notFound.message, /not found/i);
      // The id's competition must match the event's.
      await rejectsWith(client.getEvent(`masl:${WSL_LIVE}`), NotFoundError, 404);

      const badKey = new AltSportsData({ apiKey: 'not-a-real-key-0123456789', baseUrl, maxRetries: 0 });
      const auth = await rejectsWith(badKey.getEvents(), AuthenticationError, 401);
      assert.match(auth.message, /API key/i);
      await rejectsWith(badKey.getLeagues(), AuthenticationError, 401);
      await rejectsWith(badKey.getEvent(BELLS), AuthenticationError, 401);

      // A 400 becomes a ValidationError; the SDK's ValidationError always reports statusCode 422
      // (its constructor fixes it), whatever the HTTP status was.
      const invalid = await rejectsWith(client.getEvents({ status: 'bogus' as never }), ValidationError, 422);
      assert.match(invalid.message, /eventStatus/);
      await rejectsWith(client.getEvents({ startDate: 'yesterday' }), ValidationError, 422);
      await rejectsWith(client.getEvents({ league: 'nope' }), ValidationError, 422);

      // 403 (a key limited to wsl) has no class of its own: the base class with the status.
      const wslOnly = new AltSportsData({ apiKey: WSL_ONLY_KEY, baseUrl, maxRetries: 0 });
      const forbidden = await rejectsWith(wslOnly.getEvents({ league: 'masl' }), AltSportsDataError, 403);
      assert.match(forbidden.message, /masl/);
      assert.deepEqual(ids(await wslOnly.getEvents()), [PIPE_PRO, BELLS]);
      assert.deepEqual(
        (await wslOnly.getLeagues()).map((l) => l.league),
        ['wsl'],
      );
    });
  });

  test('RESPONSE_ENVELOPE=data: the SDK unwraps { status, message, data } to the same items', async () => {
    let plain: unknown[] = [];
    await withServer(servers, async ({ client }) => {
      plain = await client.getEvents({ league: 'wsl' });
    });
    await withServer(
      servers,
      async ({ client, baseUrl }) => {
        const raw = await fetch(`${baseUrl}/api/v1/public/events?sportType=wsl`, {
          headers: { 'x-api-key': TEST_KEY },
        });
        const body = (await raw.json()) as { status: number; message: string; data: unknown[] };
        assert.equal(body.status, 200);
        assert.equal(body.message, 'Success');
        assert.ok(Array.isArray(body.data));

        const wrapped = await client.getEvents({ league: 'wsl' });
        assert.deepEqual(ids(wrapped), [PIPE_PRO, BELLS]);
        assert.deepEqual(wrapped, plain);
        assert.equal((await client.getEvent(BELLS)).name, 'Rip Curl Pro Bells Beach');
        assert.equal((await client.getLeagues()).length, 30);
        assert.equal((await client.listFutures())[0]?.id, `wsl:${WSL_FUTURE}`);
        assert.equal((await client.getFutures('wsl-ct-men', 'winner', 'wsl')).length, 2);
        // Errors are never wrapped: the SDK still raises its classes.
        await rejectsWith(client.getEvent('wsl:00000000-0000-4000-8000-000000000000'), NotFoundError, 404);
      },
      { RESPONSE_ENVELOPE: 'data' },
    );
  });
});

// ─── Odds, settlement and parlays ───────────────────────────────────────────────────────────────

/** The settled supercross main (sx-a won, sx-b and sx-c tied 2nd) and the fight card of odds-fixture.ts. */
const SX = `spr:${SPR_EVENT}`;
const BKFC = `bkfc:${BKFC_EVENT}`;
const NO_EVENT = 'spr:00000000-0000-4000-8000-000000000000';

interface AthleteRef {
  id: string;
  firstName: string;
  lastName: string;
}

/** A route-6 outcome as the SDK hands it over (DESIGN decision 7). */
interface Odd {
  id: string;
  outcomeId: string;
  referenceId: number;
  odds: number;
  americanOdds: number;
  probability: number;
  status: string;
  settlement: string;
  deadHeatFactor: number;
  athlete?: AthleteRef | null;
  athletes?: AthleteRef[];
  participants?: AthleteRef[];
  name?: string | null;
  proposition?: string | null;
  betStatus?: string;
  side?: string;
  line?: number;
  overUnderSubMarketType?: string;
  exactasType?: number;
  heatId?: string | null;
  heatName?: string | null;
  roundName?: string | null;
  marketStatus?: string;
}

interface MatchupSide {
  id: string;
  outcomeId: string;
  odds: number;
  americanOdds: number;
  probability: number;
  status: string;
  settlement: string;
  athlete: AthleteRef | null;
}

interface Matchup {
  id: string;
  outcomeId: string;
  heatId: string | null;
  eventParticipant1: MatchupSide;
  eventParticipant2: MatchupSide;
  winnerParticipantId: string | null;
  betStatus: string;
}

/** Route 7's answer (DESIGN decision 8). */
interface Parlay {
  eventId: string;
  legs: Array<{ oddId: string; oddType: string; selection: string; probability: number; odds: number }>;
  probability: number;
  odds: number;
  americanOdds: number;
  combinedOdds: number;
  independentProbability: number;
  correlationFactor: number;
}

/** The outcomes of a route-6 document, checking that it is the document of `oddType`. */
function outcomesOf(doc: Record<string, unknown>, oddType: string): Odd[] {
  assert.equal(doc.oddType, oddType);
  const items = doc[oddType];
  assert.ok(Array.isArray(items), `no ${oddType} array`);
  return items as Odd[];
}

const matchupsOf = (doc: Record<string, unknown>) => outcomesOf(doc, 'headToHead') as unknown as Matchup[];
const lastName = (o: { athlete?: AthleteRef | null }) => o.athlete?.lastName ?? null;
const lastNames = (athletes: readonly AthleteRef[] | undefined) => (athletes ?? []).map((a) => a.lastName);
const total = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The server with every odds fixture: the settled main and fight card, the generated live field, a wsl heat exacta. */
async function withOdds(
  servers: Servers,
  fn: (running: Running) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  await fn(await servers({ env, withResults: true, withOdds: true }));
}

/** A public route read without the SDK, as any other client reads it. */
async function rawGet(baseUrl: string, path: string): Promise<unknown> {
  const response = await fetch(`${baseUrl}/api/v1/public${path}`, { headers: { 'x-api-key': TEST_KEY } });
  assert.equal(response.status, 200, path);
  return response.json();
}

describeEachStore('altsportsdata SDK 1.1.0: odds, settlement and parlays', (_open, kind) => {
  const servers = sharedServers(kind);

  test("getOdds: every alias of the SDK's MARKET_ALIASES reaches route 6 with its odd type", async () => {
    await withOdds(servers, async ({ client, baseUrl }) => {
      const aliases = sdkMarketAliases();
      assert.equal(Object.keys(aliases).length, 43);
      // Every odd type of the specification has an alias but teamMarkets, which the SDK does not know.
      assert.deepEqual(new Set(Object.values(aliases)), new Set(ODD_TYPES.filter((t) => t !== 'teamMarkets')));

      const served = new Map<string, Record<string, unknown>>();
      for (const [alias, oddType] of Object.entries(aliases)) {
        // Supercross offers every odd type of the table but heat exactas, which the wsl event has.
        for (const eventId of oddType === 'heatExacta' ? [BELLS] : [SX, FIELD]) {
          const doc = await client.getOdds(eventId, alias);
          assert.equal(doc.oddType, oddType, alias);
          assert.equal(doc.eventId, eventId, alias);
          const path = `/events/${eventId}/${oddType}`;
          if (!served.has(path)) served.set(path, (await rawGet(baseUrl, path)) as Record<string, unknown>);
          // Unchanged: exactly the document the route serves any other client.
          assert.deepEqual(doc, served.get(path), `${alias} of ${eventId}`);
        }
      }
      // Every odd type has priced outcomes in one of the events, so the comparisons above were not of empty lists.
      const priced = new Set(
        [...served.values()]
          .filter((doc) => (doc[doc.oddType as string] as unknown[]).length > 0)
          .map((doc) => doc.oddType),
      );
      assert.deepEqual(priced, new Set(Object.values(aliases)));

      // Aliases not found as given are looked up lower-cased.
      assert.equal((await client.getOdds(SX, 'MONEYLINE')).oddType, 'eventWinner');
      assert.equal((await client.getOdds(SX, 'H2H')).oddType, 'headToHead');
      assert.equal((await client.getOdds(SX, 'Hole_Shot')).oddType, 'holeShot');
    });
  });

  test('getMoneylines, getMarketProbabilities and getEventSummary: winner markets priced three ways', async () => {
    await withOdds(servers, async ({ client }) => {
      const doc = await client.getMoneylines(SX);
      assert.equal(doc.eventId, SX);
      assert.equal(doc.publicId, SX);
      assert.equal(typeof doc.numericEventId, 'number');
      const winner = outcomesOf(doc, 'eventWinner');
      // Fed as decimal 2.5, probability 40%, American +300 and American -120: published in all three.
      assert.deepEqual(
        winner.map((o) => [o.id, lastName(o), o.odds, o.americanOdds, o.probability, o.status, o.settlement]),
        [
          ['o-sx-win-a', 'Tomac', 2.5, 150, 40, 'CLOSED', 'WIN'],
          ['o-sx-win-b', 'Webb', 2.5, 150, 40, 'CLOSED', 'LOSE'],
          ['o-sx-win-c', 'Sexton', 4, 300, 25, 'CLOSED', 'LOSE'],
          // Stored as decimal 1.8333, published towards the house: -120 would pay 1.83333.
          ['o-sx-win-d', 'Anderson', 1.8333, -121, 54.5464, 'CLOSED', 'LOSE'],
        ],
      );
      for (const o of winner) assert.equal(o.outcomeId, String(o.referenceId));
      assert.deepEqual(await client.getMarketProbabilities(SX), doc);

      const live = outcomesOf(await client.getMoneylines(FIELD), 'eventWinner');
      assert.deepEqual(
        live.map((o) => o.id),
        FIELD_WIN.map((_, i) => `${FIELD_UUID}:eventWinner:rx-${i}`),
      );
      assert.deepEqual(
        live.map((o) => `${o.athlete?.firstName} ${o.athlete?.lastName}`),
        FIELD_WIN.map((_, i) => rider(i)),
      );
      // Fair prices: 1/p down to two decimals.
      assert.deepEqual(
        live.map((o) => o.odds),
        FIELD_WIN.map(fairOdds),
      );
      assert.ok(live.every((o) => o.status === 'OPEN' && o.settlement === 'NOT_SET'));

      // The summary's favourite is the shortest price.
      assert.deepEqual(await client.getEventSummary(SX), {
        eventName: 'Anaheim 1',
        league: 'spr',
        status: 'COMPLETED',
        startDate: '2026-05-01T00:00:00.000Z',
        favorite: { athlete: 'Jason Anderson', odds: 1.8333, probability: 0.5455 },
        fieldSize: 4,
        marketsAvailable: ['eventWinner'],
        marketCount: 1,
      });
      const liveSummary = await client.getEventSummary(FIELD);
      // The SDK's probability is 1 / odds: 3.33, rounded down from the fair 3.3333.
      assert.deepEqual(liveSummary.favorite, { athlete: rider(0), odds: 3.33, probability: 0.3003 });
      assert.equal(liveSummary.fieldSize, 12);
    });
  });

  test('position markets: second place with a dead heat, getPodiums, getShows, getTopFinishProbabilities(3, 5, 10)', async () => {
    await withOdds(servers, async ({ client }) => {
      // sx-b and sx-c tied 2nd: both win, each on half the stake.
      const second = outcomesOf(await client.getOdds(SX, 'second'), 'secondPlace');
      assert.deepEqual(
        second.map((o) => [o.id, lastName(o), o.odds, o.settlement, o.deadHeatFactor]),
        [
          ['o-sx-second-a', 'Tomac', 3, 'LOSE', 1],
          ['o-sx-second-b', 'Webb', 3, 'WIN', 0.5],
          ['o-sx-second-c', 'Sexton', 3, 'WIN', 0.5],
        ],
      );
      assert.deepEqual(await client.getOdds(SX, 'second_place'), await client.getOdds(SX, 'second'));

      const podiums = await client.getPodiums(SX);
      assert.deepEqual(
        outcomesOf(podiums, 'podiums').map((o) => [
          o.id,
          lastName(o),
          o.odds,
          o.americanOdds,
          o.probability,
          o.settlement,
        ]),
        [
          ['o-sx-podium-c', 'Sexton', 1.5, -200, 66.6667, 'WIN'],
          ['o-sx-podium-d', 'Anderson', 4, 300, 25, 'LOSE'],
        ],
      );
      assert.deepEqual(await client.getPodiumProbabilities(SX), podiums);
      // The main has no shows or top-k markets: empty lists, not errors.
      assert.deepEqual(outcomesOf(await client.getShows(SX), 'shows'), []);
      assert.deepEqual(outcomesOf(await client.getTopFinishProbabilities(SX, 3), 'raceTop3'), []);

      // The live field: second place at the Plackett-Luce closed form.
      const liveSecond = outcomesOf(await client.getOdds(FIELD, 'secondPlace'), 'secondPlace');
      assert.deepEqual(
        liveSecond.map((o) => o.odds),
        FIELD_WIN.map((_, i) => fairOdds(secondPlaceProbability(FIELD_WIN, i))),
      );

      const top = new Map<number, Odd[]>([
        [3, outcomesOf(await client.getTopFinishProbabilities(FIELD, 3), 'raceTop3')],
        [5, outcomesOf(await client.getTopFinishProbabilities(FIELD), 'raceTop5')],
        [10, outcomesOf(await client.getTopFinishProbabilities(FIELD, 10), 'raceTop10')],
      ]);
      for (const [k, outcomes] of top) {
        assert.deepEqual(
          outcomes.map((o) => o.id),
          FIELD_WIN.map((_, i) => `${FIELD_UUID}:raceTop${k}:rx-${i}`),
        );
        // Every finishing order puts k riders in the top k: fair probabilities add up to k. An outcome
        // likelier than the shortest odds (1.01) is published at them, at their probability:
        // counted as all but certain.
        close(
          total(outcomes.map((o) => (o.odds === 1.01 ? 100 : o.probability))),
          100 * k,
          0.5 + outcomes.filter((o) => o.odds === 1.01).length,
          `raceTop${k}`,
        );
      }
      FIELD_WIN.forEach((_, i) => {
        const [p3, p5, p10] = [3, 5, 10].map((k) => top.get(k)?.[i]?.probability ?? NaN) as [number, number, number];
        assert.ok(p3 < p5 && p5 < p10, `rider ${i}: top 3 ${p3}, top 5 ${p5}, top 10 ${p10}`);
      });
      assert.deepEqual(await client.getTopFinishProbabilities(FIELD, 5), await client.getTopFinishProbabilities(FIELD));

      // A podium is a top-3 finish: the same prices.
      const livePodiums = outcomesOf(await client.getPodiumProbabilities(FIELD), 'podiums');
      assert.deepEqual(
        livePodiums.map((o) => [o.athlete?.id, o.odds]),
        top.get(3)?.map((o) => [o.athlete?.id, o.odds]),
      );
      const shows = outcomesOf(await client.getShows(FIELD), 'shows');
      assert.deepEqual(
        shows.map((o) => o.athlete?.id),
        FIELD_WIN.map((_, i) => `rx-${i}`),
      );
      assert.ok(
        shows.every((o, i) => i === 0 || o.probability < (shows[i - 1]?.probability ?? 0)),
        'shows follow the favourites',
      );
    });
  });

  test('getMatchups, getPlayerMatchups and getFairMatchupProbabilities: head-to-heads whose sides are odds', async () => {
    await withOdds(servers, async ({ client }) => {
      const doc = await client.getMatchups(SX);
      const [matchup] = matchupsOf(doc);
      assert.ok(matchup);
      assert.equal(matchup.id, 'm-sx-h2h');
      // Tied for 2nd: the matchup is a push on both sides, with no winner.
      assert.deepEqual(
        [matchup.eventParticipant1, matchup.eventParticipant2].map((side) => [
          side.id,
          lastName(side),
          side.odds,
          side.americanOdds,
          side.probability,
          side.status,
          side.settlement,
        ]),
        [
          // Towards the house: -111 would pay 1.9009.
          ['o-sx-h2h-b', 'Webb', 1.9, -112, 52.6316, 'CLOSED', 'PUSH'],
          ['o-sx-h2h-c', 'Sexton', 1.9, -112, 52.6316, 'CLOSED', 'PUSH'],
        ],
      );
      assert.equal(matchup.winnerParticipantId, null);
      assert.equal(matchup.betStatus, 'CLOSED');
      assert.deepEqual(await client.getPlayerMatchups(SX), doc);
      assert.deepEqual(await client.getOdds(SX, 'head_to_head'), doc);

      // A fight's head-to-head, settled from the result: Perry won.
      const [fight] = matchupsOf(await client.getMatchups(BKFC));
      assert.ok(fight);
      assert.equal(fight.heatId, 'bk-h1');
      assert.deepEqual(
        [fight.eventParticipant1, fight.eventParticipant2].map((side) => [
          side.id,
          lastName(side),
          side.odds,
          side.settlement,
        ]),
        [
          ['o-bk-h2h-red', 'Perry', 1.5, 'WIN'],
          ['o-bk-h2h-blue', 'Rockhold', 2.6, 'LOSE'],
        ],
      );
      assert.equal(fight.winnerParticipantId, 'bk-red');

      // Per-pair devig by the SDK: 1.9 v 1.9 is an even pair with a 5.26% margin.
      assert.deepEqual(await client.getFairMatchupProbabilities(SX), [
        {
          player1: 'Cooper Webb',
          fairProb1: 0.5,
          odds1: 1.9,
          player2: 'Chase Sexton',
          fairProb2: 0.5,
          odds2: 1.9,
          margin: 5.26,
          matchupId: matchup.outcomeId,
        },
      ]);

      // The live field pairs neighbours in the market; fair, so no margin but the rounding of the odds
      // towards the house (at most a cent a side), and P(a ahead of b) = wa / (wa + wb).
      const live = matchupsOf(await client.getPlayerMatchups(FIELD));
      assert.deepEqual(
        live.map((m) => [m.eventParticipant1.athlete?.id, m.eventParticipant2.athlete?.id]),
        [0, 2, 4, 6, 8, 10].map((i) => [`rx-${i}`, `rx-${i + 1}`]),
      );
      for (const m of live) assert.match(m.eventParticipant1.id, new RegExp(`^${FIELD_UUID}:headToHead:\\w+:rx-\\d+$`));
      const fair = await client.getFairMatchupProbabilities(FIELD);
      assert.equal(fair.length, 6);
      fair.forEach((pair, k) => {
        const [a, b] = [FIELD_WIN[2 * k] as number, FIELD_WIN[2 * k + 1] as number];
        const m = live[k] as Matchup;
        assert.equal(pair.player1, rider(2 * k));
        assert.equal(pair.player2, rider(2 * k + 1));
        assert.equal(pair.matchupId, m.outcomeId);
        assert.equal(pair.odds1, m.eventParticipant1.odds);
        assert.equal(pair.odds2, m.eventParticipant2.odds);
        close(pair.fairProb1, a / (a + b), 0.01, `P(rx-${2 * k} ahead of rx-${2 * k + 1})`);
        close(pair.fairProb1 + pair.fairProb2, 1, 2e-6, 'a pair adds up to one');
        const cent = (odds: number) => 1 / (odds - 0.01) - 1 / odds;
        assert.ok(
          pair.margin >= 0 && pair.margin < 100 * (cent(pair.odds1) + cent(pair.odds2)) + 0.01,
          `${pair.margin}`,
        );
      });
    });
  });

  test('getTotals and getPlayerTotals: over/under lines, by sub-market', async () => {
    await withOdds(servers, async ({ client }) => {
      // Webb's finishing position against a line of 2: he finished 2nd (tied), a push.
      const totals = await client.getTotals(SX);
      assert.deepEqual(
        outcomesOf(totals, 'overUnder').map((o) => [
          o.id,
          lastName(o),
          o.overUnderSubMarketType,
          o.line,
          o.side,
          o.odds,
          o.settlement,
        ]),
        [
          ['o-sx-ou-over', 'Webb', 'finishingPosition', 2, 'OVER', 1.9, 'PUSH'],
          ['o-sx-ou-under', 'Webb', 'finishingPosition', 2, 'UNDER', 1.9, 'PUSH'],
        ],
      );
      // The sub-market goes out as overUnderSubMarketType.
      assert.deepEqual(await client.getTotals(SX, 'finishingPosition'), totals);
      assert.deepEqual(await client.getPlayerTotals(SX, 'finishingPosition'), totals);
      assert.deepEqual(await client.getPlayerTotals(SX), totals);
      assert.deepEqual(await client.getOdds(SX, 'ou', { subMarket: 'finishingPosition' }), totals);
      assert.deepEqual(outcomesOf(await client.getTotals(SX, 'points'), 'overUnder'), []);

      // The live field: the six favourites each get a line near an even chance, fair (OVER + UNDER = 100%).
      const live = outcomesOf(await client.getPlayerTotals(FIELD, 'finishingPosition'), 'overUnder');
      assert.deepEqual(
        live.map((o) => [o.athlete?.id, o.side]),
        [0, 1, 2, 3, 4, 5].flatMap((i) => [
          [`rx-${i}`, 'OVER'],
          [`rx-${i}`, 'UNDER'],
        ]),
      );
      for (let i = 0; i < live.length; i += 2) {
        const [over, under] = [live[i] as Odd, live[i + 1] as Odd];
        assert.equal(over.line, under.line);
        assert.equal((over.line ?? 0) % 1, 0.5);
        close(over.probability + under.probability, 100, 0.02, `line of ${over.athlete?.id}`);
      }
      assert.deepEqual(await client.getTotals(FIELD), await client.getPlayerTotals(FIELD, 'finishingPosition'));
      assert.deepEqual(outcomesOf(await client.getPlayerTotals(FIELD, 'points'), 'overUnder'), []);

      // Combined totals: the two favourites' positions added up.
      const multi = outcomesOf(await client.getOdds(FIELD, 'multi_ou'), 'multiOverUnder');
      assert.deepEqual(
        multi.map((o) => [o.side, o.athletes?.map((a) => a.id)]),
        [
          ['OVER', ['rx-0', 'rx-1']],
          ['UNDER', ['rx-0', 'rx-1']],
        ],
      );
      close(total(multi.map((o) => o.probability)), 100, 0.02, 'multiOverUnder');
    });
  });

  test('getHeatWinners, getFastestLap and hole shots: heat markets settled from laps and fights', async () => {
    await withOdds(servers, async ({ client }) => {
      assert.deepEqual(
        outcomesOf(await client.getHeatWinners(SX), 'heatWinner').map((o) => [
          o.id,
          lastName(o),
          o.roundName,
          o.heatName,
          o.marketStatus,
          o.settlement,
        ]),
        [
          ['o-sx-heat-a', 'Tomac', 'Main', 'Heat 1', 'CLOSE', 'WIN'],
          ['o-sx-heat-b', 'Webb', 'Main', 'Heat 1', 'CLOSE', 'LOSE'],
        ],
      );
      // Tomac's 47.7 was the fastest lap; Webb led out of the gate.
      assert.deepEqual(
        outcomesOf(await client.getFastestLap(SX), 'fastestLap').map((o) => [
          o.id,
          lastName(o),
          o.heatId,
          o.odds,
          o.settlement,
        ]),
        [
          ['o-sx-fast-a', 'Tomac', 'sx-h1', 2, 'WIN'],
          ['o-sx-fast-b', 'Webb', 'sx-h1', 2, 'LOSE'],
        ],
      );
      assert.deepEqual(
        outcomesOf(await client.getOdds(SX, 'hole_shot'), 'holeShot').map((o) => [o.id, lastName(o), o.settlement]),
        [
          ['o-sx-hole-a', 'Tomac', 'LOSE'],
          ['o-sx-hole-b', 'Webb', 'WIN'],
        ],
      );

      // The fight card: a KO, a draw (push), a no contest (void) and a suspended fight left unsettled.
      assert.deepEqual(
        outcomesOf(await client.getHeatWinners(BKFC), 'heatWinner').map((o) => [
          o.id,
          o.heatId,
          lastName(o),
          o.marketStatus,
          o.settlement,
        ]),
        [
          ['o-bk1-red', 'bk-h1', 'Perry', 'CLOSE', 'WIN'],
          ['o-bk1-blue', 'bk-h1', 'Rockhold', 'CLOSE', 'LOSE'],
          ['o-bk2-green', 'bk-h2', 'Alvarez', 'CLOSE', 'PUSH'],
          ['o-bk3-red', 'bk-h3', 'Perry', 'VOID', 'VOID'],
          ['o-bk4-blue', 'bk-h4', 'Rockhold', 'CLOSE', 'NOT_SET'],
          ['o-bk4-gold', 'bk-h4', 'Mendes', 'CLOSE', 'NOT_SET'],
        ],
      );

      // The live field's main: the same riders at the event's prices, open.
      const heat = outcomesOf(await client.getHeatWinners(FIELD), 'heatWinner');
      assert.deepEqual(
        heat.map((o) => [o.athlete?.id, o.odds, o.heatId, o.marketStatus, o.status]),
        FIELD_WIN.map((p, i) => [`rx-${i}`, fairOdds(p), 'rx-main', 'OPEN', 'OPEN']),
      );
      const fastest = outcomesOf(await client.getFastestLap(FIELD), 'fastestLap');
      close(total(fastest.map((o) => o.probability)), 100, 0.02, 'fastestLap');
    });
  });

  test('getExactas(n = 2, 3, 4) and getOdds with exactasType: exactas, trifectas, superfectas, heat exactas', async () => {
    await withOdds(servers, async ({ client }) => {
      const summary = (outcomes: Odd[]) =>
        outcomes.map((o) => [o.id, o.exactasType, lastNames(o.participants), o.odds, o.settlement]);
      // Tomac then Webb: Webb shared 2nd with Sexton, so the exacta wins on half the stake.
      const exactas = outcomesOf(await client.getExactas(SX), 'eventExacta');
      assert.deepEqual(summary(exactas), [
        ['o-sx-exacta-ab', 2, ['Tomac', 'Webb'], 6, 'WIN'],
        ['o-sx-exacta-ba', 2, ['Webb', 'Tomac'], 7, 'LOSE'],
      ]);
      assert.equal(exactas[0]?.deadHeatFactor, 0.5);
      assert.deepEqual(await client.getExactas(SX, 2), await client.getExactas(SX));
      assert.deepEqual(summary(outcomesOf(await client.getExactas(SX, 3), 'eventExacta')), [
        ['o-sx-trifecta-abc', 3, ['Tomac', 'Webb', 'Sexton'], 20, 'WIN'],
      ]);
      assert.deepEqual(outcomesOf(await client.getExactas(SX, 4), 'eventExacta'), []);
      // Without exactasType, every exacta market of the event.
      assert.deepEqual(
        outcomesOf(await client.getOdds(SX, 'exactas'), 'eventExacta').map((o) => o.id),
        ['o-sx-exacta-ab', 'o-sx-exacta-ba', 'o-sx-trifecta-abc'],
      );
      assert.deepEqual(await client.getOdds(SX, 'exacta', { exactasType: 3 }), await client.getExactas(SX, 3));

      // The live field: the likeliest sequences, at about their Plackett-Luce probabilities.
      const [w0, w1, w2] = FIELD_WIN as [number, number, number];
      const expected = new Map([
        [2, { count: 12, first: ['rx-0', 'rx-1'], probability: ((w0 * w1) / (1 - w0)) * 100 }],
        [
          3,
          {
            count: 12,
            first: ['rx-0', 'rx-1', 'rx-2'],
            probability: ((w0 * w1 * w2) / ((1 - w0) * (1 - w0 - w1))) * 100,
          },
        ],
        [4, { count: 8, first: null, probability: null }],
      ]);
      for (const [n, { count, first, probability }] of expected) {
        const outcomes = outcomesOf(await client.getExactas(FIELD, n), 'eventExacta');
        assert.equal(outcomes.length, count, `exactasType ${n}`);
        for (const o of outcomes) {
          assert.equal(o.exactasType, n);
          assert.equal(new Set(o.participants?.map((a) => a.id)).size, n);
          assert.equal(o.status, 'OPEN');
        }
        if (first && probability) {
          const likeliest = outcomes.find((o) => o.participants?.map((a) => a.id).join() === first.join());
          assert.ok(likeliest, `${first.join(', ')} is offered`);
          close(likeliest.probability, probability, 0.6, `${first.join(', ')} in that order`);
        }
      }

      // Heat exactas through the heat_exacta alias: Ferreira beat Florence in Heat 1.
      const heat = outcomesOf(await client.getOdds(BELLS, 'heat_exacta'), 'heatExacta');
      assert.deepEqual(
        heat.map((o) => [
          o.id,
          o.roundName,
          o.heatName,
          lastNames(o.participants),
          o.odds,
          o.marketStatus,
          o.settlement,
        ]),
        [
          ['o-wsl-hx-fer-flo', 'Opening Round', 'Heat 1', ['Ferreira', 'Florence'], 2.2, 'CLOSE', 'WIN'],
          ['o-wsl-hx-flo-fer', 'Opening Round', 'Heat 1', ['Florence', 'Ferreira'], 1.7, 'CLOSE', 'LOSE'],
        ],
      );
      assert.deepEqual(outcomesOf(await client.getOdds(BELLS, 'heat_exacta', { exactasType: 3 }), 'heatExacta'), []);
    });
  });

  test('getPlayerProps and getDreamTeam', async () => {
    await withOdds(servers, async ({ client }) => {
      const props = outcomesOf(await client.getPlayerProps(SX), 'propBets');
      assert.deepEqual(
        props.map((o) => [o.id, o.proposition, o.name, o.odds, o.betStatus, o.settlement, o.athlete]),
        [
          ['o-sx-prop-yes', 'Will a rider crash on lap 1?', 'Yes', 3, 'CLOSED', 'WIN', null],
          ['o-sx-prop-no', 'Will a rider crash on lap 1?', 'No', 1.3, 'CLOSED', 'LOSE', null],
        ],
      );
      assert.deepEqual(await client.getOdds(SX, 'player_props'), await client.getPlayerProps(SX));

      // Team A (Tomac 1st + Webb 2nd) has the lowest total of places.
      assert.deepEqual(
        outcomesOf(await client.getDreamTeam(SX), 'dreamTeam').map((o) => [
          o.id,
          o.name,
          lastNames(o.participants),
          o.odds,
          o.settlement,
        ]),
        [
          ['o-sx-team-ab', 'Team A', ['Tomac', 'Webb'], 1.8, 'WIN'],
          ['o-sx-team-cd', 'Team C', ['Sexton', 'Anderson'], 1.8, 'LOSE'],
        ],
      );

      // The live field: three balanced pairs, fair; the favourite's podium prop at its top-3 price.
      const teams = outcomesOf(await client.getDreamTeam(FIELD), 'dreamTeam');
      assert.deepEqual(
        teams.map((o) => [o.name, o.participants?.map((a) => a.id)]),
        [
          ['Team 1', ['rx-0', 'rx-5']],
          ['Team 2', ['rx-1', 'rx-4']],
          ['Team 3', ['rx-2', 'rx-3']],
        ],
      );
      close(total(teams.map((o) => o.probability)), 100, 0.02, 'dreamTeam');
      const [yes, no] = outcomesOf(await client.getPlayerProps(FIELD), 'propBets');
      assert.equal(yes?.proposition, 'Will the favourite finish in the top 3?');
      assert.deepEqual([yes?.name, no?.name, yes?.athlete?.id], ['Yes', 'No', 'rx-0']);
      assert.equal(yes?.odds, outcomesOf(await client.getTopFinishProbabilities(FIELD, 3), 'raceTop3')[0]?.odds);
      close((yes?.probability ?? 0) + (no?.probability ?? 0), 100, 0.02, 'propBets');
    });
  });

  test('getFairProbabilities: vig removed from the default market and from others', async () => {
    await withOdds(servers, async ({ client }) => {
      // The live field is fair already: the SDK finds no margin and the win probabilities come back.
      const fair = await client.getFairProbabilities(FIELD);
      const winner = outcomesOf(await client.getMoneylines(FIELD), 'eventWinner');
      assert.deepEqual(
        fair.map((f) => f.athlete),
        FIELD_WIN.map((_, i) => rider(i)),
      );
      fair.forEach((f, i) => {
        const o = winner[i] as Odd;
        assert.equal(f.outcomeId, o.outcomeId);
        assert.equal(f.rawOdds, o.odds);
        assert.equal(f.status, 'OPEN');
        // Fair, but rounded down to two decimals: a margin of rounding alone, under 0.1%.
        assert.ok(f.margin >= 0 && f.margin < 0.1, `margin ${f.margin}`);
        close(f.fairProbability, FIELD_WIN[i] as number, 5e-4, rider(i));
      });
      assert.deepEqual(await client.getFairProbabilities(FIELD, 'moneyline'), fair);

      // The settled main was fed with a 59.55% overround; the shortest price comes first.
      const settled = await client.getFairProbabilities(SX);
      const implied = [2.5, 2.5, 4, 1.8333].map((odds) => 1 / odds);
      const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
      assert.deepEqual(
        settled.map((f) => [f.athlete, f.rawOdds, f.fairProbability, f.margin, f.status]),
        [
          ['Jason Anderson', 1.8333, round6((implied[3] as number) / total(implied)), 59.55, 'CLOSED'],
          ['Eli Tomac', 2.5, round6(0.4 / total(implied)), 59.55, 'CLOSED'],
          ['Cooper Webb', 2.5, round6(0.4 / total(implied)), 59.55, 'CLOSED'],
          ['Chase Sexton', 4, round6(0.25 / total(implied)), 59.55, 'CLOSED'],
        ],
      );

      // Other markets by alias: second place at the closed form, fastest laps even.
      const second = await client.getFairProbabilities(FIELD, 'second');
      assert.equal(second.length, 12);
      for (const f of second) {
        const i = Number(/(\d+)$/.exec(f.athlete)?.[1]);
        close(f.fairProbability, secondPlaceProbability(FIELD_WIN, i), 5e-4, `${f.athlete} 2nd`);
        // Only the rounding of the odds towards the house.
        assert.ok(f.margin >= 0 && f.margin < 0.1, `margin ${f.margin}`);
      }
      assert.deepEqual(
        (await client.getFairProbabilities(SX, 'fastest_lap')).map((f) => [f.athlete, f.fairProbability, f.margin]),
        [
          ['Eli Tomac', 0.5, 0],
          ['Cooper Webb', 0.5, 0],
        ],
      );
      // Head-to-head prices sit on the sides, which getFairProbabilities does not read: see getFairMatchupProbabilities.
      assert.deepEqual(await client.getFairProbabilities(SX, 'h2h'), []);
    });
  });

  test('getOddsBatch: one market of several events, a failed event kept as its error', async () => {
    await withOdds(servers, async ({ client }) => {
      const batch = await client.getOddsBatch([SX, FIELD, BKFC, NO_EVENT], 'moneyline', 2);
      assert.deepEqual(Object.keys(batch).sort(), [BKFC, NO_EVENT, FIELD, SX].sort());
      assert.deepEqual(
        outcomesOf(batch[SX] ?? {}, 'eventWinner').map((o) => o.id),
        ['o-sx-win-a', 'o-sx-win-b', 'o-sx-win-c', 'o-sx-win-d'],
      );
      assert.deepEqual(
        outcomesOf(batch[FIELD] ?? {}, 'eventWinner').map((o) => o.odds),
        FIELD_WIN.map(fairOdds),
      );
      // A fight card has no winner market; an unknown event is not found.
      assert.match(String(batch[BKFC]?.error), /^NotFoundError: .*does not offer eventWinner odds/);
      assert.match(String(batch[NO_EVENT]?.error), /^NotFoundError: Event ".*" not found/);
      // The market defaults to the winner market.
      assert.deepEqual(await client.getOddsBatch([SX]), { [SX]: await client.getMoneylines(SX) });
      assert.deepEqual(
        outcomesOf((await client.getOddsBatch([BKFC], 'heat_winner'))[BKFC] ?? {}, 'heatWinner').map((o) => o.id),
        ['o-bk1-red', 'o-bk1-blue', 'o-bk2-green', 'o-bk3-red', 'o-bk4-blue', 'o-bk4-gold'],
      );
    });
  });

  test('getMarkets: priced markets across leagues, by market, with and without a league on the client', async () => {
    await withOdds(servers, async ({ client }) => {
      // By market over every league offering it (the settled main, then the live field).
      const moneylines = await client.getMarkets({ market: 'moneyline', status: ['live', 'completed'] });
      assert.deepEqual(
        moneylines.map((m) => [m.eventId, m.eventName, m.league, m.status, m.startDate, m.marketType, m.count]),
        [
          [SX, 'Anaheim 1', 'spr', 'COMPLETED', '2026-05-01T00:00:00.000Z', 'eventWinner', 4],
          [FIELD, 'rx main', 'spr', 'LIVE', '2026-06-01T00:00:00.000Z', 'eventWinner', 12],
        ],
      );
      const sxWinner = outcomesOf(await client.getMoneylines(SX), 'eventWinner');
      const outcomeIdOf = (id: string) => sxWinner.find((o) => o.id === id)?.outcomeId;
      // Outcomes shortest price first, with their settlements.
      assert.deepEqual(moneylines[0]?.outcomes, [
        {
          athlete: 'Jason Anderson',
          odds: 1.8333,
          probability: 54.5464,
          outcomeId: outcomeIdOf('o-sx-win-d'),
          status: 'CLOSED',
          settlement: 'LOSE',
        },
        {
          athlete: 'Eli Tomac',
          odds: 2.5,
          probability: 40,
          outcomeId: outcomeIdOf('o-sx-win-a'),
          status: 'CLOSED',
          settlement: 'WIN',
        },
        {
          athlete: 'Cooper Webb',
          odds: 2.5,
          probability: 40,
          outcomeId: outcomeIdOf('o-sx-win-b'),
          status: 'CLOSED',
          settlement: 'LOSE',
        },
        {
          athlete: 'Chase Sexton',
          odds: 4,
          probability: 25,
          outcomeId: outcomeIdOf('o-sx-win-c'),
          status: 'CLOSED',
          settlement: 'LOSE',
        },
      ]);
      assert.deepEqual(
        moneylines[1]?.outcomes?.map((o) => [o.athlete, o.odds, o.status, o.settlement]),
        FIELD_WIN.map((p, i) => [rider(i), fairOdds(p), 'OPEN', 'NOT_SET']),
      );
      // The SDK asks for upcoming events by default: only the arena soccer game is, and it has no prices.
      assert.deepEqual(await client.getMarkets({ market: 'moneyline' }), []);

      // Every market of a league's events, with the league set on the client.
      const spr = client.getLeague('spr');
      const [main, ...others] = await spr.getMarkets({ status: 'completed' });
      assert.deepEqual(others, []);
      assert.ok(main);
      assert.equal(main.eventId, SX);
      assert.deepEqual(
        main.outcomes?.map((o) => [o.athlete, o.odds]),
        [
          ['Jason Anderson', 1.8333],
          ['Eli Tomac', 2.5],
          ['Cooper Webb', 2.5],
          ['Chase Sexton', 4],
        ],
      );
      const h2h = matchupsOf(await client.getMatchups(SX))[0];
      assert.deepEqual(main.matchups, [
        { player1: 'Cooper Webb', odds1: 1.9, player2: 'Chase Sexton', odds2: 1.9, matchupId: h2h?.outcomeId },
      ]);
      assert.deepEqual(main.podiums, [
        { athlete: 'Chase Sexton', odds: 1.5, probability: 66.6667, outcomeId: undefined, status: undefined },
        { athlete: 'Jason Anderson', odds: 4, probability: 25, outcomeId: undefined, status: undefined },
      ]);
      assert.deepEqual(
        main.heatWinners?.map((o) => [o.athlete, o.odds]),
        [
          ['Eli Tomac', 2],
          ['Cooper Webb', 2],
        ],
      );
      assert.deepEqual(main.marketsAvailable, ['eventWinner', 'headToHead', 'podiums', 'heatWinner']);
      assert.equal(main.marketCount, 4);
      const live = await spr.getMarkets({ status: 'live' });
      assert.deepEqual(
        live.map((m) => [
          m.eventId,
          m.marketCount,
          m.outcomes?.length,
          m.matchups?.length,
          m.podiums?.length,
          m.heatWinners?.length,
        ]),
        [[FIELD, 4, 12, 6, 12, 12]],
      );

      // A league and a market: the fight card's heat winners, shortest price first.
      const fights = await client.getLeague('bkfc').getMarkets({ market: 'heat_winner', status: 'completed' });
      assert.deepEqual(
        fights.map((m) => [m.eventId, m.eventName, m.league, m.marketType, m.count]),
        [[BKFC, 'BKFC 70', 'bkfc', 'heatWinner', 6]],
      );
      assert.deepEqual(
        fights[0]?.outcomes?.map((o) => [o.athlete, o.odds, o.settlement]),
        [
          ['Mike Perry', 1.5, 'WIN'],
          ['Eddie Alvarez', 1.9, 'PUSH'],
          ['Mike Perry', 1.9, 'VOID'],
          ['Luke Rockhold', 1.9, 'NOT_SET'],
          ['Chad Mendes', 1.9, 'NOT_SET'],
          ['Luke Rockhold', 2.6, 'LOSE'],
        ],
      );
      // By archetype and market, without a league: the combat leagues' matchups.
      const combat = await client.getMarkets({ archetype: 'combat', market: 'matchup', status: 'completed' });
      assert.deepEqual(
        combat.map((m) => [m.eventId, m.marketType, m.matchups?.map((x) => [x.player1, x.odds1, x.player2, x.odds2])]),
        [[BKFC, 'headToHead', [['Mike Perry', 1.5, 'Luke Rockhold', 2.6]]]],
      );
    });
  });

  test('getSettlement: the settled main and the fight card, market by market', async () => {
    await withOdds(servers, async ({ client }) => {
      const report = await client.getSettlement(SX);
      assert.equal(report.eventId, SX);
      assert.equal(report.eventName, 'Anaheim 1');
      assert.equal(report.status, 'COMPLETED');
      assert.equal(report.startDate, '2026-05-01T00:00:00.000Z');
      assert.equal(report.endDate, '2026-05-01T06:00:00.000Z');
      assert.equal(report.settledAt, '2026-05-01T06:00:00.000Z');
      // The SDK extracts winner-style markets and head-to-heads; the rest (and the 404 of heatExacta) are skipped.
      assert.deepEqual(Object.keys(report.markets), [
        'eventWinner',
        'secondPlace',
        'headToHead',
        'fastestLap',
        'podiums',
      ]);
      assert.equal(report.marketsSettled, 5);

      type Extracted = {
        outcomes: Array<Record<string, unknown>>;
        winners: Array<{ athlete: string; outcomeId: string; settlement: string }>;
        totalOutcomes: number;
      };
      const market = (name: string) => report.markets[name] as Extracted;
      const winners = (name: string) => market(name).winners.map((w) => [w.athlete, w.settlement]);
      assert.deepEqual(winners('eventWinner'), [['Eli Tomac', 'WIN']]);
      assert.equal(market('eventWinner').totalOutcomes, 4);
      assert.deepEqual(
        market('eventWinner').outcomes.map((o) => [o.athlete, o.odds, o.probability, o.settlement, o.status]),
        [
          ['Eli Tomac', 2.5, 40, 'WIN', 'CLOSED'],
          ['Cooper Webb', 2.5, 40, 'LOSE', 'CLOSED'],
          ['Chase Sexton', 4, 25, 'LOSE', 'CLOSED'],
          ['Jason Anderson', 1.8333, 54.5464, 'LOSE', 'CLOSED'],
        ],
      );
      // The dead heat for 2nd: two winners.
      assert.deepEqual(winners('secondPlace'), [
        ['Cooper Webb', 'WIN'],
        ['Chase Sexton', 'WIN'],
      ]);
      assert.deepEqual(winners('podiums'), [['Chase Sexton', 'WIN']]);
      assert.deepEqual(winners('fastestLap'), [['Eli Tomac', 'WIN']]);
      assert.deepEqual(report.markets.headToHead, {
        matchups: [
          {
            player1: 'Cooper Webb',
            player1Odds: 1.9,
            player1Settlement: 'PUSH',
            player2: 'Chase Sexton',
            player2Odds: 1.9,
            player2Settlement: 'PUSH',
            winnerId: null,
          },
        ],
        totalMatchups: 1,
      });

      // Chosen markets only; one the competition does not offer is left out.
      const chosen = await client.getSettlement(SX, ['eventWinner', 'fastestLap', 'heatExacta']);
      assert.deepEqual(Object.keys(chosen.markets), ['eventWinner', 'fastestLap']);
      assert.equal(chosen.marketsSettled, 2);

      // The fight card settles its head-to-head from the result.
      const card = await client.getSettlement(BKFC);
      assert.equal(card.eventName, 'BKFC 70');
      assert.deepEqual(card.markets, {
        headToHead: {
          matchups: [
            {
              player1: 'Mike Perry',
              player1Odds: 1.5,
              player1Settlement: 'WIN',
              player2: 'Luke Rockhold',
              player2Odds: 2.6,
              player2Settlement: 'LOSE',
              winnerId: 'bk-red',
            },
          ],
          totalMatchups: 1,
        },
      });
      assert.equal(card.marketsSettled, 1);

      // A live event: nothing settled yet, no winners.
      const live = await client.getSettlement(FIELD, ['eventWinner']);
      const unsettled = live.markets.eventWinner as Extracted;
      assert.deepEqual(unsettled.winners, []);
      assert.ok(unsettled.outcomes.every((o) => o.settlement === 'NOT_SET'));

      await rejectsWith(client.getSettlement(NO_EVENT), NotFoundError, 404);
    });
  });

  test('pollOdds: maxPolls snapshots at the interval, an error yielded rather than thrown', async () => {
    await withOdds(servers, async ({ client }) => {
      const snapshots: Array<Record<string, unknown>> = [];
      for await (const snapshot of client.pollOdds(FIELD, 'moneyline', { maxPolls: 2, interval: 0.01 }))
        snapshots.push(snapshot);
      assert.deepEqual(
        snapshots.map((s) => s._pollNumber),
        [0, 1],
      );
      const current = await client.getMoneylines(FIELD);
      for (const { _polledAt, _pollNumber, ...odds } of snapshots) {
        assert.ok(!Number.isNaN(Date.parse(String(_polledAt))));
        assert.deepEqual(odds, current);
      }
      // The default market is the winner market.
      const [first] = await collect(client.pollOdds(SX, undefined, { maxPolls: 1 }));
      assert.deepEqual(
        outcomesOf(first ?? {}, 'eventWinner').map((o) => o.settlement),
        ['WIN', 'LOSE', 'LOSE', 'LOSE'],
      );

      const failed = await collect(client.pollOdds(BKFC, 'moneyline', { maxPolls: 2, interval: 0.01 }));
      assert.deepEqual(
        failed.map((s) => s._pollNumber),
        [0, 1],
      );
      for (const s of failed) assert.match(String(s._error), /^NotFoundError: .*does not offer eventWinner odds/);
    });
  });

  test('calculateParlay: eventWinner A with secondPlace B against the Plackett-Luce closed form', async () => {
    await withOdds(servers, async ({ client }) => {
      // Ids read from route 6, as a client would.
      const win = outcomesOf(await client.getMoneylines(FIELD), 'eventWinner');
      const second = outcomesOf(await client.getOdds(FIELD, 'second'), 'secondPlace');
      const [a, b] = [win[0] as Odd, second[1] as Odd];
      assert.deepEqual([a.athlete?.id, b.athlete?.id], ['rx-0', 'rx-1']);

      const parlay = (await client.calculateParlay(FIELD, [a.id, b.id])) as unknown as Parlay;
      assert.equal(parlay.eventId, FIELD);
      assert.deepEqual(parlay.legs, [
        {
          oddId: a.id,
          oddType: 'eventWinner',
          selection: `${rider(0)} to win the event`,
          probability: a.probability,
          odds: a.odds,
        },
        {
          oddId: b.id,
          oddType: 'secondPlace',
          selection: `${rider(1)} to finish 2nd`,
          probability: b.probability,
          odds: b.odds,
        },
      ]);
      // P(A 1st and B 2nd) = pA * pB / (1 - pA) under Plackett-Luce, in percent.
      const [pA, pB] = [FIELD_WIN[0] as number, FIELD_WIN[1] as number];
      close(parlay.probability, ((pA * pB) / (1 - pA)) * 100, 0.25, 'joint probability');
      assert.equal(parlay.combinedOdds, parlay.odds);
      close(parlay.odds, 100 / parlay.probability, 0.01, 'odds = 1 / probability');
      assert.equal(parlay.americanOdds, Math.round((parlay.odds - 1) * 100));
      close(parlay.independentProbability, (a.probability * b.probability) / 100, 1e-3, 'independent probability');
      close(parlay.correlationFactor, parlay.probability / parlay.independentProbability, 1e-3, 'correlation factor');
      // B second is likelier once A has won: the legs are positively correlated.
      close(
        parlay.correlationFactor,
        1 / (1 - pA) / (secondPlaceProbability(FIELD_WIN, 1) / pB),
        0.03,
        'closed-form correlation',
      );

      // outcomeIds are accepted as well, for the same price.
      assert.deepEqual(await client.calculateParlay(FIELD, [a.outcomeId, b.outcomeId]), parlay);

      // A head-to-head side is an odd too: A winning implies A ahead of the next favourite.
      const [pair] = matchupsOf(await client.getMatchups(FIELD));
      assert.ok(pair);
      const ahead = pair.eventParticipant1;
      assert.equal(ahead.athlete?.id, 'rx-0');
      const implied = (await client.calculateParlay(FIELD, [a.id, ahead.id])) as unknown as Parlay;
      assert.deepEqual(
        implied.legs.map((leg) => [leg.oddId, leg.oddType, leg.selection]),
        [
          [a.id, 'eventWinner', `${rider(0)} to win the event`],
          [ahead.id, 'headToHead', `${rider(0)} to beat ${rider(1)}`],
        ],
      );
      close(implied.probability, pA * 100, 0.5, 'winning implies finishing ahead');
      close(implied.correlationFactor, (pA + pB) / pA, 0.03, 'correlation 1 / P(A ahead of B)');
    });
  });

  test('calculateParlay errors: contradictory legs, foreign or closed odds, unknown events', async () => {
    await withOdds(servers, async ({ client }) => {
      const [a, b] = outcomesOf(await client.getMoneylines(FIELD), 'eventWinner') as [Odd, Odd];
      // Two winners of one race cannot both win: 422, which the SDK reports as a ValidationError.
      const contradictory = await rejectsWith(client.calculateParlay(FIELD, [a.id, b.id]), ValidationError, 422);
      assert.match(contradictory.message, /are outcomes of one single-winner market/);
      assert.ok(contradictory.message.includes(a.id) && contradictory.message.includes(b.id), contradictory.message);

      const notFound = await rejectsWith(client.calculateParlay(NO_EVENT, [a.id, b.id]), NotFoundError, 404);
      assert.match(notFound.message, /not found/);

      assert.match(
        (await rejectsWith(client.calculateParlay(FIELD, [a.id, 'o-sx-win-a']), ValidationError, 422)).message,
        /"o-sx-win-a" belongs to another event/,
      );
      assert.match(
        (await rejectsWith(client.calculateParlay(FIELD, [a.id, 'no-such-odd']), ValidationError, 422)).message,
        /"no-such-odd" does not exist/,
      );
      assert.match(
        (await rejectsWith(client.calculateParlay(FIELD, [a.id]), ValidationError, 422)).message,
        /at least two legs/,
      );
      // The settled main's odds are closed.
      assert.match(
        (await rejectsWith(client.calculateParlay(SX, ['o-sx-win-a', 'o-sx-second-b']), ValidationError, 422)).message,
        /not open/,
      );
      // Team games have no parlays: a 400, which the SDK maps to the same class.
      assert.match(
        (await rejectsWith(client.calculateParlay(MASL, ['x', 'y']), ValidationError, 422)).message,
        /not offered/,
      );
    });
  });

  test('odds errors: an odd type the competition does not offer is a NotFoundError', async () => {
    await withOdds(servers, async ({ client }) => {
      const fight = await rejectsWith(client.getMoneylines(BKFC), NotFoundError, 404);
      assert.match(fight.message, /does not offer eventWinner odds/);
      await rejectsWith(client.getPodiums(BKFC), NotFoundError, 404);
      await rejectsWith(client.getExactas(BKFC), NotFoundError, 404);
      await rejectsWith(client.getTopFinishProbabilities(BKFC, 3), NotFoundError, 404);
      await rejectsWith(client.getFairProbabilities(BKFC), NotFoundError, 404);
      await rejectsWith(client.getOdds(SX, 'heat_exacta'), NotFoundError, 404);
      await rejectsWith(client.getMoneylines(NO_EVENT), NotFoundError, 404);
      await rejectsWith(client.getFairMatchupProbabilities(NO_EVENT), NotFoundError, 404);

      // Values the route does not know are 400s, ValidationErrors to the SDK: trifectas are
      // eventExacta with exactasType 3 (getExactas(id, 3)), not an odd type of their own.
      assert.match((await rejectsWith(client.getOdds(SX, 'trifecta'), ValidationError, 422)).message, /oddType/);
      await rejectsWith(client.getTopFinishProbabilities(SX, 7), ValidationError, 422);
      assert.match((await rejectsWith(client.getExactas(SX, 5), ValidationError, 422)).message, /exactasType/);
      assert.match(
        (await rejectsWith(client.getTotals(SX, 'laps'), ValidationError, 422)).message,
        /overUnderSubMarketType/,
      );
    });
  });

  test("oddsFormat 'american', 'probability' and 'fractional': the SDK converts every odds field it reads", async () => {
    await withOdds(servers, async ({ client, baseUrl }) => {
      const options = { apiKey: TEST_KEY, baseUrl, maxRetries: 0 };
      const american = new AltSportsData({ ...options, oddsFormat: 'american' });
      const probability = new AltSportsData({ ...options, oddsFormat: 'probability' });
      const fractional = new AltSportsData({ ...options, oddsFormat: 'fractional' });

      // American: the SDK's conversion of the decimal price (to the nearest) agrees with the server's
      // americanOdds, which are rounded towards the house: -121 for 1.8333, as -120 pays 1.83333.
      const sx = outcomesOf(await american.getMoneylines(SX), 'eventWinner');
      assert.deepEqual(
        sx.map((o) => [o.odds, o.americanOdds, o.probability]),
        [
          [150, 150, 40],
          [150, 150, 40],
          [300, 300, 25],
          [-120, -121, 54.5464],
        ],
      );
      // The server's from the exact price its probability implies, the SDK's from the two-decimal odds.
      const decimals = outcomesOf(await client.getMoneylines(FIELD), 'eventWinner');
      for (const [i, o] of outcomesOf(await american.getMoneylines(FIELD), 'eventWinner').entries()) {
        const { odds, probability } = decimals[i] as Odd;
        const magnitude = (d: number) => (d >= 2 ? 100 * (d - 1) : 100 / (d - 1));
        close(o.odds, o.americanOdds, 1 + Math.abs(magnitude(odds) - magnitude(100 / probability)), o.id);
      }
      const [h2h] = matchupsOf(await american.getMatchups(SX));
      assert.deepEqual([h2h?.eventParticipant1.odds, h2h?.eventParticipant1.americanOdds], [-111.11, -112]);

      // Probability: odds and probability both become the same fraction.
      const fractions = outcomesOf(await probability.getMoneylines(SX), 'eventWinner');
      assert.deepEqual(
        fractions.map((o) => [o.odds, o.probability]),
        [
          [0.4, 0.4],
          [0.4, 0.4],
          [0.25, 0.25],
          [0.545464, 0.545464],
        ],
      );
      // The odds are rounded down: as a probability, at least the published one, by a rounding.
      for (const o of outcomesOf(await probability.getTopFinishProbabilities(FIELD, 3), 'raceTop3'))
        assert.ok(o.odds >= o.probability && o.odds - o.probability < 0.005, `${o.id}: ${o.odds} vs ${o.probability}`);

      // Fractional: decimal 2.5 is 3/2.
      assert.deepEqual(
        outcomesOf(await fractional.getMoneylines(SX), 'eventWinner').map((o) => o.odds),
        ['3/2', '3/2', '3/1', '5/6'],
      );

      // Markets and settlement are converted too.
      const [markets] = await american.getMarkets({ market: 'moneyline', status: 'completed' });
      assert.deepEqual(
        markets?.outcomes?.map((o) => o.odds),
        [-120, 150, 150, 300],
      );
      const settlement = await probability.getSettlement(SX, ['eventWinner']);
      assert.deepEqual(
        (settlement.markets.eventWinner as { winners: Array<{ odds: number; probability: number }> }).winners.map(
          (w) => [w.odds, w.probability],
        ),
        [[0.4, 0.4]],
      );

      // A parlay: odds and probability converted, combinedOdds left decimal.
      const [a] = outcomesOf(await client.getMoneylines(FIELD), 'eventWinner') as [Odd];
      const b = outcomesOf(await client.getOdds(FIELD, 'second'), 'secondPlace')[1] as Odd;
      const decimal = (await client.calculateParlay(FIELD, [a.id, b.id])) as unknown as Parlay;
      const inAmerican = (await american.calculateParlay(FIELD, [a.id, b.id])) as unknown as Parlay;
      assert.equal(inAmerican.odds, decimalToAmerican(decimal.combinedOdds));
      assert.equal(inAmerican.combinedOdds, decimal.combinedOdds);
      assert.deepEqual(
        inAmerican.legs.map((leg) => leg.odds),
        [decimalToAmerican(a.odds), decimalToAmerican(b.odds)],
      );
      const inProbability = (await probability.calculateParlay(FIELD, [a.id, b.id])) as unknown as Parlay;
      close(inProbability.probability, decimal.probability / 100, 1e-6, 'parlay probability as a fraction');
      close(inProbability.odds, inProbability.probability, 1e-4, 'parlay odds as a probability');
      assert.deepEqual(
        inProbability.legs.map((leg) => leg.probability),
        [a.probability / 100, b.probability / 100],
      );
    });
  });

  test('RESPONSE_ENVELOPE=data: odds, settlement and parlays unwrap to the bare documents', async () => {
    await withOdds(
      servers,
      async ({ client, baseUrl }) => {
        const wrapped = (await rawGet(baseUrl, `/events/${SX}/eventWinner`)) as {
          status: number;
          data: Record<string, unknown>;
        };
        assert.equal(wrapped.status, 200);
        assert.deepEqual(await client.getMoneylines(SX), wrapped.data);
        assert.deepEqual(outcomesOf(await client.getMatchups(SX), 'headToHead').length, 1);
        assert.equal((await client.getFairProbabilities(FIELD))[0]?.athlete, rider(0));
        assert.equal((await client.getFairMatchupProbabilities(SX))[0]?.margin, 5.26);
        assert.equal((await client.getSettlement(SX)).marketsSettled, 5);
        const [a, other] = outcomesOf(await client.getMoneylines(FIELD), 'eventWinner') as [Odd, Odd];
        const b = outcomesOf(await client.getOdds(FIELD, 'second'), 'secondPlace')[1] as Odd;
        // A 201 is wrapped as well.
        const parlay = (await client.calculateParlay(FIELD, [a.id, b.id])) as unknown as Parlay;
        assert.equal(parlay.eventId, FIELD);
        assert.deepEqual(
          parlay.legs.map((leg) => leg.oddId),
          [a.id, b.id],
        );
        assert.equal(parlay.combinedOdds, parlay.odds);
        // Errors are never wrapped.
        await rejectsWith(client.calculateParlay(FIELD, [a.id, other.id]), ValidationError, 422);
        await rejectsWith(client.getMoneylines(BKFC), NotFoundError, 404);
      },
      { RESPONSE_ENVELOPE: 'data' },
    );
  });
});

/** Everything an async generator yields. */
async function collect<T>(generator: AsyncGenerator<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of generator) items.push(item);
  return items;
}
