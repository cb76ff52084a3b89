import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { ServerErrorResponse } from '../../src/http/schemas/common.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Event, EventListItem } from '../../src/shapes/events.ts';
import type { EventOdds, SgpResponse } from '../../src/shapes/odds.ts';
import type {
  CurlingEvent,
  CurlingOdds,
  JaiAlaiMarket,
  JaiAlaiMatch,
  JaiAlaiOdds,
  KnockoutBracket,
  LacrosseEvent,
  LacrosseOdds,
  PeriodDetail,
  TableTennisEvent,
  TableTennisOdds,
  TeamMarket,
  ThreeIceEvent,
} from '../../src/shapes/sport-events.ts';
import { fixtureApp, TEST_KEY, type TestApp, WSL_ONLY_KEY } from '../helpers/app.ts';
import { describeEachStore, openTestStore } from '../helpers/stores.ts';
import {
  GSOC_DONE,
  GSOC_LIVE,
  GSOC_TOUR_YEAR,
  ICE_FINAL,
  ICE_QF,
  ICE_SF1,
  ICE_SF2,
  ICE_TOUR_YEAR,
  JAI_1,
  JAI_2,
  JAI_3,
  JAI_CARD,
  JAI_FUTURE,
  JAI_SOLO,
  JAI_SOLO_CARD,
  MLTT_MATCH,
  NLL_GAME,
  teamMatchFeed,
} from '../helpers/team-match-fixture.ts';

const BASE = '/api/v1/public';
const UNKNOWN = '00000000-0000-4000-8000-0000000000ff';
const ERROR_FIELDS = ['code', 'message', 'metadata', 'stack', 'statusCode', 'timestamp'];
const HEADER_FIELDS: Array<keyof CurlingEvent> = [
  'id',
  'numericSportId',
  'sportKey',
  'sportName',
  'numericCompetitionId',
  'competitionKey',
  'competitionName',
  'name',
  'startDate',
  'endDate',
  'eventNumber',
];

/** The JSON body, as the shape the route answers with (the caller names it). */
function json<T>(res: LightMyRequestResponse, status = 200): T {
  assert.equal(res.statusCode, status, res.body);
  return JSON.parse(res.body);
}

/** The error body of section 7; its metadata read by name. */
type ErrorBody = Omit<ServerErrorResponse, 'metadata'> & { metadata: Record<string, unknown> };

/** The error body of section 7, with its status. */
function errorBody(res: LightMyRequestResponse, status: number): ErrorBody {
  const body = json<ErrorBody>(res, status);
  assert.deepEqual(Object.keys(body).sort(), ERROR_FIELDS);
  assert.equal(body.statusCode, status);
  assert.equal(typeof body.message, 'string');
  assert.equal(typeof body.stack, 'string');
  assert.equal(typeof body.metadata, 'object');
  assert.ok(!Number.isNaN(Date.parse(body.timestamp)), body.timestamp);
  return body;
}

/** Outcomes of a market as [side, teamId, line, settlement]. */
const outcomes = (market: TeamMarket | null | undefined) =>
  (market?.selection ?? []).map((o) => [o.side, o.teamId, o.line, o.settlement]);
const scores = (period: { scores: PeriodDetail['scores'] }) =>
  period.scores.map((s): [string, number] => [s.teamId, s.score]);

