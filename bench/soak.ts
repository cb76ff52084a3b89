import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '../scripts/free-port.ts';
import { createThrowawayDatabase } from '../scripts/throwaway-database.ts';
import { openStore, type StoreOptions } from '../src/store/database.ts';
import { heapSnapshot, heapSnapshotOptions } from './heap-snapshot.ts';
import { machineInfo, markdownTable } from './report.ts';
import { seedStore } from './seed-store.ts';
import { type Fixtures, loadFixtures, READ_KINDS } from './soak-fixtures.ts';
import {
  analyseMemory,
  GROWTH_LIMITS,
  type MemoryFigures,
  type MemorySample,
  parseMetrics,
  readRssMb,
  type SeriesFigures,
} from './soak-memory.ts';
import {
  httpClient,
  runParlays,
  runReaders,
  runWriter,
  type StreamStats,
  streamClient,
  Tally,
  type WriterStats,
} from './soak-traffic.ts';
import { ms, summarize } from './stats.ts';

/**
 * `npm run soak`: one `altsports serve` process under a steady mixed load for a set time
 * (paced readers over the public GET routes with cached hits, If-None-Match revalidations and
 * misses after writes; a writer posting small feed batches; same game parlays; push-stream clients
 * that follow every change), its memory sampled throughout. It passes when nothing went wrong (any
 * status but the expected one, a socket error, a missed stream change, an error in the server's
 * log) and the server's RSS did not grow after the warm-up (bench/soak-memory.ts: GROWTH_LIMITS).
 *
 * Usage: npm run soak -- [--duration 10m] [--warmup 20%] [--store sqlite|postgres] [--json FILE]
 *        [--readers 8] [--read-rate 300] [--conditional 0.5] [--hot 0.5] [--mix polls=5,...] [--write-rate 5] [--parlay-rate 2]
 *        [--winner-every 30] [--winner-prices 3] [--stream-clients 2] [--churn-every 20]
 *        [--sample-every 2] [--change-log-size 1000] [--max-slope 1] [--max-ratio 1.1] [--heap-snapshots DIR] [--seed 1]
 * Durations: seconds (600), or 600s, 10m, 1h; --warmup also as a share of --duration (20%).
 */

const HELP = `npm run soak -- [options]
  --duration T         how long the load runs (default 10m; 600, 600s, 10m, 1h)
  --warmup T           not judged for growth or timed (default 20%, at least 60 s; T or a share like 25%)
  --store S            sqlite (default: a throwaway DATA_DIR) or postgres (a throwaway database on
                       DATABASE_URL or TEST_DATABASE_URL, which npm run soak provides)
  --readers N          reading clients, one keep-alive connection each (8)
  --read-rate R        GETs a second over all readers (300; 0: as fast as they go)
  --conditional P      share of repeated GETs sent with If-None-Match (0.5)
  --hot P              share of GETs that go to documents the writer changes (0.5)
  --mix K=W,...        relative weights of the read kinds, replacing the defaults named
                       (lists=15,polls=5,events=20,heats=15,odds=20,sport=10,futures=10); e.g. polls=100
  --write-rate R       feed batches a second (5)
  --parlay-rate R      same game parlays a second (2)
  --winner-every S     seconds between moves of the parlay event's eventWinner price (30; 0: never)
  --winner-prices K    price sets those moves cycle through (3; 0: a new price every move)
  --stream-clients N   push-stream clients connected the whole time (2: one unfiltered, one filtered)
  --churn-every S      one more stream client disconnects every S s and resumes with Last-Event-ID (20; 0: none)
  --sample-every S     memory sample interval, s (2: a sample soon after each major collection)
  --change-log-size N  CHANGE_LOG_SIZE of the server (1000, so that the log trims during the run)
  --max-slope M        growth limit, MiB per minute of the RSS floors after the warm-up (${GROWTH_LIMITS.slopeMbPerMin})
  --max-ratio X        growth limit, last RSS floor / first one after the warm-up (${GROWTH_LIMITS.ratio})
  --heap-snapshots DIR write a heap snapshot of the server at the end of the warm-up and at the end
  --seed N             the readers' random choices (1)
  --json FILE          also write the report, with every memory sample, as JSON to FILE`;

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    duration: { type: 'string', default: '10m' },
    warmup: { type: 'string', default: '20%' },
    store: { type: 'string', default: 'sqlite' },
    readers: { type: 'string', default: '8' },
    'read-rate': { type: 'string', default: '300' },
    conditional: { type: 'string', default: '0.5' },
    hot: { type: 'string', default: '0.5' },
    mix: { type: 'string', default: '' },
    'write-rate': { type: 'string', default: '5' },
    'parlay-rate': { type: 'string', default: '2' },
    'winner-every': { type: 'string', default: '30' },
    'winner-prices': { type: 'string', default: '3' },
    'stream-clients': { type: 'string', default: '2' },
    'churn-every': { type: 'string', default: '20' },
    'sample-every': { type: 'string', default: '2' },
    'change-log-size': { type: 'string', default: '1000' },
    'max-slope': { type: 'string', default: String(GROWTH_LIMITS.slopeMbPerMin) },
    'max-ratio': { type: 'string', default: String(GROWTH_LIMITS.ratio) },
    'heap-snapshots': { type: 'string' },
    seed: { type: 'string', default: '1' },
    json: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

