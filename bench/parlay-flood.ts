import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { killAllChildren, startAltsports } from './children.ts';
import { heapSnapshot, heapSnapshotOptions } from './heap-snapshot.ts';
import { latency } from './parlay.ts';

/**
 * `npm run bench:parlay-flood`: is parlay pricing fair between keys? `altsports serve` as
 * `npm start` runs it (the demo, the default rate limit and parlay settings) while 20 clients of the
 * demo key post 2-4-leg parlays on random upcoming events as fast as they are answered, a second key
 * posts one parlay at a time, each on an event nobody has priced yet, and a third polls GET /sports.
 * Prints p50/p99 of each and the flood's answers by status, and the server's RSS before, at the end
 * and a minute after (memory must come back). Targets: the second key's p99 under 1 s, GET
 * /sports p99 under 50 ms. `--route options` floods the bet builder (POST .../sgp/options) instead,
 * the second key asking it too. Usage: npm run bench:parlay-flood -- [--seconds 60] [--clients 20]
 * [--route sgp|options] [--after 60] [--cpu-prof DIR] (the server's CPU profile, written when it stops)
 * [--heap-snapshots DIR] (the server's heap before the flood and after the minute: bench/heap-diff.ts)
 */

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    clients: { type: 'string', default: '20' },
    route: { type: 'string', default: 'sgp' },
    after: { type: 'string', default: '60' },
    'cpu-prof': { type: 'string' },
    'heap-snapshots': { type: 'string' },
  },
});
const ROUTE = values.route === 'options' ? 'sgp/options' : 'sgp';
const AFTER_SECONDS = Number(values.after);
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const DEMO_KEY = 'altsports-demo-key';
const BIN = fileURLToPath(new URL('../bin/altsports.js', import.meta.url));

interface Outcome {
  id: string;
  status: string;
  odds: number;
  athlete?: { id: string } | null;
}

/** Legs that can win together: the favourite wins, another is second, a third on the podium, a fourth in the top 5. */
async function legsOf(base: string, eventId: string, key: string): Promise<string[] | null> {
  const read = async (...oddTypes: string[]): Promise<Outcome[]> => {
    for (const oddType of oddTypes) {
      const response = await fetch(`${base}/api/v1/public/events/${eventId}/${oddType}`, {
        headers: { 'x-api-key': key },
      });
      if (response.status !== 200) continue;
      const items = ((await response.json()) as Record<string, Outcome[]>)[oddType] ?? [];
      const open = items.filter((o) => o.status === 'OPEN' && o.athlete).sort((a, b) => a.odds - b.odds);
      if (open.length > 0) return open;
    }
    return [];
  };
  const markets = [
    await read('eventWinner'),
    await read('secondPlace'),
    await read('podiums', 'raceTop3'),
    await read('raceTop5', 'raceTop10'),
  ];
  const used = new Set<string>();
  const legs: string[] = [];
  for (const outcomes of markets) {
    const pick = outcomes.find((o) => !used.has(o.athlete?.id as string));
    if (!pick) break;
    used.add(pick.athlete?.id as string);
    legs.push(pick.id);
  }
  return legs.length >= 2 ? legs : null;
}

/** A process's resident set in MiB, from /proc. */
function rssMiB(pid: number): number {
  const kib = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kib) / 1024);
}

async function timed(run: () => Promise<Response>): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  const response = await run();
  await response.arrayBuffer();
  return { ms: performance.now() - start, status: response.status };
}

