import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { AltSportsData } from 'altsportsdata';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../src/access/api-keys.ts';
import { loadConfig } from '../../src/config.ts';
import { loadDemoData } from '../../src/demo/load-demo.ts';
import { getCompetition } from '../../src/domain/competitions.ts';
import type { Event, EventListItem } from '../../src/shapes/events.ts';
import type { AthleteOdd, EventOdds, HeatOdd, TeamMarketOdd } from '../../src/shapes/odds.ts';
import type { SnapshotMarket } from '../../src/shapes/odds-snapshot.ts';
import type { HeatScoreRow } from '../../src/shapes/results.ts';
import type {
  CurlingEvent,
  CurlingOdds,
  JaiAlaiMatch,
  JaiAlaiOdds,
  KnockoutBracket,
  PeriodDetail,
} from '../../src/shapes/sport-events.ts';
import { buildTestApp } from '../helpers/app.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

/**
 * The default demo dataset through routes 3, 4 and 5: every heat of every athlete competition answers,
 * and the derived fields keep the specification's invariants on real-looking data. Then routes 8 to 17
 * (formerly test/http/demo-matches.test.ts): every match of every sport-specific competition answers,
 * its prices agree with its result, the 3ICE bracket fills in, and Jai Alai cards group their matches.
 * One demo dataset for both: loading it takes about fifteen seconds of CPU.
 */

const BASE = '/api/v1/public';
const SPORTS = ['gsoc', 'mltt', 'nll', '3ice', 'jaialai'] as const;
const KEY = 'demo-results-test-key-0123456789';
const NOW = new Date('2026-11-21T18:00:00Z');

/** The default demo dataset in one SQLite store, and an app over it: both describe blocks only read. */
let demo: Promise<{ testStore: TestStore; app: FastifyInstance }> | undefined;
function demoApp(): Promise<{ testStore: TestStore; app: FastifyInstance }> {
  demo ??= (async () => {
    const testStore = await openTestStore('sqlite');
    await loadDemoData(testStore.store, { now: NOW });
    await createApiKey(testStore.store, { name: 'test', key: KEY, ratePerMinute: 0 }); // unlimited: the suite may send more than the default 600 requests a minute
    const app = await buildTestApp({ config: loadConfig({ DEMO_DATA: 'off' }), store: testStore.store });
    return { testStore, app };
  })();
  return demo;
}

/** A public route's 200 answer with the test key, parsed. */
async function getOk<T>(app: FastifyInstance, url: string): Promise<T> {
  const res = await app.inject({ url, headers: { 'x-api-key': KEY } });
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  return JSON.parse(res.body);
}

after(async () => {
  const built = await demo?.catch(() => undefined);
  await built?.app.close();
  await built?.testStore.cleanup();
});

/** A detail document of routes 8 to 14: its periods under whichever name its sport gives them. */
type MatchDocument = Omit<CurlingEvent, 'ends'> &
  Partial<Record<'ends' | 'games' | 'quarters' | 'periods', PeriodDetail[]>> & { tourYearId: string | null };

