/**
 * The typed client of clients/typescript against a running server over real HTTP: every
 * public route through its named method and the generic `get`, the query parameters as the server
 * reads them, cursor pages, the error class, 429 retries honouring Retry-After, and ETag polling.
 *
 * Rate limits count per clock minute, so a 429 says "retry in up to 60 s". Rather than wait, the
 * 429 test freezes Date with node:test's mock timers (Date only: sockets and timers run as usual)
 * and gives the client a `sleep` that advances the mocked clock by what it was asked to wait: the
 * in-process server then sees the next minute, as it would after a real wait.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  AltsportsApiError,
  type AltsportsClient,
  createClient,
  type HeatScoreRow,
} from '../../../clients/typescript/src/index.ts';
import { createApiKey } from '../../../src/access/api-keys.ts';
import { createPlan } from '../../../src/access/plans.ts';
import { TEST_KEY, WSL_ONLY_KEY } from '../../helpers/app.ts';
import { MASL_GAME, WSL_FUTURE, WSL_LIVE, WSL_PAST } from '../../helpers/feed-fixture.ts';
import { oddsFeed } from '../../helpers/odds-fixture.ts';
import { BKFC_EVENT, resultsFeed, SPR_EVENT } from '../../helpers/results-fixture.ts';
import {
  GSOC_DONE,
  GSOC_LIVE,
  ICE_QF,
  ICE_TOUR_YEAR,
  JAI_1,
  JAI_2,
  JAI_3,
  JAI_CARD,
  MLTT_MATCH,
  NLL_GAME,
  teamMatchFeed,
} from '../../helpers/team-match-fixture.ts';
import { type RunningServer, recordingFetch, startServer } from './running-server.ts';

const SPR = `spr:${SPR_EVENT}`;
const BELLS = `wsl:${WSL_LIVE}`;
const UNKNOWN = 'wsl:00000000-0000-4000-8000-0000000000ff';

/** Awaits `promise`, asserts it rejects with an AltsportsApiError of `status`, and returns the error. */
async function apiError(promise: Promise<unknown>, status: number): Promise<AltsportsApiError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof AltsportsApiError, `expected an AltsportsApiError, got ${String(caught)}`);
  assert.equal(caught.status, status, caught.message);
  assert.equal(caught.statusCode, status);
  assert.equal(caught.body?.statusCode, status);
  return caught;
}

// Compile-time checks: `npx tsc --noEmit` (CI) fails if the generated types stop constraining calls.
// Never called.
export function typeChecks(client: AltsportsClient): void {
  // @ts-expect-error a route the server does not have
  void client.get('/eventz', {});
  // @ts-expect-error the path parameters of /events/{eventId} are required
  void client.get('/events/{eventId}');
  // @ts-expect-error eventStatus takes the statuses of the specification only
  void client.events({ eventStatus: ['FINISHED'] });
  // @ts-expect-error exactasType is 2, 3 or 4
  void client.odds('spr:x', 'eventExacta', { exactasType: 5 });
  // @ts-expect-error not an odd type
  void client.odds('spr:x', 'winner');
  // @ts-expect-error the stream is read with subscribe()
  void client.get('/stream', {});
  // Routes without required parameters take no options at all.
  void client.get('/sports');
  // The odd type's member is present (no `?.`), typed from the schema.
  void client.odds('spr:x', 'eventWinner').then((odds) => odds.eventWinner.map((o) => o.odds.toFixed(2)));
}

