import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type DemoChunk,
  generateDemoFeeds,
  LOADED_PRICES,
  layOutDemo,
  newChunk,
  PRE_EVENT_PRICES,
} from '../../src/demo/generate.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';

/**
 * In-play prices on the demo as `npm start` loads it: a live athlete event's markets are open unless the
 * results have decided them, coherent with each other, and a heat's leader gains from the lead.
 */

const NOW = new Date('2026-11-21T18:00:00Z');

type Market = NonNullable<FeedDocument['markets']>[number];
type Odd = NonNullable<FeedDocument['odds']>[number];

/** The live athlete events of the demo, each with its markets, odds, heats and who is knocked out. */
function liveEvents() {
  const events: Array<{ id: string; markets: Market[]; odds: Odd[]; completedHeats: Set<string>; out: Set<string> }> =
    [];
  for (const doc of generateDemoFeeds({ now: NOW })) {
    for (const event of doc.events ?? []) {
      if (event.eventStatus !== 'LIVE') continue;
      const uuid = event.id.split(':')[1] as string;
      const markets = (doc.markets ?? []).filter((m) => m.eventId === event.id && m.oddType !== 'teamMarkets');
      if (markets.length === 0 || markets.some((m) => m.teamMarketType)) continue;
      const ids = new Set(markets.map((m) => m.id));
      const rounds = new Set((doc.rounds ?? []).filter((r) => r.eventId === event.id).map((r) => r.id));
      const heats = (doc.heats ?? []).filter((h) => rounds.has(h.roundId));
      events.push({
        id: `${event.id} (${uuid})`,
        markets,
        odds: (doc.odds ?? []).filter((o) => ids.has(o.marketId)),
        completedHeats: new Set(heats.filter((h) => h.heatStatus === 'COMPLETED').map((h) => h.id)),
        out: new Set(
          (doc.eventParticipants ?? [])
            .filter((p) => p.eventId === event.id && p.status === 'ELIMINATED')
            .map((p) => p.athleteId),
        ),
      });
    }
  }
  return events;
}

const EVENTS = liveEvents();

test('live athlete events: at least 95% of the outcomes not decided are OPEN, and an outcome closed is decided', () => {
  let open = 0;
  let undecided = 0;
  const notOpen = new Map<string, number>();
  for (const event of EVENTS) {
    const marketOf = new Map(event.markets.map((m) => [m.id, m]));
    for (const o of event.odds) {
      const market = marketOf.get(o.marketId) as Market;
      // A completed heat's markets are resulted (the store closes them); an outcome closed by the
      // pricing must involve an athlete knocked out, be a hole shot already ridden, or be certain.
      if (market.heatId && event.completedHeats.has(market.heatId)) continue;
      if (o.status === 'CLOSED' || market.status === 'CLOSED') {
        // A head-to-head is decided for both sides once one of them is out.
        const sides = market.oddType === 'headToHead' ? event.odds.filter((x) => x.marketId === market.id) : [o];
        const athletes = [
          ...sides.flatMap((x) => [x.athleteId, ...(x.athleteIds ?? [])]),
          ...(market.athleteIds ?? []),
        ];
        const decided =
          athletes.some((id) => id && event.out.has(id)) ||
          market.oddType === 'holeShot' ||
          ['podiums', 'shows', 'raceTop3', 'raceTop5', 'raceTop10', 'overUnder', 'propBets'].includes(market.oddType);
        assert.ok(decided, `${event.id}: ${o.id} closed but not decided`);
        continue;
      }
      undecided++;
      if (o.status !== 'SUSPENDED' && market.status !== 'SUSPENDED') open++;
      else notOpen.set(market.oddType, (notOpen.get(market.oddType) ?? 0) + 1);
    }
  }
  assert.ok(EVENTS.length >= 10, `${EVENTS.length} live athlete events`);
  assert.ok(open >= 0.95 * undecided, `${open} of ${undecided} open; not open: ${[...notOpen]}`);
});