function seconds(name: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h)?$/.exec(raw.trim());
  if (!match) throw new Error(`--${name}: expected seconds (600) or 600s, 10m, 1h; got "${raw}"`);
  return Number(match[1]) * { s: 1, m: 60, h: 3600 }[(match[2] ?? 's') as 's' | 'm' | 'h'];
}
function number(name: string, raw: string, { min = 0, max = Number.POSITIVE_INFINITY, integer = false } = {}): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value)))
    throw new Error(
      `--${name}: expected a ${integer ? 'whole ' : ''}number from ${min}${max < Infinity ? ` to ${max}` : ''}, got "${raw}"`,
    );
  return value;
}

const durationS = seconds('duration', values.duration);
// A share of the run, but at least a minute (the caches and the JIT settle in about that), and at most half of it.
const warmupS = values.warmup.endsWith('%')
  ? Math.min(durationS / 2, Math.max(60, (durationS * number('warmup', values.warmup.slice(0, -1), { max: 90 })) / 100))
  : seconds('warmup', values.warmup);
if (warmupS >= durationS) throw new Error(`--warmup (${warmupS} s) must be shorter than --duration (${durationS} s)`);
if (!['sqlite', 'postgres'].includes(values.store))
  throw new Error(`--store: sqlite or postgres, got "${values.store}"`);
const settings = {
  store: values.store as 'sqlite' | 'postgres',
  durationS,
  warmupS,
  readers: number('readers', values.readers, { min: 1, integer: true }),
  readRate: number('read-rate', values['read-rate']),
  conditionalShare: number('conditional', values.conditional, { max: 1 }),
  hotShare: number('hot', values.hot, { max: 1 }),
  writeRate: number('write-rate', values['write-rate'], { min: 0.01 }),
  parlayRate: number('parlay-rate', values['parlay-rate']),
  winnerEveryS: number('winner-every', values['winner-every']),
  winnerPrices: number('winner-prices', values['winner-prices'], { integer: true }),
  streamClients: number('stream-clients', values['stream-clients'], { integer: true }),
  churnEveryS: number('churn-every', values['churn-every']),
  sampleEveryS: number('sample-every', values['sample-every'], { min: 0.5 }),
  changeLogSize: number('change-log-size', values['change-log-size'], { min: 100, integer: true }),
  limits: {
    slopeMbPerMin: number('max-slope', values['max-slope']),
    ratio: number('max-ratio', values['max-ratio'], { min: 1 }),
  },
  seed: number('seed', values.seed, { integer: true }),
};
const mix = new Map(
  values.mix
    .split(',')
    .filter(Boolean)
    .map((part) => {
      const [kind = '', weight = ''] = part.split('=');
      if (!(READ_KINDS as readonly string[]).includes(kind))
        throw new Error(`--mix: unknown read kind "${kind}"; kinds: ${READ_KINDS.join(', ')}`);
      return [kind, number('mix', weight)] as const;
    }),
);
const heapDir = values['heap-snapshots'] ? resolve(values['heap-snapshots']) : undefined;

