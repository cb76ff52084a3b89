/**
 * Market status and the bet stop on silence: operator statuses with their reasons from the
 * feed, and a LIVE event the feed is silent about published SUSPENDED (FEED_STALE) by every node,
 * pushed on the stream once, and reopened by its next message.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { publishFeedStale, publishScoreChangeStops } from '../../src/ingest/bet-stop.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { ADMIN_KEY, buildTestApp, fixtureApp, TEST_KEY } from '../helpers/app.ts';
import { fixtureFeed, fixtureScoreChanges, WSL_LIVE } from '../helpers/feed-fixture.ts';
import { refusedBatch } from '../helpers/feed-problems.ts';
import { SseStream } from '../helpers/sse.ts';
import { describeEachStore } from '../helpers/stores.ts';

const LIVE_ID = `wsl:${WSL_LIVE}`;
const ODDS = `/api/v1/public/events/${LIVE_ID}/eventWinner`;
const T = '2026-06-01T00:00:00.000Z';

/** Event-winner prices on the live wsl event; the second outcome as the operator left it. */
const liveOdds = (second: Record<string, unknown> = {}): FeedDocument =>
  ({
    markets: [{ id: 'm-live-win', eventId: LIVE_ID, oddType: 'eventWinner', updatedAt: T }],
    odds: [
      { id: 'o-live-1', marketId: 'm-live-win', athleteId: 'ath-1', odds: 1.8, updatedAt: T },
      { id: 'o-live-2', marketId: 'm-live-win', athleteId: 'ath-2', odds: 2.2, updatedAt: T, ...second },
    ],
  }) as FeedDocument;

interface Outcome {
  id: string;
  status: string;
  statusReason?: string;
}

