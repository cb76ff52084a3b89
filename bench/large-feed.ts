import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateDemoFeeds } from '../src/demo/generate.ts';
import { FEED_COLLECTIONS } from '../src/ingest/feed-schema.ts';
import { killAllChildren, startAltsports } from './children.ts';
import { summarize } from './stats.ts';

/**
 * `npm run bench:large-feed` ("writes never stall reads"): `altsports serve` as `npm start`
 * runs it (demo data, default settings) takes a 60 MB admin feed (demo events of another seed, merged
 * into one document) while a client polls GET /sports one request after another; prints p50/p99/max of
 * /sports during the ingest, the ingest's time, and the server's idle and peak RSS. Then `altsports
 * import` of a 30 MB and a 90 MB NDJSON file (lines of at most 20 events, about a megabyte) into the
 * running server's store, with the peak RSS of each.
 * Targets: /sports p99 < 50 ms and max < 200 ms; peak RSS < idle + 2x the body; the import's peak
 * independent of the file's size. `--order alphabetical` posts the feed's collections in alphabetical order
 * (as a JSON map encoder writes them) rather than in the order they are written; `--ascii` writes every
 * character past ASCII as a `\u` escape, as Python's json.dumps does by default.
 * The peak is given over two idle figures: the RSS after the first answers (3 s of GET /sports), and the
 * lowest RSS while the server was left alone for `--settle` seconds before them. The first depends on
 * whether V8 has collected the garbage of the demo's load yet (its memory reducer ran 24-26 s after
 * start, or not within 30 s, on 2026-11-27); the second is the idle server's floor when it has.
 * `--server-heap-mb N` starts the server with a heap limit of N MiB (`--max-old-space-size`), as an
 * operator may set one.
 * Usage: npm run bench:large-feed -- [--feed-mb 60] [--order written|alphabetical] [--ascii] [--settle 30]
 *   [--server-heap-mb N] [--keep DIR]
 */

const { values } = parseArgs({
  options: {
    'feed-mb': { type: 'string', default: '60' },
    'import-mb': { type: 'string', default: '30,90' },
    order: { type: 'string', default: 'written' },
    ascii: { type: 'boolean', default: false },
    keep: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'server-heap-mb': { type: 'string' },
    settle: { type: 'string', default: '30' },
  },
});
const FEED_MB = Number(values['feed-mb']);
const IMPORT_MB = (values['import-mb'] as string).split(',').filter(Boolean).map(Number);
const ADMIN_KEY = 'bench-large-feed-admin-key';
const DEMO_KEY = 'altsports-demo-key';
const BIN = fileURLToPath(new URL('../bin/altsports.js', import.meta.url));
const MB = 1024 * 1024;

/** Events a line of the import files holds at most: lines of about a megabyte, whatever the file's size. */
const EVENTS_PER_LINE = 20;

/** Bytes a demo event takes in NDJSON, first guess (2026-11-27: 1,261 events, 54.7 MB); corrected below. */
const BYTES_PER_EVENT = 43_400;

/**
 * Demo feed documents of `seed` as NDJSON, at least `mb` MiB of them: the whole dataset of as many events
 * as that takes, so that every reference holds. The events' count starts from BYTES_PER_EVENT and is
 * scaled until the file is within 10% above `mb`, so the file keeps its size when the demo's events
 * grow or shrink (a guess too low once made a 60 MiB feed 97 MiB, over the body limit).
 */
async function writeNdjson(file: string, mb: number, seed: number, eventsPerLine?: number): Promise<void> {
  const wanted = mb * MB;
  if (existsSync(file) && statSync(file).size >= wanted && statSync(file).size <= wanted * 1.1) return;
  let events = Math.round(wanted / BYTES_PER_EVENT);
  for (;;) {
    const out = createWriteStream(`${file}.part`);
    for (const feed of generateDemoFeeds({ now: new Date(), seed, events, maxEventsPerChunk: eventsPerLine })) {
      if (!out.write(`${JSON.stringify(feed)}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const size = statSync(`${file}.part`).size;
    if (size >= wanted && size <= wanted * 1.1) break;
    events = Math.ceil(events * (wanted / size) * 1.03);
  }
  renameSync(`${file}.part`, file);
}

/** The NDJSON file's documents merged into one feed document (the admin feed's body), collections in `order`. */
function mergedDocument(ndjson: string, order: string): string {
  const merged: Record<string, unknown[]> = {};
  for (const line of readFileSync(ndjson, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    for (const [key, value] of Object.entries(JSON.parse(line) as Record<string, unknown>))
      if (Array.isArray(value)) {
        const items = merged[key] ?? [];
        merged[key] = items;
        for (const item of value) items.push(item);
      }
  }
  // By default in the order the collections are written (FEED_COLLECTIONS), as a producer that streams
  // writes them: read once, in slices (ingest/feed-slices.ts); in any other order, read twice.
  const collections = FEED_COLLECTIONS.filter((c) => merged[c]);
  if (order === 'alphabetical') collections.sort();
  else if (order !== 'written') throw new Error(`--order ${order}: written or alphabetical`);
  return JSON.stringify(Object.fromEntries(collections.map((c) => [c, merged[c]])));
}

/** A process's resident set (VmRSS) and its high-water mark (VmHWM), in MiB. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/**
 * A process's CPU time so far, user and system, in seconds (/proc/PID/stat, in ticks of 1/100 s): the
 * work a run took, which the machine's other load does not change as it changes the wall time.
 */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // utime and stime: the 14th and 15th fields, the 12th and 13th after the command's closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resets a process's VmHWM to its current RSS (clear_refs 5), so that a peak is the peak of what follows. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** The lowest RSS of a process left alone for `seconds`, read once a second. */
async function lowestRss(pid: number, seconds: number): Promise<number> {
  let lowest = memoryOf(pid).rss;
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    lowest = Math.min(lowest, memoryOf(pid).rss);
  }
  return lowest;
}

interface Polling {
  stop(): Promise<number[]>;
}

/** GET /sports, one request after the other, until stopped; the latencies in ms. */
function pollSports(base: string): Polling {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${base}/api/v1/public/sports`, { headers: { 'x-api-key': DEMO_KEY } });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`GET /sports answered ${response.status}`);
      await sleep(5);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return latencies;
    },
  };
}