const log = (message: string) => console.error(`[soak] ${message}`);
const workDir = mkdtempSync(join(tmpdir(), 'altsports-soak-'));
const adminKey = `soak-admin-${randomBytes(16).toString('hex')}`;
let server: Server | undefined;
let dropDatabase: (() => Promise<void>) | undefined;
process.on('exit', () => {
  server?.child.kill('SIGKILL');
  rmSync(workDir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopped`);
    void (dropDatabase?.() ?? Promise.resolve()).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

// --- the server ----------------------------------------------------------------------------------

interface LogLine {
  level: number;
  msg: string;
  line: string;
}

interface Server {
  child: ChildProcess;
  baseUrl: string;
  /** JSON log lines at warn or above (the server runs with LOG_LEVEL=warn). */
  warnings: LogLine[];
  warningCount: number;
  errorCount: number;
  output(): string;
}

/** `altsports serve`, as an operator starts it, with its pid (for /proc) and its log watched. */
async function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  const port = await freePort();
  const cli = fileURLToPath(new URL('../bin/altsports.js', import.meta.url));
  const nodeArgs = heapDir ? heapSnapshotOptions(heapDir) : [];
  const child = spawn(process.execPath, [...nodeArgs, cli, 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const started: Server = {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    warnings: [],
    warningCount: 0,
    errorCount: 0,
    output: () => tail,
  };
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-20_000);
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        try {
          const entry = JSON.parse(line) as { level?: number; msg?: string };
          if ((entry.level ?? 0) < 40) continue;
          if ((entry.level ?? 0) >= 50) started.errorCount += 1;
          else started.warningCount += 1;
          if (started.warnings.length < 20)
            started.warnings.push({ level: entry.level ?? 0, msg: entry.msg ?? '', line: line.slice(0, 600) });
        } catch {
          // not a log line
        }
      }
    });
  }
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `altsports serve exited before answering (code ${child.exitCode}, signal ${child.signalCode}):\n${tail}`,
      );
    if (
      await fetch(`${started.baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return started;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`altsports serve did not answer /healthz within 180 s:\n${tail}`);
    }
    await sleep(200);
  }
}

/** SIGTERM, as an operator stops it: in-flight requests finish, stream clients get `close`; its exit code. */
async function stopServer(target: Server): Promise<number | null> {
  const { child } = target;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  child.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(30_000).then(() => 'timeout' as const)]);
  if (code !== 'timeout') return code;
  child.kill('SIGKILL');
  await exited;
  return null;
}

// --- the run -------------------------------------------------------------------------------------

const gitState = (() => {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean).length;
    return `${head}${dirty ? ` + ${dirty} uncommitted file(s) under src/` : ''}`;
  } catch {
    return 'unknown';
  }
})();
const loadAtStart = loadavg();