const show = (name: string, samples: number[]) => {
  const l = latency(samples);
  console.log(
    `${name.padEnd(34)} p50 ${l.medianMs.toFixed(1).padStart(8)} ms   p99 ${l.p99Ms.toFixed(1).padStart(8)} ms   (${l.samples})`,
  );
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'altsports-flood-'));
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [BIN, ...args], { env: { ...process.env, DATA_DIR: dir }, encoding: 'utf8' }).trim();
  try {
    const secondKey = cli('keys', 'create', '--name', 'second').split('\n')[0] as string;
    const pollerKey = cli('keys', 'create', '--name', 'poller').split('\n')[0] as string;
    // The legs are looked up with a key of their own: the flood's key starts the flood with its budget whole.
    const setupKey = cli('keys', 'create', '--name', 'setup').split('\n')[0] as string;
    // The defaults a user runs: the rate limit and the parlay settings as `npm start` has them.
    const heapDir = values['heap-snapshots'];
    const nodeOptions = [
      ...(values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : []),
      ...(heapDir ? heapSnapshotOptions(heapDir) : []),
    ];
    const server = await startAltsports(
      { DATA_DIR: dir, RATE_LIMIT_PER_MINUTE: '600' },
      join(dir, 'server.log'),
      nodeOptions,
    );
    const snapshot = async (label: string) => {
      if (heapDir) await heapSnapshot(server.pid, `${base}/healthz`, heapDir, label, console.log);
    };
    const base = `http://127.0.0.1:${server.port}`;
    const events = (await (
      await fetch(`${base}/api/v1/public/events?eventStatus=UPCOMING`, { headers: { 'x-api-key': setupKey } })
    ).json()) as Array<{ id: string }>;
    const priced: Array<{ eventId: string; legs: string[] }> = [];
    for (const { id } of events) {
      const legs = await legsOf(base, id, setupKey);
      if (legs) priced.push({ eventId: id, legs });
    }
    // The second key's events are kept apart, so that each of its parlays needs a new simulation.
    const fresh = priced.splice(0, Math.max(1, Math.floor(priced.length / 4)));
    console.log(
      `${priced.length} events for the flood on /${ROUTE}, ${fresh.length} new ones for the second key; ${SECONDS} s`,
    );
    await snapshot('before the flood');
    const idleRss = rssMiB(server.pid);
    const stopAt = Date.now() + SECONDS * 1000;
    const flood: number[] = [];
    const byStatus = new Map<number, number>();
    const second: number[] = [];
    const secondStatus = new Map<number, number>();
    const sports: number[] = [];
    const post = (key: string, eventId: string, legs: string[]) =>
      fetch(`${base}/api/v1/public/events/${eventId}/${ROUTE}`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ oddIds: legs }),
      });
    const flooder = async () => {
      while (Date.now() < stopAt) {
        const { eventId, legs } = priced[Math.floor(Math.random() * priced.length)] as (typeof priced)[number];
        const { ms, status } = await timed(() =>
          post(DEMO_KEY, eventId, legs.slice(0, 2 + Math.floor(Math.random() * 3))),
        );
        flood.push(ms);
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        if (status === 429 || status === 503) await new Promise((r) => setTimeout(r, 200));
      }
    };
    const secondClient = async () => {
      for (let i = 0; Date.now() < stopAt && i < fresh.length; i++) {
        const { eventId, legs } = fresh[i] as (typeof fresh)[number];
        const { ms, status } = await timed(() => post(secondKey, eventId, legs.slice(0, 3)));
        second.push(ms);
        secondStatus.set(status, (secondStatus.get(status) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    const poller = async () => {
      while (Date.now() < stopAt) {
        const { ms } = await timed(() =>
          fetch(`${base}/api/v1/public/sports`, { headers: { 'x-api-key': pollerKey } }),
        );
        sports.push(ms);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await Promise.all([...Array.from({ length: CLIENTS }, flooder), secondClient(), poller()]);
    show(`flood (${CLIENTS} clients of one key)`, flood);
    console.log(`  answers: ${[...byStatus].map(([s, n]) => `${s} x${n}`).join(', ')}`);
    show('second key, each on a new event', second);
    console.log(`  each, in order: ${second.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);
    console.log(`  answers: ${[...secondStatus].map(([s, n]) => `${s} x${n}`).join(', ')}`);
    show('GET /sports (a third key)', sports);
    const endRss = rssMiB(server.pid);
    await new Promise((r) => setTimeout(r, AFTER_SECONDS * 1000));
    console.log(
      `server RSS: ${idleRss} MiB before, ${endRss} MiB at the end, ${rssMiB(server.pid)} MiB ${AFTER_SECONDS} s after`,
    );
    await snapshot(`${AFTER_SECONDS} s after the flood`);
    await server.stop();
  } finally {
    killAllChildren();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
