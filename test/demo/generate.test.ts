import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_EVENTS_PER_COMPETITION, generateDemoFeeds } from '../../src/demo/generate.ts';
import { RIDER_TEAMS } from '../../src/demo/names.ts';
import {
  COMPETITION_KEYS,
  COMPETITIONS,
  formatIn,
  getCompetition,
  TEAM_GAME_FORMATS,
} from '../../src/domain/competitions.ts';
import { EVENT_STATUSES, FUTURE_TYPES } from '../../src/domain/enumerations.ts';
import { countsPeriodsWon } from '../../src/domain/results/match-score.ts';
import { all, NOW, priorChunks } from '../helpers/demo-feeds.ts';

const NOW_MS = NOW.getTime();

const defaultDocs = [...generateDemoFeeds({ now: NOW, seed: 7 })];
const events = all(defaultDocs, 'events');
const rounds = all(defaultDocs, 'rounds');
const heats = all(defaultDocs, 'heats');
const roundScores = all(defaultDocs, 'roundScores');

describe('demo data generator', () => {
  test('is deterministic: same seed and now give identical documents, another seed differs', () => {
    const again = [...generateDemoFeeds({ now: NOW, seed: 7 })];
    assert.deepEqual(again, defaultDocs);
    assert.equal(JSON.stringify(again), JSON.stringify(defaultDocs));
    const other = [...generateDemoFeeds({ now: NOW, seed: 8 })];
    assert.notDeepEqual(other, defaultDocs);
    assert.notEqual(all(other, 'events')[0]?.id, events[0]?.id);
  });

  test('default size: one document per competition, 8 events each', () => {
    assert.equal(defaultDocs.length, COMPETITIONS.length);
    assert.equal(events.length, DEFAULT_EVENTS_PER_COMPETITION * COMPETITIONS.length);
    assert.deepEqual(new Set(events.map((e) => e.competition)), new Set(COMPETITION_KEYS));
    assert.deepEqual(new Set(all(defaultDocs, 'tours').map((t) => t.competition)), new Set(COMPETITION_KEYS));
    for (const doc of defaultDocs) assert.equal(new Set(doc.events?.map((e) => e.competition)).size, 1);
  });

  test('every chunk passes validateFeed when ingested in order', async () => {
    const { validate } = priorChunks();
    for (const doc of defaultDocs) await validate(doc);
  });

  test('every event status appears; each competition has a live event and one next event', () => {
    assert.deepEqual(new Set(events.map((e) => e.eventStatus)), new Set(EVENT_STATUSES));
    for (const key of COMPETITION_KEYS) {
      const own = events.filter((e) => e.competition === key);
      const live = own.filter((e) => e.eventStatus === 'LIVE');
      assert.ok(live.length >= 1, `${key} has a live event`);
      for (const e of live)
        assert.ok(Date.parse(e.startDate) <= NOW_MS && NOW_MS <= Date.parse(e.endDate), `${key} live event spans now`);
      assert.equal(own.filter((e) => e.eventStatus === 'NEXT').length, 1, `${key} has one next event`);
    }
  });

  test('event dates agree with their status', () => {
    for (const e of events) {
      const start = Date.parse(e.startDate);
      const end = Date.parse(e.endDate);
      assert.ok(end >= start, e.id);
      if (e.eventStatus === 'COMPLETED' || e.eventStatus === 'CANCELLED')
        assert.ok(end < NOW_MS, `${e.id} ${e.eventStatus} is over`);
      if (e.eventStatus === 'NEXT' || e.eventStatus === 'UPCOMING' || e.eventStatus === 'POSTPONED')
        assert.ok(start > NOW_MS, `${e.id} ${e.eventStatus} is ahead`);
      if (e.eventStatus === 'IN_WINDOW') assert.ok(start <= NOW_MS && NOW_MS <= end, `${e.id} window is open`);
      assert.match(
        e.id,
        new RegExp(`^${e.competition}:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
      );
      assert.equal(e.tourYearId, `${e.tourId}-${new Date(start).getUTCFullYear()}`);
    }
    // Event numbers run 1, 2, 3... per season in date order.
    for (const key of COMPETITION_KEYS) {
      const bySeason = new Map<string, typeof events>();
      for (const e of events.filter((x) => x.competition === key))
        bySeason.set(e.tourYearId ?? '', [...(bySeason.get(e.tourYearId ?? '') ?? []), e]);
      for (const season of bySeason.values()) {
        const sorted = [...season].sort((a, b) => Date.parse(a.startDate) - Date.parse(b.startDate));
        assert.deepEqual(
          sorted.map((e) => e.eventNumber),
          sorted.map((_, i) => i + 1),
        );
      }
    }
  });

  test('rounds and heats sit inside their event and follow its status', () => {
    const eventById = new Map(events.map((e) => [e.id, e]));
    const roundById = new Map(rounds.map((r) => [r.id, r]));
    const heatsByRound = new Map<string, typeof heats>();
    for (const h of heats) heatsByRound.set(h.roundId, [...(heatsByRound.get(h.roundId) ?? []), h]);
    for (const e of events)
      assert.ok(
        rounds.some((r) => r.eventId === e.id),
        `${e.id} has rounds`,
      );

    for (const r of rounds) {
      const e = eventById.get(r.eventId);
      assert.ok(e, r.id);
      assert.ok(
        Date.parse(e.startDate) <= Date.parse(r.startDate ?? '') &&
          Date.parse(r.endDate ?? '') <= Date.parse(e.endDate),
        `${r.id} inside its event`,
      );
      const hs = heatsByRound.get(r.id) ?? [];
      // Games and sets not needed once a match is decided are called off.
      const notNeeded = countsPeriodsWon(getCompetition(e.competition).resultsFormat) && r.roundStatus === 'CANCELLED';
      if (e.eventStatus === 'COMPLETED' && !notNeeded) assert.equal(r.roundStatus, 'COMPLETED', r.id);
      if (notNeeded) assert.equal(roundScores.filter((s) => s.roundId === r.id).length, 0, `${r.id} not played`);
      if (['UPCOMING', 'NEXT', 'IN_WINDOW'].includes(e.eventStatus)) assert.equal(r.roundStatus, 'UPCOMING');
      if (e.eventStatus !== 'LIVE') for (const h of hs) assert.equal(h.heatStatus, r.roundStatus, h.id);
      for (const h of hs) {
        assert.ok(
          Date.parse(r.startDate ?? '') <= Date.parse(h.startDate ?? '') &&
            Date.parse(h.endDate ?? '') <= Date.parse(r.endDate ?? ''),
          `${h.id} inside its round`,
        );
        if (h.heatStatus === 'COMPLETED')
          assert.ok(Date.parse(h.endDate ?? '') <= NOW_MS || e.eventStatus === 'COMPLETED');
      }
    }
    for (const h of heats) assert.ok(roundById.has(h.roundId));

    for (const e of events.filter((x) => x.eventStatus === 'LIVE')) {
      const own = rounds.filter((r) => r.eventId === e.id);
      assert.equal(own.filter((r) => r.roundStatus === 'LIVE').length, 1, `${e.id} has one live round`);
      const liveAt = own.findIndex((r) => r.roundStatus === 'LIVE');
      own.forEach((r, i) => {
        assert.equal(r.roundStatus, i < liveAt ? 'COMPLETED' : i > liveAt ? 'UPCOMING' : 'LIVE', r.id);
      });
      const ownHeats = own.flatMap((r) => heatsByRound.get(r.id) ?? []);
      if (ownHeats.length > 0) {
        const live = ownHeats.filter((h) => h.heatStatus === 'LIVE');
        assert.equal(live.length, 1, `${e.id} has one live heat`);
        const [heat] = live;
        assert.ok(heat && Date.parse(heat.startDate ?? '') <= NOW_MS && NOW_MS < Date.parse(heat.endDate ?? ''));
      }
    }
  });

  test('team sports: teams with logos, one home team per event, scores for played periods only', () => {
    const teams = all(defaultDocs, 'teams');
    const roundById = new Map(rounds.map((r) => [r.id, r]));
    for (const c of COMPETITIONS) {
      const own = teams.filter((t) => t.competition === c.key);
      if (c.participants !== 'teams') {
        // Bull riders ride for teams in team events; other individual sports have none.
        assert.equal(
          own.length,
          formatIn(TEAM_GAME_FORMATS, c.resultsFormat) ? (RIDER_TEAMS[c.key]?.length ?? 0) : 0,
          c.key,
        );
        continue;
      }
      assert.ok(own.length >= 6 && own.length <= 12, `${c.key} has ${own.length} teams`);
      for (const t of own) assert.match(t.logo ?? '', /^https:\/\//);
      const ids = new Set(own.map((t) => t.id));
      for (const e of events.filter((x) => x.competition === c.key)) {
        // A knockout game whose teams are still to be decided has none yet.
        if (e.bracketRound && !e.teams && !['COMPLETED', 'LIVE'].includes(e.eventStatus)) continue;
        assert.equal(e.teams?.length, 2, e.id);
        assert.equal(e.teams?.filter((t) => t.isHomeTeam).length, 1, e.id);
        for (const t of e.teams ?? []) assert.ok(ids.has(t.teamId));
        const played = rounds.filter(
          (r) => r.eventId === e.id && (r.roundStatus === 'COMPLETED' || r.roundStatus === 'LIVE'),
        );
        for (const r of played) assert.equal(roundScores.filter((s) => s.roundId === r.id).length, 2, `${r.id} scored`);
      }
    }
    for (const s of roundScores) {
      const status = roundById.get(s.roundId)?.roundStatus;
      assert.ok(status === 'COMPLETED' || status === 'LIVE', `${s.id} belongs to a played round`);
    }
    assert.ok(roundScores.some((s) => s.goals > 0));
  });

  test('athletes: counts, gender from the tour, stance for wsl only, weight classes for combat only', () => {
    const tours = all(defaultDocs, 'tours');
    for (const doc of defaultDocs) {
      const key = doc.tours?.[0]?.competition ?? '';
      const competition = getCompetition(key);
      const athletes = doc.athletes ?? [];
      if (competition.participants === 'teams') {
        assert.equal(athletes.length, 0);
        continue;
      }
      assert.ok(athletes.length >= 16 && athletes.length <= 40, `${key} has ${athletes.length} athletes`);
      const tourGender = tours.find((t) => t.competition === key)?.gender;
      for (const a of athletes) {
        assert.ok(a.id.startsWith(`${key}-`));
        assert.match(a.nationality ?? '', /^[A-Z]{3}$/);
        if (tourGender === 'mixed') assert.ok(a.gender === 'men' || a.gender === 'women');
        else assert.equal(a.gender, tourGender);
        assert.equal(a.stance !== undefined, key === 'wsl', `${a.id} stance`);
        if (key === 'wsl') assert.ok(a.stance === 'Regular' || a.stance === 'Goofy');
        assert.equal(a.weightClass !== undefined, competition.resultsFormat === 'combat', `${a.id} weightClass`);
        assert.match(String(a.dob), /^\d{4}-\d{2}-\d{2}$/);
      }
    }
    const athletes = all(defaultDocs, 'athletes');
    assert.ok(athletes.some((a) => a.height === null) && athletes.some((a) => typeof a.height === 'number'));
  });

  test('futures: every type for every competition on the current season, with market-like prices', () => {
    const futures = all(defaultDocs, 'futures');
    const odds = all(defaultDocs, 'futureOdds');
    for (const key of COMPETITION_KEYS) {
      const own = futures.filter((f) => f.competition === key);
      assert.deepEqual(own.map((f) => f.type).sort(), [...FUTURE_TYPES].sort(), key);
      for (const f of own) {
        assert.equal(f.isMarketOpen, true);
        assert.equal(f.tourYearId, `${f.tourId}-${NOW.getUTCFullYear()}`);
        const items = odds.filter((o) => o.futureId === f.id);
        assert.ok(items.length >= 8 && items.length <= 20, `${f.id} has ${items.length} outcomes`);
        for (const item of items) {
          assert.equal(
            getCompetition(key).participants === 'teams' ? item.teamId !== undefined : item.athleteId !== undefined,
            true,
          );
          for (const price of item.odds) {
            assert.ok(
              (price.decimalOdds === undefined) !== (price.americanOdds === undefined),
              'exactly one price form',
            );
            if (price.decimalOdds !== undefined)
              assert.ok(price.decimalOdds >= 1.01 && price.decimalOdds <= 500, String(price.decimalOdds));
            if (price.americanOdds !== undefined) assert.ok(Math.abs(price.americanOdds) >= 100);
          }
        }
      }
      // Winner market: a short favourite and a long tail.
      const winner = own.find((f) => f.type === 'winner');
      const prices = odds
        .filter((o) => o.futureId === winner?.id)
        .map((o) => o.odds[0])
        .map(
          (p) =>
            p?.decimalOdds ??
            (p?.americanOdds !== undefined
              ? p.americanOdds > 0
                ? 1 + p.americanOdds / 100
                : 1 + 100 / -p.americanOdds
              : 0),
        );
      assert.ok(
        Math.min(...prices) < 10 && Math.max(...prices) > 3 * Math.min(...prices),
        `${key} winner prices ${prices.join(',')}`,
      );
    }
    assert.ok(odds.some((o) => o.odds.some((p) => p.americanOdds !== undefined)));
    assert.ok(odds.some((o) => o.odds.some((p) => p.decimalOdds !== undefined)));
  });
  // The 5000-event and the chunking tests are in generate-5000.test.ts and generate-chunking.test.ts.
});
