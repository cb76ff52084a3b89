import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { killAllChildren, startChild } from './children.ts';
import { chooseContext, fetcher, headersToCopy } from './context.ts';
import { processCpuMicros } from './load.ts';
import { client } from './parlay.ts';
import { resolvePath, scenarios } from './scenarios.ts';
import { seedStore } from './seed-store.ts';

/**
 * Instructions per cached answer, altsports against the raw node:http server sending the same bytes,
 * counted by valgrind's callgrind, which the machine's other work does not move, where req/s and CPU
 * time on this shared machine move 10 to 30 % between runs. Run it with the machine otherwise idle:
 * a busy machine starves the compiler's thread (below), and the "other threads" column shows that
 * happened.
 *
 * Each server runs under callgrind. Keep-alive clients (this process, not under callgrind) send
 * `--warmup` requests; the server is then left idle until its CPU time stops moving (under callgrind
 * all threads share one CPU, and the optimizing compiler's thread catches up only when the server is
 * idle); a quarter as many again, idle again; then the counters are zeroed, `--requests` more are
 * sent, and the counters are dumped. The figure is the server's main thread (the event loop: parsing,
 * the handler, the write, and the scavenges that run there); the other threads (compiler, GC helpers)
 * are shown beside it and should be small. Instructions are not time (cache misses and system calls
 * are not in them), but a change that removes instructions from the main thread is measured without
 * noise.
 *
 * Usage: node --import tsx bench/instructions.ts [--routes event] [--connections 1,10] [--requests 2000] [--warmup 6000]
 * Needs valgrind (Debian's `valgrind`); about 2 minutes per server and connection count.
 */

const { values } = parseArgs({
  options: {
    routes: { type: 'string', default: 'event' },
    connections: { type: 'string', default: '1,10' },
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '6000' },
  },
});
const count = (name: string, text: string) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number above 0, got ${text}`);
  return n;
};
const requests = count('requests', values.requests);
const warmup = count('warmup', values.warmup);
const connectionCounts = values.connections.split(',').map((c) => count('connections', c.trim()));
const selected = scenarios.filter((s) => values.routes.split(',').includes(s.name));
if (selected.length === 0) throw new Error(`--routes names none of: ${scenarios.map((s) => s.name).join(', ')}`);
if (spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).error) {
  console.error('valgrind is not installed (apt-get install valgrind)');
  process.exit(1);
}

const log = (message: string) => console.error(`[instructions] ${message}`);
const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'altsports-instructions-'));
const underCallgrind = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of underCallgrind) child.kill('SIGKILL');
  killAllChildren();
  rmSync(workDir, { recursive: true, force: true });
});

/** A bench server script under callgrind, one output file per thread; resolves once it reports its port over IPC. */
async function underValgrind(
  label: string,
  serverScript: string,
  args: string[],
): Promise<{ port: number; pid: number; outDir: string; stop(): void }> {
  const outDir = join(workDir, label);
  mkdirSync(outDir);
  const child = spawn(
    'valgrind',
    [
      '-q',
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(outDir, 'out.%p')}`,
      process.execPath,
      '--import',
      'tsx',
      serverScript,
      ...args,
    ],
    { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  underCallgrind.add(child);
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port?: number }) =>
      typeof message.port === 'number' ? resolve(message.port) : reject(new Error(`unexpected message from ${label}`)),
    );
    child.once('exit', (code) => reject(new Error(`${label} exited under valgrind (code ${code})`)));
  });
  return {
    port,
    pid: child.pid as number,
    outDir,
    stop: () => {
      child.kill('SIGKILL');
      underCallgrind.delete(child);
    },
  };
}

/** `total` GETs of `path`, `connections` at a time, each on a keep-alive connection of its own; every answer must be a 200. */
async function load(
  port: number,
  path: string,
  headers: Record<string, string>,
  connections: number,
  total: number,
): Promise<void> {
  let sent = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const http = client(`http://127.0.0.1:${port}`);
      try {
        while (sent < total) {
          sent += 1;
          const answer = await http.send('GET', path, headers);
          if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
        }
      } finally {
        http.close();
      }
    }),
  );
}