describeEachStore('sport-specific routes 8 to 17', (_open, kind) => {
  let app: TestApp;
  let cleanup: () => Promise<void>;
  const get = (url: string, headers?: Record<string, string>) => app.get(`${BASE}${url}`, headers);
  const post = (url: string, payload: unknown) =>
    app.app.inject({
      method: 'POST',
      url: `${BASE}${url}`,
      headers: { 'x-api-key': TEST_KEY },
      payload: payload as object,
    });

  // The routes only read: one store and app per store kind serve every test.
  before(async () => {
    const opened = await openTestStore(kind);
    cleanup = opened.cleanup;
    app = await fixtureApp(opened.store);
    await ingestFeed(opened.store, teamMatchFeed());
  });
  after(async () => {
    await app.app.close();
    await cleanup();
  });

  test('route 8: a completed curling match with section 2.6 fields, stone colours, derived hammer and ends', async () => {
    const body = json<CurlingEvent>(await get(`/events/gsoc/gsoc:${GSOC_DONE}`));
    for (const field of HEADER_FIELDS) assert.ok(field in body, field);
    assert.deepEqual(
      HEADER_FIELDS.map((f) => body[f]),
      [
        `gsoc:${GSOC_DONE}`,
        body.numericSportId,
        'curling',
        'Curling',
        11,
        'gsoc',
        'Grand Slam of Curling',
        'Team Homan vs Team Einarson',
        '2026-03-13T23:00:00.000Z',
        '2026-03-14T02:00:00.000Z',
        7,
      ],
    );
    assert.equal(typeof body.numericSportId, 'number');
    assert.deepEqual(
      [body.eventStatus, body.homeScore, body.awayScore, body.winner, body.winnerTeamId, body.tourYearId],
      ['COMPLETED', 6, 4, 'home', 'tm-gsoc-homan', GSOC_TOUR_YEAR],
    );
    // Homan had the first hammer; the blank 8th end leaves it with Einarson, who took it by scoring nothing in end 7.
    assert.deepEqual(
      body.teams.map((t) => [t.teamId, t.name, t.shortName, t.isHomeTeam, t.score, t.hasHammer, t.stoneColor]),
      [
        ['tm-gsoc-homan', 'Team Homan', 'HOM', true, 6, false, 'red'],
        ['tm-gsoc-einarson', 'Team Einarson', 'EIN', false, 4, true, 'yellow'],
      ],
    );
    for (const team of body.teams) assert.equal(typeof team.id, 'string');
    assert.equal(body.ends.length, 8);
    const end1 = body.ends[0]!;
    assert.deepEqual(
      Object.keys(end1)
        .filter((k) => ['id', 'startDate', 'endDate', 'roundStatus', 'scores', 'name'].includes(k))
        .sort(),
      ['endDate', 'id', 'name', 'roundStatus', 'scores', 'startDate'],
    );
    assert.deepEqual(
      [end1.id, end1.name, end1.startDate, end1.endDate],
      ['gd-end-1', 'End 1', '2026-03-13T23:00:00.000Z', '2026-03-13T23:04:00.000Z'],
    );
    assert.deepEqual(
      end1.scores.map((s) => [s.id, s.label, s.score]),
      [
        ['gd-end-1-h', 'Team Homan', 0],
        ['gd-end-1-a', 'Team Einarson', 0],
      ],
    );
    assert.deepEqual(
      body.ends.map(scores).map((s: Array<[string, number]>) => s.map(([, n]) => n)),
      [
        [0, 0],
        [2, 0],
        [0, 1],
        [0, 1],
        [1, 0],
        [0, 2],
        [3, 0],
        [0, 0],
      ],
    );
    // The scorer gives up the hammer (end 4's steal leaves it with Homan); a blank end keeps it.
    assert.deepEqual(
      body.ends.map((e) => e.hammer),
      ['home', 'home', 'away', 'home', 'home', 'away', 'home', 'away'],
    );
    assert.deepEqual(
      body.ends.map((e) => e.winner),
      [null, 'home', 'away', 'away', 'home', 'away', 'home', null],
    );
    assert.deepEqual(new Set(body.ends.map((e) => e.roundStatus)), new Set(['COMPLETED']));
  });

  test('route 8: a live curling match: hammer now, ends played, in play and to come (UPCOMING, LIVE, COMPLETED only)', async () => {
    const body = json<CurlingEvent>(await get(`/events/gsoc/${GSOC_LIVE}`), 200);
    assert.equal(body.id, `gsoc:${GSOC_LIVE}`, 'a bare uuid is accepted');
    assert.deepEqual([body.eventStatus, body.homeScore, body.awayScore, body.winner], ['LIVE', 2, 1, null]);
    // Gushue had the first hammer and scored end 1; end 2 blank; Jacobs scored end 3, so Gushue has it in end 4.
    assert.deepEqual(
      body.teams.map((t) => [t.teamId, t.hasHammer, t.stoneColor]),
      [
        ['tm-gsoc-jacobs', false, 'yellow'],
        ['tm-gsoc-gushue', true, 'red'],
      ],
    );
    assert.deepEqual(
      body.ends.map((e) => e.roundStatus),
      ['COMPLETED', 'COMPLETED', 'COMPLETED', 'LIVE', 'UPCOMING', 'UPCOMING', 'UPCOMING', 'UPCOMING'],
      'the fed NEXT of end 5 is UPCOMING',
    );
    assert.deepEqual(
      body.ends.map((e) => e.hammer),
      ['away', 'home', 'home', 'away', null, null, null, null],
    );
    assert.deepEqual(body.ends[4]!.scores, []);
  });

  test('route 10: table tennis counts games won (4-2); games carry gameType and lineups; game 7 is called off', async () => {
    const body = json<TableTennisEvent>(await get(`/events/mltt/mltt:${MLTT_MATCH}`));
    assert.deepEqual(
      [body.id, body.sportKey, body.competitionKey, body.competitionName, body.eventNumber],
      [`mltt:${MLTT_MATCH}`, 'table-tennis', 'mltt', 'Major League Table Tennis', 3],
    );
    assert.deepEqual(
      [body.homeScore, body.awayScore, body.winner, body.winnerTeamId],
      [4, 2, 'home', 'tm-mltt-atlanta'],
    );
    assert.deepEqual(
      body.teams.map((t) => [t.teamId, t.isHomeTeam, t.score]),
      [
        ['tm-mltt-atlanta', true, 4],
        ['tm-mltt-texas', false, 2],
      ],
    );
    assert.ok(
      body.teams.every((t) => !('hasHammer' in t) && !('stoneColor' in t)),
      'hammer and stones are curling only',
    );
    assert.deepEqual(
      body.games.map((g) => [
        g.name,
        g.roundStatus,
        g.gameType,
        g.homeLineup,
        g.awayLineup,
        g.scores.map((s) => s.score),
        g.winner,
      ]),
      [
        ['Game 1', 'COMPLETED', 'singles', 'Kanak Jha', 'Jiwei Xia', [11, 7], 'home'],
        ['Game 2', 'COMPLETED', 'singles', 'Lily Zhang', 'Adriana Diaz', [9, 11], 'away'],
        ['Game 3', 'COMPLETED', 'doubles', 'Kanak Jha / Lily Zhang', 'Jiwei Xia / Adriana Diaz', [11, 5], 'home'],
        ['Game 4', 'COMPLETED', 'singles', 'Kanak Jha', 'Adriana Diaz', [11, 9], 'home'],
        ['Game 5', 'COMPLETED', 'singles', 'Lily Zhang', 'Jiwei Xia', [8, 11], 'away'],
        ['Game 6', 'COMPLETED', 'singles', 'Kanak Jha', 'Jiwei Xia', [12, 10], 'home'],
        ['Game 7', 'CANCELLED', 'singles', 'Lily Zhang', 'Adriana Diaz', [], null],
      ],
    );
  });

  test('route 12: box lacrosse adds overtime to the score', async () => {
    const body = json<LacrosseEvent>(await get(`/events/nll/nll:${NLL_GAME}`));
    assert.deepEqual(
      [body.id, body.sportKey, body.competitionKey, body.name, body.eventNumber],
      [`nll:${NLL_GAME}`, 'box-lacrosse', 'nll', 'Buffalo Bandits vs Toronto Rock', 9],
    );
    assert.deepEqual(
      [body.homeScore, body.awayScore, body.winner, body.winnerTeamId],
      [11, 12, 'away', 'tm-nll-toronto'],
    );
    assert.deepEqual(
      body.quarters.map((q) => [q.name, q.number, q.scores.map((s) => s.score)]),
      [
        ['Q1', 1, [3, 2]],
        ['Q2', 2, [2, 3]],
        ['Q3', 3, [4, 3]],
        ['Q4', 4, [2, 3]],
        ['Overtime', 5, [0, 1]],
      ],
    );
    assert.deepEqual(
      body.teams.map((t) => [t.teamId, t.score]),
      [
        ['tm-nll-buffalo', 11],
        ['tm-nll-toronto', 12],
      ],
    );
  });

  test("route 14: a 3ICE game with its periods, overtime, tour year and its season's bracket", async () => {
    const body = json<ThreeIceEvent>(await get(`/events/3ice/3ice:${ICE_QF[2]}`));
    assert.deepEqual(
      [body.id, body.sportKey, body.competitionKey, body.competitionName, body.eventNumber],
      [`3ice:${ICE_QF[2]}`, 'three-on-three-hockey', '3ice', '3ICE', 12],
    );
    assert.deepEqual([body.homeScore, body.awayScore, body.winner, body.winnerTeamId], [3, 2, 'home', 'tm-ice-e']);
    assert.deepEqual(
      body.periods.map((p) => [p.name, p.scores.map((s) => s.score), p.winner]),
      [
        ['1st Half', [1, 1], null],
        ['2nd Half', [1, 1], null],
        ['Overtime', [1, 0], 'home'],
      ],
    );
    assert.deepEqual(
      [body.tourYearId, body.bracketUrl, body.bracketRound, body.bracketSlot],
      [ICE_TOUR_YEAR, `${BASE}/events/3ice/bracket/${ICE_TOUR_YEAR}`, 1, 3],
    );
    const bracket = json<KnockoutBracket>(await app.get(body.bracketUrl!));
    assert.equal(bracket.tourYearId, ICE_TOUR_YEAR);
  });

  test('routes 8, 10, 12, 14: unknown ids and ids of another sport are 404s with the error body', async () => {
    for (const url of [
      `/events/gsoc/gsoc:${UNKNOWN}`,
      `/events/gsoc/${UNKNOWN}`,
      `/events/mltt/mltt:${UNKNOWN}`,
      `/events/nll/nll:${UNKNOWN}`,
      `/events/3ice/3ice:${UNKNOWN}`,
      `/events/gsoc/not-an-event-id`,
    ]) {
      const body = errorBody(await get(url), 404);
      assert.match(body.message, /not found/, url);
    }
    for (const [url, belongs] of [
      [`/events/gsoc/nll:${NLL_GAME}`, 'nll'],
      [`/events/gsoc/${NLL_GAME}`, 'nll'],
      [`/events/mltt/gsoc:${GSOC_DONE}`, 'gsoc'],
      [`/events/nll/${MLTT_MATCH}`, 'mltt'],
      [`/events/3ice/${NLL_GAME}`, 'nll'],
    ] as const) {
      const body = errorBody(await get(url), 404);
      assert.equal(body.metadata.competition, belongs, url);
    }
    // A prefix that contradicts the stored event's sport names no event.
    errorBody(await get(`/events/gsoc/gsoc:${NLL_GAME}`), 404);
  });

  test('route 9: match and end markets of a completed curling match, settled from the score', async () => {
    for (const id of [`gsoc:${GSOC_DONE}`, GSOC_DONE]) {
      const body = json<CurlingOdds>(await get(`/events/gsoc/${id}/odds`));
      assert.deepEqual(
        [body.eventId, body.publicId, body.eventStatus],
        [`gsoc:${GSOC_DONE}`, `gsoc:${GSOC_DONE}`, 'COMPLETED'],
      );
      assert.deepEqual(
        [body.homeTeam, body.awayTeam],
        [
          { teamId: 'tm-gsoc-homan', name: 'Team Homan' },
          { teamId: 'tm-gsoc-einarson', name: 'Team Einarson' },
        ],
      );
      const { event } = body;
      assert.deepEqual([event.roundId, event.name], [null, 'Match']);
      assert.deepEqual(
        [event.moneyLine!.marketId, event.moneyLine!.status, event.moneyLine!.line],
        ['tm-gd-ml', 'CLOSED', null],
      );
      // 6-4: home wins; home -2 lands on the line (push); 10 ends' points go over 9.5.
      assert.deepEqual(outcomes(event.moneyLine), [
        ['HOME', 'tm-gsoc-homan', null, 'WIN'],
        ['AWAY', 'tm-gsoc-einarson', null, 'LOSE'],
      ]);
      assert.deepEqual(
        event.spread.map((m) => [m.marketId, m.line, m.status]),
        [['tm-gd-spread', -2, 'CLOSED']],
      );
      assert.deepEqual(outcomes(event.spread[0]), [
        ['HOME', 'tm-gsoc-homan', -2, 'PUSH'],
        ['AWAY', 'tm-gsoc-einarson', 2, 'PUSH'],
      ]);
      assert.deepEqual(outcomes(event.total[0]), [
        ['OVER', null, 9.5, 'WIN'],
        ['UNDER', null, 9.5, 'LOSE'],
      ]);
      // Only end 1 is priced: a blank end, so its DRAW wins.
      assert.deepEqual(
        body.ends.map((e) => [e.roundId, e.name, e.number]),
        [['gd-end-1', 'End 1', 1]],
      );
      assert.deepEqual(outcomes(body.ends[0]!.moneyLine), [
        ['HOME', 'tm-gsoc-homan', null, 'LOSE'],
        ['AWAY', 'tm-gsoc-einarson', null, 'LOSE'],
        ['DRAW', null, null, 'WIN'],
      ]);
      assert.deepEqual(new Set(body.ends[0]!.moneyLine!.selection.map((o) => o.status)), new Set(['CLOSED']));
    }
  });

  test('route 9: outcomes carry the odd id and the price in three formats', async () => {
    const body = json<CurlingOdds>(await get(`/events/gsoc/${GSOC_DONE}/odds`));
    const home = body.event.moneyLine!.selection[0]!;
    for (const field of [
      'id',
      'outcomeId',
      'side',
      'teamId',
      'name',
      'line',
      'odds',
      'americanOdds',
      'probability',
      'status',
      'settlement',
      'updatedAt',
    ])
      assert.ok(field in home, field);
    assert.deepEqual(
      [home.id, home.name, home.odds, home.americanOdds, home.probability],
      ['tm-gd-ml-home', 'Team Homan', 1.8, -125, 55.5556],
    );
    const over = body.event.total[0]!.selection[0]!;
    assert.deepEqual(
      [over.id, over.odds, over.americanOdds],
      ['tm-gd-total-over', 1.9091, -110],
      'fed as American -110',
    );
  });

  test('route 9: the live match is ACTIVE and open, not settled', async () => {
    const body = json<CurlingOdds>(await get(`/events/gsoc/gsoc:${GSOC_LIVE}/odds`));
    assert.equal(body.eventStatus, 'LIVE');
    const markets = [body.event.moneyLine!, ...body.event.spread, ...body.event.total];
    assert.deepEqual(
      markets.map((m) => [m.marketId, m.status, m.line]),
      [
        ['tm-gl-ml', 'ACTIVE', null],
        ['tm-gl-spread-m', 'ACTIVE', -1.5],
        ['tm-gl-spread-p', 'ACTIVE', 1.5],
        ['tm-gl-total', 'ACTIVE', 10.5],
      ],
    );
    for (const market of markets)
      for (const o of market.selection) assert.deepEqual([o.status, o.settlement], ['OPEN', 'NOT_SET'], o.id);
    assert.deepEqual(body.ends, []);
  });

  test('route 11: table tennis match markets in games, game markets in points; the called-off game is VOID', async () => {
    const body = json<TableTennisOdds>(await get(`/events/mltt/mltt:${MLTT_MATCH}/odds`));
    assert.deepEqual(outcomes(body.event.moneyLine), [
      ['HOME', 'tm-mltt-atlanta', null, 'WIN'],
      ['AWAY', 'tm-mltt-texas', null, 'LOSE'],
    ]);
    // Fed as 60% and 40%.
    assert.deepEqual(
      body.event.moneyLine!.selection.map((o) => [o.odds, o.probability]),
      [
        [1.6667, 59.9988],
        [2.5, 40],
      ],
    );
    // 4-2 in games: home -1.5 covers, six games go under 6.5.
    assert.deepEqual(outcomes(body.event.spread[0]), [
      ['HOME', 'tm-mltt-atlanta', -1.5, 'WIN'],
      ['AWAY', 'tm-mltt-texas', 1.5, 'LOSE'],
    ]);
    assert.deepEqual(outcomes(body.event.total[0]), [
      ['OVER', null, 6.5, 'LOSE'],
      ['UNDER', null, 6.5, 'WIN'],
    ]);
    assert.deepEqual(
      body.games.map((g) => [g.roundId, g.name, g.number]),
      [
        ['tt-game-2', 'Game 2', 2],
        ['tt-game-7', 'Game 7', 7],
      ],
    );
    // Game 2 went 9-11: 20 points.
    assert.deepEqual(outcomes(body.games[0]!.moneyLine), [
      ['HOME', 'tm-mltt-atlanta', null, 'LOSE'],
      ['AWAY', 'tm-mltt-texas', null, 'WIN'],
    ]);
    assert.deepEqual(outcomes(body.games[0]!.total[0]), [
      ['OVER', null, 19.5, 'WIN'],
      ['UNDER', null, 19.5, 'LOSE'],
    ]);
    assert.deepEqual(outcomes(body.games[1]!.moneyLine), [
      ['HOME', 'tm-mltt-atlanta', null, 'VOID'],
      ['AWAY', 'tm-mltt-texas', null, 'VOID'],
    ]);
    assert.equal(body.games[1]!.moneyLine!.status, 'CLOSED');
  });

  test('route 13: lacrosse markets settle on the score with overtime', async () => {
    const body = json<LacrosseOdds>(await get(`/events/nll/${NLL_GAME}/odds`));
    assert.equal(body.eventId, `nll:${NLL_GAME}`);
    assert.deepEqual(outcomes(body.event.moneyLine), [
      ['HOME', 'tm-nll-buffalo', null, 'LOSE'],
      ['AWAY', 'tm-nll-toronto', null, 'WIN'],
    ]);
    assert.deepEqual(outcomes(body.event.spread[0]), [
      ['HOME', 'tm-nll-buffalo', 1.5, 'WIN'],
      ['AWAY', 'tm-nll-toronto', -1.5, 'LOSE'],
    ]);
    // 23 goals with overtime, 22 without.
    assert.deepEqual(outcomes(body.event.total[0]), [
      ['OVER', null, 22.5, 'WIN'],
      ['UNDER', null, 22.5, 'LOSE'],
    ]);
    assert.deepEqual(
      new Set([body.event.moneyLine!, ...body.event.spread, ...body.event.total].map((m) => m.status)),
      new Set(['CLOSED']),
    );
    assert.deepEqual(body.quarters, []);
  });

  test('routes 9, 11, 13, 17: an id of another sport is a 400 naming its sport; unknown ids are 404s', async () => {
    for (const [url, sport] of [
      [`/events/gsoc/nll:${NLL_GAME}/odds`, 'National Lacrosse League \\(nll\\)'],
      [`/events/gsoc/${MLTT_MATCH}/odds`, 'Major League Table Tennis \\(mltt\\)'],
      [`/events/mltt/${NLL_GAME}/odds`, 'National Lacrosse League \\(nll\\)'],
      [`/events/nll/gsoc:${GSOC_DONE}/odds`, 'Grand Slam of Curling \\(gsoc\\)'],
      [`/events/jaialai/${GSOC_DONE}/odds`, 'Grand Slam of Curling \\(gsoc\\)'],
      [`/events/gsoc/jaialai:${JAI_1}/odds`, 'World Jai Alai \\(jaialai\\)'],
    ] as const) {
      const body = errorBody(await get(url), 400);
      assert.match(body.message, new RegExp(`belongs to ${sport}`), url);
    }
    for (const url of [
      `/events/gsoc/gsoc:${UNKNOWN}/odds`,
      `/events/mltt/${UNKNOWN}/odds`,
      `/events/nll/nll:${UNKNOWN}/odds`,
      `/events/jaialai/jaialai:${UNKNOWN}/odds`,
    ]) {
      errorBody(await get(url), 404);
    }
  });

  test('route 15: the bracket fills slots from winners; the champion waits for the final', async () => {
    const body = json<KnockoutBracket>(await get(`/events/3ice/bracket/${ICE_TOUR_YEAR}`));
    assert.deepEqual(
      [body.tourYearId, body.year, body.tourId, body.competition],
      [ICE_TOUR_YEAR, 2026, 'tm-3ice-tour', '3ice'],
    );
    assert.deepEqual(
      body.rounds.map((r) => [r.roundNo, r.name, r.slots.length]),
      [
        [1, 'Quarterfinals', 4],
        [2, 'Semifinals', 2],
        [3, 'Final', 1],
      ],
    );
    const slot = (s: KnockoutBracket['rounds'][number]['slots'][number]) => [
      s.slot,
      s.eventId,
      s.eventStatus,
      s.homeTeam?.teamId ?? null,
      s.awayTeam?.teamId ?? null,
      s.winnerTeamId,
    ];
    assert.deepEqual(body.rounds[0]!.slots.map(slot), [
      [1, `3ice:${ICE_QF[0]}`, 'COMPLETED', 'tm-ice-a', 'tm-ice-b', 'tm-ice-a'],
      [2, `3ice:${ICE_QF[1]}`, 'COMPLETED', 'tm-ice-c', 'tm-ice-d', 'tm-ice-d'],
      [3, `3ice:${ICE_QF[2]}`, 'COMPLETED', 'tm-ice-e', 'tm-ice-f', 'tm-ice-e'],
      [4, `3ice:${ICE_QF[3]}`, 'COMPLETED', 'tm-ice-g', 'tm-ice-h', 'tm-ice-h'],
    ]);
    assert.deepEqual(
      body.rounds[0]!.slots.map((s) => [s.homeScore, s.awayScore]),
      [
        [4, 2],
        [3, 5],
        [3, 2],
        [1, 3],
      ],
    );
    // Semifinal 2's game names no teams: the winners of quarterfinals 3 and 4 fill it.
    assert.deepEqual(body.rounds[1]!.slots.map(slot), [
      [1, `3ice:${ICE_SF1}`, 'COMPLETED', 'tm-ice-a', 'tm-ice-d', 'tm-ice-d'],
      [2, `3ice:${ICE_SF2}`, 'UPCOMING', 'tm-ice-e', 'tm-ice-h', null],
    ]);
    assert.deepEqual(body.rounds[1]!.slots[1]!.homeTeam, { teamId: 'tm-ice-e', name: 'Team E', shortName: 'TE' });
    assert.deepEqual(body.rounds[2]!.slots.map(slot), [[1, `3ice:${ICE_FINAL}`, 'UPCOMING', 'tm-ice-d', null, null]]);
    assert.deepEqual([body.championTeamId, body.champion], [null, null]);
  });

  test('route 15: a tour year of another competition, or none, is a 404', async () => {
    errorBody(await get(`/events/3ice/bracket/${GSOC_TOUR_YEAR}`), 404);
    errorBody(await get('/events/3ice/bracket/no-such-season'), 404);
  });

  test('route 16: the matches of a card in order, as section 2.7 items', async () => {
    const body = json<JaiAlaiMatch[]>(await get(`/events/jaialai/${JAI_CARD}`));
    assert.deepEqual(
      body.map((m) => m.id),
      [`jaialai:${JAI_1}`, `jaialai:${JAI_2}`, `jaialai:${JAI_3}`],
      'by start, though fed out of order',
    );
    const [first, second, third] = body;
    for (const field of [
      'id',
      'name',
      'startDate',
      'endDate',
      'eventNumber',
      'eventType',
      'streamUrl',
      'eventStatus',
      'matchStatus',
      'onServeNow',
      'winner',
      'eventLocation',
      'sets',
      'homeTeam',
      'awayTeam',
      'homeTeamFinalScore',
      'awayTeamFinalScore',
      'homeTeamMatchScore',
      'awayTeamMatchScore',
      'teams',
    ]) {
      assert.ok(field in first!, field);
    }
    assert.deepEqual(
      [
        first?.name,
        first?.startDate,
        first?.endDate,
        first?.eventNumber,
        first?.eventType,
        first?.streamUrl,
        first?.eventLocation,
        first?.cardId,
      ],
      [
        'Goitia / Olaskoaga vs Alberdi / Egurbide',
        '2026-03-14T23:00:00.000Z',
        '2026-03-14T23:30:00.000Z',
        1,
        'Doubles',
        'https://stream.example.com/dania/1',
        'Dania Beach Jai-Alai',
        JAI_CARD,
      ],
    );
    const summary = (m: JaiAlaiMatch) => [
      m.eventStatus,
      m.matchStatus,
      m.onServeNow,
      m.winner,
      m.homeTeam,
      m.awayTeam,
      m.homeTeamMatchScore,
      m.awayTeamMatchScore,
      m.homeTeamFinalScore,
      m.awayTeamFinalScore,
    ];
    // Match scores are sets won; final scores are points over every set.
    assert.deepEqual(summary(first!)!, [
      'COMPLETED',
      'COMPLETED',
      'home',
      'home',
      'Goitia / Olaskoaga',
      'Alberdi / Egurbide',
      2,
      0,
      30,
      21,
    ]);
    assert.deepEqual(summary(second!)!, [
      'COMPLETED',
      'COMPLETED',
      null,
      'away',
      'Ortiz / Zubizarreta',
      'Arrieta / Mendizabal',
      1,
      2,
      34,
      43,
    ]);
    assert.deepEqual(summary(third!)!, [
      'LIVE',
      'LIVE',
      'away',
      null,
      'Goitia / Olaskoaga',
      'Ortiz / Zubizarreta',
      1,
      0,
      22,
      15,
    ]);
    assert.deepEqual(
      first?.sets.map((s) => [s.id, s.name, s.roundStatus, s.scores.map((x) => [x.label, x.score])]),
      [
        [
          'ja1-set-1',
          'Set 1',
          'COMPLETED',
          [
            ['Goitia / Olaskoaga', 15],
            ['Alberdi / Egurbide', 9],
          ],
        ],
        [
          'ja1-set-2',
          'Set 2',
          'COMPLETED',
          [
            ['Goitia / Olaskoaga', 15],
            ['Alberdi / Egurbide', 12],
          ],
        ],
        ['ja1-set-3', 'Set 3', 'CANCELLED', []],
      ],
    );
    for (const set of first?.sets ?? [])
      for (const field of ['id', 'startDate', 'endDate', 'roundStatus', 'name', 'scores'])
        assert.ok(field in set, field);
    assert.deepEqual(
      third?.sets.map((s) => s.roundStatus),
      ['COMPLETED', 'LIVE', 'UPCOMING'],
    );
    assert.deepEqual(first?.teams, [
      { id: 'tm-ja-goitia', name: 'Goitia / Olaskoaga', isHomeTeam: true },
      { id: 'tm-ja-alberdi', name: 'Alberdi / Egurbide', isHomeTeam: false },
    ]);
  });

  test('route 16: a derived card id works; the event list and the event document carry cardId', async () => {
    const card = json<JaiAlaiMatch[]>(await get(`/events/jaialai/${JAI_SOLO_CARD}`));
    assert.deepEqual(
      card.map((m) => [m.id, m.cardId, m.matchStatus, m.homeTeamMatchScore, m.awayTeamMatchScore]),
      [[`jaialai:${JAI_SOLO}`, JAI_SOLO_CARD, 'UPCOMING', 0, 0]],
    );
    const list = json<EventListItem[]>(await get('/events?competition=jaialai'));
    assert.deepEqual(list.map((e) => [e.id, e.cardId]).sort(), [
      [`jaialai:${JAI_1}`, JAI_CARD],
      [`jaialai:${JAI_2}`, JAI_CARD],
      [`jaialai:${JAI_3}`, JAI_CARD],
      [`jaialai:${JAI_SOLO}`, JAI_SOLO_CARD],
    ]);
    assert.equal(json<Event>(await get(`/events/jaialai:${JAI_SOLO}`)).cardId, JAI_SOLO_CARD);
    assert.equal(json<Event>(await get(`/events/${JAI_2}`)).cardId, JAI_CARD);
    assert.ok(!('cardId' in json<Event>(await get(`/events/gsoc:${GSOC_DONE}`))), 'other sports have no card');
  });

  test('route 16: an id not of the form <prefix>:<YYYY-MM-DD>_<text> is a 400 naming "id"; an unknown card a 404', async () => {
    for (const id of [
      JAI_1,
      `jaialai:${JAI_1}`,
      'jaialai:2026-02-30_x',
      'jaialai:2026-03-14_',
      'jaialai:2026-03-14',
      '2026-03-14_dania-beach',
      'jaialai:26-03-14_dania-beach',
    ]) {
      const body = errorBody(await get(`/events/jaialai/${id}`), 400);
      assert.equal(body.metadata.parameter, 'id', id);
      assert.match(body.message, /"id"/, id);
    }
    const unknown = errorBody(await get('/events/jaialai/jaialai:2026-03-15_nowhere'), 404);
    assert.match(unknown.message, /jaialai:2026-03-15_nowhere/);
  });

  test("route 17: section 2.8's members, settled from the sets, with the season's outright as futures", async () => {
    for (const id of [`jaialai:${JAI_1}`, JAI_1]) {
      const body = json<JaiAlaiOdds>(await get(`/events/jaialai/${id}/odds`));
      assert.deepEqual([body.eventId, body.publicId], [`jaialai:${JAI_1}`, `jaialai:${JAI_1}`]);
      assert.deepEqual(
        Object.keys(body).filter((k) => ['eventWinner', 'matchWinner', 'sets', 'futures'].includes(k)),
        ['eventWinner', 'matchWinner', 'sets', 'futures'],
      );
      const { eventWinner, matchWinner } = body;
      assert.equal(eventWinner.publicId, `jaialai:${JAI_1}`);
      assert.equal(typeof eventWinner.groupId, 'number');
      const sel = (m: JaiAlaiMarket | null | undefined) =>
        m!.selection.map((o) => [o.type, o.sets, o.odds, o.settlement, o.status]);
      assert.deepEqual(sel(eventWinner.moneyLine), [
        ['HOME', 0, 1.5, 'WIN', 'CLOSED'],
        ['AWAY', 0, 2.75, 'LOSE', 'CLOSED'],
      ]);
      assert.equal(typeof matchWinner.moneyLine!.marketId, 'number');
      assert.equal(matchWinner.moneyLine!.status, 'CLOSED');
      // 2-0 in sets: home -1.5 covers; two sets stay under 2.5.
      assert.deepEqual(sel(matchWinner.spread[0]), [
        ['HOME', -1.5, 2.4, 'WIN', 'CLOSED'],
        ['AWAY', 1.5, 1.6, 'LOSE', 'CLOSED'],
      ]);
      assert.deepEqual(sel(matchWinner.total[0]), [
        ['OVER', 2.5, 2, 'LOSE', 'CLOSED'],
        ['UNDER', 2.5, 1.8, 'WIN', 'CLOSED'],
      ]);
      const home = matchWinner.moneyLine!.selection[0]!;
      assert.deepEqual(
        [home.id, home.homeLineup, home.awayLineup, home.probability, typeof home.outcomeId],
        ['tm-ja-ml-home', 'Goitia / Olaskoaga', 'Alberdi / Egurbide', 66.6667, 'string'],
      );
      // The settlement lifecycle's fields, as on every other route that settles.
      assert.deepEqual([home.settlementReason, home.deadHeatFactor, home.settlementStatus], ['RESULT', 1, 'OFFICIAL']);
      // Set 1 went 15-9: 24 points, under 24.5.
      assert.deepEqual(
        body.sets.map((s) => [s.id, s.name, s.publicId]),
        [['ja1-set-1', 'Set 1', `jaialai:${JAI_1}/ja1-set-1`]],
      );
      assert.deepEqual(sel(body.sets[0]!.moneyLine), [
        ['HOME', 0, 1.6, 'WIN', 'CLOSED'],
        ['AWAY', 0, 2.4, 'LOSE', 'CLOSED'],
      ]);
      assert.deepEqual(sel(body.sets[0]!.total[0]), [
        ['OVER', 24.5, 1.9, 'LOSE', 'CLOSED'],
        ['UNDER', 24.5, 1.9, 'WIN', 'CLOSED'],
      ]);
      assert.deepEqual(body.sets[0]!.spread, []);
      assert.equal(body.futures!.type, 'winner');
      assert.equal(typeof body.futures!.groupId, 'number');
      assert.deepEqual(
        body.futures!.moneyLine!.map((m) => [m.id, m.status]),
        [[`jaialai:${JAI_FUTURE}`, 'ACTIVE']],
      );
      assert.deepEqual(
        body.futures!.moneyLine[0]!.selection.map((o) => [o.homeLineup, o.odds, o.americanOdds, o.type, o.settlement]),
        [
          ['Goitia / Olaskoaga', 3, 200, 'WINNER', 'NOT_SET'],
          ['Alberdi / Egurbide', 3.5, 250, 'WINNER', 'NOT_SET'],
        ],
      );
    }
    // A match without markets still answers, with empty members.
    const live = json<JaiAlaiOdds>(await get(`/events/jaialai/${JAI_3}/odds`));
    assert.deepEqual(
      [live.eventWinner.moneyLine, live.matchWinner.spread, live.matchWinner.total, live.sets],
      [null, [], [], []],
    );
  });

  test('route 6 still answers teamMarkets of a curling match, the typed markets included; rule 1 routes /events/gsoc/{id} to route 8', async () => {
    const body = json<EventOdds>(await get(`/events/gsoc:${GSOC_DONE}/teamMarkets`));
    assert.equal(body.oddType, 'teamMarkets');
    assert.deepEqual(
      body.teamMarkets!.map((o) => [o.id, o.settlement]),
      [
        ['tm-gd-ml-home', 'WIN'],
        ['tm-gd-ml-away', 'LOSE'],
        ['tm-gd-spread-home', 'PUSH'],
        ['tm-gd-spread-away', 'PUSH'],
        ['tm-gd-total-over', 'WIN'],
        ['tm-gd-total-under', 'LOSE'],
        ['tm-gd-end1-home', 'LOSE'],
        ['tm-gd-end1-away', 'LOSE'],
        ['tm-gd-end1-draw', 'WIN'],
      ],
    );
    const routed = json<CurlingEvent>(await get(`/events/gsoc/${GSOC_DONE}`));
    assert.ok(Array.isArray(routed.ends), 'route 8, not route 6 with eventId "gsoc"');
    assert.ok(!('oddType' in routed));
    // The other literal segments select their routes too.
    assert.ok(Array.isArray(json<TableTennisEvent>(await get(`/events/mltt/${MLTT_MATCH}`)).games));
    assert.ok(Array.isArray(json<LacrosseEvent>(await get(`/events/nll/${NLL_GAME}`)).quarters));
    assert.ok(Array.isArray(json<ThreeIceEvent>(await get(`/events/3ice/${ICE_SF1}`)).periods));
    assert.ok(Array.isArray(json<JaiAlaiMatch[]>(await get(`/events/jaialai/${JAI_CARD}`))));
  });

  test('route 7 on a live match: moneyline with total prices; contradictory legs are 422s', async () => {
    const id = `gsoc:${GSOC_LIVE}`;
    const priced = await post(`/events/${id}/sgp`, ['tm-gl-ml-home', 'tm-gl-total-over']);
    const body = json<SgpResponse>(priced, 201);
    assert.equal(body.eventId, id);
    assert.deepEqual(
      body.legs.map((l) => [l.oddId, l.oddType, l.selection]),
      [
        ['tm-gl-ml-home', 'teamMarkets', 'Team Jacobs to win'],
        ['tm-gl-total-over', 'teamMarkets', 'Total over 10.5'],
      ],
    );
    assert.equal(typeof body.correlationFactor, 'number');
    assert.ok(body.correlationFactor > 0);
    assert.ok(body.probability > 0 && body.probability < 100);
    assert.ok(
      Math.abs(body.independentProbability - ((100 / 1.9) * (100 / 1.9)) / 100) < 0.01,
      String(body.independentProbability),
    );

    const both = errorBody(await post(`/events/${id}/sgp`, ['tm-gl-ml-home', 'tm-gl-ml-away']), 422);
    assert.deepEqual(new Set(both.metadata.conflictingOddIds as string[]), new Set(['tm-gl-ml-home', 'tm-gl-ml-away']));
    // Home wins and away wins by two or more cannot both happen.
    const handicap = errorBody(await post(`/events/${id}/sgp`, ['tm-gl-ml-home', 'tm-gl-spread-p-away']), 422);
    assert.deepEqual(
      new Set(handicap.metadata.conflictingOddIds as string[]),
      new Set(['tm-gl-ml-home', 'tm-gl-spread-p-away']),
    );
    assert.match(handicap.message, /"Team Jacobs to win" and "Team Gushue -1\.5" cannot both happen/);
    // Home wins and away +1.5 can (home by one).
    json<SgpResponse>(await post(`/events/${id}/sgp`, ['tm-gl-ml-home', 'tm-gl-spread-m-away']), 201);
    // Settled odds of the completed match are not open for a parlay.
    errorBody(await post(`/events/gsoc:${GSOC_DONE}/sgp`, ['tm-gd-ml-home', 'tm-gd-total-over']), 422);
  });

  test('a key restricted to another competition gets 404 on routes 8 to 17, as for an unknown id', async () => {
    const wslOnly = { 'x-api-key': WSL_ONLY_KEY };
    for (const url of [
      `/events/gsoc/gsoc:${GSOC_DONE}`,
      `/events/gsoc/${GSOC_DONE}/odds`,
      `/events/mltt/${MLTT_MATCH}`,
      `/events/mltt/${MLTT_MATCH}/odds`,
      `/events/nll/${NLL_GAME}`,
      `/events/nll/${NLL_GAME}/odds`,
      `/events/3ice/${ICE_QF[0]}`,
      `/events/3ice/bracket/${ICE_TOUR_YEAR}`,
      `/events/jaialai/${JAI_CARD}`,
      `/events/jaialai/${JAI_1}/odds`,
    ]) {
      const body = errorBody(await get(url, wslOnly), 404);
      assert.match(body.message, /not found$/, url);
      assert.equal(body.metadata.allowedCompetitions, undefined, url);
    }
    // The full key reads the same URL.
    json<CurlingEvent>(await get(`/events/gsoc/${GSOC_DONE}`));
  });
});