describe('demo data through the results routes [sqlite]', () => {
  let app: FastifyInstance;
  const heats: Array<{
    competition: string;
    eventId: string;
    heatId: string;
    heatStatus: string;
    rows: HeatScoreRow[];
  }> = [];

  before(async () => {
    ({ app } = await demoApp());
    const get = <T>(url: string) => getOk<T>(app, url);
    for (const item of await get<EventListItem[]>(`${BASE}/events`)) {
      if (getCompetition(item.competition).participants !== 'athletes') continue;
      const event = await get<Event>(`${BASE}/events/${item.id}`);
      for (const round of event.rounds) {
        for (const heat of round.heats) {
          heats.push({
            competition: item.competition,
            eventId: item.id,
            heatId: heat.id,
            heatStatus: heat.heatStatus,
            rows: await get<HeatScoreRow[]>(heat.scoresUrl),
          });
        }
      }
    }
  });

  const of = (format: string) => heats.filter((h) => getCompetition(h.competition).resultsFormat === format);

  test('every completed heat of an athlete competition has scored rows', () => {
    const completed = heats.filter((h) => h.heatStatus === 'COMPLETED');
    assert.ok(completed.length > 500, `${completed.length} completed heats`);
    for (const heat of completed) assert.ok(heat.rows.length > 0, `${heat.competition} ${heat.heatId} has rows`);
  });

  test('fights: ranks are 1 and 2, both 1 on a draw, none on a no contest; winBy only once completed', () => {
    const fights = of('combat').filter((h) => h.rows.length > 0);
    let draws = 0;
    let noContests = 0;
    for (const { heatStatus, rows, heatId } of fights) {
      assert.equal(rows.length, 2, heatId);
      const ranks = rows.map((r) => r.athleteRoundRank);
      if (heatStatus !== 'COMPLETED') {
        assert.deepEqual(ranks, [null, null], heatId);
        assert.deepEqual(
          rows.map((r) => r.winBy),
          [null, null],
          heatId,
        );
        continue;
      }
      const method = rows[0]?.winBy;
      if (/Draw$/.test(method as string)) {
        draws += 1;
        assert.deepEqual(ranks, [1, 1], heatId);
      } else if (method === 'No Contest') {
        noContests += 1;
        assert.deepEqual(ranks, [null, null], heatId);
      } else assert.deepEqual(ranks, [1, 2], `${heatId} ${method}`);
    }
    assert.ok(draws > 0 && noContests > 0, `${draws} draws, ${noContests} no contests`);
  });

  test('lap racing: in a finished race the fastest-lap counts sum to laps 2..L; no fastest lap 1 outside hlrs', () => {
    const races = [...of('supercross-laps'), ...of('sprint-laps')].filter((h) =>
      h.rows.some((r) => r.athleteFastestLapCount !== null),
    );
    assert.ok(races.length > 20, `${races.length} races with laps`);
    let led = 0;
    for (const { competition, heatStatus, rows, heatId } of races) {
      const counts = rows.reduce((sum, r) => sum + (r.athleteFastestLapCount ?? 0), 0);
      const totalLaps = Math.max(...rows.map((r) => r.totalLaps ?? 0));
      if (heatStatus === 'COMPLETED') assert.equal(counts, totalLaps - 1, `${heatId}: ${totalLaps} laps`);
      else assert.ok(counts <= totalLaps - 1, heatId);
      led += rows.reduce((sum, r) => sum + (r.athleteLapsLed ?? 0), 0);
      if (competition !== 'hlrs') for (const r of rows) assert.notEqual(r.athleteFastestLapNo, 1, heatId);
    }
    assert.ok(led > 0);
  });

  test('bull riding: rank always null; team games carry the home flag, other heats do not', () => {
    const rides = of('bull-riding').flatMap((h) => h.rows);
    assert.ok(rides.length > 0);
    for (const r of rides) {
      assert.equal(r.athleteRoundRank, null);
      assert.equal(typeof r.isTeamEvent, 'boolean');
      assert.equal(r.isTeamEvent, typeof r.athlete.team?.isHomeTeam === 'boolean');
    }
    assert.ok(rides.some((r) => r.isTeamEvent && r.heatStatus === 'COMPLETED'));
  });

  test('skateboarding round scores are at most 30 and only in sls', () => {
    for (const heat of heats)
      for (const r of heat.rows) if (r.roundScore !== null) assert.ok(heat.competition === 'sls' && r.roundScore <= 30);
    assert.ok(of('skateboarding').some((h) => h.rows.some((r) => r.roundScore! > 20)));
  });

  test('every event of an athlete competition lists its participants', async () => {
    const events = [...new Set(heats.map((h) => h.eventId))];
    for (const eventId of events) {
      const res = await app.inject({ url: `${BASE}/events/${eventId}/participants`, headers: { 'x-api-key': KEY } });
      assert.equal(res.statusCode, 200);
      assert.ok(JSON.parse(res.body).length > 0, eventId);
    }
  });

  test('demo odds: every listed event has markets of its competition, books over 100%, completed events settled', async () => {
    const get = async <T>(url: string): Promise<T> =>
      JSON.parse((await app.inject({ url, headers: { 'x-api-key': KEY } })).body);
    let priced = 0;
    let settledWinners = 0;
    for (const item of await get<EventListItem[]>(`${BASE}/events`)) {
      const competition = getCompetition(item.competition);
      const oddType =
        competition.supportedMarkets.includes('eventWinner') && competition.participants === 'athletes'
          ? 'eventWinner'
          : competition.supportedMarkets.includes('teamMarkets')
            ? 'teamMarkets'
            : 'heatWinner';
      const body = await get<EventOdds>(`${BASE}/events/${item.id}/${oddType}`);
      const outcomes = body[oddType] as Array<AthleteOdd | TeamMarketOdd | HeatOdd>;
      if (outcomes.length === 0) continue;
      priced += 1;
      const byMarket = new Map<string, number>();
      // In play, the book is what is still offered: knocked-out athletes are closed at their last prices.
      const offered = item.eventStatus === 'LIVE' ? outcomes.filter((o) => o.status !== 'CLOSED') : outcomes;
      for (const o of offered) byMarket.set(o.marketId, (byMarket.get(o.marketId) ?? 0) + o.probability);
      for (const [marketId, book] of byMarket) assert.ok(book > 100 && book < 112, `${marketId}: book ${book}`);
      if (item.eventStatus === 'COMPLETED' && oddType === 'eventWinner') {
        assert.ok(
          outcomes.every((o) => o.status === 'CLOSED'),
          item.id,
        );
        const winners = outcomes.filter((o) => o.settlement === 'WIN');
        assert.ok(winners.length >= 1, `${item.id}: a completed event has a winner`);
        settledWinners += 1;
      }
    }
    assert.ok(priced > 50, `priced events: ${priced}`);
    assert.ok(settledWinners > 0);
  });
});

