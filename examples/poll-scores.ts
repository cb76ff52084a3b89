/**
 * Polls one heat's scores with If-None-Match and prints the heat only when it changed.
 *
 *   node --import tsx examples/poll-scores.ts [--event ID --heat ID] [--interval S] [--count N] [--timeout S]
 *
 * Without --event/--heat it picks a heat that is live now. An unchanged heat costs a 304 with no body:
 * that is why integrators poll with ETags rather than refetching the whole document.
 */
import { parseArgs } from 'node:util';
import { createClient, type HeatScoreRow } from '@altsports/client';

const { values: flags } = parseArgs({
  options: {
    event: { type: 'string' },
    heat: { type: 'string' },
    interval: { type: 'string', default: '2' }, // seconds between two requests
    count: { type: 'string' }, // stop after this many changes (the first copy is not a change)
    timeout: { type: 'string' }, // stop after this many seconds, whatever happened
  },
});

const api = createClient({
  baseUrl: process.env.ALTSPORTS_URL ?? 'http://127.0.0.1:3000',
  apiKey: process.env.ALTSPORTS_KEY ?? 'altsports-demo-key',
});

/** The first heat that is live now (or, between two heats, about to be) in a live event. */
async function findLiveHeat(): Promise<{ eventId: string; heatId: string } | undefined> {
  let next: { eventId: string; heatId: string } | undefined;
  for (const listed of await api.events({ eventStatus: ['LIVE'] })) {
    const event = await api.event(listed.id);
    for (const heat of event.rounds.flatMap((round) => round.heats)) {
      if (heat.heatStatus === 'LIVE') return { eventId: event.id, heatId: heat.id };
      if (heat.heatStatus === 'UPCOMING') next ??= { eventId: event.id, heatId: heat.id };
    }
  }
  return next;
}

/** What a row's athlete has so far: a judged score, a rider score, or race time and laps. */
function scoreOf(row: HeatScoreRow): string {
  if (row.athleteHeatScore !== null) return row.athleteHeatScore.toFixed(2);
  if (row.riderScore !== null) return `${row.riderScore} (rider)`;
  if (row.athleteLapTime !== null) return `${row.athleteLapTime.toFixed(3)} s, ${row.totalLaps ?? '?'} laps`;
  return '-';
}

const target = flags.event && flags.heat ? { eventId: flags.event, heatId: flags.heat } : await findLiveHeat();
if (!target) {
  console.error('No heat is live right now. Start the server with --simulate, or pass --event ID --heat ID.');
  process.exit(1);
}

// Ctrl-C and --timeout end the loop quietly through the same signal.
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
// A plain timer, not AbortSignal.timeout inside AbortSignal.any: Node may collect such a timeout signal
// before it fires (nodejs/node#57736), and the loop would then run on past --timeout.
if (flags.timeout) setTimeout(() => stop.abort(), Number(flags.timeout) * 1000).unref();
const signal = stop.signal;
const maxChanges = flags.count === undefined ? Infinity : Number(flags.count);

console.log(`Polling heat ${target.heatId} of ${target.eventId} every ${flags.interval} s (Ctrl-C to stop)`);
let versions = 0;
let notModified = 0;
let notModifiedSinceLast = 0;

const heatScores = api.poll(
  '/events/{eventId}/heats/{heatId}',
  { path: target },
  {
    intervalMs: Number(flags.interval) * 1000,
    signal,
    // The client sends the last ETag as If-None-Match; a 304 lands here and the loop below does not run.
    onNotModified: () => {
      notModified += 1;
      notModifiedSinceLast += 1;
    },
    // Without onError the first failure would end the loop; a poller should ride out a blip.
    onError: (error) =>
      console.error(`  request failed, trying again: ${error instanceof Error ? error.message : error}`),
  },
);

for await (const { data: rows, etag } of heatScores) {
  const label = versions === 0 ? 'first copy' : `change ${versions} (after ${notModifiedSinceLast} not modified)`;
  console.log(`\n${new Date().toISOString()}  ${label}  ETag ${etag}`);
  for (const row of rows) {
    const name = `${row.athlete.firstName} ${row.athlete.lastName}`;
    console.log(`  ${String(row.athleteRoundRank ?? '-').padStart(2)}  ${name.padEnd(24)} ${scoreOf(row)}`);
  }
  versions += 1;
  notModifiedSinceLast = 0;
  if (versions - 1 >= maxChanges) break;
}

console.log(`\nDone: ${Math.max(0, versions - 1)} change(s), ${notModified} not modified (304).`);