const ms = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(1));

function summary(latencies: number[]): string {
  const s = summarize(latencies);
  return `${s.samples} answers, p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms, max ${ms(s.max)} ms`;
}

/** Peak RSS (MiB) of `altsports import FILE` against `dataDir`, and its time; throws on a non-zero exit. */
async function importPeak(file: string, dataDir: string): Promise<{ peak: number; seconds: number; output: string }> {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', 'peak-kib %M', process.execPath, BIN, 'import', file], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`altsports import ${file} exited ${code}:\n${output.slice(-4000)}`);
  const peak = Number(/peak-kib (\d+)/.exec(output)?.[1] ?? 0) / 1024;
  return { peak, seconds: (performance.now() - started) / 1000, output };
}

async function main(): Promise<void> {
  const dir = values.keep ?? join(tmpdir(), 'altsports-large-feed');
  mkdirSync(dir, { recursive: true });
  const feedSource = join(dir, `feed-${FEED_MB}mb.ndjson`);
  console.log(`preparing a ${FEED_MB} MiB feed and NDJSON files of ${IMPORT_MB.join(', ')} MiB in ${dir} ...`);
  // The merged document drops each line's updatedAt and repeated keys: about 1% smaller than its NDJSON.
  await writeNdjson(feedSource, FEED_MB * 1.02, 7);
  const merged = mergedDocument(feedSource, values.order as string);
  const body = values.ascii
    ? merged.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : merged;
  const imports = IMPORT_MB.map((mb, i) => ({
    mb,
    file: join(dir, `import-${mb}mb-${EVENTS_PER_LINE}-events-a-line.ndjson`),
    seed: 11 + i,
  }));
  for (const { mb, file, seed } of imports) await writeNdjson(file, mb, seed, EVENTS_PER_LINE);

  const dataDir = join(dir, 'data');
  rmSync(dataDir, { recursive: true, force: true });
  const env: Record<string, string> = { DATA_DIR: dataDir, ADMIN_API_KEY: ADMIN_KEY };
  const profile = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [];
  // The server's heap limit alone (README, "Memory"): NODE_OPTIONS would limit the bench's own process too.
  const heap = values['server-heap-mb'] ? [`--max-old-space-size=${values['server-heap-mb']}`] : [];
  const server = await startAltsports(env, join(dir, 'server.log'), [...profile, ...heap]);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    // Left alone: the demo loaded, then (when V8's memory reducer runs) its garbage collected.
    const floor = await lowestRss(server.pid, Number(values.settle));
    // Warm: the first answers compiled.
    const warm = pollSports(base);
    await sleep(3000);
    const idleLatencies = await warm.stop();
    const idle = memoryOf(server.pid);
    resetPeak(server.pid);
    const polling = pollSports(base);
    await sleep(500);
    const started = performance.now();
    const cpuBefore = cpuSecondsOf(server.pid);
    const response = await fetch(`${base}/api/v1/admin/feed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY },
      body,
    });
    const answer = await response.text();
    const ingestSeconds = (performance.now() - started) / 1000;
    const ingestCpu = cpuSecondsOf(server.pid) - cpuBefore;
    const during = await polling.stop();
    const peak = memoryOf(server.pid);
    if (response.status !== 200) throw new Error(`the feed was answered ${response.status}: ${answer.slice(0, 2000)}`);
    const bodyMb = Buffer.byteLength(body) / MB;
    console.log(
      `\nadmin feed: ${bodyMb.toFixed(1)} MiB body (collections ${values.order}${values.ascii ? ', ASCII' : ''}), ingested in ${ingestSeconds.toFixed(2)} s`,
    );
    console.log(`  the server's CPU meanwhile: ${ingestCpu.toFixed(2)} s (the polls' answers included)`);
    console.log(`  GET /sports before: ${summary(idleLatencies)}`);
    console.log(`  GET /sports during: ${summary(during)} (target p99 < 50 ms, max < 200 ms)`);
    const over = (idleRss: number) =>
      `+${(peak.hwm - idleRss).toFixed(0)} MiB (${((peak.hwm - idleRss) / bodyMb).toFixed(2)}x the body; target < 2x)`;
    console.log(`  server RSS: peak ${peak.hwm.toFixed(0)} MiB`);
    console.log(`    over the idle after the first answers (${idle.rss.toFixed(0)} MiB): ${over(idle.rss)}`);
    console.log(`    over the lowest idle RSS in ${values.settle} s alone (${floor.toFixed(0)} MiB): ${over(floor)}`);
    for (const { file } of imports) {
      const size = statSync(file).size / MB;
      const result = await importPeak(file, dataDir);
      console.log(
        `altsports import of ${size.toFixed(1)} MiB NDJSON into the running server's store: ` +
          `${result.seconds.toFixed(1)} s, peak RSS ${result.peak.toFixed(0)} MiB`,
      );
    }
  } finally {
    await server.stop();
    if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

process.on('exit', killAllChildren);
await main();
