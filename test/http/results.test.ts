import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { HeatScoreRow, Participant } from '../../src/shapes/results.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, sharedFixture } from '../helpers/app.ts';
import { MASL_GAME, WSL_LIVE, WSL_PAST } from '../helpers/feed-fixture.ts';
import { BKFC_EVENT, NHRA_EVENT, PBR_EVENT, resultsFeed, SLS_EVENT, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const BASE = '/api/v1/public';

async function resultsApp(store: Store) {
  const app = await fixtureApp(store);
  await ingestFeed(store, resultsFeed());
  const rows = async (eventId: string, heatId: string) => {
    const res = await app.get(`${BASE}/events/${eventId}/heats/${heatId}`);
    assert.equal(res.statusCode, 200, res.body);
    return JSON.parse(res.body) as HeatScoreRow[];
  };
  return { ...app, rows };
}

const pick = (rows: HeatScoreRow[], ...fields: Array<keyof HeatScoreRow>) =>
  rows.map((r) => [r.athlete.id, ...fields.map((f) => r[f])]);

describeEachStore('GET /events/{eventId}/heats/{heatId}', (_open, kind) => {
  // The tests only read.
  const shared = sharedFixture(kind, resultsApp);

  test('a skateboarding row carries every field of section 2.5, derived ones computed', async () => {
    const { rows } = shared();
    const [first, second] = await rows(`sls:${SLS_EVENT}`, 'sls-h1');
    assert.deepEqual(first, {
      id: 'e-sls-b',
      numericSportId: 2,
      sportKey: 'skateboarding',
      sportName: 'Skateboarding',
      numericCompetitionId: 2,
      competitionKey: 'sls',
      competitionName: 'Street League Skateboarding',
      referenceId: 18,
      heatStatus: 'COMPLETED',
      eventId: `sls:${SLS_EVENT}`,
      numericEventId: 6,
      heatId: 'sls-h1',
      athleteRoundSeed: 2,
      athleteRoundRank: 1,
      athleteHeatScore: null,
      athleteLapTime: null,
      athletePenaltyTime: 0,
      athleteJokerLapTime: 0,
      athleteJokerLap: 0,
      athleteLapStatus: 'ACT',
      totalLaps: null,
      athleteLapsLed: null,
      athleteFastestLapCount: null,
      athleteFastestLapSeconds: null,
      athleteFastestLapNo: null,
      roundScore: 27.1,
      lineScore1: 8.7,
      lineScore2: null,
      trick1Score: 9.1,
      trick2Score: 7.3,
      trick3Score: 9.3,
      trick4Score: 0,
      trick5Score: null,
      trick6Score: null,
      riderScore: null,
      bullScore: null,
      athlete: {
        id: 'sls-b',
        referenceId: 12,
        firstName: 'Yuto',
        middleName: '',
        lastName: 'Horigome',
        nationality: 'USA',
        stance: null,
        team: { id: '', referenceId: 0, name: '' },
        hometown: null,
        height: null,
        weight: null,
        gender: null,
        dob: null,
        providerId: null,
      },
      updatedAt: '2026-05-01T00:00:00.000Z',
    });
    // The better run (8.1) and the two best tricks (9.0, 8.4).
    assert.equal(second?.roundScore, 25.5);
  });

  test('combat: winner 1 and loser 2, a draw ranks both 1, a no contest and a live fight rank neither; winBy spelt as published', async () => {
    const { rows } = shared();
    const event = `bkfc:${BKFC_EVENT}`;
    assert.deepEqual(pick(await rows(event, 'bk-h1'), 'athleteRoundRank', 'winBy'), [
      ['bk-red', 1, 'KO'],
      ['bk-blue', 2, 'KO'],
    ]);
    assert.deepEqual(pick(await rows(event, 'bk-h2'), 'athleteRoundRank', 'winBy'), [
      ['bk-green', 1, 'Split Draw'],
      ['bk-gold', 1, 'Split Draw'],
    ]);
    assert.deepEqual(pick(await rows(event, 'bk-h3'), 'athleteRoundRank', 'winBy'), [
      ['bk-red', null, 'No Contest'],
      ['bk-green', null, 'No Contest'],
    ]);
    assert.deepEqual(pick(await rows(event, 'bk-h4'), 'athleteRoundRank', 'winBy'), [
      ['bk-blue', null, null],
      ['bk-gold', null, null],
    ]);
    const [winner] = await rows(event, 'bk-h1');
    assert.equal(winner?.athlete.weightClass, 'Cruiserweight');
    assert.equal(winner?.athlete.height, '178');
    assert.equal(winner?.athlete.weight, '90.5');
    assert.equal(winner?.updatedAt, '2026-05-01T02:00:00.000Z', 'the result is newer than the score and the heat');
    assert.ok(!('isTeamEvent' in (winner as object)));
  });

  test('supercross: lap statistics from the per-lap records, lap 1 excluded from fastest laps, DNS did not race', async () => {
    const { rows } = shared();
    assert.deepEqual(
      pick(
        await rows(SPR_EVENT, 'sx-h1'),
        'athleteRoundRank',
        'athleteLapsLed',
        'athleteFastestLapCount',
        'athleteFastestLapSeconds',
        'athleteFastestLapNo',
        'athleteLapStatus',
        'athletePenaltyTime',
      ),
      [
        ['sx-a', 1, 2, 1, 47.5, 2, 'ACT', 0],
        ['sx-b', 2, 1, 1, 47.7, 3, 'ACT', 5],
        ['sx-c', 3, 0, 0, 47.9, 2, 'ACT', 0],
        ['sx-d', null, null, null, null, null, 'DNS', 0],
      ],
    );
    const [row] = await rows(SPR_EVENT, 'sx-h1');
    assert.ok(!('winBy' in (row as object)), 'winBy is for combat sports only');
  });

  test('bull riding: rank always null; a team game carries isTeamEvent, eventType and the home flag', async () => {
    const { rows } = shared();
    const game = await rows(`pbr:${PBR_EVENT}`, 'pbr-h1');
    assert.deepEqual(pick(game, 'athleteRoundRank', 'isTeamEvent', 'eventType', 'riderScore', 'bullScore'), [
      ['pbr-a', null, true, 'PBR Teams', 91.25, 45.5],
      ['pbr-b', null, true, 'PBR Teams', 0, 44],
    ]);
    assert.deepEqual(
      game.map((r) => r.athlete.team),
      [
        { id: 'pbr-gamblers', referenceId: 3, name: 'Austin Gamblers', isHomeTeam: false },
        { id: 'pbr-stampede', referenceId: 4, name: 'Nashville Stampede', isHomeTeam: true },
      ],
    );
    const [single] = await rows(`pbr:${PBR_EVENT}`, 'pbr-h2');
    assert.equal(single?.isTeamEvent, false);
    assert.equal(single?.eventType, null);
    assert.deepEqual(single?.athlete.team, { id: 'pbr-gamblers', referenceId: 3, name: 'Austin Gamblers' });
  });

  test('drag racing: the pairing winner ranks 1 over a stored position; elsewhere only a stored 1 is published', async () => {
    const { rows } = shared();
    assert.deepEqual(pick(await rows(NHRA_EVENT, 'nh-h1'), 'athleteRoundRank'), [
      ['nh-b', 1],
      ['nh-a', 2],
    ]);
    assert.deepEqual(pick(await rows(NHRA_EVENT, 'nh-h2'), 'athleteRoundRank'), [
      ['nh-a', 1],
      ['nh-b', null],
      ['nh-c', null],
    ]);
  });

  test('surfing: rows by rank, then seed; unscored is null; updatedAt is the later of score and heat', async () => {
    const { rows } = shared();
    assert.deepEqual(pick(await rows(`wsl:${WSL_LIVE}`, 'h-1'), 'athleteRoundRank', 'athleteHeatScore', 'updatedAt'), [
      ['ath-1', 1, 15.5, '2026-04-02T03:00:00.000Z'],
      ['ath-2', 2, 12.1, '2026-04-02T00:00:00.000Z'],
    ]);
    assert.deepEqual(pick(await rows(WSL_LIVE, 'h-3'), 'athleteRoundRank', 'athleteRoundSeed', 'athleteHeatScore'), [
      ['ath-1', null, 1, 7.83],
      ['ath-2', null, 2, null],
    ]);
  });

  test('404 with the error body for an unknown event or heat, or a heat of another event', async () => {
    const { get } = shared();
    for (const url of [
      `events/wsl:${WSL_PAST.replace('1', '9')}/heats/h-1`,
      `events/wsl:${WSL_LIVE}/heats/nope`,
      `events/wsl:${WSL_PAST}/heats/h-1`,
      `events/sls:${WSL_LIVE}/heats/h-1`,
    ]) {
      const res = await get(`${BASE}/${url}`);
      assert.equal(res.statusCode, 404, url);
      const body = JSON.parse(res.body);
      assert.equal(body.statusCode, 404);
      assert.match(body.message, /not found/);
      assert.ok(
        typeof body.timestamp === 'string' && typeof body.stack === 'string' && typeof body.metadata === 'object',
      );
    }
  });

  test('a key limited to other competitions gets 404, as for an unknown event', async () => {
    const { app } = shared();
    const res = await app.inject({
      url: `${BASE}/events/${BKFC_EVENT}/heats/bk-h1`,
      headers: { 'x-api-key': 'wsl-only-key-0123456789abcdef' },
    });
    assert.equal(res.statusCode, 404);
  });

  test('the event document links each heat to its scores and the event to its participants', async () => {
    const { get } = shared();
    const event = JSON.parse((await get(`${BASE}/events/${BKFC_EVENT}`)).body);
    assert.equal(event.rounds[0].heats[0].scoresUrl, `${BASE}/events/bkfc:${BKFC_EVENT}/heats/bk-h1`);
    assert.equal(event.participantsUrl, `${BASE}/events/bkfc:${BKFC_EVENT}/participants`);
    const followed = await get(event.rounds[0].heats[0].scoresUrl);
    assert.equal(followed.statusCode, 200);
    const game = JSON.parse((await get(`${BASE}/events/${MASL_GAME}`)).body);
    assert.equal(game.participantsUrl, null);
  });
});

describeEachStore('GET /events/{eventId}/participants', (_open, kind) => {
  // The tests only read.
  const shared = sharedFixture(kind, resultsApp);

  test('lists the entered athletes by seed, with status and the athlete of section 2.4', async () => {
    const { get } = shared();
    const res = await get(`${BASE}/events/wsl:${WSL_LIVE}/participants`);
    assert.equal(res.statusCode, 200);
    const body: Participant[] = JSON.parse(res.body);
    assert.deepEqual(
      body.map((p) => [p.id, p.eventId, p.seedNo, p.status, p.athlete.lastName, p.athlete.stance]),
      [
        ['p-wsl-2', `wsl:${WSL_LIVE}`, 1, 'ACTIVE', 'Florence', 'Regular'],
        ['p-wsl-1', `wsl:${WSL_LIVE}`, 2, 'ELIMINATED', 'Ferreira', 'Regular'],
      ],
    );
    assert.deepEqual(Object.keys(body[0]!), ['id', 'eventId', 'seedNo', 'status', 'athlete']);
    const none = await get(`${BASE}/events/wsl:${WSL_PAST}/participants`);
    assert.deepEqual(JSON.parse(none.body), []);
  });

  test('400 where the format publishes teams, 404 for an unknown event', async () => {
    const { get } = shared();
    const teams = await get(`${BASE}/events/masl:${MASL_GAME}/participants`);
    assert.equal(teams.statusCode, 400);
    assert.match(JSON.parse(teams.body).message, /publishes teams/);
    const unknown = await get(`${BASE}/events/wsl:00000000-0000-4000-8000-000000000000/participants`);
    assert.equal(unknown.statusCode, 404);
    assert.equal(JSON.parse(unknown.body).statusCode, 404);
  });
});
