import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { killAllChildren, startAltsports } from './children.ts';
import { latency } from './parlay.ts';

/**
 * `npm run bench:cache-bust`: does one key's stream of cache misses slow the others?
 * `altsports serve` as `npm start` runs it (the demo, the default rate limit, DOCUMENT_BUILD_COST and
 * DOCUMENT_BUILDS_PER_KEY) while 20 clients of the demo key send random valid variants of the event
 * list and of odds documents (limit, sortOrder, startDate, updatedSince, oddsFormat), each most likely
 * a miss, as fast as they are answered; a second key polls GET /sports, and a third reads odds
 * documents nobody has asked for (its own misses). Targets: GET /sports p99 under 50 ms, the third
 * key's misses p99 under 100 ms. Usage: npm run bench:cache-bust -- [--seconds 30] [--clients 20]
 */

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '30' }, clients: { type: 'string', default: '20' } },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const DEMO_KEY = 'altsports-demo-key';
const BIN = fileURLToPath(new URL('../bin/altsports.js', import.meta.url));
const FORMATS = ['decimal', 'american', 'fractional', 'hongkong', 'malay', 'indonesian', 'probability'];
const ODD_TYPES = ['eventWinner', 'secondPlace', 'podiums', 'raceTop3', 'raceTop5', 'raceTop10', 'headToHead'];

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;

/** A random, valid, most likely uncached document of the demo. */
function bustingPath(events: readonly string[]): string {
  if (Math.random() < 0.5) {
    const day = 1 + Math.floor(Math.random() * 28);
    const query = [
      `limit=${1 + Math.floor(Math.random() * 200)}`,
      `sortOrder=${pick(['ASC', 'DESC'])}`,
      `startDate=2026-${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      `updatedSince=2026-01-${String(day).padStart(2, '0')}T00:00:00Z`,
    ];
    return `/events?${query.filter(() => Math.random() < 0.7).join('&')}`;
  }
  return `/events/${pick(events)}/${pick(ODD_TYPES)}?oddsFormat=${pick(FORMATS)}`;
}

async function timed(url: string, key: string): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  const response = await fetch(url, { headers: { 'x-api-key': key } });
  await response.arrayBuffer();
  return { ms: performance.now() - start, status: response.status };
}

const show = (name: string, samples: number[]) => {
  const l = latency(samples);
  console.log(
    `${name.padEnd(36)} p50 ${l.medianMs.toFixed(1).padStart(8)} ms   p99 ${l.p99Ms.toFixed(1).padStart(8)} ms   (${l.samples})`,
  );
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'altsports-bust-'));
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [BIN, ...args], { env: { ...process.env, DATA_DIR: dir }, encoding: 'utf8' }).trim();
  try {
    const pollerKey = cli('keys', 'create', '--name', 'poller').split('\n')[0] as string;
    const readerKey = cli('keys', 'create', '--name', 'reader').split('\n')[0] as string;
    // The defaults a user runs: the rate limit and the document builds as `npm start` has them.
    // BENCH_ENV adds settings (e.g. DOCUMENT_BUILD_COST=1,DOCUMENT_BUILDS_PER_KEY=1000: as before the per-key document builds).
    const extra = Object.fromEntries(
      (process.env.BENCH_ENV ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => kv.split('=')),
    );
    const server = await startAltsports(
      { DATA_DIR: dir, RATE_LIMIT_PER_MINUTE: '600', ...extra },
      join(dir, 'server.log'),
    );
    const api = `http://127.0.0.1:${server.port}/api/v1/public`;
    const listed = (await (await fetch(`${api}/events`, { headers: { 'x-api-key': DEMO_KEY } })).json()) as Array<{
      id: string;
      competition: string;
    }>;
    const athleteEvents = listed.filter((e) => ['spr', 'motocrs', 'wsl', 'sls', 'f1', 'usac'].includes(e.competition));
    const events = athleteEvents.map((e) => e.id);
    // The reader's documents: odds of events the flood never asks for, one format each.
    const own = events.splice(0, Math.floor(events.length / 3));
    console.log(`${events.length} events busted, ${own.length} read by the third key; ${SECONDS} s`);
    const stopAt = Date.now() + SECONDS * 1000;
    const flood: number[] = [];
    const byStatus = new Map<number, number>();
    const sports: number[] = [];
    const misses: number[] = [];
    const otherStatus = new Map<number, number>();
    const measured = async (url: string, key: string, into: number[]) => {
      const { ms, status } = await timed(url, key);
      into.push(ms);
      otherStatus.set(status, (otherStatus.get(status) ?? 0) + 1);
    };
    const buster = async () => {
      while (Date.now() < stopAt) {
        const { ms, status } = await timed(`${api}${bustingPath(events)}`, DEMO_KEY);
        flood.push(ms);
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        if (status === 429) await new Promise((r) => setTimeout(r, 200));
      }
    };
    const poller = async () => {
      while (Date.now() < stopAt) {
        await measured(`${api}/sports`, pollerKey, sports);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const reader = async () => {
      for (let i = 0; Date.now() < stopAt; i++) {
        const eventId = own[i % own.length] as string;
        const path = `/events/${eventId}/${ODD_TYPES[Math.floor(i / own.length) % ODD_TYPES.length]}?oddsFormat=${FORMATS[i % FORMATS.length]}`;
        await measured(`${api}${path}`, readerKey, misses);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    await Promise.all([...Array.from({ length: CLIENTS }, buster), poller(), reader()]);
    show(`busting (${CLIENTS} clients of one key)`, flood);
    console.log(`  answers: ${[...byStatus].map(([s, n]) => `${s} x${n}`).join(', ')}`);
    show('GET /sports (a second key)', sports);
    show("a third key's own misses", misses);
    console.log(`  the other keys' answers: ${[...otherStatus].map(([s, n]) => `${s} x${n}`).join(', ')}`);
    await server.stop();
  } finally {
    killAllChildren();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