describe('demo matches through the sport-specific routes [sqlite]', () => {
  let app: FastifyInstance;
  let events: EventListItem[] = [];
  const get = <T>(url: string) => getOk<T>(app, url);

  before(async () => {
    ({ app } = await demoApp());
    events = (await get<EventListItem[]>(`${BASE}/events`)).filter((e) =>
      (SPORTS as readonly string[]).includes(e.competition),
    );
  });

  test('every match has two teams and a score that follows its periods; completed matches have a winner', async () => {
    for (const sport of ['gsoc', 'mltt', 'nll', '3ice'] as const) {
      const own = events.filter((e) => e.competition === sport);
      assert.ok(
        own.some((e) => e.eventStatus === 'COMPLETED') && own.some((e) => e.eventStatus === 'LIVE'),
        `${sport} has completed and live matches`,
      );
      for (const item of own) {
        const doc = await get<MatchDocument>(`${BASE}/events/${sport}/${item.id}`);
        const periods = (doc.ends ?? doc.games ?? doc.quarters ?? doc.periods)!;
        assert.ok(periods.length > 0, item.id);
        if (doc.teams.length === 0) continue; // a knockout game whose teams are not known yet
        const points = (side: number) => periods.reduce((sum, p) => sum + (p.scores[side]?.score ?? 0), 0);
        if (sport === 'mltt')
          assert.deepEqual(
            [doc.homeScore, doc.awayScore],
            [0, 1].map((side) => periods.filter((p) => p.winner === (side === 0 ? 'home' : 'away')).length),
            item.id,
          );
        else assert.deepEqual([doc.homeScore, doc.awayScore], [points(0), points(1)], item.id);
        if (doc.eventStatus === 'COMPLETED')
          assert.ok(doc.winner === 'home' || doc.winner === 'away', `${item.id} decided`);
        if (sport === 'gsoc')
          assert.equal(doc.teams.filter((t) => t.hasHammer).length, 1, `${item.id}: one team has the hammer`);
      }
    }
  });

  test("a completed match's moneyline settles on its winner, and its prices come from one model", async () => {
    for (const sport of ['gsoc', 'mltt', 'nll'] as const) {
      for (const item of events.filter((e) => e.competition === sport)) {
        const [doc, odds] = await Promise.all([
          get<MatchDocument>(`${BASE}/events/${sport}/${item.id}`),
          get<Omit<CurlingOdds, 'ends'>>(`${BASE}/events/${sport}/${item.id}/odds`),
        ]);
        const moneyLine = odds.event.moneyLine;
        if (!moneyLine) continue;
        assert.ok(odds.event.spread.length === 1 && odds.event.total.length === 1, `${item.id}: a spread and a total`);
        const book = moneyLine.selection.reduce((sum, o) => sum + o.probability, 0);
        assert.ok(book > 100 && book < 110, `${item.id}: a margin on the book (${book})`);
        if (doc.eventStatus === 'COMPLETED') {
          const won = moneyLine.selection.find((o) => o.settlement === 'WIN');
          assert.equal(won?.side, doc.winner!.toUpperCase(), item.id);
          assert.equal(moneyLine.status, 'CLOSED');
        }
        // Before the start, the favourite on the moneyline gives away the spread. In play the lines stay
        // as they opened and only their prices follow the score, so a trailing favourite keeps its line.
        if (doc.eventStatus === 'LIVE') continue;
        const home = moneyLine.selection.find((o) => o.side === 'HOME')!;
        const away = moneyLine.selection.find((o) => o.side === 'AWAY')!;
        const line = odds.event.spread[0]!.line!;
        if (home.probability > away.probability + 10) assert.ok(line < 0, `${item.id}: home favourite, line ${line}`);
        if (away.probability > home.probability + 10) assert.ok(line > 0, `${item.id}: away favourite, line ${line}`);
      }
    }
  });

  test('the 3ICE bracket fills in from the knockout games', async () => {
    const item = events.find((e) => e.competition === '3ice');
    const doc = await get<MatchDocument>(`${BASE}/events/3ice/${item?.id}`);
    const bracket = await get<KnockoutBracket>(`${BASE}/events/3ice/bracket/${doc.tourYearId}`);
    assert.deepEqual(
      bracket.rounds.map((r) => [r.name, r.slots.length]),
      [
        ['Quarterfinals', 4],
        ['Semifinals', 2],
        ['Final', 1],
      ],
    );
    for (const slot of bracket.rounds[0]!.slots)
      assert.ok(slot.homeTeam && slot.awayTeam && slot.eventId, 'quarterfinals are drawn');
    for (const [r, round] of bracket.rounds.entries()) {
      if (r === 0) continue;
      round.slots.forEach((slot, i) => {
        const feeders = bracket.rounds[r - 1]!.slots.slice(2 * i, 2 * i + 2);
        assert.equal(
          slot.homeTeam?.teamId ?? null,
          feeders[0]!.winnerTeamId,
          `${round.name} ${slot.slot} home is the winner of its feeder`,
        );
        assert.equal(slot.awayTeam?.teamId ?? null, feeders[1]!.winnerTeamId);
      });
    }
  });

  test("Jai Alai cards group the night's matches; each match has its odds", async () => {
    const own = events.filter((e) => e.competition === 'jaialai');
    const cards = new Set(own.map((e) => e.cardId));
    assert.ok(cards.size >= 2 && cards.size < own.length, 'several matches a card');
    for (const cardId of cards) {
      const matches = await get<JaiAlaiMatch[]>(`${BASE}/events/jaialai/${cardId}`);
      assert.deepEqual(
        matches.map((m) => m.id).sort(),
        own
          .filter((e) => e.cardId === cardId)
          .map((e) => e.id)
          .sort(),
      );
      for (const match of matches) {
        assert.equal(
          match.homeTeamMatchScore + match.awayTeamMatchScore,
          match.sets.filter((s) => s.roundStatus === 'COMPLETED').length,
          match.id,
        );
        if (match.eventStatus === 'COMPLETED')
          assert.equal(Math.max(match.homeTeamMatchScore, match.awayTeamMatchScore), 2, `${match.id}: best of three`);
        const odds = await get<JaiAlaiOdds>(`${BASE}/events/jaialai/${match.id}/odds`);
        if (odds.matchWinner.moneyLine)
          assert.equal(odds.matchWinner.moneyLine.marketId, odds.eventWinner.moneyLine!.marketId);
      }
    }
  });
});

