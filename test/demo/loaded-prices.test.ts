import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateDemoFeeds } from '../../src/demo/generate.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';

const NOW = new Date('2026-11-21T18:00:00Z');
/** Sports whose match score is the sum of the periods' goals (curling ends, lacrosse quarters, 3ICE periods). */
const SUMMED = ['gsoc', 'nll', '3ice'];

type Market = NonNullable<FeedDocument['markets']>[number];
type Odd = NonNullable<FeedDocument['odds']>[number];

/** The match market of a type (not a period's) of an event, and its outcomes by side. */
function matchMarket(doc: FeedDocument, uuid: string, type: string) {
  const market = doc.markets?.find(
    (m: Market) => m.eventId === uuid && m.teamMarketType === type && m.id.includes(':match:'),
  );
  const odds = new Map((doc.odds ?? []).filter((o: Odd) => o.marketId === market?.id).map((o) => [o.side, o.odds]));
  return { line: market?.line ?? null, odds };
}

test('a live match in the loaded demo is priced from its score: the side ahead is favoured, a total counts the goals already scored', () => {
  let checked = 0;
  for (const doc of generateDemoFeeds({ now: NOW, competitions: SUMMED })) {
    for (const event of doc.events ?? []) {
      if (event.eventStatus !== 'LIVE') continue;
      const uuid = event.id.split(':')[1] as string;
      const rounds = new Set((doc.rounds ?? []).filter((r) => r.eventId === event.id).map((r) => r.id));
      const goals = new Map<string, number>();
      for (const s of doc.roundScores ?? [])
        if (rounds.has(s.roundId)) goals.set(s.teamId, (goals.get(s.teamId) ?? 0) + s.goals);
      const side = (isHome: boolean) => event.teams?.find((t) => t.isHomeTeam === isHome)?.teamId ?? '';
      const home = goals.get(side(true)) ?? 0;
      const away = goals.get(side(false)) ?? 0;
      const moneyline = matchMarket(doc, uuid, 'moneyline').odds;
      const total = matchMarket(doc, uuid, 'total');
      assert.ok(Math.abs(home - away) >= 2, `${event.id}: the demo's live match has a clear leader (${home}-${away})`);
      const [ahead, behind] = home > away ? (['HOME', 'AWAY'] as const) : (['AWAY', 'HOME'] as const);
      assert.ok(moneyline.get(ahead)! < moneyline.get(behind)!, `${event.id} ${home}-${away}: ${[...moneyline]}`);
      assert.ok(total.line !== null && total.odds.has('OVER'), `${event.id} has a total`);
      const needed = total.line! - (home + away);
      const over = 1 / total.odds.get('OVER')!;
      if (needed < 0) assert.ok(over > 0.9, `${event.id}: the total is already over`);
      else assert.ok(over < 0.95, `${event.id}: ${needed} goals still needed`);
      checked += 1;
    }
  }
  assert.equal(checked, SUMMED.length, 'one live match per sport');
});

test("the demo's prices are published as a bookmaker's: two decimals, in range, beside the model's probability", () => {
  let checked = 0;
  for (const doc of generateDemoFeeds({ now: NOW, competitions: ['spr', 'nll', 'wsl'] })) {
    for (const o of doc.odds ?? []) {
      const label = `${o.id} at ${o.odds} (${o.probability}%)`;
      assert.ok(o.odds !== undefined && o.probability !== undefined, `engine-priced: ${label}`);
      assert.equal(Math.round(o.odds * 100) / 100, o.odds, `two decimals: ${label}`);
      assert.ok(o.odds >= 1.01 && o.odds <= 1000, `within the range: ${label}`);
      assert.ok(
        Math.round(o.odds * 100) * Math.round(o.probability * 10_000) <= 100_000_000,
        `towards the house: ${label}`,
      );
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} prices checked`);
});