describe('typed client: every public route over HTTP', () => {
  let server: RunningServer;
  let client: AltsportsClient;
  let recorder: ReturnType<typeof recordingFetch>;

  // The routes only read: one server serves every test of this block.
  before(async () => {
    server = await startServer({ feeds: [resultsFeed(), oddsFeed(), teamMatchFeed()] });
    recorder = recordingFetch();
    client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY, fetch: recorder.fetch });
  });
  after(() => server.close());

  test('route 1: the 30 competitions; the key goes in X-API-KEY', async () => {
    const sports = await client.sports();
    assert.equal(sports.length, 30);
    assert.deepEqual(
      sports.slice(0, 4).map((s) => s.key),
      ['wsl', 'sls', 'spr', 'masl'],
    );
    const wsl = sports.find((s) => s.key === 'wsl');
    assert.equal(wsl?.name, 'World Surf League');
    const last = recorder.exchanges.at(-1);
    assert.equal(last?.url, `${server.baseUrl}/api/v1/public/sports`);
    assert.equal(last?.requestHeaders.get('x-api-key'), TEST_KEY);
  });

  test('route 2: filters by competition, repeated statuses, sort order and dates', async () => {
    assert.deepEqual(
      (await client.events({ competition: 'wsl' })).map((e) => [e.id, e.name, e.eventStatus]),
      [
        [`wsl:${WSL_PAST}`, 'Pipe Pro', 'COMPLETED'],
        [BELLS, 'Rip Curl Pro Bells Beach', 'LIVE'],
      ],
    );
    // A list filter takes one value or a list (sent repeated).
    assert.deepEqual(
      (await client.events({ competition: ['wsl', 'masl'] })).map((e) => e.id).sort(),
      [`wsl:${WSL_PAST}`, BELLS, `masl:${MASL_GAME}`].sort(),
    );
    assert.deepEqual(
      (await client.events({ competition: 'wsl', sortOrder: 'DESC' })).map((e) => e.name),
      ['Rip Curl Pro Bells Beach', 'Pipe Pro'],
    );

    const live = await client.events({ eventStatus: ['LIVE', 'COMPLETED'], competition: 'wsl' });
    assert.equal(live.length, 2);
    const sent = new URL(recorder.exchanges.at(-1)?.url ?? '');
    assert.deepEqual(
      sent.searchParams.getAll('eventStatus'),
      ['LIVE', 'COMPLETED'],
      'an array is sent as a repeated parameter',
    );
    assert.deepEqual(
      (await client.events({ competition: 'wsl', eventStatus: ['LIVE'] })).map((e) => e.id),
      [BELLS],
    );

    // Pipe Pro runs Jan 27 to Feb 8, Bells Apr 1 to 11: a March window holds the arena game only.
    assert.deepEqual(
      (await client.events({ startDate: '2026-03-01', endDate: '2026-03-02', competition: 'masl' })).map((e) => e.id),
      [`masl:${MASL_GAME}`],
    );
    assert.deepEqual(await client.events({ startDate: '2026-02-10', endDate: '2026-03-31', competition: 'wsl' }), []);
  });

  test("route 2 in pages: the Link header's cursor is followed to the last page", async () => {
    const whole = await client.events();
    assert.ok(whole.length > 10, String(whole.length));

    const first = await client.getResponse('/events', { query: { limit: 4 } });
    assert.equal(first.data.length, 4);
    assert.equal(typeof first.nextCursor, 'string');
    assert.match(first.headers.get('link') ?? '', /rel="next"/);

    const pages: string[][] = [];
    for await (const page of client.eventPages({ limit: 4 })) pages.push(page.map((e) => e.id));
    assert.equal(pages.length, Math.ceil(whole.length / 4));
    assert.deepEqual(
      pages.flat(),
      whole.map((e) => e.id),
      'the pages put together are the whole list, in order',
    );
    const cursors = recorder.exchanges.slice(-pages.length).map((x) => new URL(x.url).searchParams.get('cursor'));
    assert.equal(cursors[0], null);
    assert.ok(
      cursors.slice(1).every((c) => typeof c === 'string' && c.length > 0),
      'later pages send the cursor',
    );
  });

  test("routes 3 to 5: an event, its participants by seed, a heat's score rows", async () => {
    const bells = await client.event(BELLS);
    assert.equal(bells.name, 'Rip Curl Pro Bells Beach');
    assert.deepEqual(
      bells.rounds.map((r) => [r.roundName, r.heats.map((h) => h.heatName)]),
      [
        ['Opening Round', ['Heat 1', 'Heat 2']],
        ['Elimination Round', ['Heat 1']],
      ],
    );
    // The generic get is the same call.
    assert.deepEqual(
      await client.get('/events/{eventId}', { path: { eventId: WSL_LIVE } }),
      bells,
      'a bare uuid names the same event',
    );

    const participants = await client.participants(SPR);
    assert.deepEqual(participants.map((p) => [p.athlete.id, p.seedNo]).slice(0, 3), [
      ['sx-b', 1],
      ['sx-c', 2],
      ['sx-a', 3],
    ]);

    const rows: HeatScoreRow[] = await client.heatScores(SPR, 'sx-h1');
    const tomac = rows.find((r) => r.athlete.id === 'sx-a');
    assert.deepEqual(
      [tomac?.athleteRoundRank, tomac?.athleteLapTime, tomac?.athleteLapsLed, tomac?.athleteFastestLapSeconds],
      [1, 47.8, 2, 47.5],
    );
    assert.equal(rows[0]?.athlete.lastName, 'Tomac', 'by rank');
  });

  test('route 6: each odd type with its query parameters', async () => {
    const winner = await client.odds(SPR, 'eventWinner');
    assert.equal(winner.oddType, 'eventWinner');
    assert.deepEqual(winner.eventWinner.map((o) => [o.id, o.odds, o.settlement]).slice(0, 2), [
      ['o-sx-win-a', 2.5, 'WIN'],
      ['o-sx-win-b', 2.5, 'LOSE'],
    ]);

    const trifecta = await client.odds(SPR, 'eventExacta', { exactasType: 3 });
    assert.deepEqual(
      trifecta.eventExacta.map((o) => [o.id, o.odds, o.exactasType]),
      [['o-sx-trifecta-abc', 20, 3]],
    );
    assert.equal(new URL(recorder.exchanges.at(-1)?.url ?? '').searchParams.get('exactasType'), '3');
    const exactas = await client.odds(SPR, 'eventExacta');
    assert.deepEqual(exactas.eventExacta.map((o) => o.id).sort(), [
      'o-sx-exacta-ab',
      'o-sx-exacta-ba',
      'o-sx-trifecta-abc',
    ]);

    const overUnder = await client.odds(SPR, 'overUnder', { overUnderSubMarketType: 'finishingPosition' });
    assert.deepEqual(
      overUnder.overUnder.map((o) => [o.id, o.side, o.line, o.settlement]),
      [
        ['o-sx-ou-over', 'OVER', 2, 'PUSH'],
        ['o-sx-ou-under', 'UNDER', 2, 'PUSH'],
      ],
    );
    assert.deepEqual((await client.odds(SPR, 'overUnder', { overUnderSubMarketType: 'points' })).overUnder, []);

    const fights = await client.odds(`bkfc:${BKFC_EVENT}`, 'heatWinner');
    assert.ok(fights.heatWinner.length >= 4);

    const notOffered = await apiError(client.odds(SPR, 'teamMarkets'), 404);
    assert.match(notOffered.serverMessage, /teamMarkets/);
  });

  test('route 7: a same game parlay; legs that cannot all win are a 422 naming them', async () => {
    const parlay = await client.sgp(`gsoc:${GSOC_LIVE}`, ['tm-gl-ml-home', 'tm-gl-total-over']);
    assert.equal(parlay.eventId, `gsoc:${GSOC_LIVE}`);
    assert.deepEqual(
      parlay.legs.map((l) => [l.oddId, l.selection, l.odds]),
      [
        ['tm-gl-ml-home', 'Team Jacobs to win', 1.9],
        ['tm-gl-total-over', 'Total over 10.5', 1.9],
      ],
    );
    // Two legs at 1.9: the product of 52.6316 % twice.
    assert.equal(parlay.independentProbability, 27.7008);
    assert.equal(recorder.exchanges.at(-1)?.status, 201);
    assert.equal(recorder.exchanges.at(-1)?.requestHeaders.get('content-type'), 'application/json');

    // The object form of the body is typed too.
    const same = await client.post('/events/{eventId}/sgp', {
      path: { eventId: GSOC_LIVE },
      body: { oddIds: ['tm-gl-ml-home', 'tm-gl-total-over'] },
    });
    assert.equal(same.independentProbability, 27.7008);

    const conflict = await apiError(client.sgp(`gsoc:${GSOC_LIVE}`, ['tm-gl-ml-home', 'tm-gl-ml-away']), 422);
    assert.deepEqual(
      new Set(conflict.metadata.conflictingOddIds as string[]),
      new Set(['tm-gl-ml-home', 'tm-gl-ml-away']),
    );
    assert.deepEqual(conflict.metadata.legs, [
      { oddId: 'tm-gl-ml-home', code: 'SAME_MARKET' },
      { oddId: 'tm-gl-ml-away', code: 'SAME_MARKET' },
    ]);

    const american = await client.sgp(`gsoc:${GSOC_LIVE}`, ['tm-gl-ml-home', 'tm-gl-total-over'], {
      oddsFormat: 'american',
    });
    assert.equal(american.price, american.americanOdds);
    // Fed at 1.9: -112 towards the house, as -111 would pay 1.9009.
    assert.deepEqual(
      american.legs.map((l) => l.price),
      [-112, -112],
    );

    // The bet builder: the same price for the same legs, and what combines with them.
    const builder = await client.sgpOptions(`gsoc:${GSOC_LIVE}`, ['tm-gl-ml-home']);
    assert.deepEqual(
      builder.legs.map((l) => l.oddId),
      ['tm-gl-ml-home'],
    );
    const over = builder.options.find((o) => o.oddId === 'tm-gl-total-over');
    assert.deepEqual([over?.combinable, over?.probability], [true, parlay.probability]);
    assert.equal(builder.options.find((o) => o.oddId === 'tm-gl-ml-away')?.reason, 'SAME_MARKET');
  });

  test('routes 8 to 17: curling, table tennis, box lacrosse, 3ICE and its bracket, Jai Alai cards and odds', async () => {
    const curling = await client.curlingEvent(`gsoc:${GSOC_DONE}`);
    assert.deepEqual(
      [curling.name, curling.homeScore, curling.awayScore, curling.ends.length],
      ['Team Homan vs Team Einarson', 6, 4, 8],
    );
    assert.deepEqual(
      curling.teams.map((t) => [t.teamId, t.hasHammer, t.stoneColor]),
      [
        ['tm-gsoc-homan', false, 'red'],
        ['tm-gsoc-einarson', true, 'yellow'],
      ],
    );
    const curlingOdds = await client.curlingOdds(GSOC_DONE);
    assert.equal(curlingOdds.eventId, `gsoc:${GSOC_DONE}`);

    const tableTennis = await client.tableTennisEvent(`mltt:${MLTT_MATCH}`);
    assert.deepEqual([tableTennis.homeScore, tableTennis.awayScore, tableTennis.games.length], [4, 2, 7]);
    assert.equal((await client.tableTennisOdds(MLTT_MATCH)).eventId, `mltt:${MLTT_MATCH}`);

    const lacrosse = await client.lacrosseEvent(`nll:${NLL_GAME}`);
    assert.deepEqual(
      [lacrosse.homeScore, lacrosse.awayScore, lacrosse.quarters.map((q) => q.name)],
      [11, 12, ['Q1', 'Q2', 'Q3', 'Q4', 'Overtime']],
    );
    assert.equal((await client.lacrosseOdds(NLL_GAME)).eventId, `nll:${NLL_GAME}`);
    const wrongSport = await apiError(client.lacrosseOdds(`gsoc:${GSOC_DONE}`), 400);
    assert.equal(wrongSport.metadata.competition, 'gsoc');

    const hockey = await client.threeIceEvent(`3ice:${ICE_QF[2]}`);
    assert.deepEqual([hockey.homeScore, hockey.awayScore, hockey.tourYearId], [3, 2, ICE_TOUR_YEAR]);
    const bracket = await client.threeIceBracket(ICE_TOUR_YEAR);
    assert.deepEqual(
      bracket.rounds.map((r) => [r.name, r.slots.length]),
      [
        ['Quarterfinals', 4],
        ['Semifinals', 2],
        ['Final', 1],
      ],
    );

    const card = await client.jaiAlaiCard(JAI_CARD);
    assert.deepEqual(
      card.map((m) => m.id),
      [`jaialai:${JAI_1}`, `jaialai:${JAI_2}`, `jaialai:${JAI_3}`],
    );
    assert.ok(
      recorder.exchanges.at(-1)?.url.endsWith(`/events/jaialai/${JAI_CARD}`),
      'the card id goes in the path as written',
    );
    const jaiOdds = await client.jaiAlaiOdds(JAI_1);
    assert.deepEqual(
      jaiOdds.eventWinner.moneyLine?.selection.map((o) => [o.type, o.odds, o.settlement]),
      [
        ['HOME', 1.5, 'WIN'],
        ['AWAY', 2.75, 'LOSE'],
      ],
    );
  });

  test("routes 18 and 19: futures and one tour's odds of a future type", async () => {
    const futures = await client.futures();
    const wsl = futures.find((f) => f.id === `wsl:${WSL_FUTURE}`);
    assert.deepEqual([wsl?.type, wsl?.tourId, wsl?.isMarketOpen], ['winner', 'wsl-ct-men', true]);
    const odds = await client.futureOdds('wsl', 'wsl-ct-men', 'winner');
    assert.deepEqual(
      odds.map((o) => [o.name, o.odds[0]?.decimalOdds, o.odds[0]?.americanOdds]),
      [
        ['Italo Ferreira', 3.5, 250],
        ['John John Florence', 1.6667, -150],
      ],
    );
    await apiError(client.futureOdds('wsl', 'no-such-tour', 'top5'), 404);
  });

  test('errors: 401, 403 and 404 are AltsportsApiError with the error body and the X-Request-ID', async () => {
    const missing = await apiError(client.event(UNKNOWN), 404);
    assert.equal(missing.serverMessage, `Event "${UNKNOWN}" not found`);
    assert.equal(missing.metadata.eventId, UNKNOWN);
    assert.equal(missing.serverStack, '', 'no stack unless DEBUG_ERRORS=on');
    assert.ok(!Number.isNaN(Date.parse(missing.timestamp ?? '')), String(missing.timestamp));
    assert.equal(missing.requestId, recorder.exchanges.at(-1)?.responseHeaders.get('x-request-id'));
    assert.match(missing.requestId ?? '', /^[0-9a-f-]{36}$/);
    assert.match(missing.message, /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/public\/events\/wsl:0{8}-.* 404 Event/);

    const badKey = createClient({ baseUrl: server.baseUrl, apiKey: 'not-a-key-0123456789' });
    const unauthorized = await apiError(badKey.sports(), 401);
    assert.equal(typeof unauthorized.serverMessage, 'string');
    assert.ok(unauthorized.serverMessage.length > 0);

    const wslOnly = createClient({ baseUrl: server.baseUrl, apiKey: WSL_ONLY_KEY });
    assert.equal((await wslOnly.event(BELLS)).id, BELLS);
    // A filter naming another competition is a 403; an id of its events a 404, as an unknown id.
    await apiError(wslOnly.events({ competition: 'masl' }), 403);
    await apiError(wslOnly.event(`masl:${MASL_GAME}`), 404);
  });

  test('a missing path parameter is refused before any request', async () => {
    const before = recorder.exchanges.length;
    await assert.rejects(
      client.event(''),
      (error: unknown) => error instanceof TypeError && /"eventId" is missing/.test(error.message),
    );
    assert.equal(recorder.exchanges.length, before);
  });
});