/** Resolves once the process has used at most 10 ms of CPU in half a second (its threads are done). */
async function settled(pid: number): Promise<void> {
  let before = processCpuMicros(pid) ?? 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = processCpuMicros(pid) ?? 0;
    if (now - before <= 10_000) return;
    before = now;
  }
}

/** The instructions of each thread's last dump, main thread first (callgrind numbers threads from 1). */
function dumpedInstructions(outDir: string): number[] {
  const dumps = readdirSync(outDir).filter((name) => /\.\d+-\d+$/.test(name));
  const last = Math.max(...dumps.map((name) => Number(/\.(\d+)-\d+$/.exec(name)?.[1])));
  return dumps
    .filter((name) => name.includes(`.${last}-`))
    .sort()
    .map((name) =>
      Number(/^(?:totals|summary): (\d+)/m.exec(readFileSync(join(outDir, name), 'utf8'))?.[1] ?? Number.NaN),
    );
}

async function measureServer(
  label: string,
  serverScript: string,
  args: string[],
  path: string,
  headers: Record<string, string>,
  connections: number,
): Promise<{ main: number; others: number }> {
  const server = await underValgrind(label, serverScript, args);
  try {
    log(
      `${label}: ${warmup} requests to warm up, then ${requests} counted (${connections} connection${connections > 1 ? 's' : ''})`,
    );
    await load(server.port, path, headers, connections, warmup);
    // Under valgrind every thread shares one CPU: the optimizing compiler's thread finishes its queue
    // only once the server is idle. The counted requests must run the code a running server settles on.
    await settled(server.pid);
    await load(server.port, path, headers, connections, Math.ceil(warmup / 4));
    await settled(server.pid);
    execFileSync('callgrind_control', ['--zero', String(server.pid)], { stdio: 'ignore' });
    await load(server.port, path, headers, connections, requests);
    execFileSync('callgrind_control', ['--dump', String(server.pid)], { stdio: 'ignore' });
    const [main = Number.NaN, ...others] = dumpedInstructions(server.outDir);
    return { main: main / requests, others: others.reduce((sum, n) => sum + n, 0) / requests };
  } finally {
    server.stop();
  }
}

log(`seeding a SQLite store in ${workDir}`);
const dataDir = join(workDir, 'data');
const { apiKey } = await seedStore({ dataDir });
const headers = { 'x-api-key': apiKey };
const reference = await startChild(script('./server.ts'), [dataDir]);
const api = fetcher(`http://127.0.0.1:${reference.port}`, headers);
const context = await chooseContext(api);
const documents = [];
for (const scenario of selected) {
  const path = resolvePath(scenario, context);
  const fetched = await api.get(path);
  const bodyFile = join(workDir, `${scenario.name}.body`);
  const headersFile = join(workDir, `${scenario.name}.headers.json`);
  writeFileSync(bodyFile, fetched.body);
  writeFileSync(headersFile, JSON.stringify(headersToCopy(fetched.headers)));
  documents.push({
    scenario,
    path,
    bytes: fetched.body.length,
    rawArgs: [bodyFile, fetched.contentType, '200', headersFile],
  });
}
await reference.stop();

const rows: string[] = [];
for (const { scenario, path, bytes, rawArgs } of documents) {
  for (const connections of connectionCounts) {
    const altsports = await measureServer(
      `altsports-${scenario.name}-${connections}`,
      script('./server.ts'),
      [dataDir],
      path,
      headers,
      connections,
    );
    const raw = await measureServer(
      `raw-${scenario.name}-${connections}`,
      script('./raw-server.ts'),
      rawArgs,
      path,
      headers,
      connections,
    );
    const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
    rows.push(
      `| ${scenario.name} (${bytes} B) | ${connections} | ${k(altsports.main)} | ${k(raw.main)} | ${(raw.main / altsports.main).toFixed(3)} | ${k(altsports.others)} / ${k(raw.others)} |`,
    );
  }
}
console.log(
  `instructions per cached 200, server main thread (valgrind --tool=callgrind; ${warmup} requests to warm up, ${requests} counted)\n`,
);
console.log('| route | connections | altsports | raw | raw / altsports | other threads (altsports / raw) |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
process.exit(0);
