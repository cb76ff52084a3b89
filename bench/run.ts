import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs } from './args.ts';
import { killAllChildren, startChild } from './children.ts';
import { type LoadSettings, measure, stopLoad } from './load.ts';
import { type ComparisonRow, formatTable, machineInfo } from './report.ts';
import { type BenchContext, type Scenario, resolvePath, scenarios } from './scenarios.ts';
import { benchIngest, formatIngest } from './ingest-feed.ts';
import { benchParlay, formatParlay } from './parlay.ts';
import { seedStore } from './seed-store.ts';

/**
 * Throughput of altsports against a raw node:http server sending the same bytes, per route.
 * Then same game parlay latency (warm, and the first request after an odds change), against the same bytes
 * from a raw server. Then the feed ingestion rate (heat entries and laps per second) on SQLite, and on PostgreSQL when
 * DATABASE_URL or TEST_DATABASE_URL names one (`npm run bench` starts a throwaway server for it).
 * Usage: npm run bench -- [--duration 8] [--warmup 2] [--connections 10] [--routes events,event,heat,odds] [--ingest-heats 5000]
 *        [--parlay-requests 200] [--parlay-changes 10] [--parlay-legs 2,3,4,5,6]
 */

const args = parseBenchArgs(process.argv.slice(2));
const selected = args.routes.length ? scenarios.filter((s) => args.routes.includes(s.name)) : scenarios;
const unknown = args.routes.filter((name) => !scenarios.some((s) => s.name === name));
if (unknown.length) throw new Error(`unknown route(s): ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);

const workDir = mkdtempSync(join(tmpdir(), 'altsports-bench-'));
const cleanUp = () => {
  killAllChildren();
  rmSync(workDir, { recursive: true, force: true });
};
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopLoad();
    console.error(`\n${signal}: stopped`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const log = (message: string) => console.error(`[bench] ${message}`);

log(`seeding a SQLite store in ${workDir}`);
const { apiKey, events } = await seedStore(join(workDir, 'data'));
log(`${events} demo events loaded`);
// Opens the admin feed route, through which the parlay measurement changes odds.
const adminKey = `bench-admin-${randomBytes(16).toString('hex')}`;
const altsports = await startChild(script('./server.ts'), [join(workDir, 'data'), adminKey]);
const altsportsUrl = `http://127.0.0.1:${altsports.port}`;
const headers = { 'x-api-key': apiKey };
const settings: LoadSettings = { connections: args.connections, duration: args.duration, warmup: args.warmup, headers };

/** The exact body and content type altsports answers, checked to be a 200. */
async function fetchReference(path: string): Promise<{ body: Buffer; contentType: string }> {
  const response = await fetch(altsportsUrl + path, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${body.toString('utf8').slice(0, 500)}`);
  return { body, contentType: response.headers.get('content-type') ?? 'application/octet-stream' };
}

async function chooseContext(): Promise<BenchContext> {
  const list = JSON.parse((await fetchReference('/api/v1/public/events')).body.toString('utf8')) as Array<{ id: string; eventStatus: string; competition: string }>;
  // A finished event has rounds and heats: the fuller document is the more telling one to serve.
  const event = list.find((e) => e.eventStatus === 'COMPLETED') ?? list[0];
  if (!event) throw new Error('the demo data has no events');
  // Heat scores: a finished supercross main, whose rows carry lap statistics derived from every lap.
  const race = list.find((e) => e.eventStatus === 'COMPLETED' && e.competition === 'spr') ?? event;
  const document = JSON.parse((await fetchReference(`/api/v1/public/events/${race.id}`)).body.toString('utf8')) as { rounds: Array<{ heats: Array<{ id: string }> }> };
  const heat = document.rounds.flatMap((r) => r.heats).at(-1);
  if (!heat) throw new Error(`event ${race.id} has no heats`);
  return { eventId: event.id, raceId: race.id, heatId: heat.id, oddsEventId: await chooseOddsEvent(list), oddType: 'eventWinner' };
}

/** Odds and parlays: a supercross (else Formula 1) event still to run whose eventWinner market is open. */
async function chooseOddsEvent(list: Array<{ id: string; eventStatus: string; competition: string }>): Promise<string> {
  const statuses = ['UPCOMING', 'NEXT', 'LIVE'];
  const candidates = ['spr', 'f1'].flatMap((competition) => statuses.flatMap((status) => list.filter((e) => e.competition === competition && e.eventStatus === status)));
  for (const candidate of candidates) {
    const response = await fetch(`${altsportsUrl}/api/v1/public/events/${encodeURIComponent(candidate.id)}/eventWinner`, { headers });
    if (response.status !== 200) continue;
    const outcomes = ((await response.json()) as { eventWinner: Array<{ status: string }> }).eventWinner;
    if (outcomes.filter((o) => o.status === 'OPEN').length >= 8) return candidate.id;
  }
  throw new Error('the demo data has no spr or f1 event to run with an open eventWinner market');
}

/** Loads one route on altsports, then on a raw server answering the same bytes, with the same settings. */
async function compare(scenario: Scenario, context: BenchContext): Promise<ComparisonRow> {
  const path = resolvePath(scenario, context);
  const { body, contentType } = await fetchReference(path);
  const bodyFile = join(workDir, `${scenario.name}.body`);
  writeFileSync(bodyFile, body);
  const raw = await startChild(script('./raw-server.ts'), [bodyFile, contentType]);
  try {
    log(`${scenario.name}: ${scenario.method} ${path} (${body.length} bytes) on altsports`);
    const altsportsResult = await measure(altsportsUrl + path, scenario.method, settings);
    log(`${scenario.name}: same bytes on the raw node:http server`);
    const rawResult = await measure(`http://127.0.0.1:${raw.port}${path}`, scenario.method, settings);
    return { route: `${scenario.method} ${scenario.path}`, path, bytes: body.length, altsports: altsportsResult, raw: rawResult };
  } finally {
    await raw.stop();
  }
}

const context = await chooseContext();
const rows: ComparisonRow[] = [];
for (const scenario of selected) rows.push(await compare(scenario, context));

let parlay = '';
let parlayFailure = '';
if (args.parlayRequests > 0) {
  try {
    const report = await benchParlay({
      baseUrl: altsportsUrl,
      apiKey,
      adminKey,
      eventId: context.oddsEventId,
      legCounts: args.parlayLegs,
      requests: args.parlayRequests,
      changes: args.parlayChanges,
      workDir,
      log,
    });
    parlay = `\n${formatParlay(report)}`;
  } catch (error) {
    parlayFailure = error instanceof Error ? error.message : String(error);
  }
}
await altsports.stop();

let ingest = '';
if (args.ingestHeats > 0) {
  log(`feed ingestion: ${args.ingestHeats} heats of 20 riders, 5 laps each`);
  const reports = await benchIngest(join(workDir, 'ingest'), process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL, { heats: args.ingestHeats, riders: 20, laps: 5 });
  ingest = `\nfeed ingestion (POST /api/v1/admin/feed's path without HTTP: validation, reference checks, one transaction):\n${formatIngest(reports)}`;
}

console.log(machineInfo().join('\n'));
console.log(`load:    autocannon, ${args.connections} connections, pipelining 1, ${args.warmup} s warm-up + ${args.duration} s measured per target, loopback\n`);
console.log(formatTable(rows));
if (parlay) console.log(parlay);
if (ingest) console.log(ingest);

const failed = rows.flatMap((r) =>
  (['altsports', 'raw'] as const)
    .filter((target) => r[target].non2xx > 0 || r[target].errors > 0)
    .map((target) => `${target} ${r.path}: ${r[target].non2xx} non-2xx, ${r[target].errors} errors (status codes: ${r[target].statusCodes})`),
);
if (parlayFailure) failed.push(`same game parlay: ${parlayFailure}`);
if (failed.length) {
  console.error(`\nFAILED: requests went wrong during the measured runs:\n  ${failed.join('\n  ')}`);
  process.exitCode = 1;
}
