/**
 * As a trading desk meets it: keep-alive means any message. Every row about a LIVE
 * event, changed or not, is a sign of life: it lifts a FEED_STALE bet stop and moves the competition's
 * lastMessageAt on /feed-status. A feed whose keep-alive is its latest scores resent unchanged must not
 * keep its markets suspended.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { publishFeedStale } from '../../src/ingest/bet-stop.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import type { Store } from '../../src/store/database.ts';
import { fixtureApp, type TestApp } from '../helpers/app.ts';
import { fixtureFeed, MASL_GAME, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { BKFC_EVENT, PBR_EVENT, resultsFeed, SPR_EVENT } from '../helpers/results-fixture.ts';
import { describeEachStore } from '../helpers/stores.ts';

const LIVE_ID = `wsl:${WSL_LIVE}`;
const MASL_ID = `masl:${MASL_GAME}`;
const ODDS = `/api/v1/public/events/${LIVE_ID}/eventWinner`;
const T = '2026-06-01T00:00:00.000Z';
const STALE_SECONDS = 30;

const fixture = fixtureFeed();
const fixtureRow = (collection: keyof FeedDocument, id: string) =>
  (fixture[collection] as Array<{ id: string }>).find((row) => row.id === id) as Record<string, unknown>;

/** The live wsl event's prices, written with every first message. */
const LIVE_ODDS: FeedDocument = {
  markets: [{ id: 'm-live-win', eventId: LIVE_ID, oddType: 'eventWinner', updatedAt: T }],
  odds: [
    { id: 'o-live-1', marketId: 'm-live-win', athleteId: 'ath-1', odds: 1.8, updatedAt: T },
    { id: 'o-live-2', marketId: 'm-live-win', athleteId: 'ath-2', odds: 2.2, updatedAt: T },
  ],
} as FeedDocument;

/** The masl game made LIVE, so that its team rows speak of a LIVE event. */
const MASL_LIVE: FeedDocument = {
  events: [{ ...fixtureRow('events', MASL_ID), eventStatus: 'LIVE', updatedAt: T }],
} as FeedDocument;

const results = resultsFeed();
/** An event of the results fixture (laps, fights, team games), with its rows, made LIVE. */
const resultsLive = (eventId: string): FeedDocument[] => {
  const event = (results.events as Array<{ id: string }>).find((e) => e.id === eventId);
  return [results, { events: [{ ...event, eventStatus: 'LIVE', updatedAt: T }] } as FeedDocument];
};
const resultsRow = (collection: keyof FeedDocument, pick: (row: Record<string, unknown>) => boolean) =>
  ({ [collection]: [(results[collection] as Array<Record<string, unknown>>).find(pick)] }) as FeedDocument;

interface RowKind {
  /** The event the row is about. */
  eventId: string;
  /** Written before the row: what it refers to, the event made LIVE. */
  setup?: FeedDocument[];
  /** Written first (with the wsl event's prices), then resent unchanged as the only message. */
  message: FeedDocument;
}

/** One row of each kind the feed sends about a LIVE event. */
const ROW_KINDS: Record<string, RowKind> = {
  event: { eventId: LIVE_ID, message: { events: [fixtureRow('events', WSL_LIVE)] } as FeedDocument },
  round: { eventId: LIVE_ID, message: { rounds: [fixtureRow('rounds', 'r-live-2')] } as FeedDocument },
  heat: { eventId: LIVE_ID, message: { heats: [fixtureRow('heats', 'h-3')] } as FeedDocument },
  'heat score (heat entry)': {
    eventId: LIVE_ID,
    message: {
      heatEntries: [{ id: 'e-h3-b', heatId: 'h-3', athleteId: 'ath-2', seed: 2, heatScore: 4, updatedAt: T }],
    } as FeedDocument,
  },
  participant: {
    eventId: LIVE_ID,
    message: {
      eventParticipants: [{ id: 'p-live-2', eventId: LIVE_ID, athleteId: 'ath-2', seedNo: 2, updatedAt: T }],
    } as FeedDocument,
  },
  lap: {
    eventId: `spr:${SPR_EVENT}`,
    setup: resultsLive(`spr:${SPR_EVENT}`),
    message: resultsRow('laps', (lap) => lap.heatEntryId === 'e-sx-a' && lap.lapNo === 1),
  },
  'fight result': {
    eventId: `bkfc:${BKFC_EVENT}`,
    setup: resultsLive(`bkfc:${BKFC_EVENT}`),
    message: resultsRow('heatResults', (result) => result.heatId === 'bk-h1'),
  },
  'team game': {
    eventId: `pbr:${PBR_EVENT}`,
    setup: resultsLive(`pbr:${PBR_EVENT}`),
    message: resultsRow('teamGames', (game) => game.heatId === 'pbr-h1'),
  },
  'match score (round score)': {
    eventId: MASL_ID,
    setup: [MASL_LIVE],
    message: { roundScores: [fixtureRow('roundScores', 'rs-1')] } as FeedDocument,
  },
  market: { eventId: LIVE_ID, message: { markets: LIVE_ODDS.markets } as FeedDocument },
  odd: { eventId: LIVE_ID, message: { odds: LIVE_ODDS.odds?.slice(0, 1) } as FeedDocument },
};