try {
  let target: StoreOptions;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ADMIN_API_KEY: adminKey,
    DEMO_DATA: 'off',
    DEMO_API_KEY: 'off',
    // A soak makes far more requests than a key's default 600 a minute: a 429 here would be an error.
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_DAY: '0',
    LOG_LEVEL: 'warn',
    CHANGE_LOG_SIZE: String(settings.changeLogSize),
  };
  delete env.REDIS_URL;
  if (settings.store === 'postgres') {
    const postgresUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (!postgresUrl)
      throw new Error(
        '--store postgres needs DATABASE_URL or TEST_DATABASE_URL (npm run soak starts a throwaway PostgreSQL and sets the latter)',
      );
    const database = await createThrowawayDatabase(postgresUrl, 'soak');
    dropDatabase = async () => {
      dropDatabase = undefined;
      await database.drop().catch(() => {});
    };
    target = { databaseUrl: database.url, pgPoolSize: 2 };
    env.DATABASE_URL = database.url;
    log(`PostgreSQL database ${database.name} on ${new URL(database.url).host}`);
  } else {
    const dataDir = join(workDir, 'data');
    target = { dataDir };
    env.DATA_DIR = dataDir;
    delete env.DATABASE_URL;
  }

  log(`seeding the ${settings.store} store with the demo data`);
  const { apiKey, events } = await seedStore(target);
  const fixtureStore = openStore(target);
  let fixtures: Fixtures;
  try {
    fixtures = await loadFixtures(fixtureStore, { winnerPrices: settings.winnerPrices });
    for (const set of fixtures.reads) set.weight = mix.get(set.kind) ?? set.weight;
    if (fixtures.reads.every((set) => set.weight === 0)) throw new Error('--mix: every read kind has weight 0');
  } finally {
    await fixtureStore.close();
  }
  if (heapDir) mkdirSync(heapDir, { recursive: true });
  server = await startServer(env);
  const running = server;
  log(
    `altsports serve (pid ${running.child.pid}) on ${running.baseUrl}: ${events} demo events; writes go to ${fixtures.writtenCompetitions.length} competitions (${fixtures.writtenCompetitions.join(', ')})`,
  );

  /** Every path once, before the clock starts: anything but a 200 (201 for parlays) leaves the mix, and is reported. */
  async function validate(): Promise<string[]> {
    const excluded: string[] = [];
    const good = new Set<string>();
    const all = fixtures.reads.flatMap((set) => set.paths);
    // A few connections: a few thousand first requests (each composes its document) take seconds.
    await Promise.all(
      Array.from({ length: 4 }, async (_, worker) => {
        const client = httpClient(running.baseUrl);
        try {
          for (let i = worker; i < all.length; i += 4) {
            const path = all[i] as string;
            const answer = await client.send('GET', path, { 'x-api-key': apiKey });
            if (answer.status === 200) good.add(path);
            else excluded.push(`${answer.status} GET ${path}`);
          }
        } finally {
          client.close();
        }
      }),
    );
    for (const set of fixtures.reads) {
      set.paths = set.paths.filter((path) => good.has(path));
      set.hot = set.hot.filter((path) => good.has(path));
    }
    const client = httpClient(running.baseUrl);
    try {
      const parlays = [];
      for (const parlay of fixtures.parlays) {
        const answer = await client.send('POST', parlay.path, { 'x-api-key': apiKey }, parlay.body);
        if (answer.status === 201) parlays.push(parlay);
        else
          excluded.push(
            `${answer.status} POST ${parlay.path} (${parlay.label}): ${answer.body.toString('utf8').slice(0, 200)}`,
          );
      }
      fixtures.parlays = parlays;
    } finally {
      client.close();
    }
    return excluded;
  }
  const excluded = await validate();
  if (excluded.length)
    log(
      `${excluded.length} request(s) left out of the mix (not 200/201 before the load):\n  ${excluded.slice(0, 20).join('\n  ')}`,
    );
  const paths = fixtures.reads
    .map((r) =>
      r.kind === 'polls'
        ? "polls (updatedSince each poll's previous time)"
        : `${r.kind} ${r.paths.length}${r.hot.length ? ` (${r.hot.length} hot)` : ''}`,
    )
    .join(', ');
  log(`read paths: ${paths}; parlays: ${fixtures.parlays.map((p) => p.label).join('; ') || 'none'}`);

  // Memory: /proc always; GET /metrics too when the server serves it on PORT (METRICS on, no METRICS_PORT).
  const metricsProbe = await fetch(`${running.baseUrl}/metrics`).then(
    async (r) => ({ status: r.status, text: await r.text() }),
    (e: Error) => ({ status: 0, text: e.message }),
  );
  const metricsAvailable = metricsProbe.status === 200 && /process_resident_memory_bytes/.test(metricsProbe.text);
  log(
    metricsAvailable
      ? 'GET /metrics: available; heap sampled too'
      : `GET /metrics answered ${metricsProbe.status || 'nothing'}: RSS from /proc only`,
  );
  const pid = running.child.pid as number;
  const samples: MemorySample[] = [];
  let cacheAtWarmup: { hit: number; miss: number } | null = null;
  let cacheAtEnd: { hit: number; miss: number } | null = null;
  const cacheLookups = (text: string) => {
    const value = (result: string) =>
      Number(
        new RegExp(
          `^altsports_response_cache_lookups_total\\{[^}]*result="${result}"[^}]*\\}\\s+([0-9.eE+]+)`,
          'm',
        ).exec(text)?.[1] ?? Number.NaN,
      );
    return { hit: value('hit'), miss: value('miss') };
  };
  const startedAt = performance.now();
  const elapsed = () => (performance.now() - startedAt) / 1000;
  async function sample(): Promise<string | null> {
    const t = elapsed();
    try {
      const rssMb = await readRssMb(pid);
      let text: string | null = null;
      const entry: MemorySample = { t, rssMb };
      if (metricsAvailable) {
        text = await fetch(`${running.baseUrl}/metrics`, { signal: AbortSignal.timeout(5000) }).then(
          (r) => r.text(),
          () => null,
        );
        if (text) {
          const parsed = parseMetrics(text);
          if (parsed.rssMb !== undefined) entry.metricsRssMb = parsed.rssMb;
          if (parsed.heapUsedMb !== undefined) entry.heapUsedMb = parsed.heapUsedMb;
          if (parsed.heapTotalMb !== undefined) entry.heapTotalMb = parsed.heapTotalMb;
          if (parsed.externalMb !== undefined) entry.externalMb = parsed.externalMb;
        }
      }
      samples.push(entry);
      return text;
    } catch (error) {
      tally.note('memory', 'sample', (error as Error).message);
      return null;
    }
  }

  const tally = new Tally(startedAt);
  const controller = new AbortController();
  const { signal } = controller;
  // Every paced sleep and stream listens on this one signal: more than Node's default 10 is expected.
  setMaxListeners(100, signal);
  const writerStats: WriterStats = { batches: {}, notUpdated: 0 };
  const writtenQuery = `?competition=${fixtures.writtenCompetitions.join(',')}&kind=heatScore,odds`;
  const streams = [
    ...Array.from({ length: settings.streamClients }, (_, i) => ({
      label: i % 2 === 0 ? `all changes #${i + 1}` : `written competitions #${i + 1}`,
      query: i % 2 === 0 ? '' : writtenQuery,
      churn: 0,
    })),
    ...(settings.churnEveryS > 0
      ? [{ label: `resuming every ${settings.churnEveryS} s`, query: '', churn: settings.churnEveryS }]
      : []),
  ].map((s) =>
    streamClient({
      baseUrl: running.baseUrl,
      apiKey,
      label: s.label,
      query: s.query,
      contiguous: s.query === '',
      churnEverySeconds: s.churn,
      churnPauseSeconds: 3,
      tally,
      signal,
    }),
  );
  log(
    `load for ${durationS} s (warm-up ${warmupS} s): ${settings.readers} readers at ${settings.readRate || 'max'} GET/s, ${settings.writeRate} feed batches/s, ` +
      `${settings.parlayRate} parlays/s, ${streams.length} stream clients; memory every ${settings.sampleEveryS} s`,
  );
  await sample();
  const sampler = setInterval(() => void sample(), settings.sampleEveryS * 1000);
  const loops = [
    runReaders({
      baseUrl: running.baseUrl,
      apiKey,
      reads: fixtures.reads,
      readers: settings.readers,
      ratePerSecond: settings.readRate,
      conditionalShare: settings.conditionalShare,
      hotShare: settings.hotShare,
      seed: settings.seed,
      tally,
      signal,
    }),
    runWriter(
      {
        baseUrl: running.baseUrl,
        adminKey,
        writes: fixtures.writes,
        ratePerSecond: settings.writeRate,
        winnerMove: settings.winnerEveryS > 0 ? fixtures.winnerMove : null,
        winnerEverySeconds: settings.winnerEveryS || 1,
        tally,
        signal,
      },
      writerStats,
    ),
    runParlays({
      baseUrl: running.baseUrl,
      apiKey,
      bodies: fixtures.parlays,
      ratePerSecond: settings.parlayRate,
      tally,
      signal,
    }),
  ];

  const totalRequests = () => [...tally.kinds.values()].reduce((sum, k) => sum + k.requests, 0);
  const progress = setInterval(() => {
    const rss = samples.at(-1)?.rssMb.toFixed(1) ?? '?';
    const heap = samples.at(-1)?.heapUsedMb;
    const received = streams.reduce((sum, s) => sum + Object.values(s.stats.events).reduce((a, b) => a + b, 0), 0);
    log(
      `${elapsed().toFixed(0)} s of ${durationS}${elapsed() < warmupS ? ' (warm-up)' : ''}: ${totalRequests()} requests, ${tally.errorCount} errors, RSS ${rss} MiB${heap !== undefined ? `, heap ${heap.toFixed(1)} MiB` : ''}, ${received} stream events`,
    );
  }, 30_000);

  await sleep(warmupS * 1000);
  tally.measuring = true;
  const measuredFrom = elapsed();
  const warmupText = await sample();
  if (warmupText) cacheAtWarmup = cacheLookups(warmupText);
  if (heapDir)
    await heapSnapshot(running.child.pid as number, `${running.baseUrl}/healthz`, heapDir, 'end of warm-up', log);
  log('warm-up over: measuring');
  await sleep(Math.max(0, durationS - elapsed()) * 1000);
  controller.abort();
  await Promise.all(loops);
  const measuredS = elapsed() - measuredFrom;
  clearInterval(progress);
  clearInterval(sampler);
  const endText = await sample();
  if (endText) cacheAtEnd = cacheLookups(endText);
  await Promise.all(streams.map((s) => s.done));
  if (heapDir) await heapSnapshot(running.child.pid as number, `${running.baseUrl}/healthz`, heapDir, 'end', log);
  const exitCode = await stopServer(running);
  await dropDatabase?.();

  // --- the report ----------------------------------------------------------------------------------

  const memory: MemoryFigures = analyseMemory(samples, warmupS, settings.limits);
  const problems: string[] = [];
  if (tally.errorCount > 0) problems.push(`${tally.errorCount} error(s) in the load`);
  if (running.errorCount > 0) problems.push(`${running.errorCount} error line(s) in the server's log`);
  if (exitCode !== 0) problems.push(`the server exited with code ${exitCode} on SIGTERM`);
  const warnings: string[] = [];
  const growth = (name: string, f: SeriesFigures) =>
    `${name} grew after the warm-up: its floor climbed ${f.floorSlopeMbPerMin.toFixed(2)} MiB/min (limit ${settings.limits.slopeMbPerMin}) to ${f.floorRatio.toFixed(3)}x where it started (limit ${settings.limits.ratio})`;
  if (memory.judged === null) problems.push('too few memory samples after the warm-up to judge growth');
  const judgedSeries = memory.liveSet ?? memory.rss;
  if (memory.grows && judgedSeries)
    problems.push(growth(memory.judged === 'live set' ? 'the live set (heap used + external)' : 'RSS', judgedSeries));
  if (memory.rssGrows && memory.judged === 'live set' && memory.rss)
    warnings.push(
      `${growth('RSS', memory.rss)}, the live set did not: V8 and malloc holding on to a larger collection cycle's pages, or native memory (run longer to tell)`,
    );
  const kinds = [...READ_KINDS, 'sgp', 'feed'].filter((k) => tally.kinds.has(k));
  const requestRows = kinds.map((kind) => {
    const k = tally.stats(kind);
    const latency = summarize(k.latencies);
    return {
      kind,
      requests: k.requests,
      perSecond: k.measured / measuredS,
      ok: k.ok,
      notModified: k.notModified,
      conditional: k.conditional,
      errors: k.errors,
      p50Ms: latency.p50,
      p99Ms: latency.p99,
      maxMs: latency.max,
    };
  });
  const streamRows = streams.map(({ stats }: { stats: StreamStats }) => ({
    ...stats,
    received: Object.entries(stats.events).reduce((sum, [event, n]) => sum + (event === 'ready' ? 0 : n), 0),
  }));
  const report = {
    machine: machineInfo(),
    uname: (() => {
      try {
        return execFileSync('uname', ['-a'], { encoding: 'utf8' }).trim();
      } catch {
        return 'unknown';
      }
    })(),
    loadAverage: { start: loadAtStart, end: loadavg() },
    source: gitState,
    settings: {
      ...settings,
      mix: Object.fromEntries(fixtures.reads.map((r) => [r.kind, r.weight])),
      warmupS,
      measuredS,
    },
    store: settings.store,
    events,
    writtenCompetitions: fixtures.writtenCompetitions,
    readPaths: Object.fromEntries(fixtures.reads.map((r) => [r.kind, { paths: r.paths.length, hot: r.hot.length }])),
    excluded,
    parlayEventId: fixtures.parlayEventId,
    parlays: fixtures.parlays.map((p) => p.label),
    requests: requestRows,
    writer: writerStats,
    streams: streamRows,
    memory: {
      ...memory,
      metrics: metricsAvailable ? 'GET /metrics' : `GET /metrics answered ${metricsProbe.status || 'nothing'}`,
      samples,
    },
    responseCache:
      cacheAtWarmup && cacheAtEnd
        ? { hits: cacheAtEnd.hit - cacheAtWarmup.hit, misses: cacheAtEnd.miss - cacheAtWarmup.miss }
        : null,
    server: { pid, exitCode, warnings: running.warningCount, errors: running.errorCount, log: running.warnings },
    errors: { count: tally.errorCount, first: tally.errors },
    verdict: problems.length === 0 ? 'PASS' : 'FAIL',
    problems,
    warnings,
  };

  const mb = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(1));
  const memoryLine = (name: string, s: SeriesFigures | null) =>
    s
      ? [
          `${name}: floor (lowest sample of the ${s.windowS.toFixed(0)} s before) ${s.floors.map(mb).join(', ')} MiB, from the end of the first window to the end: ` +
            `x${s.floorRatio.toFixed(3)}, ${s.floorSlopeMbPerMin.toFixed(2)} MiB/min`,
          `    samples: ${mb(s.warmupEndMb)} MiB at the end of the warm-up, ${mb(s.endMb)} at the end (medians of 5), ` +
            `${mb(s.minMb)} to ${mb(s.peakMb)} after the warm-up, least squares over all ${s.slopeMbPerMin.toFixed(2)} MiB/min`,
        ].join('\n')
      : `${name}: not sampled`;
  const text = [
    ...report.machine,
    `uname:   ${report.uname}`,
    `source:  ${gitState}`,
    `store:   ${settings.store}, ${events} demo events, CHANGE_LOG_SIZE=${settings.changeLogSize}; writes to ${fixtures.writtenCompetitions.length} of 30 competitions`,
    `load:    ${durationS} s (warm-up ${warmupS} s, measured ${measuredS.toFixed(0)} s); ${settings.readers} readers at ${settings.readRate || 'max'} GET/s ` +
      `(mix ${fixtures.reads.map((r) => `${r.kind}=${r.weight}`).join(',')}; If-None-Match on ${settings.conditionalShare * 100}% of repeats, ${settings.hotShare * 100}% to written documents), ` +
      `${settings.writeRate} feed batches/s, ${settings.parlayRate} parlays/s, winner price every ${settings.winnerEveryS} s over ${settings.winnerPrices || 'ever new'} price sets`,
    `load average: ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at the start, ${report.loadAverage.end.map((l) => l.toFixed(2)).join(' ')} at the end`,
    '',
    markdownTable(
      ['kind', 'requests', 'req/s', '200/201', '304', 'conditional', 'errors', 'p50 ms', 'p99 ms', 'max ms'],
      requestRows.map((r) => [
        r.kind,
        String(r.requests),
        r.perSecond.toFixed(1),
        String(r.ok),
        String(r.notModified),
        String(r.conditional),
        String(r.errors),
        ms(r.p50Ms),
        ms(r.p99Ms),
        ms(r.maxMs),
      ]),
    ),
    '',
    `writer: ${Object.entries(writerStats.batches)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')} batches; ${writerStats.notUpdated} item(s) not updated`,
    report.responseCache
      ? `response cache after the warm-up: ${report.responseCache.hits} hits, ${report.responseCache.misses} misses (${((100 * report.responseCache.hits) / (report.responseCache.hits + report.responseCache.misses)).toFixed(1)}% hits)`
      : 'response cache: no /metrics counters',
    '',
    markdownTable(
      [
        'stream client',
        'connects',
        'events',
        'heatScore',
        'odds',
        'other',
        'heartbeats',
        'missed',
        'repeated',
        'errors',
      ],
      streamRows.map((s) => {
        const other = s.received - (s.events.heatScore ?? 0) - (s.events.odds ?? 0);
        return [
          s.label,
          String(s.connects),
          String(s.received),
          String(s.events.heatScore ?? 0),
          String(s.events.odds ?? 0),
          String(other),
          String(s.heartbeats),
          String(s.missed),
          String(s.repeated),
          String(s.errors),
        ];
      }),
    ),
    '',
    `memory (${samples.length} samples every ${settings.sampleEveryS} s; ${report.memory.metrics}):`,
    `  ${memoryLine('RSS (/proc VmRSS)', memory.rss)}`,
    `  ${memoryLine('heap used (nodejs_heap_size_used_bytes)', memory.heapUsed)}`,
    `  ${memoryLine('heap committed (nodejs_heap_size_total_bytes)', memory.heapTotal)}`,
    `  ${memoryLine('external (nodejs_external_memory_bytes)', memory.external)}`,
    `  ${memoryLine('live set (heap used + external)', memory.liveSet)}`,
    `  growth (fails the run): ${memory.judged ?? 'nothing'} floor climbing more than ${settings.limits.slopeMbPerMin} MiB/min AND ending above ${settings.limits.ratio}x where it started`,
    ...warnings.map((w) => `  warning: ${w}`),
    '',
    `server: exit code ${exitCode} on SIGTERM; ${running.warningCount} warning(s), ${running.errorCount} error(s) in its log`,
    ...running.warnings.slice(0, 5).map((w) => `  ${w.line}`),
    ...(tally.errors.length
      ? ['errors (first ones):', ...tally.errors.map((e) => `  ${e.at.toFixed(1)} s ${e.kind} ${e.what}: ${e.detail}`)]
      : []),
    '',
    `verdict: ${report.verdict}${problems.length ? ` (${problems.join('; ')})` : ': no errors, no growth after the warm-up'}`,
  ].join('\n');

  console.log(text);
  if (values.json) writeFileSync(resolve(values.json), `${JSON.stringify(report, null, 2)}\n`);
  process.exitCode = problems.length ? 1 : 0;
} finally {
  // On an error too: the server stops, and a database made on a server of the caller's is dropped.
  if (server) await stopServer(server);
  await dropDatabase?.();
}
