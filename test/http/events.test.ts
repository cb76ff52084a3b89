import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIXTURE_LOADED_AT, sharedFixtureApp } from '../helpers/app.ts';
import { MASL_GAME, WSL_LIVE, WSL_PAST } from '../helpers/feed-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';
const ids = (body: string) => (JSON.parse(body) as Array<{ id: string }>).map((e) => e.id);

describeEachStore('GET /events', (_open, kind) => {
  // Every test only reads the fixture.
  const { get } = sharedFixtureApp(kind);

  test('lists every event, ascending by start date, with the list item fields', async () => {
    const res = await get(`${BASE}/events`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(ids(res.body), [`wsl:${WSL_PAST}`, `masl:${MASL_GAME}`, `wsl:${WSL_LIVE}`]);
    const [first] = JSON.parse(res.body);
    assert.deepEqual(first, {
      id: `wsl:${WSL_PAST}`,
      numericEventId: 1,
      name: 'Pipe Pro',
      competition: 'wsl',
      tourName: "Men's Championship Tour",
      startDate: '2026-01-27T00:00:00.000Z',
      endDate: '2026-02-08T00:00:00.000Z',
      year: 2026,
      eventNumber: 1,
      eventStatus: 'COMPLETED',
      eventLocation: 'Banzai Pipeline',
      eventLocationGroup: 'Hawaii',
      updatedAt: '2026-02-08T00:00:00.000Z',
      lastChangedAt: FIXTURE_LOADED_AT,
    });
  });

  test('sortOrder=DESC reverses the order', async () => {
    assert.deepEqual(ids((await get(`${BASE}/events?sortOrder=DESC`)).body), [
      `wsl:${WSL_LIVE}`,
      `masl:${MASL_GAME}`,
      `wsl:${WSL_PAST}`,
    ]);
  });

  test('competition and its deprecated alias sportType filter alike; conflicting values are a 400', async () => {
    assert.deepEqual(ids((await get(`${BASE}/events?competition=masl`)).body), [`masl:${MASL_GAME}`]);
    assert.deepEqual(ids((await get(`${BASE}/events?sportType=masl`)).body), [`masl:${MASL_GAME}`]);
    assert.deepEqual(ids((await get(`${BASE}/events?sportType=masl&competition=masl`)).body), [`masl:${MASL_GAME}`]);
    const conflict = await get(`${BASE}/events?sportType=masl&competition=wsl`);
    assert.equal(conflict.statusCode, 400);
    assert.match(JSON.parse(conflict.body).message, /competition.*sportType/);
    const bad = await get(`${BASE}/events?competition=nba`);
    assert.equal(bad.statusCode, 400);
    assert.match(JSON.parse(bad.body).message, /"competition".*wsl, sls/);
  });

  test('competition takes a list like every list filter (it was a 400): comma list, repeated, indexed', async () => {
    for (const query of [
      'competition=wsl,masl',
      'competition=masl&competition=wsl',
      'competition[0]=wsl&competition[1]=masl',
      'sportType=wsl,masl',
      'competition=wsl,masl&sportType=masl,wsl',
    ]) {
      const res = await get(`${BASE}/events?${query}`);
      assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
      assert.deepEqual(ids(res.body), [`wsl:${WSL_PAST}`, `masl:${MASL_GAME}`, `wsl:${WSL_LIVE}`], query);
    }
    const bad = await get(`${BASE}/events?competition=wsl,nba`);
    assert.equal(bad.statusCode, 400);
    assert.match(JSON.parse(bad.body).message, /"competition"/);
  });

  for (const [encoding, query] of [
    ['repeated', 'eventStatus=LIVE&eventStatus=UPCOMING'],
    ['comma list', 'eventStatus=LIVE,UPCOMING'],
    ['brackets', 'eventStatus[]=LIVE&eventStatus[]=UPCOMING'],
    ['indexed', 'eventStatus[0]=LIVE&eventStatus[1]=UPCOMING'],
    ['url-encoded indexed', 'eventStatus%5B0%5D=LIVE&eventStatus%5B1%5D=UPCOMING'],
  ] as const) {
    test(`eventStatus as ${encoding} filters by the set`, async () => {
      const res = await get(`${BASE}/events?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(ids(res.body), [`masl:${MASL_GAME}`, `wsl:${WSL_LIVE}`]);
    });
  }

  test('a single eventStatus works and an unknown one is a 400 naming the parameter and allowed values', async () => {
    assert.deepEqual(ids((await get(`${BASE}/events?eventStatus=COMPLETED`)).body), [`wsl:${WSL_PAST}`]);
    const res = await get(`${BASE}/events?eventStatus[0]=LIVE&eventStatus[1]=FINISHED`);
    assert.equal(res.statusCode, 400);
    const body = JSON.parse(res.body);
    assert.equal(body.statusCode, 400);
    assert.match(body.message, /"eventStatus".*LIVE, UPCOMING, NEXT, IN_WINDOW, COMPLETED, CANCELLED, POSTPONED/);
    assert.equal(body.metadata.parameter, 'eventStatus');
    assert.equal(typeof body.timestamp, 'string');
    assert.equal(body.stack, '');
  });

  test('a date range returns the events that overlap it', async () => {
    // Pipe Pro runs 27 Jan to 8 Feb: a range inside it, one touching its last day, one after it.
    assert.deepEqual(ids((await get(`${BASE}/events?startDate=2026-02-01&endDate=2026-02-02`)).body), [
      `wsl:${WSL_PAST}`,
    ]);
    assert.deepEqual(ids((await get(`${BASE}/events?startDate=2026-02-08&endDate=2026-02-08`)).body), [
      `wsl:${WSL_PAST}`,
    ]);
    assert.deepEqual(ids((await get(`${BASE}/events?startDate=2026-02-09&endDate=2026-02-28`)).body), []);
    assert.deepEqual(ids((await get(`${BASE}/events?startDate=2026-03-01`)).body), [
      `masl:${MASL_GAME}`,
      `wsl:${WSL_LIVE}`,
    ]);
    assert.deepEqual(ids((await get(`${BASE}/events?endDate=2026-01-27`)).body), [`wsl:${WSL_PAST}`]);
    assert.deepEqual(
      ids((await get(`${BASE}/events?startDate=2026-03-01T20:00:00Z&endDate=2026-03-01T20:30:00Z`)).body),
      [`masl:${MASL_GAME}`],
    );
  });

  test('invalid dates and a reversed range are 400s naming the parameter', async () => {
    for (const [query, name] of [
      ['startDate=2026-02-30', 'startDate'],
      ['endDate=yesterday', 'endDate'],
      ['startDate=2026-03-01&endDate=2026-02-01', 'endDate'],
    ] as const) {
      const res = await get(`${BASE}/events?${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.match(JSON.parse(res.body).message, new RegExp(`"${name}"`), query);
    }
  });

  test('limit pages with a cursor and a Link header until the list ends', async () => {
    const first = await get(`${BASE}/events?limit=2`);
    assert.deepEqual(ids(first.body), [`wsl:${WSL_PAST}`, `masl:${MASL_GAME}`]);
    const link = first.headers.link as string;
    assert.match(link, /^<\/api\/v1\/public\/events\?limit=2&cursor=[\w-]+>; rel="next"$/);
    const next = await get(link.slice(1, link.indexOf('>')));
    assert.deepEqual(ids(next.body), [`wsl:${WSL_LIVE}`]);
    assert.equal(next.headers.link, undefined);
    assert.equal((await get(`${BASE}/events?cursor=not-a-cursor`)).statusCode, 400);
    assert.equal((await get(`${BASE}/events?limit=0`)).statusCode, 400);
  });

  test('updatedSince returns the events written since (the fixture was loaded at FIXTURE_LOADED_AT)', async () => {
    assert.equal(ids((await get(`${BASE}/events?updatedSince=2026-04-04T23:59:59Z`)).body).length, 3);
    assert.deepEqual(ids((await get(`${BASE}/events?updatedSince=${FIXTURE_LOADED_AT}`)).body), []);
  });

  test('unknown parameters are ignored', async () => {
    assert.equal(ids((await get(`${BASE}/events?foo=bar`)).body).length, 3);
  });

  test('envelope=data wraps the body as the provider tutorial shows', async () => {
    const body = JSON.parse((await get(`${BASE}/events?competition=masl&envelope=data`)).body);
    assert.equal(body.status, 200);
    assert.equal(body.message, 'Success');
    assert.deepEqual(
      body.data.map((e: { id: string }) => e.id),
      [`masl:${MASL_GAME}`],
    );
  });
});

describeEachStore('GET /events/{eventId}', (_open, kind) => {
  const { get } = sharedFixtureApp(kind);

  test('returns the event with rounds, heats and teams, by prefixed id or bare uuid', async () => {
    const prefixed = await get(`${BASE}/events/wsl:${WSL_LIVE}`);
    assert.equal(prefixed.statusCode, 200);
    const event = JSON.parse(prefixed.body);
    assert.equal(event.id, `wsl:${WSL_LIVE}`);
    assert.equal(event.sportId, 'wsl');
    assert.equal(event.sportType, 'wsl');
    assert.equal(event.numericSportId, 1);
    assert.equal(event.tourId, 'wsl-ct-men');
    assert.equal(event.tourName, "Men's Championship Tour");
    assert.equal(event.seasonType, 'regular');
    assert.deepEqual(
      event.rounds.map((r: { roundName: string; heats: Array<{ heatName: string; heatStatus: string }> }) => [
        r.roundName,
        r.heats.map((h) => `${h.heatName}:${h.heatStatus}`),
      ]),
      [
        ['Opening Round', ['Heat 1:COMPLETED', 'Heat 2:COMPLETED']],
        ['Elimination Round', ['Heat 1:LIVE']],
      ],
    );
    assert.deepEqual(event.teams, []);
    assert.equal(event.updatedAt, '2026-04-02T00:00:00.000Z');
    const bare = await get(`${BASE}/events/${WSL_LIVE}`);
    assert.equal(bare.body, prefixed.body);
  });

  test('a team game carries its teams with the home flag and round scores', async () => {
    const event = JSON.parse((await get(`${BASE}/events/masl:${MASL_GAME}`)).body);
    assert.deepEqual(
      event.teams.map((t: { id: string; isHomeTeam: boolean; shortName: string }) => [t.id, t.shortName, t.isHomeTeam]),
      [
        ['sockers', 'SD', true],
        ['wave', 'MIL', false],
      ],
    );
    assert.deepEqual(
      event.rounds[0].scores.map((s: { teamId: string; goals: number }) => [s.teamId, s.goals]),
      [
        ['sockers', 0],
        ['wave', 0],
      ],
    );
  });

  test('unknown, malformed and wrong-prefix ids are 404s with the error body', async () => {
    for (const id of [
      `wsl:${MASL_GAME}`,
      'wsl:00000000-0000-4000-8000-000000000000',
      'nope',
      `nba:${WSL_LIVE}`,
      '%20',
    ]) {
      const res = await get(`${BASE}/events/${id}`);
      assert.equal(res.statusCode, 404, id);
      const body = JSON.parse(res.body);
      assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'metadata', 'stack', 'statusCode', 'timestamp']);
      assert.equal(body.statusCode, 404);
    }
  });
});