describe('typed client: server settings', () => {
  test('a server that wraps bodies (RESPONSE_ENVELOPE=data) gives the same data', async () => {
    const server = await startServer({ env: { RESPONSE_ENVELOPE: 'data' } });
    try {
      const raw = (await (
        await fetch(`${server.baseUrl}/api/v1/public/futures`, { headers: { 'x-api-key': TEST_KEY } })
      ).json()) as { status: number; data: unknown[] };
      assert.equal(raw.status, 200, 'the server does wrap');
      const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
      const futures = await client.futures();
      assert.ok(Array.isArray(futures));
      assert.deepEqual(futures, raw.data);
      assert.equal((await client.event(BELLS)).name, 'Rip Curl Pro Bells Beach');
    } finally {
      await server.close();
    }
  });
});

describe('typed client: 429 and Retry-After', () => {
  // 30 s into a clock minute: a refused request is told to retry in 30 s.
  const HALF_PAST = Date.parse('2026-03-10T12:00:30Z');
  let server: RunningServer;
  before(async () => {
    // Every request as one: what a document built afresh costs is test/http/document-builds.test.ts's.
    server = await startServer({ env: { RATE_LIMIT_PER_MINUTE: '2', DOCUMENT_BUILD_COST: '1' } });
  });
  after(() => server.close());

  test('a 429 waits Retry-After (on a mocked clock), then the retry succeeds in the next minute', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: HALF_PAST });
    const recorder = recordingFetch();
    const slept: number[] = [];
    const retries: unknown[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      apiKey: TEST_KEY,
      fetch: recorder.fetch,
      retry: { maxRetries: 2, maxDelayMs: 60_000 },
      sleep: async (ms) => {
        slept.push(ms);
        t.mock.timers.tick(ms);
      },
      onRetry: (info) => retries.push(info),
    });
    const first = await client.getResponse('/sports');
    assert.deepEqual(first.rateLimit, { limit: 2, remaining: 1, resetSeconds: 30 });
    assert.equal(first.quota, null, 'a key without a plan has no monthly quota');
    await client.sports();
    const third = await client.getResponse('/sports');
    assert.equal(third.data.length, 30);
    assert.deepEqual(
      recorder.exchanges.map((x) => x.status),
      [200, 200, 429, 200],
    );
    assert.equal(recorder.exchanges[2]?.responseHeaders.get('retry-after'), '30');
    assert.deepEqual(slept, [30_000]);
    assert.deepEqual(retries, [
      {
        method: 'GET',
        url: `${server.baseUrl}/api/v1/public/sports`,
        status: 429,
        attempt: 1,
        delayMs: 30_000,
        requestId: recorder.exchanges[2]?.responseHeaders.get('x-request-id'),
      },
    ]);
    assert.deepEqual(
      third.rateLimit,
      { limit: 2, remaining: 1, resetSeconds: 60 },
      'the retry counted in the new minute',
    );
  });

  test('retries run out: the 429 is thrown with Retry-After and the window', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: HALF_PAST + 120_000 });
    const slept: number[] = [];
    // The sleep does not move the clock: every retry falls in the same minute.
    const client = createClient({
      baseUrl: server.baseUrl,
      apiKey: TEST_KEY,
      retry: { maxRetries: 2 },
      sleep: async (ms) => void slept.push(ms),
    });
    await client.sports();
    await client.sports();
    const error = await apiError(client.sports(), 429);
    assert.deepEqual(slept, [30_000, 30_000]);
    assert.equal(error.retryAfterSeconds, 30);
    assert.deepEqual([error.metadata.window, error.metadata.limit, error.metadata.retryAfter], ['minute', 2, 30]);
    assert.match(error.serverMessage, /Rate limit exceeded/);
  });

  test('a Retry-After longer than maxDelayMs is not waited: the 429 comes at once', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: HALF_PAST + 240_000 });
    const slept: number[] = [];
    const client = createClient({
      baseUrl: server.baseUrl,
      apiKey: TEST_KEY,
      retry: { maxRetries: 5, maxDelayMs: 10_000 },
      sleep: async (ms) => void slept.push(ms),
    });
    await client.sports();
    await client.sports();
    const error = await apiError(client.sports(), 429);
    assert.equal(error.retryAfterSeconds, 30);
    assert.deepEqual(slept, []);
  });
});