test('live athlete events: winners sum to the book, P(win) <= P(top 3) <= P(top 5) <= P(top 10), exacta <= win, head-to-heads complement', () => {
  for (const event of EVENTS) {
    const open = event.odds.filter((o) => o.status !== 'CLOSED');
    const ofType = (type: string) => {
      const ids = new Set(event.markets.filter((m) => m.oddType === type && !m.heatId).map((m) => m.id));
      return open.filter((o) => ids.has(o.marketId));
    };
    const chance = (type: string) => new Map(ofType(type).map((o) => [o.athleteId, (o.probability as number) / 100]));
    const winners = ofType('eventWinner');
    if (winners.length === 0) continue;
    const book = winners.reduce((total, o) => total + (o.probability as number) / 100, 0);
    assert.ok(book >= 1 && book <= 1.1, `${event.id}: the winners' book is ${book}`);
    const win = chance('eventWinner');
    const tops = ['raceTop3', 'raceTop5', 'raceTop10'].map(chance);
    for (const [athlete, p] of win) {
      let last = p;
      for (const top of tops) {
        const q = top.get(athlete);
        if (q === undefined) continue;
        assert.ok(q >= last - 0.005, `${event.id} ${athlete}: ${q} under ${last}`);
        last = q;
      }
    }
    for (const o of ofType('eventExacta'))
      assert.ok((o.probability as number) / 100 <= (win.get(o.athleteIds?.[0]) ?? 0) + 0.005, `${event.id}: ${o.id}`);
    for (const m of event.markets.filter((x) => x.oddType === 'headToHead' && !x.heatId)) {
      const sides = open.filter((o) => o.marketId === m.id);
      if (sides.length !== 2) continue;
      const total = sides.reduce((t, o) => t + (o.probability as number) / 100, 0);
      assert.ok(total >= 1 && total <= 1.1, `${event.id}: ${m.id} sides sum to ${total}`);
    }
  }
});

/** The leader of a chunk's live heat on points (else on position), and the heat. */
function leaderOf(chunk: DemoChunk): { heatId: string; leader: string } | null {
  const heat = chunk.heats.find((h) => h.heatStatus === 'LIVE');
  if (!heat) return null;
  const entries = chunk.heatEntries.filter((e) => e.heatId === heat.id);
  const scored = entries.filter((e) => typeof e.heatScore === 'number');
  const placed = entries.filter((e) => typeof e.position === 'number' && e.position > 0);
  const ranked =
    placed.length > 1
      ? placed.sort((a, b) => (a.position as number) - (b.position as number))
      : scored.sort((a, b) => (b.heatScore as number) - (a.heatScore as number));
  const [first, second] = ranked;
  // A clear leader only: level scores lead no one.
  if (!first || (second && placed.length <= 1 && first.heatScore === second.heatScore)) return null;
  return { heatId: heat.id, leader: first.athleteId };
}

test("a live heat's leader on points is no less likely to win the heat than before it began", () => {
  let checked = 0;
  for (const competition of layOutDemo({ now: NOW })) {
    if (!competition.live) continue;
    competition.replay();
    const seq = competition.events.findIndex((e) => e.uuid === competition.live?.uuid);
    const view = competition.viewsAt(NOW.getTime())[seq];
    if (!view) continue;
    const [live, before] = [LOADED_PRICES, PRE_EVENT_PRICES].map((pricer) => {
      const chunk = newChunk();
      competition.materialiseAt(seq, view, chunk, pricer);
      return chunk;
    }) as [DemoChunk, DemoChunk];
    const heat = leaderOf(live);
    if (!heat || ['stroke-play', 'timed-race', 'drag-pairing'].some((f) => competition.key === f)) continue;
    const heatWinner = (chunk: DemoChunk) => {
      const market = chunk.markets.find((m) => m.oddType === 'heatWinner' && m.heatId === heat.heatId);
      return chunk.odds.find((o) => o.marketId === market?.id && o.athleteId === heat.leader);
    };
    const [now, was] = [heatWinner(live), heatWinner(before)];
    if (!now || !was) continue;
    assert.ok(
      (now.probability as number) >= (was.probability as number),
      `${competition.key}: the leader ${heat.leader} at ${now.probability}% against ${was.probability}% before the heat`,
    );
    checked++;
  }
  assert.ok(checked >= 5, `${checked} live heats with a leader checked`);
});
