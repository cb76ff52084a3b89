import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../src/access/api-keys.ts';
import { loadConfig } from '../../src/config.ts';
import { loadDemoData } from '../../src/demo/load-demo.ts';
import { buildApp } from '../../src/http/app.ts';
import type { EventListItem } from '../../src/shapes/events.ts';
import type {
  CurlingEvent,
  CurlingOdds,
  JaiAlaiMatch,
  JaiAlaiOdds,
  KnockoutBracket,
  PeriodDetail,
} from '../../src/shapes/sport-events.ts';
import { openTestStore, type TestStore } from '../helpers/stores.ts';

/**
 * The default demo dataset through routes 8 to 17: every match of every sport-specific competition
 * answers, its prices agree with its result, the 3ICE bracket fills in, and Jai Alai cards group
 * their matches.
 */

const BASE = '/api/v1/public';
const KEY = 'demo-matches-test-key-0123456789';
const NOW = new Date('2026-11-21T18:00:00Z');
const SPORTS = ['gsoc', 'mltt', 'nll', '3ice', 'jaialai'] as const;

/** A detail document of routes 8 to 14: its periods under whichever name its sport gives them. */
type MatchDocument = Omit<CurlingEvent, 'ends'> &
  Partial<Record<'ends' | 'games' | 'quarters' | 'periods', PeriodDetail[]>> & { tourYearId: string | null };

describe('demo matches through the sport-specific routes [sqlite]', () => {
  let testStore: TestStore;
  let app: FastifyInstance;
  let events: EventListItem[] = [];
  const get = async <T>(url: string): Promise<T> => {
    const res = await app.inject({ url, headers: { 'x-api-key': KEY } });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return JSON.parse(res.body);
  };

  before(async () => {
    testStore = await openTestStore('sqlite');
    await loadDemoData(testStore.store, { now: NOW });
    await createApiKey(testStore.store, { name: 'test', key: KEY, ratePerMinute: 0 }); // unlimited: the suite may send more than the default 600 requests a minute
    app = await buildApp({ config: loadConfig({ DEMO_DATA: 'off' }), store: testStore.store, logger: false });
    events = (await get<EventListItem[]>(`${BASE}/events`)).filter((e) =>
      (SPORTS as readonly string[]).includes(e.competition),
    );
  });

  after(async () => {
    await app.close();
    await testStore.cleanup();
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
        // The favourite on the moneyline gives away the spread.
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