describe('typed client: a monthly quota', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test("X-Quota-* as the answer's quota; past it, a 429 that is not retried before the month ends", async () => {
    await createPlan(server.store, 'pair', { monthlyQuota: 2 });
    const { key } = await createApiKey(server.store, { name: 'on a plan', plan: 'pair' });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: key, retry: { maxRetries: 1, maxDelayMs: 60_000 } });
    const first = await client.getResponse('/sports');
    assert.equal(first.quota?.limit, 2);
    assert.equal(first.quota?.remaining, 1);
    assert.ok((first.quota?.resetSeconds ?? 0) > 0);
    assert.equal((await client.getResponse('/sports')).quota?.remaining, 0);
    await assert.rejects(client.getResponse('/sports'), (error: unknown) => {
      assert.ok(error instanceof AltsportsApiError);
      assert.equal(error.status, 429);
      assert.match(error.message, /Monthly quota exceeded/);
      return true;
    });
  });
});

describe('typed client: ETag polling', () => {
  test('poll yields the document, sends If-None-Match, sees 304s, then yields the change an admin feed made', async () => {
    const server = await startServer();
    try {
      const recorder = recordingFetch();
      const abort = new AbortController();
      let sleeps = 0;
      const client = createClient({
        baseUrl: server.baseUrl,
        apiKey: TEST_KEY,
        fetch: recorder.fetch,
        // Polls back to back; before the third poll, a surfer scores through the admin API.
        sleep: async () => {
          sleeps += 1;
          if (sleeps === 2) {
            await server.postFeed({
              heatEntries: [
                {
                  id: 'e-h3-b',
                  heatId: 'h-3',
                  athleteId: 'ath-2',
                  seed: 2,
                  heatScore: 7.5,
                  updatedAt: '2026-06-01T00:00:00.000Z',
                },
              ],
            });
          }
        },
      });
      let notModified = 0;
      const documents: Array<{ etag: string | null; rows: HeatScoreRow[] }> = [];
      for await (const answer of client.poll(
        '/events/{eventId}/heats/{heatId}',
        { path: { eventId: BELLS, heatId: 'h-3' } },
        { intervalMs: 1_000, signal: abort.signal, onNotModified: () => (notModified += 1) },
      )) {
        documents.push({ etag: answer.etag, rows: answer.data });
        if (documents.length === 2) abort.abort();
      }

      assert.equal(documents.length, 2, 'the first document and the change, nothing for the 304');
      assert.equal(notModified, 1);
      assert.deepEqual(
        recorder.exchanges.map((x) => x.status),
        [200, 304, 200],
      );
      const [first, second] = documents;
      assert.ok(first?.etag, 'the document has an ETag');
      assert.deepEqual(
        recorder.exchanges.map((x) => x.requestHeaders.get('if-none-match')),
        [null, first.etag, first.etag],
      );
      assert.notEqual(second?.etag, first.etag);
      assert.ok(!first.rows.some((r) => r.athleteHeatScore === 7.5));
      const florence = second?.rows.find((r) => r.athlete.id === 'ath-2');
      assert.equal(florence?.athleteHeatScore, 7.5);
    } finally {
      await server.close();
    }
  });

  test('getIfChanged: NotModified for the current ETag, the document for a stale one', async () => {
    const server = await startServer();
    try {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
      const current = await client.getResponse('/futures');
      assert.ok(current.etag);
      const same = await client.getIfChanged('/futures', current.etag);
      assert.equal(same.notModified, true);
      assert.equal(same.status, 304);
      assert.equal(same.etag, current.etag);
      const stale = await client.getIfChanged('/futures', '"not-the-etag"');
      assert.equal(stale.notModified, false);
      if (!stale.notModified) assert.deepEqual(stale.data, current.data);
    } finally {
      await server.close();
    }
  });
});

