import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../src/access/api-keys.ts';
import { loadConfig } from '../../src/config.ts';
import { loadDemoData } from '../../src/demo/load-demo.ts';
import { getCompetition } from '../../src/domain/competitions.ts';
import { buildApp } from '../../src/http/app.ts';
import type { Event, EventListItem } from '../../src/shapes/events.ts';
import type { AthleteOdd, EventOdds, HeatOdd, TeamMarketOdd } from '../../src/shapes/odds.ts';
import type { HeatScoreRow } from '../../src/shapes/results.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

/**
 * The default demo dataset through routes 3, 4 and 5: every heat of every athlete competition answers,
 * and the derived fields keep the specification's invariants on real-looking data.
 */

const BASE = '/api/v1/public';
const KEY = 'demo-results-test-key-0123456789';
const NOW = new Date('2026-11-21T18:00:00Z');

describe('demo data through the results routes [sqlite]', () => {
  let testStore: TestStore;
  let app: FastifyInstance;
  const heats: Array<{
    competition: string;
    eventId: string;
    heatId: string;
    heatStatus: string;
    rows: HeatScoreRow[];
  }> = [];

  before(async () => {
    testStore = await openTestStore('sqlite');
    await loadDemoData(testStore.store, { now: NOW });
    await createApiKey(testStore.store, { name: 'test', key: KEY, ratePerMinute: 0 }); // unlimited: the suite may send more than the default 600 requests a minute
    app = await buildApp({ config: loadConfig({ DEMO_DATA: 'off' }), store: testStore.store, logger: false });
    const get = async <T>(url: string): Promise<T> => {
      const res = await app.inject({ url, headers: { 'x-api-key': KEY } });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return JSON.parse(res.body);
    };
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

  after(async () => {
    await app?.close();
    await testStore?.cleanup();
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
      for (const o of outcomes) byMarket.set(o.marketId, (byMarket.get(o.marketId) ?? 0) + o.probability);
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