interface FeedStatusItem {
  competition: string;
  lastMessageAt: string | null;
  staleEventIds: string[];
}

async function feedStatus(app: TestApp, competition: string): Promise<FeedStatusItem> {
  const response = await app.get('/api/v1/public/feed-status');
  assert.equal(response.statusCode, 200, response.body);
  return (response.json() as FeedStatusItem[]).find((item) => item.competition === competition) as FeedStatusItem;
}

async function liveStatuses(app: TestApp): Promise<Array<[string, string | undefined]>> {
  const body = (await app.get(ODDS)).json() as { eventWinner: Array<{ status: string; statusReason?: string }> };
  return body.eventWinner.map((o) => [o.status, o.statusReason]);
}

/**
 * The feed spoke of the event two minutes ago (the row and the prices), the bet stop on silence is
 * pushed, then the row comes again unchanged: the desk's markets must reopen.
 */
async function resendAfterSilence(store: Store, app: TestApp, kind: RowKind): Promise<void> {
  const before = new Date(Date.now() - 120_000);
  for (const document of [...(kind.setup ?? []), LIVE_ODDS, kind.message])
    await ingestFeed(store, document, { now: before });
  await publishFeedStale(store, STALE_SECONDS);
  const competition = kind.eventId.split(':')[0] as string;
  assert.deepEqual((await feedStatus(app, competition)).staleEventIds, [kind.eventId], 'stale before the resend');
  if (kind.eventId === LIVE_ID)
    assert.deepEqual(await liveStatuses(app), [
      ['SUSPENDED', 'FEED_STALE'],
      ['SUSPENDED', 'FEED_STALE'],
    ]);

  const resentAt = new Date();
  await ingestFeed(store, kind.message, { now: resentAt });
  const status = await feedStatus(app, competition);
  assert.deepEqual(status.staleEventIds, [], 'the unchanged resend is a sign of life');
  assert.equal(status.lastMessageAt, resentAt.toISOString(), 'lastMessageAt is the resend');
  if (kind.eventId === LIVE_ID)
    assert.deepEqual(await liveStatuses(app), [
      ['OPEN', undefined],
      ['OPEN', undefined],
    ]);
}

describeEachStore('trading desk: keep-alive means any message', (open) => {
  for (const [name, kind] of Object.entries(ROW_KINDS)) {
    test(`an unchanged ${name} row about a LIVE event lifts FEED_STALE and moves lastMessageAt`, async () => {
      const store = await open();
      const app = await fixtureApp(store, { FEED_STALE_SECONDS: String(STALE_SECONDS) });
      try {
        await resendAfterSilence(store, app, kind);
      } finally {
        await app.app.close();
      }
    });
  }

  test('property: any non-empty mix of rows about the LIVE event, changed or not, reopens its markets', async () => {
    const store = await open();
    const app = await fixtureApp(store, { FEED_STALE_SECONDS: String(STALE_SECONDS) });
    try {
      const wslKinds = Object.values(ROW_KINDS).filter((k) => k.eventId === LIVE_ID);
      await fc.assert(
        fc.asyncProperty(fc.subarray(wslKinds, { minLength: 1 }), async (kinds) => {
          const before = new Date(Date.now() - 120_000);
          for (const kind of [{ eventId: LIVE_ID, message: LIVE_ODDS }, ...kinds])
            for (const document of [...(kind.setup ?? []), kind.message])
              await ingestFeed(store, document, { now: before });
          await publishFeedStale(store, STALE_SECONDS);
          assert.deepEqual((await feedStatus(app, 'wsl')).staleEventIds, [LIVE_ID]);
          await ingestFeed(store, Object.assign({}, ...kinds.map((k) => k.message)) as FeedDocument);
          assert.deepEqual((await feedStatus(app, 'wsl')).staleEventIds, []);
          assert.deepEqual(await liveStatuses(app), [
            ['OPEN', undefined],
            ['OPEN', undefined],
          ]);
        }),
        { numRuns: 12 },
      );
    } finally {
      await app.app.close();
    }
  });
});
