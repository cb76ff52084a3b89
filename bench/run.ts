import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchArgs, parseBenchArgs } from './args.ts';
import { killAllChildren, type RunningChild, startAltsports, startChild } from './children.ts';
import { chooseContext, type Fetcher, fetcher, headersToCopy, wireBytes } from './context.ts';
import { type DatasetFigures, formatGrowth, measureDataset } from './growth.ts';
import { benchIngest, formatIngest } from './ingest-feed.ts';
import { formatJsonServer, type JsonServerRow, startJsonServer } from './json-server.ts';
import {
  combine,
  type LoadGenerator,
  type LoadResult,
  type LoadSettings,
  measureGet,
  stopLoad,
  wrkInstalled,
} from './load.ts';
import { benchParlay, formatParlay } from './parlay.ts';
import {
  type ComparisonRow,
  formatNotModifiedTable,
  formatTable,
  machineInfo,
  type NotModifiedRow,
  TARGETS,
  wrongAnswers,
} from './report.ts';
import { type BenchContext, resolvePath, type Scenario, scenarios } from './scenarios.ts';
import { seedStore } from './seed-store.ts';
import { formatStream, measureStream, measureStreamAcrossNodes, type StreamReport } from './stream-latency.ts';

/**
 * `npm run bench`, in parts (`--only` picks some, in this order):
 * - routes: throughput of altsports against a raw node:http server sending the same bytes (body and
 *   headers), and against a plain Fastify app sending them (bench/fastify-peer.ts), per route; then each
 *   route again with `If-None-Match: <its ETag>` (304s), against the raw server and the Fastify app
 *   answering the same 304, and against altsports's own cached 200. `--instances N` (2) starts N
 *   servers of altsports and N Fastify apps, each asked a few dozen requests one at a time first, and
 *   loads each in turn: servers of one build settle up to 5% apart. `--rounds N` alternates the runs
 *   N times; the tables give the mean req/s, CPU and median latencies over every run.
 *   `--load-generator wrk` loads them with wrk instead of autocannon.
 * - parlay: same game parlay latency, warm and right after an odds change, against a raw server.
 * - json-server: `GET /events` (its first 100 events, one competition's) on json-server serving the same events
 *   array, against altsports; without Accept-Encoding, then with a browser's; under autocannon, then
 *   under wrk when it is installed.
 * - stream: write-to-stream latency, POST /api/v1/admin/feed to the heatScore event at N stream
 *   clients: one node on SQLite, then two `altsports serve` processes on one PostgreSQL database
 *   (one node, and across nodes), when DATABASE_URL or TEST_DATABASE_URL names a server.
 * - large: the growth routes on the small dataset and on `--large-events` demo events (100,000 by
 *   default; loading them takes most of an hour on 2 cores, so it runs only when asked for, and
 *   `--large-store DIR` keeps the store for the next run).
 * - ingest: the feed ingestion rate on SQLite, and on PostgreSQL when a server is named.
 * Usage: npm run bench -- [--only routes,parlay,json-server,stream,large,ingest] [--duration 8] [--warmup 2] [--connections 10]
 *        [--routes events,event,heat,odds] [--rounds 1] [--instances 2] [--load-generator autocannon|wrk] [--parlay-requests 200] [--parlay-changes 10] [--parlay-legs 2,3,4,5,6]
 *        [--stream-clients 10] [--stream-batches 200] [--stream-rate 20]
 *        [--large-events 100000] [--large-store DIR] [--uncached-documents 40] [--ingest-heats 5000]
 */

const args: BenchArgs = parseBenchArgs(process.argv.slice(2));
const selected = args.routes.length ? scenarios.filter((s) => args.routes.includes(s.name)) : scenarios;
const unknown = args.routes.filter((name) => !scenarios.some((s) => s.name === name));
if (unknown.length)
  throw new Error(`unknown route(s): ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
const postgresUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;

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
const failed: string[] = [];
const sections: string[] = [];
const settingsWith = (headers: Record<string, string>): LoadSettings => ({
  connections: args.connections,
  duration: args.duration,
  warmup: args.warmup,
  headers,
});

// Opens the admin feed route, through which the parlay and stream measurements write.
const adminKey = `bench-admin-${randomBytes(16).toString('hex')}`;

/** A server loaded in the routes part: the URL asked, and the process whose CPU is counted. */
interface Target {
  url: string;
  pid: number;
}
const target = (child: RunningChild, path: string): Target => ({
  url: `http://127.0.0.1:${child.port}${path}`,
  pid: child.pid,
});