describe('typed client: what integrators reach for', () => {
  test('oddsSnapshot, oddsFormat, usage and a stream token through named methods', async () => {
    const server = await startServer({ feeds: [resultsFeed(), oddsFeed()] });
    try {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
      const markets = await client.oddsSnapshot({ eventId: SPR, oddType: 'eventWinner', oddsFormat: 'fractional' });
      assert.deepEqual(
        markets.map((m) => [m.eventId, m.oddType, m.marketId]),
        [[SPR, 'eventWinner', 'm-sx-win']],
      );
      const outcome = markets[0]?.outcomes.find((o) => 'id' in o && o.id === 'o-sx-win-a') as { price?: unknown };
      // As the traditional ladder prints it.
      assert.equal(outcome.price, '6/4');
      const odds = await client.odds(SPR, 'eventWinner', { oddsFormat: 'american' });
      assert.equal(odds.eventWinner.find((o) => o.id === 'o-sx-win-a')?.price, 150);
      const usage = await client.usage();
      assert.deepEqual(usage.today.byRoute, { '/odds': 1, '/events/{eventId}/{oddType}': 1 });
      assert.equal(usage.minute.limit, null);
      const { token, expiresAt } = await client.streamToken();
      assert.ok(Date.parse(expiresAt) > Date.now());
      const stream = await fetch(`${server.baseUrl}/api/v1/public/stream?token=${encodeURIComponent(token)}`);
      assert.equal(stream.status, 200);
      await stream.body?.cancel();
    } finally {
      await server.close();
    }
  });
});

describe('typed client: price history', () => {
  test('oddsHistory reads one outcome, and pages with limit', async () => {
    const server = await startServer({ feeds: [resultsFeed(), oddsFeed()] });
    try {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: TEST_KEY });
      const [one] = await client.oddsHistory(SPR, { outcomeId: 'o-sx-win-a' });
      assert.deepEqual(
        [one?.outcomeId, one?.oddType, one?.opening.odds, one?.closing?.odds, one?.changes.length],
        ['o-sx-win-a', 'eventWinner', 2.5, 2.5, 1],
      );
      const page = await client.oddsHistory(SPR, { oddType: 'eventWinner', limit: 2 });
      assert.deepEqual(
        page.map((o) => o.outcomeId),
        ['o-sx-win-a', 'o-sx-win-b'],
      );
    } finally {
      await server.close();
    }
  });
});