describe('a demo with a past [sqlite]', () => {
  let app: FastifyInstance;
  let events: EventListItem[];
  let markets: SnapshotMarket[];

  before(async () => {
    ({ app } = await demoApp());
    const get = <T>(url: string) => getOk<T>(app, url);
    events = await get<EventListItem[]>(`${BASE}/events`);
    markets = await get<SnapshotMarket[]>(`${BASE}/odds`);
  });

  /** The settlements an outcome carries: its own, or a head-to-head's two sides'. */
  const settlementsOf = (outcome: Record<string, unknown>): unknown[] =>
    'eventParticipant1' in outcome
      ? [outcome.eventParticipant1, outcome.eventParticipant2].map((p) => (p as { settlement: unknown }).settlement)
      : [outcome.settlement];

  test('every completed event keeps its markets, settled, however long ago it ended', () => {
    const completed = events.filter((e) => e.eventStatus === 'COMPLETED');
    const monthAgo = NOW.getTime() - 30 * 24 * 3600_000;
    assert.ok(
      completed.some((e) => Date.parse(e.endDate) < monthAgo),
      'the demo has events that ended over a month ago',
    );
    for (const event of completed) {
      const own = markets.filter((m) => m.eventId === event.id);
      assert.ok(own.length > 0, `${event.id} (${event.competition}, ended ${event.endDate}) has markets`);
      const settled = own.flatMap((m) => m.outcomes.flatMap((o) => settlementsOf(o as Record<string, unknown>)));
      assert.ok(
        settled.some((s) => s === 'WIN'),
        `${event.id} (${event.competition}, ended ${event.endDate}) has a settled winner`,
      );
    }
  });

  test('the provider SDK reads the settlement of every completed athlete event', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const client = new AltSportsData({ apiKey: KEY, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const completed = events.filter(
      (e) => e.eventStatus === 'COMPLETED' && getCompetition(e.competition).participants === 'athletes',
    );
    assert.ok(completed.length > 40, `${completed.length} completed athlete events`);
    for (const event of completed) {
      const report = await client.getSettlement(event.id);
      assert.equal(report.status, 'COMPLETED', event.id);
      assert.ok(report.marketsSettled > 0, `${event.id} (${event.competition}): ${report.marketsSettled} settled`);
    }
  });

  test('no two events carry the same winner prices: each event prices its field by its form', () => {
    const prices = new Map<string, string>();
    for (const market of markets.filter((m) => m.oddType === 'eventWinner')) {
      const outcomes = market.outcomes as Array<{ athlete?: { id: string }; team?: { id: string }; odds: number }>;
      const key = outcomes
        .map((o) => `${o.athlete?.id ?? o.team?.id}=${o.odds}`)
        .sort()
        .join(' ');
      const twin = prices.get(key);
      assert.equal(twin, undefined, `${market.eventId} and ${twin} have the same eventWinner prices`);
      prices.set(key, market.eventId);
    }
    assert.ok(prices.size > 100, `${prices.size} events with winner prices`);
  });
});
