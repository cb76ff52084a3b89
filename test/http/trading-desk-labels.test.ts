/**
 * As a trading desk meets it: labels a bet slip can show. Every published outcome of
 * the odds routes carries `selection`, one text per bet (the event winner, a heat winner, fastest lap
 * and holeshot of one rider read as four bets), and the parlay's legs and the bet builder's options
 * show the very same text for the same odd.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { getCompetition } from '../../src/domain/competitions.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { SgpOptionsResponse, SgpResponse } from '../../src/shapes/odds.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, sharedFixture, TEST_KEY } from '../helpers/app.ts';
import { oddsFeed } from '../helpers/odds-fixture.ts';
import { fieldFeed } from '../helpers/parlay-fixture.ts';
import { resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';
import { GSOC_LIVE, teamMatchFeed } from '../helpers/team-match-fixture.ts';

const BASE = '/api/v1/public';
const FIELD = '66666666-0000-4000-8000-000000000006';
const FIELD_ID = `spr:${FIELD}`;
const SX = `spr:${SPR_EVENT}`;
const GSOC = `gsoc:${GSOC_LIVE}`;

interface Item {
  id?: string;
  selection?: string;
  eventParticipant1?: { id: string; selection?: string };
  eventParticipant2?: { id: string; selection?: string };
}

async function labelsApp(store: Store) {
  const app = await fixtureApp(store);
  await ingestFeed(store, resultsFeed());
  await ingestFeed(store, oddsFeed());
  await ingestFeed(store, teamMatchFeed());
  await ingestFeed(store, fieldFeed('fl', FIELD, [0.3, 0.25, 0.2, 0.15, 0.1]));
  const post = (path: string, oddIds: string[]) =>
    app.app.inject({ method: 'POST', url: `${BASE}${path}`, headers: { 'x-api-key': TEST_KEY }, payload: { oddIds } });
  /** Every outcome's selection on route 6, by odd id, over every odd type the competition offers. */
  const route6 = async (eventId: string): Promise<Map<string, string | undefined>> => {
    const labels = new Map<string, string | undefined>();
    for (const oddType of getCompetition(eventId.split(':')[0] as string).supportedMarkets) {
      const response = await app.get(`${BASE}/events/${eventId}/${oddType}`);
      assert.equal(response.statusCode, 200, `${oddType}: ${response.body}`);
      for (const item of (response.json() as Record<string, Item[]>)[oddType] ?? []) {
        for (const side of [item.eventParticipant1, item.eventParticipant2])
          if (side) labels.set(side.id, side.selection);
        if (!item.eventParticipant1) labels.set(item.id as string, item.selection);
      }
    }
    return labels;
  };
  return { ...app, post, route6 };
}

