import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApiKey } from '../src/access/api-keys.ts';
import { loadConfig } from '../src/config.ts';
import { getCompetition } from '../src/domain/competitions.ts';
import { generateEventMarkets } from '../src/domain/pricing/market-generator.ts';
import { Random } from '../src/domain/random.ts';
import { buildApp } from '../src/http/app.ts';
import type { FeedDocument } from '../src/ingest/feed-schema.ts';
import { ingestFeed } from '../src/ingest/ingest-feed.ts';
import { migrateToLatest, openStore } from '../src/store/database.ts';
import { client, latency } from './parlay.ts';

/**
 * `npm run bench:sgp-options`: the bet builder (POST /api/v1/public/events/{eventId}/sgp/options,
 * target p99 under 300 ms) over real HTTP on one keep-alive connection, one request at a
 * time, for a Supercross event of 30 athletes priced by the market generator (every market it
 * offers) and 3 legs: the favourite wins, the second favourite finishes second, the third favourite
 * on the podium. Times the first request (the event's model, simulation and every outcome's work,
 * cold), then warm requests. An in-process server over an embedded SQLite store in a temporary
 * directory. Usage: npm run bench:sgp-options -- [--athletes 30] [--requests 200]
 */

const { values } = parseArgs({
  options: {
    athletes: { type: 'string', default: '30' },
    requests: { type: 'string', default: '200' },
  },
});
const athletes = Number(values.athletes);
const requests = Number(values.requests);
const WARM_UP = 10;
const KEY = 'bench-sgp-options-key-0123456789';
const UUID = '5a5a5a5a-0000-4000-8000-000000000030';
const T = '2026-06-01T00:00:00.000Z';

/** A live Supercross main event of `athletes` riders, the favourite about 30 times the outsider's chance. */
function eventFeed(): FeedDocument {
  const athleteIds = Array.from({ length: athletes }, (_, i) => `bench-${i}`);
  const strengths = athleteIds.map((_, i) => 1 / (i + 1) ** 1.1);
  const total = strengths.reduce((a, b) => a + b, 0);
  const rng = new Random(30);
  const generated = generateEventMarkets(
    {
      eventId: UUID,
      athleteIds,
      win: strengths.map((s) => s / total),
      heats: [{ heatId: 'bench-main', athleteIds }],
      mainHeatId: 'bench-main',
      oddTypes: getCompetition('spr').supportedMarkets,
    },
    { overround: 0.1, marginMethod: 'power', shape: 1, samples: 100_000, uniform: () => rng.next() },
  );
  return {
    tours: [{ id: 'bench-tour', competition: 'spr', name: 'bench tour', updatedAt: T }],
    athletes: athleteIds.map((id, i) => ({ id, firstName: 'Rider', lastName: String(i), updatedAt: T })),
    events: [
      {
        id: `spr:${UUID}`,
        competition: 'spr',
        tourId: 'bench-tour',
        name: 'bench main',
        startDate: '2026-06-01T00:00:00Z',
        endDate: '2026-06-01T06:00:00Z',
        eventNumber: 1,
        eventStatus: 'LIVE',
        updatedAt: T,
      },
    ],
    rounds: [{ id: 'bench-r1', eventId: UUID, roundName: 'Main', roundNo: 1, roundStatus: 'LIVE', updatedAt: T }],
    heats: [
      { id: 'bench-main', roundId: 'bench-r1', heatName: 'Main', heatNo: 1, heatStatus: 'UPCOMING', updatedAt: T },
    ],
    eventParticipants: athleteIds.map((athleteId, i) => ({
      id: `bench-p${i}`,
      eventId: UUID,
      athleteId,
      seedNo: i + 1,
      updatedAt: T,
    })),
    markets: generated.markets.map((m) => ({ ...m, updatedAt: T })),
    odds: generated.odds.map((o) => ({ ...o, updatedAt: T })),
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'altsports-bench-sgp-options-'));
const store = openStore({ dataDir });
try {
  await migrateToLatest(store);
  await ingestFeed(store, eventFeed());
  await createApiKey(store, { name: 'bench', key: KEY });
  const config = loadConfig({ DEMO_DATA: 'off', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent', METRICS: 'off' });
  const app = await buildApp({ config, store });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const http = client(address, { timeoutMs: 120_000 });
  try {
    const odd = (oddType: string, i: number) => `${UUID}:${oddType}:bench-${i}`;
    const legs = [odd('eventWinner', 0), odd('secondPlace', 1), odd('podiums', 2)];
    const path = `/api/v1/public/events/spr:${UUID}/sgp/options`;
    const ask = async () => {
      const answer = await http.send('POST', path, { 'x-api-key': KEY }, JSON.stringify({ oddIds: legs }));
      if (answer.status !== 200)
        throw new Error(`${path}: ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
      return answer;
    };
    const first = await ask();
    const body = JSON.parse(first.body.toString('utf8')) as {
      probability: number;
      options: Array<{ combinable: boolean }>;
    };
    for (let i = 0; i < WARM_UP; i++) await ask();
    const times: number[] = [];
    for (let i = 0; i < requests; i++) times.push((await ask()).ms);
    const warm = latency(times);
    console.log(
      `bet builder (POST ${path}), ${athletes} athletes, legs: ${legs.map((l) => l.split(':').slice(-2).join(' ')).join(', ')}:`,
    );
    console.log(
      `  ${body.options.length} outcomes (${body.options.filter((o) => o.combinable).length} combinable), ${first.body.length} bytes; the legs' parlay ${body.probability} %`,
    );
    console.log(`  first request (cold: model, simulation, every outcome's work): ${first.ms.toFixed(1)} ms`);
    console.log(
      `  warm, ${WARM_UP} unmeasured then ${warm.samples} measured: median ${warm.medianMs.toFixed(2)} ms, p99 ${warm.p99Ms.toFixed(2)} ms (target p99 under 300 ms)`,
    );
  } finally {
    http.close();
    await app.close();
  }
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
