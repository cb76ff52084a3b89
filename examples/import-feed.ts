/**
 * Sends a feed document to the admin API: a small surfing event with one live heat and two scored
 * athletes. Then sends a bad batch to show the 400 that names each offending item and field, and
 * reads the heat back through the public API.
 *
 *   ALTSPORTS_ADMIN_KEY=... node --import tsx examples/import-feed.ts [--score N] [--file FEED.json]
 *
 * --score sets the first athlete's heat score (run it again with another score and watch
 * poll-scores.ts or stream-changes.ts see the change); --file sends your own JSON feed document
 * instead. For large files (NDJSON too), `altsports import FILE` writes straight into the server's
 * store, through the same validation.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AltsportsApiError, type components, createClient, type paths } from '@altsports/client';

type FeedDocument = components['schemas']['FeedDocument'];
type IngestResult = paths['/api/v1/admin/feed']['post']['responses'][200]['content']['application/json'];

const { values: flags } = parseArgs({
  options: { score: { type: 'string', default: '6.5' }, file: { type: 'string' } },
});

const baseUrl = process.env.ALTSPORTS_URL ?? 'http://127.0.0.1:3000';
// The admin API may listen elsewhere (ADMIN_PORT on the server).
const adminUrl = process.env.ALTSPORTS_ADMIN_URL ?? baseUrl;
const adminKey = process.env.ALTSPORTS_ADMIN_KEY;
if (!adminKey) {
  console.error("Set ALTSPORTS_ADMIN_KEY to the server's ADMIN_API_KEY (start it with ADMIN_API_KEY=... npm start).");
  process.exit(2);
}

/** POSTs a feed document; a rejected batch throws AltsportsApiError with the problems in `metadata`. */
async function postFeed(document: unknown): Promise<IngestResult> {
  const url = `${adminUrl}/api/v1/admin/feed`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'x-api-key': adminKey as string, 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });
  if (!response.ok) throw await AltsportsApiError.from('POST', url, response);
  return (await response.json()) as IngestResult;
}

function printCounts(result: IngestResult): void {
  console.log('  collection          received inserted  updated unchanged  stale');
  for (const [name, c] of Object.entries(result.collections)) {
    if (c.received === 0) continue;
    console.log(
      `  ${name.padEnd(18)} ${[c.received, c.inserted, c.updated, c.unchanged, c.stale].map((n) => String(n).padStart(8)).join(' ')}`,
    );
  }
  console.log(`  ${result.changedEvents} event document(s) changed`);
}

/** A refused batch: the server's message, then every offending item and field. */
function printProblems(error: unknown): void {
  if (!(error instanceof AltsportsApiError) || error.status !== 400) throw error;
  console.log(`  ${error.status}: ${error.serverMessage}`);
  const problems = (error.metadata.problems ?? []) as Array<{
    item: string;
    id?: string;
    field: string;
    message: string;
  }>;
  for (const p of problems) console.log(`  - ${p.item}${p.id ? ` (id "${p.id}")` : ''} ${p.field}: ${p.message}`);
}

if (flags.file) {
  console.log(`Sending ${flags.file}`);
  try {
    printCounts(await postFeed(JSON.parse(readFileSync(flags.file, 'utf8'))));
  } catch (error) {
    printProblems(error);
    process.exit(1);
  }
  process.exit(0);
}

// Stable ids: sending the document again updates these items rather than adding new ones.
const EVENT_ID = 'wsl:7e57feed-0000-4000-8000-000000000001';
const HEAT_ID = 'examples-final-h1';
const today = new Date().toISOString().slice(0, 10);

const feed: FeedDocument = {
  tours: [{ id: 'examples-tour', competition: 'wsl', name: 'Examples Tour' }],
  athletes: [
    { id: 'examples-ana', firstName: 'Ana', lastName: 'Example', nationality: 'PRT' },
    { id: 'examples-ben', firstName: 'Ben', lastName: 'Sample', nationality: 'AUS' },
  ],
  events: [
    {
      id: EVENT_ID,
      competition: 'wsl',
      tourId: 'examples-tour',
      name: 'Examples Pro',
      startDate: `${today}T00:00:00Z`,
      endDate: `${today}T23:59:59Z`,
      eventNumber: 1,
      eventStatus: 'LIVE',
      eventLocation: 'Example Bay',
    },
  ],
  rounds: [{ id: 'examples-final', eventId: EVENT_ID, roundName: 'Final', roundNo: 1, roundStatus: 'LIVE' }],
  heats: [{ id: HEAT_ID, roundId: 'examples-final', heatName: 'Heat 1', heatNo: 1, heatStatus: 'LIVE' }],
  heatEntries: [
    { id: `${HEAT_ID}-ana`, heatId: HEAT_ID, athleteId: 'examples-ana', seed: 1, heatScore: Number(flags.score) },
    { id: `${HEAT_ID}-ben`, heatId: HEAT_ID, athleteId: 'examples-ben', seed: 2, heatScore: 5.5 },
  ],
};

console.log(`Sending the Examples Pro feed (${EVENT_ID})`);
printCounts(await postFeed(feed));

// A status the API does not know and a score sent as text: the whole batch is refused, nothing is written.
console.log('\nSending a bad batch');
try {
  await postFeed({
    heats: [{ id: HEAT_ID, roundId: 'examples-final', heatName: 'Heat 1', heatNo: 1, heatStatus: 'FINISHED' }],
    heatEntries: [{ id: `${HEAT_ID}-ben`, heatId: HEAT_ID, athleteId: 'examples-ben', heatScore: '8.5' }],
  });
  console.error('  unexpectedly accepted');
  process.exit(1);
} catch (error) {
  printProblems(error);
}

// What a client of the public API now sees.
const api = createClient({ baseUrl, apiKey: process.env.ALTSPORTS_KEY ?? 'altsports-demo-key' });
console.log(`\nThe heat through the public API (${HEAT_ID})`);
for (const row of await api.heatScores(EVENT_ID, HEAT_ID)) {
  console.log(
    `  ${String(row.athleteRoundRank ?? '-').padStart(2)}  ${`${row.athlete.firstName} ${row.athlete.lastName}`.padEnd(16)} ${row.athleteHeatScore}`,
  );
}