describeEachStore('trading desk: labels a bet slip can show', (_open, kind) => {
  const shared = sharedFixture(kind, labelsApp);

  test('one rider, four bets: the event winner, a heat winner, fastest lap and holeshot read differently', async () => {
    const labels = await shared().route6(SX);
    assert.deepEqual(
      ['o-sx-win-a', 'o-sx-heat-a', 'o-sx-fast-a', 'o-sx-hole-a'].map((id) => labels.get(id)),
      [
        'Eli Tomac to win the event',
        'Eli Tomac to win Heat 1',
        'Eli Tomac fastest lap in Heat 1',
        'Eli Tomac holeshot in Heat 1',
      ],
    );
  });

  test('every published outcome of every odd type carries a selection, distinct within its event', async () => {
    const { route6 } = shared();
    for (const eventId of [SX, FIELD_ID]) {
      const labels = await route6(eventId);
      assert.ok(labels.size > 0);
      for (const [id, label] of labels) assert.equal(typeof label, 'string', `${eventId} ${id}`);
      const texts = [...labels.values()];
      const repeated = texts.filter((t, i) => texts.indexOf(t) !== i);
      assert.deepEqual(repeated, [], `${eventId}: two outcomes with one label`);
    }
  });

  test('team-match odds carry the team names; route 6 and the sport route give the same text', async () => {
    const { get, route6 } = shared();
    const gsoc = (await get(`${BASE}/events/gsoc/${GSOC}/odds`)).json() as {
      homeTeam: { name: string };
      awayTeam: { name: string };
      event: {
        moneyLine: { selection: Array<{ id: string; side: string; selection: string }> };
        spread: Array<{ selection: Array<{ id: string; side: string; selection: string }> }>;
        total: Array<{ selection: Array<{ id: string; side: string; selection: string }> }>;
      };
    };
    const byId = new Map(
      [gsoc.event.moneyLine, ...gsoc.event.spread, ...gsoc.event.total].flatMap((m) =>
        m.selection.map((o) => [o.id, o.selection] as const),
      ),
    );
    assert.equal(byId.get('tm-gl-ml-home'), `${gsoc.homeTeam.name} to win`);
    assert.equal(byId.get('tm-gl-ml-away'), `${gsoc.awayTeam.name} to win`);
    assert.equal(byId.get('tm-gl-spread-m-home'), `${gsoc.homeTeam.name} -1.5`);
    assert.equal(byId.get('tm-gl-spread-m-away'), `${gsoc.awayTeam.name} +1.5`);
    assert.equal(byId.get('tm-gl-total-over'), 'Total over 10.5');
    const teamMarkets = await route6(GSOC);
    for (const [id, label] of byId) assert.equal(teamMarkets.get(id), label, id);
    const legs = (
      await shared().post(`/events/${GSOC}/sgp`, ['tm-gl-ml-home', 'tm-gl-total-over'])
    ).json() as SgpResponse;
    assert.deepEqual(
      legs.legs.map((l) => l.selection),
      [byId.get('tm-gl-ml-home'), byId.get('tm-gl-total-over')],
    );
  });

  test('the bet builder shows every outcome with its route 6 selection', async () => {
    const { post, route6 } = shared();
    const labels = await route6(FIELD_ID);
    const built = (await post(`/events/${FIELD_ID}/sgp/options`, [])).json() as SgpOptionsResponse;
    assert.ok(built.options.length > 0);
    for (const option of built.options) assert.equal(option.selection, labels.get(option.oddId), option.oddId);
  });

  test('property: a parlay of any two combinable outcomes shows each leg as route 6 does', async () => {
    const { post, route6 } = shared();
    const labels = await route6(FIELD_ID);
    const offered = ((await post(`/events/${FIELD_ID}/sgp/options`, [])).json() as SgpOptionsResponse).options;
    const index = fc.integer({ min: 0, max: offered.length - 1 });
    await fc.assert(
      fc.asyncProperty(index, index, async (i, j) => {
        const [first, second] = [offered[i]?.oddId as string, offered[j]?.oddId as string];
        const built = (await post(`/events/${FIELD_ID}/sgp/options`, [first])).json() as SgpOptionsResponse;
        assert.deepEqual(
          built.legs.map((l) => l.selection),
          [labels.get(first)],
        );
        if (!built.options.find((o) => o.oddId === second)?.combinable) return;
        const parlay = (await post(`/events/${FIELD_ID}/sgp`, [first, second])).json() as SgpResponse;
        assert.deepEqual(
          parlay.legs.map((l) => l.selection),
          [labels.get(first), labels.get(second)],
        );
      }),
      { numRuns: 20 },
    );
  });

  test("a refusal quotes the legs' labels", async () => {
    const { post } = shared();
    const pair = [`${FIELD}:eventWinner:fl-0`, `${FIELD}:eventWinner:fl-1`];
    const body = (await post(`/events/${FIELD_ID}/sgp`, pair)).json() as { message: string };
    assert.match(body.message, /"Rider FL 0 to win the event", "Rider FL 1 to win the event"/);
    const contradiction = (
      await post(`/events/${FIELD_ID}/sgp`, [pair[0] as string, `${FIELD}:secondPlace:fl-0`])
    ).json() as {
      message: string;
    };
    assert.match(
      contradiction.message,
      /"Rider FL 0 to win the event" and "Rider FL 0 to finish 2nd" cannot both happen/,
    );
  });
});
