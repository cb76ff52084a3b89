/**
 * The provider's own SDK (`altsportsdata` 1.1.0) pointed at a running altsports server must work
 * unchanged (DESIGN, "Compatibility with existing clients"). These tests drive every SDK method that
 * the routes of this server answer, over real HTTP, on both stores, and assert the fixture's values.
 *
 * What the SDK sends (node_modules/altsportsdata/dist/index.mjs): `X-API-KEY`, `Content-Type:
 * application/json` even on GET, the league as `sportType`, statuses as indexed `eventStatus[0]`
 * (upper-cased through its alias table), `sortOrder` upper-cased. It unwraps `{ status, message,
 * data }` bodies and maps 401/404/400+422 to its error classes.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import {
  AltSportsData,
  AltSportsDataError,
  AuthenticationError,
  NotFoundError,
  ValidationError,
} from 'altsportsdata';
import type { Store } from '../../src/store/database.ts';
import { TEST_KEY, WSL_ONLY_KEY, fixtureApp } from '../helpers/app.ts';
import { MASL_GAME, WSL_FUTURE, WSL_LIVE, WSL_PAST } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { SPR_EVENT, resultsFeed } from '../helpers/results-fixture.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';

const PIPE_PRO = `wsl:${WSL_PAST}`;
const BELLS = `wsl:${WSL_LIVE}`;
const MASL = `masl:${MASL_GAME}`;

interface Running {
  client: AltSportsData;
  baseUrl: string;
}

/** Builds the fixture app over a fresh store, listens on a free loopback port, runs `fn`, closes. */
async function withServer(
  open: () => Promise<Store>,
  fn: (running: Running) => Promise<void>,
  env: Record<string, string> = {},
  /** Also load the results fixture (route 4 and 5 answers). */
  withResults = false,
): Promise<void> {
  const store = await open();
  const { app } = await fixtureApp(store, env);
  if (withResults) await ingestFeed(store, resultsFeed());
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    const client = new AltSportsData({ apiKey: TEST_KEY, baseUrl, maxRetries: 0, timeout: 10_000 });
    await fn({ client, baseUrl });
  } finally {
    await app.close();
  }
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
  assert.ok(caught instanceof cls, `expected a ${cls.name}, got ${(caught as Error).name}: ${(caught as Error).message}`);
  assert.equal((caught as E).statusCode, statusCode);
  return caught as E;
}

const ids = (items: ReadonlyArray<{ id?: unknown }>) => items.map((item) => item.id);