describeEachStore('bet stop', (open) => {
  test("an operator's status carries its reason (OPERATOR when none); an unknown reason is a 400 naming item and field", async () => {
    const store = await open();
    const app = await fixtureApp(store);
    try {
      await ingestFeed(store, liveOdds({ status: 'SUSPENDED', statusReason: 'SCORE_CHANGE' }));
      let outcomes = ((await app.get(ODDS)).json() as { eventWinner: Outcome[] }).eventWinner;
      assert.deepEqual(
        outcomes.map((o) => [o.id, o.status, o.statusReason]),
        [
          ['o-live-1', 'OPEN', undefined],
          ['o-live-2', 'SUSPENDED', 'SCORE_CHANGE'],
        ],
      );
      await ingestFeed(store, liveOdds({ status: 'CLOSED', updatedAt: '2026-06-01T00:01:00.000Z' }));
      outcomes = ((await app.get(ODDS)).json() as { eventWinner: Outcome[] }).eventWinner;
      assert.deepEqual(
        outcomes.map((o) => [o.status, o.statusReason]),
        [
          ['OPEN', undefined],
          ['CLOSED', 'OPERATOR'],
        ],
      );
      const problems = await refusedBatch(
        store,
        liveOdds({ status: 'SUSPENDED', statusReason: 'LUNCH', updatedAt: '2026-06-01T00:02:00.000Z' }),
        ['odds', 'markets', 'feedActivity', 'changes'],
      );
      assert.deepEqual(
        problems.map((p) => [p.item, p.field]),
        [['odds[1]', 'statusReason']],
      );
    } finally {
      await app.app.close();
    }
  });

  test('a silent LIVE event is suspended (FEED_STALE) on every node, pushed on the stream once, and reopens on its next message', async () => {
    const store = await open();
    const env = { FEED_STALE_SECONDS: '30', STREAM_HEARTBEAT_SECONDS: '1' };
    const nodeA = await fixtureApp(store, env);
    const nodeB = await buildTestApp({
      config: loadConfig({ ADMIN_API_KEY: ADMIN_KEY, DEMO_DATA: 'off', RATE_LIMIT_PER_MINUTE: '0', ...env }),
      store,
    });
    let stream: SseStream | undefined;
    try {
      await ingestFeed(store, liveOdds());
      await nodeB.listen({ port: 0, host: '127.0.0.1' });
      const baseB = `http://127.0.0.1:${(nodeB.server.address() as AddressInfo).port}`;
      const read = async (node: typeof nodeB) =>
        (
          (await node.inject({ method: 'GET', url: ODDS, headers: { 'x-api-key': TEST_KEY } })).json() as {
            eventWinner: Outcome[];
          }
        ).eventWinner.map((o) => [o.status, o.statusReason]);
      assert.deepEqual(await read(nodeB), [
        ['OPEN', undefined],
        ['OPEN', undefined],
      ]);
      stream = await SseStream.open(`${baseB}/api/v1/public/stream?kind=odds&eventId=${LIVE_ID}`, {
        'x-api-key': TEST_KEY,
      });
      assert.equal((await stream.nextEvent()).event, 'ready');

      // Nothing written from now on moves the event's lastChangedAt, but the bet stop.
      const since = new Date().toISOString();
      // The feed's last word about the event was two minutes ago.
      await ingestFeed(
        store,
        {
          heatEntries: [
            {
              id: 'e-h3-b',
              heatId: 'h-3',
              athleteId: 'ath-2',
              seed: 2,
              heatScore: 4,
              updatedAt: '2026-07-01T00:00:00.000Z',
            },
          ],
          markets: [{ id: 'm-live-win', eventId: LIVE_ID, oddType: 'eventWinner', updatedAt: T }],
        },
        { now: new Date(Date.now() - 120_000) },
      );
      for (const node of [nodeA.app, nodeB])
        assert.deepEqual(await read(node), [
          ['SUSPENDED', 'FEED_STALE'],
          ['SUSPENDED', 'FEED_STALE'],
        ]);
      // Pushed by whichever node's watcher saw it first (the stream's own heatScore change came before).
      const pushed = (
        await stream.eventsUntil((e) => JSON.parse(e.data ?? '{}').statusReason === 'FEED_STALE', 10_000)
      ).at(-1);
      const data = JSON.parse(pushed?.data ?? '{}');
      assert.deepEqual(
        data.odds.map((o: { id: string; status: string }) => [o.id, o.status]),
        [
          ['o-live-1', 'SUSPENDED'],
          ['o-live-2', 'SUSPENDED'],
        ],
      );
      assert.deepEqual(await publishFeedStale(store, 30), [], 'pushed once: no node pushes it again');
      const polled = await nodeB.inject({
        method: 'GET',
        url: `/api/v1/public/events?updatedSince=${since}`,
        headers: { 'x-api-key': TEST_KEY },
      });
      assert.ok(
        (polled.json() as Array<{ id: string }>).some((e) => e.id === LIVE_ID),
        'updatedSince polling sees the bet stop',
      );

      // Its next message reopens it, and says so on the stream.
      await ingestFeed(store, {
        heatEntries: [
          {
            id: 'e-h3-b',
            heatId: 'h-3',
            athleteId: 'ath-2',
            seed: 2,
            heatScore: 5,
            updatedAt: '2026-07-01T00:01:00.000Z',
          },
        ],
      });
      const reopened = (
        await stream.eventsUntil((e) => {
          const d = JSON.parse(e.data ?? '{}');
          return d.statusReason === undefined && d.odds.length === 2;
        })
      ).at(-1);
      assert.deepEqual(
        JSON.parse(reopened?.data ?? '{}').odds.map((o: { status: string }) => o.status),
        ['OPEN', 'OPEN'],
      );
      for (const node of [nodeA.app, nodeB])
        assert.deepEqual(await read(node), [
          ['OPEN', undefined],
          ['OPEN', undefined],
        ]);
    } finally {
      await stream?.close();
      await nodeB.close();
      await nodeA.app.close();
    }
  });

  test('the parlay route refuses legs under a bet stop as not open, as route 6 publishes them', async () => {
    const store = await open();
    const app = await fixtureApp(store, { FEED_STALE_SECONDS: '30' });
    try {
      const parlay = async () => {
        const response = await app.app.inject({
          method: 'POST',
          url: `/api/v1/public/events/${LIVE_ID}/sgp`,
          headers: { 'x-api-key': TEST_KEY },
          payload: { oddIds: ['o-live-1', 'o-live-2'] },
        });
        assert.equal(response.statusCode, 422, response.body);
        return (response.json() as { metadata: { closedOddIds?: string[] } }).metadata.closedOddIds;
      };
      // The feed's last word about the live event was two minutes ago.
      await ingestFeed(store, liveOdds(), { now: new Date(Date.now() - 120_000) });
      assert.deepEqual(await parlay(), ['o-live-1', 'o-live-2']);
      // Its next message lifts the bet stop: the legs are open, and refused only as two winners of one heat.
      await ingestFeed(store, liveOdds());
      assert.equal(await parlay(), undefined);
    } finally {
      await app.app.close();
    }
  });

  test('an event the feed moves to LIVE: prices set before are suspended (EVENT_STARTED), pushed, until priced again', async () => {
    const store = await open();
    const app = await fixtureApp(store);
    let stream: SseStream | undefined;
    try {
      const liveEvent = fixtureFeed().events?.find((e) => e.id === WSL_LIVE) as Record<string, unknown>;
      await ingestFeed(store, {
        events: [{ ...liveEvent, eventStatus: 'UPCOMING', updatedAt: '2026-05-31T00:00:00.000Z' }],
      } as FeedDocument);
      await ingestFeed(store, liveOdds());
      const read = async () =>
        ((await app.get(ODDS)).json() as { eventWinner: Outcome[] }).eventWinner.map((o) => [o.status, o.statusReason]);
      assert.deepEqual(await read(), [
        ['OPEN', undefined],
        ['OPEN', undefined],
      ]);
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
      stream = await SseStream.open(`${base}/api/v1/public/stream?kind=odds&eventId=${LIVE_ID}`, {
        'x-api-key': TEST_KEY,
      });
      assert.equal((await stream.nextEvent()).event, 'ready');

      // The event starts an hour after its prices were set, and one of them is priced again in play.
      await ingestFeed(store, {
        events: [{ ...liveEvent, eventStatus: 'LIVE', updatedAt: '2026-06-01T01:00:00.000Z' }],
      } as FeedDocument);
      assert.deepEqual(await read(), [
        ['SUSPENDED', 'EVENT_STARTED'],
        ['SUSPENDED', 'EVENT_STARTED'],
      ]);
      const pushed = JSON.parse((await stream.nextEvent()).data ?? '{}');
      assert.equal(pushed.statusReason, 'EVENT_STARTED');
      assert.deepEqual(
        pushed.odds.map((o: { id: string; status: string }) => [o.id, o.status]),
        [
          ['o-live-1', 'SUSPENDED'],
          ['o-live-2', 'SUSPENDED'],
        ],
      );
      await ingestFeed(store, {
        odds: [
          {
            id: 'o-live-1',
            marketId: 'm-live-win',
            athleteId: 'ath-1',
            odds: 1.7,
            updatedAt: '2026-06-01T01:00:30.000Z',
          },
        ],
      } as FeedDocument);
      assert.deepEqual(await read(), [
        ['OPEN', undefined],
        ['SUSPENDED', 'EVENT_STARTED'],
      ]);
    } finally {
      await stream?.close();
      await app.app.close();
    }
  });

  test("after a score, the LIVE event is suspended (SCORE_CHANGE) for its competition's seconds, pushed and reopened", async () => {
    const store = await open();
    const app = await fixtureApp(store, { SCORE_CHANGE_SUSPEND_SECONDS: 'wsl:4,masl:0' });
    let stream: SseStream | undefined;
    try {
      await ingestFeed(store, liveOdds());
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
      stream = await SseStream.open(`${base}/api/v1/public/stream?kind=odds&eventId=${LIVE_ID}`, {
        'x-api-key': TEST_KEY,
      });
      assert.equal((await stream.nextEvent()).event, 'ready');
      await ingestFeed(store, fixtureScoreChanges().wslScore(6));
      const outcomes = ((await app.get(ODDS)).json() as { eventWinner: Outcome[] }).eventWinner;
      assert.deepEqual(
        outcomes.map((o) => [o.status, o.statusReason]),
        [
          ['SUSPENDED', 'SCORE_CHANGE'],
          ['SUSPENDED', 'SCORE_CHANGE'],
        ],
      );
      const suspended = JSON.parse((await stream.nextEvent()).data ?? '{}');
      assert.equal(suspended.statusReason, 'SCORE_CHANGE');
      assert.deepEqual(
        suspended.odds.map((o: { status: string }) => o.status),
        ['SUSPENDED', 'SUSPENDED'],
      );
      // Four seconds on, the watcher reopens it, once.
      const reopened = JSON.parse((await stream.nextEvent(15_000)).data ?? '{}');
      assert.equal(reopened.statusReason, undefined);
      assert.deepEqual(
        reopened.odds.map((o: { status: string }) => o.status),
        ['OPEN', 'OPEN'],
      );
      const now = ((await app.get(ODDS)).json() as { eventWinner: Outcome[] }).eventWinner;
      assert.deepEqual(
        now.map((o) => o.status),
        ['OPEN', 'OPEN'],
      );
      assert.deepEqual(await publishScoreChangeStops(store, { wsl: 4 }), [], 'pushed once');
    } finally {
      await stream?.close();
      await app.app.close();
    }
  });
});