/**
 * Loads one route on each altsports server, then on a raw server answering the same bytes, then on a
 * plain Fastify app (one per altsports server), with the same settings; then all of them as 304s.
 */
async function compare(
  api: Fetcher,
  servers: RunningChild[],
  settings: LoadSettings,
  scenario: Scenario,
  context: BenchContext,
  apiKey: string,
): Promise<{ ok: ComparisonRow; notModified: NotModifiedRow }> {
  const path = resolvePath(scenario, context);
  const route = `${scenario.method} ${scenario.path}`;
  const reference = await api.get(path);
  const etag = reference.headers.get('etag');
  if (!etag) throw new Error(`GET ${path} answered without an ETag`);
  const conditionalSettings = { ...settings, headers: { ...settings.headers, 'if-none-match': etag } };
  const conditional = await fetch(target(servers[0] as RunningChild, path).url, {
    headers: { 'accept-encoding': 'identity', ...conditionalSettings.headers },
  });
  await conditional.arrayBuffer();
  if (conditional.status !== 304)
    throw new Error(`GET ${path} with If-None-Match: ${etag} answered ${conditional.status}, not 304`);

  const files = (name: string, headers: Headers, body: Buffer) => {
    const bodyFile = join(workDir, `${scenario.name}.${name}.body`);
    const headersFile = join(workDir, `${scenario.name}.${name}.headers.json`);
    writeFileSync(bodyFile, body);
    writeFileSync(headersFile, JSON.stringify(headersToCopy(headers)));
    return [bodyFile, headersFile] as const;
  };
  const [okBody, okHeaders] = files('200', reference.headers, reference.body);
  const [emptyBody, notModifiedHeaders] = files('304', conditional.headers, Buffer.alloc(0));
  const children: RunningChild[] = [];
  try {
    const rawOk = await startChild(script('./raw-server.ts'), [okBody, reference.contentType, '200', okHeaders]);
    children.push(rawOk);
    const rawNotModified = await startChild(script('./raw-server.ts'), [
      emptyBody,
      reference.contentType,
      '304',
      notModifiedHeaders,
    ]);
    children.push(rawNotModified);
    const [raw, raw304] = [target(rawOk, path), target(rawNotModified, path)];
    // The plain Fastify apps (fastify-peer.ts), their request logs written where altsports's are.
    const peerArgs = [okBody, reference.contentType, okHeaders, notModifiedHeaders, apiKey];
    const pairs: Array<{ altsports: Target; peer: Target }> = [];
    for (const [i, server] of servers.entries()) {
      const peer = await startChild(script('./fastify-peer.ts'), [
        ...peerArgs,
        join(workDir, `${scenario.name}.peer-${i}.log`),
      ]);
      children.push(peer);
      pairs.push({ altsports: target(server, path), peer: target(peer, path) });
    }
    // A few dozen requests one at a time before any load: a server whose first requests come as a
    // burst may stay slower (V8's pretenuring, docs/decisions.md "The cost of a polling answer").
    for (const { altsports, peer } of pairs) await warm([altsports.url, peer.url], settings, conditionalSettings);
    const load = ({ url, pid }: Target, loadSettings: LoadSettings) =>
      measureGet(args.loadGenerator, url, loadSettings, pid);
    const runs = {
      altsports: [] as LoadResult[],
      raw: [] as LoadResult[],
      altsports304: [] as LoadResult[],
      raw304: [] as LoadResult[],
      peer: [] as LoadResult[],
      peer304: [] as LoadResult[],
    };
    const inTurn = servers.length > 1 ? ` (${servers.length} servers of each app, in turn)` : '';
    // Alternated rounds: drift in the machine's load (it is shared) falls on every server alike.
    for (let round = 1; round <= args.rounds; round++) {
      const of = args.rounds > 1 ? ` (round ${round} of ${args.rounds})` : '';
      log(
        `${scenario.name}: ${scenario.method} ${path} (${reference.body.length} bytes) on altsports, then the same bytes on the raw node:http server and on the plain Fastify app${inTurn}${of}`,
      );
      for (const { altsports, peer } of pairs) {
        runs.altsports.push(await load(altsports, settings));
        runs.raw.push(await load(raw, settings));
        runs.peer.push(await load(peer, settings));
      }
      log(
        `${scenario.name}: If-None-Match: ${etag} on altsports, then the same 304 on the raw server and the plain Fastify app${inTurn}${of}`,
      );
      for (const { altsports, peer } of pairs) {
        runs.altsports304.push(await load(altsports, conditionalSettings));
        runs.raw304.push(await load(raw304, conditionalSettings));
        runs.peer304.push(await load(peer, conditionalSettings));
      }
    }
    // wrk counts no statuses: each server is asked once more whether it still answers the conditional request with a 304.
    const answering = [...pairs.flatMap(({ altsports, peer }) => [altsports.url, peer.url]), raw304.url];
    for (const url of answering) {
      const after = await fetch(url, { headers: conditionalSettings.headers });
      await after.arrayBuffer();
      if (after.status !== 304)
        throw new Error(`GET ${url} with If-None-Match: ${etag} answered ${after.status} after the runs, not 304`);
    }
    const altsports = combine(runs.altsports);
    return {
      ok: { route, path, bytes: reference.body.length, altsports, raw: combine(runs.raw), peer: combine(runs.peer) },
      notModified: {
        route,
        etag,
        altsports: combine(runs.altsports304),
        raw: combine(runs.raw304),
        peer: combine(runs.peer304),
        cached: altsports,
      },
    };
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}

/** Asks each URL for its document 25 times, then with `If-None-Match` 25 times, one request at a time. */
async function warm(urls: string[], settings: LoadSettings, conditionalSettings: LoadSettings): Promise<void> {
  for (const url of urls)
    for (const { headers } of [settings, conditionalSettings])
      for (let i = 0; i < 25; i++) await (await fetch(url, { headers })).arrayBuffer();
}

const needsSmall = (['routes', 'parlay', 'json-server', 'stream', 'large'] as const).some((part) =>
  args.parts.has(part),
);
let smallFigures: DatasetFigures | undefined;
let smallContext: BenchContext | undefined;
if (needsSmall) {
  log(`seeding a SQLite store in ${workDir}`);
  const { apiKey, events } = await seedStore({ dataDir: join(workDir, 'data') });
  log(`${events} demo events loaded`);
  const altsports = await startAltsports(
    { DATA_DIR: join(workDir, 'data'), ADMIN_API_KEY: adminKey },
    join(workDir, 'serve.log'),
  );
  const altsportsUrl = `http://127.0.0.1:${altsports.port}`;
  const headers = { 'x-api-key': apiKey };
  const settings = settingsWith(headers);
  const api = fetcher(altsportsUrl, headers);
  const context = await chooseContext(api);
  smallContext = context;

  if (args.parts.has('routes')) {
    const rows: ComparisonRow[] = [];
    const notModified: NotModifiedRow[] = [];
    const servers = [altsports];
    // More servers of altsports on the same store, each to be compared with a Fastify app of its own.
    for (let i = 1; i < args.instances; i++)
      servers.push(await startAltsports({ DATA_DIR: join(workDir, 'data') }, join(workDir, `serve-${i}.log`)));
    for (const scenario of selected) {
      const { ok, notModified: row } = await compare(api, servers, settings, scenario, context, apiKey);
      rows.push(ok);
      notModified.push(row);
    }
    await Promise.all(servers.slice(1).map((server) => server.stop()));
    sections.push(
      `cached GET routes (${args.loadGenerator}) against a raw node:http server sending the same body and headers, and against a plain Fastify app (request log at info, a key check) sending them too (target: altsports's ratio to raw at least the Fastify app's):\n${formatTable(rows)}`,
      `the same requests with If-None-Match: <the ETag> (304 Not Modified; ${args.loadGenerator}), against a raw server and the plain Fastify app answering the same 304, and against altsports's cached 200 above (targets: altsports's ratio to raw at least the Fastify app's; 304 / 200 above 1):\n${formatNotModifiedTable(notModified)}`,
    );
    for (const r of rows) {
      for (const target of ['altsports', 'raw', 'peer'] as const) {
        if (r[target].non2xx > 0 || r[target].errors > 0)
          failed.push(
            `${target} ${r.path}: ${r[target].non2xx} non-2xx, ${r[target].errors} errors (status codes: ${r[target].statusCodes})`,
          );
      }
    }
    for (const r of notModified) {
      for (const target of ['altsports', 'raw', 'peer'] as const) {
        if (wrongAnswers(r[target], 304) > 0)
          failed.push(
            `${target} ${r.route} with If-None-Match: ${wrongAnswers(r[target], 304)} answers not 304 (status codes: ${r[target].statusCodes})`,
          );
      }
    }
  }

  if (args.parts.has('large')) {
    smallFigures = await measureDataset({
      label: 'small',
      events,
      baseUrl: altsportsUrl,
      headers,
      api,
      context,
      settings,
      documents: args.uncachedDocuments,
      log,
    });
  }

  if (args.parts.has('json-server')) {
    const list = await api.get('/api/v1/public/events');
    const jsonServer = await startJsonServer(JSON.parse(list.body.toString('utf8')) as unknown[], workDir);
    const jsonServerUrl = `http://127.0.0.1:${jsonServer.port}`;
    try {
      // The whole list (what a poller of every event asks for); its first 100 events, which json-server pages with
      // `_limit`; and one competition's events, as a client following one tour asks (a field filter there).
      const pairs = [
        { altsports: '/api/v1/public/events', jsonServer: '/events' },
        { altsports: '/api/v1/public/events?limit=100', jsonServer: '/events?_limit=100' },
        { altsports: '/api/v1/public/events?competition=wsl', jsonServer: '/events?competition=wsl' },
      ];
      const rows: JsonServerRow[] = [];
      // Without Accept-Encoding (the load generator's default), then as browsers and most HTTP clients
      // ask: json-server's defaults include the compression middleware, which codes every answer anew.
      // With autocannon, then with wrk when it is installed (autocannon is the bound on large bodies).
      const generators: LoadGenerator[] = wrkInstalled() ? ['autocannon', 'wrk'] : ['autocannon'];
      if (generators.length === 1) log('json-server: wrk is not installed (apt-get install wrk): autocannon only');
      for (const generator of generators) {
        const load = (url: string, loadSettings: LoadSettings, pid?: number) =>
          measureGet(generator, url, loadSettings, pid);
        for (const acceptEncoding of [undefined, 'gzip, deflate, br']) {
          const encodingHeaders: Record<string, string> = acceptEncoding ? { 'accept-encoding': acceptEncoding } : {};
          for (const pair of pairs) {
            const ours = await api.get(pair.altsports);
            const theirs = Buffer.from(await (await fetch(jsonServerUrl + pair.jsonServer)).arrayBuffer());
            if (
              JSON.stringify(JSON.parse(theirs.toString('utf8'))) !==
              JSON.stringify(JSON.parse(ours.body.toString('utf8')))
            )
              throw new Error(
                `json-server's ${pair.jsonServer} is not the array altsports answers to ${pair.altsports}`,
              );
            const altsportsRuns: LoadResult[] = [];
            const jsonServerRuns: LoadResult[] = [];
            const encodingSettings = { ...settings, headers: { ...settings.headers, ...encodingHeaders } };
            for (let round = 1; round <= args.rounds; round++) {
              log(
                `json-server ${jsonServer.version} (${generator}): GET ${pair.altsports} on altsports, then GET ${pair.jsonServer} on json-server${acceptEncoding ? `, Accept-Encoding: ${acceptEncoding}` : ''}${args.rounds > 1 ? ` (round ${round} of ${args.rounds})` : ''}`,
              );
              altsportsRuns.push(await load(altsportsUrl + pair.altsports, encodingSettings, altsports.pid));
              jsonServerRuns.push(await load(jsonServerUrl + pair.jsonServer, encodingSettings, jsonServer.pid));
            }
            rows.push({
              generator,
              acceptEncoding,
              altsportsPath: pair.altsports,
              jsonServerPath: pair.jsonServer,
              altsports: combine(altsportsRuns),
              altsportsBytes: await wireBytes(altsportsUrl + pair.altsports, encodingSettings.headers),
              jsonServer: combine(jsonServerRuns),
              jsonServerBytes: await wireBytes(jsonServerUrl + pair.jsonServer, encodingHeaders),
            });
          }
        }
      }
      sections.push(
        `GET /events against json-server ${jsonServer.version} serving the same array from a db.json (same load settings; target: at least ${TARGETS.jsonServerRatio}x its req/s). ` +
          'json-server uses a whole core on every row. Where the load generator also nears a core per second (its CPU per request times altsports req/s: autocannon on large and compressed bodies), it bounds altsports req/s; wrk, which costs a few µs per answer, does not. The requests per CPU-second show what each server could answer:\n' +
          formatJsonServer(rows, jsonServer.version),
      );
      for (const row of rows) {
        for (const [name, result] of [
          ['altsports', row.altsports],
          ['json-server', row.jsonServer],
        ] as const) {
          if (result.non2xx > 0 || result.errors > 0)
            failed.push(
              `${name} ${name === 'altsports' ? row.altsportsPath : row.jsonServerPath}: ${result.non2xx} non-2xx, ${result.errors} errors`,
            );
        }
      }
    } finally {
      await jsonServer.stop();
    }
  }

  if (args.parts.has('parlay')) {
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
      sections.push(formatParlay(report));
    } catch (error) {
      failed.push(`same game parlay: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  if (args.parts.has('stream')) {
    const streamSettings = { clients: args.streamClients, batches: args.streamBatches, ratePerSecond: args.streamRate };
    const reports: StreamReport[] = await measureStream({
      writeUrl: altsportsUrl,
      readers: [{ label: 'one node', baseUrl: altsportsUrl, targetMs: TARGETS.streamOneNodeP99Ms }],
      store: 'sqlite',
      apiKey,
      adminKey,
      settings: streamSettings,
      log,
    });
    await altsports.stop();
    if (postgresUrl)
      reports.push(...(await measureStreamAcrossNodes(postgresUrl, adminKey, streamSettings, log, workDir)));
    else log('stream: no DATABASE_URL or TEST_DATABASE_URL: the cross-node measurement is skipped');
    sections.push(
      `write-to-stream latency: POST /api/v1/admin/feed (one heat-score update) to its heatScore event at each stream client, open loop (targets: p99 under ${TARGETS.streamOneNodeP99Ms} ms on one node, ${TARGETS.streamCrossNodeP99Ms} ms across nodes):\n${formatStream(reports)}`,
    );
    for (const r of reports)
      if (r.missing > 0) failed.push(`stream ${r.store} ${r.label}: ${r.missing} deliveries never arrived`);
  }
  await altsports.stop();
}

if (args.parts.has('large') && smallFigures) {
  const dataDir = args.largeStore ? resolve(args.largeStore) : join(workDir, 'large');
  mkdirSync(dataDir, { recursive: true });
  log(
    `seeding a SQLite store of ${args.largeEvents} demo events in ${dataDir}${args.largeStore ? ' (kept; reused when it holds events)' : ''}`,
  );
  let reported = 0;
  const started = performance.now();
  const { apiKey, events } = await seedStore(
    { dataDir },
    {
      events: args.largeEvents,
      reuse: args.largeStore !== undefined,
      onProgress: (written) => {
        if (written - reported < 5_000 && written < args.largeEvents) return;
        reported = written;
        log(
          `large: ${written} of ${args.largeEvents} events loaded (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
      },
    },
  );
  log(`large: ${events} events in the store`);
  const altsports = await startAltsports({ DATA_DIR: dataDir }, join(workDir, 'serve-large.log'));
  try {
    const baseUrl = `http://127.0.0.1:${altsports.port}`;
    const headers = { 'x-api-key': apiKey };
    const api = fetcher(baseUrl, headers);
    const context = await chooseContext(api, smallContext);
    const large = await measureDataset({
      label: 'large',
      events,
      baseUrl,
      headers,
      api,
      context,
      settings: settingsWith(headers),
      documents: args.uncachedDocuments,
      log,
    });
    sections.push(formatGrowth(smallFigures, large, args.connections));
    for (const figures of [smallFigures, large]) {
      for (const h of figures.hot)
        if (h.load.non2xx > 0 || h.load.errors > 0)
          failed.push(`${figures.label} ${h.path}: ${h.load.non2xx} non-2xx, ${h.load.errors} errors`);
    }
  } finally {
    await altsports.stop();
  }
}

if (args.parts.has('ingest')) {
  log(`feed ingestion: ${args.ingestHeats} heats of 20 riders, 5 laps each`);
  const reports = await benchIngest(join(workDir, 'ingest'), postgresUrl, {
    heats: args.ingestHeats,
    riders: 20,
    laps: 5,
  });
  sections.push(
    `feed ingestion (POST /api/v1/admin/feed's path without HTTP: validation, reference checks, one transaction):\n${formatIngest(reports)}`,
  );
}

console.log(machineInfo().join('\n'));
console.log(`parts:   ${[...args.parts].join(', ')}`);
console.log(
  `load:    ${args.loadGenerator === 'wrk' ? 'wrk (one thread) for the routes, autocannon elsewhere (and wrk where a table says so)' : 'autocannon (and wrk, one thread, where a table says so)'}, ${args.connections} connections, pipelining 1, ${args.warmup} s warm-up + ${args.duration} s measured per target, loopback\n`,
);
console.log(sections.join('\n\n'));

if (failed.length) {
  console.error(`\nFAILED: requests went wrong during the measured runs:\n  ${failed.join('\n  ')}`);
  process.exitCode = 1;
}