describeEachStore('altsportsdata SDK 1.1.0 against the server', (open) => {
  test('getLeagues lists every competition with the specification\'s names and the SDK\'s market menus', async () => {
    await withServer(open, async ({ client }) => {
      const leagues = await client.getLeagues();
      assert.equal(leagues.length, 30);
      assert.deepEqual(leagues.slice(0, 4).map((l) => l.league), ['wsl', 'sls', 'spr', 'masl']);

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
    await withServer(open, async ({ client }) => {
      const heats = await client.getLeagues({ archetype: 'heat_elimination' });
      assert.deepEqual(heats.map((l) => l.league), ['wsl', 'sls', 'fdrift']);
      const combat = await client.getLeagues({ archetype: 'combat' });
      assert.deepEqual(combat.map((l) => l.league), ['bkfc', 'byb', 'powerslap', 'lux', 'raf']);
      const holeShot = await client.getLeagues({ market: 'hole_shot' });
      assert.deepEqual(holeShot.map((l) => l.league), ['spr', 'motocrs', 'sprmtcrs']);
      const heatExacta = await client.getLeagues({ market: 'HEAT_EXACTA' });
      assert.deepEqual(heatExacta.map((l) => l.league), ['wsl', 'sls', 'xgame', 'spectation']);
      assert.deepEqual(await client.getLeagues({ archetype: 'combat', market: 'moneyline' }), []);
    });
  });

  test('getLeagueInfo and listMarketTypes', async () => {
    await withServer(open, async ({ client }) => {
      const info = await client.getLeagueInfo('WSL');
      assert.ok(info);
      assert.equal(info.league, 'wsl');
      assert.equal(info.name, 'World Surf League');
      assert.equal(info.archetype, 'heat_elimination');
      assert.equal(info.dataShape, 'bracket');
      assert.equal(info.marketCount, 11);
      assert.equal(info.markets[0], 'heat_winner');
      assert.deepEqual(info.marketDetails.find((d) => d.name === 'moneyline'), {
        name: 'moneyline',
        method: 'getMoneylines(eventId)',
        description: 'Who wins the event/race',
        category: 'core',
      });
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
    await withServer(open, async ({ client }) => {
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
    await withServer(open, async ({ client }) => {
      const live = await client.getEvents({ status: 'live' });
      assert.deepEqual(ids(live), [BELLS]);
      assert.equal(live[0]?.eventStatus, 'LIVE');
      assert.deepEqual(ids(await client.getEvents({ status: 'COMPLETED' })), [PIPE_PRO]);
      assert.deepEqual(ids(await client.getEvents({ status: ['live', 'upcoming'] })), [MASL, BELLS]);
      assert.deepEqual(ids(await client.getEvents({ status: ['UPCOMING', 'completed', 'LIVE'] })), [PIPE_PRO, MASL, BELLS]);
      assert.deepEqual(await client.getEvents({ status: 'cancelled' }), []);
      assert.deepEqual(ids(await client.getEvents({ league: 'wsl', status: ['upcoming', 'completed'] })), [PIPE_PRO]);
    });
  });

  test('getEvents: startDate and endDate select events overlapping the range', async () => {
    await withServer(open, async ({ client }) => {
      assert.deepEqual(ids(await client.getEvents({ startDate: '2026-02-15', endDate: '2026-03-15' })), [MASL]);
      assert.deepEqual(ids(await client.getEvents({ startDate: '2026-02-01' })), [PIPE_PRO, MASL, BELLS]);
      assert.deepEqual(ids(await client.getEvents({ startDate: '2026-03-02' })), [BELLS]);
      assert.deepEqual(ids(await client.getEvents({ endDate: '2026-03-01' })), [PIPE_PRO, MASL]);
      assert.deepEqual(ids(await client.getEvents({ endDate: '2026-02-28T23:59:59Z' })), [PIPE_PRO]);
      assert.deepEqual(ids(await client.getEvents({ startDate: '2026-04-05', endDate: '2026-04-06', league: 'wsl' })), [BELLS]);
      assert.deepEqual(await client.getEvents({ startDate: '2027-01-01' }), []);
    });
  });

  test('getEvent returns the event document with rounds, heats and teams', async () => {
    await withServer(open, async ({ client }) => {
      const bells = await client.getEvent(BELLS);
      assert.equal(bells.id, BELLS);
      assert.equal(bells.name, 'Rip Curl Pro Bells Beach');
      assert.equal(bells.sportId, 'wsl');
      assert.equal(bells.tourId, 'wsl-ct-men');
      assert.equal(bells.eventStatus, 'LIVE');
      assert.equal(bells.seasonType, 'regular');
      assert.equal(bells.year, 2026);
      const rounds = bells.rounds as unknown as Array<{ roundName: string; roundStatus: string; heats: Array<{ heatName: string; heatStatus: string }> }>;
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
      const teams = game.teams as unknown as Array<{ id: string; name: string; shortName: string | null; isHomeTeam: boolean }>;
      assert.deepEqual(
        teams.map((t) => [t.id, t.name, t.shortName, t.isHomeTeam]),
        [
          ['sockers', 'San Diego Sockers', 'SD', true],
          ['wave', 'Milwaukee Wave', 'MIL', false],
        ],
      );
      const scores = (game.rounds as unknown as Array<{ scores: Array<{ teamId: string; goals: number }> }>)[0]?.scores;
      assert.deepEqual(scores?.map((s) => [s.teamId, s.goals]), [['sockers', 0], ['wave', 0]]);
    });
  });

  test('getParticipants and getHeatScores read routes 4 and 5', async () => {
    await withServer(open, async ({ client }) => {
      const participants = (await client.getParticipants(BELLS)) as unknown as Array<{ seedNo: number; status: string; athlete: { lastName: string } }>;
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
      assert.deepEqual(race.map((row) => [row.athleteLapTime, row.totalLaps, row.athleteFastestLapNo]), [
        [47.8, 3, 2],
        [47.7, 3, 3],
        [48.5, 3, 2],
        [null, 3, null],
      ]);
      // The SDK's ValidationError always carries 422, whatever the 400 or 422 it maps.
      const teams = await rejectsWith(client.getParticipants(MASL), ValidationError, 422);
      assert.match(teams.message, /publishes teams/);
      await rejectsWith(client.getHeatScores(BELLS, 'no-such-heat'), NotFoundError, 404);
    }, {}, true);
  });

  test('listFutures and getFutures(tour, type, league)', async () => {
    await withServer(open, async ({ client }) => {
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
          ['Italo Ferreira', `wsl:${WSL_FUTURE}`, 'winner', [{ outcomeName: 'Yes', americanOdds: 250, decimalOdds: 3.5 }]],
          ['John John Florence', `wsl:${WSL_FUTURE}`, 'winner', [{ outcomeName: 'Yes', americanOdds: -150, decimalOdds: 1.6667 }]],
        ],
      );
      // `type` defaults to winner.
      assert.equal((await client.getFutures('wsl-ct-men', undefined, 'wsl')).length, 2);
      await rejectsWith(client.getFutures('wsl-ct-men', 'top5', 'wsl'), NotFoundError, 404);
      await rejectsWith(client.getFutures('no-such-tour', 'winner', 'wsl'), NotFoundError, 404);
    });
  });

  test('a league-scoped client from getLeague(\'wsl\')', async () => {
    await withServer(open, async ({ client }) => {
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
      assert.deepEqual(odds.map((o) => o.name), ['Italo Ferreira', 'John John Florence']);
      assert.equal((await wsl.getEvent(PIPE_PRO)).name, 'Pipe Pro');
    });
  });

  test('errors map to the SDK\'s classes', async () => {
    await withServer(open, async ({ client, baseUrl }) => {
      const notFound = await rejectsWith(client.getEvent('wsl:00000000-0000-4000-8000-000000000000'), NotFoundError, 404);
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
      assert.deepEqual((await wslOnly.getLeagues()).map((l) => l.league), ['wsl']);
    });
  });

  test('RESPONSE_ENVELOPE=data: the SDK unwraps { status, message, data } to the same items', async () => {
    let plain: unknown[] = [];
    await withServer(open, async ({ client }) => {
      plain = await client.getEvents({ league: 'wsl' });
    });
    await withServer(
      open,
      async ({ client, baseUrl }) => {
        const raw = await fetch(`${baseUrl}/api/v1/public/events?sportType=wsl`, { headers: { 'x-api-key': TEST_KEY } });
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
