/**
 * Runs a command with TEST_DATABASE_URL pointing at a PostgreSQL database.
 *
 *   node --import tsx scripts/with-postgres.ts -- <command...>
 *
 * When TEST_DATABASE_URL is already set the command just runs with it. Otherwise a throwaway
 * cluster is created in a temp dir (trust auth, loopback only, durability off for speed), the
 * command runs against its `altsports_test` database, and the cluster is stopped and deleted
 * afterwards, also on failure and on SIGINT/SIGTERM/SIGHUP. Exits with the command's exit code.
 *
 * Server binaries: $PG_BINDIR, else `pg_config --bindir`, else the highest /usr/lib/postgresql/<v>/bin,
 * else `initdb` on PATH. initdb/postgres refuse to run as root, so as root they run as the `postgres`
 * system user ($PG_RUN_AS to override).
 */
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import {
  accessSync,
  appendFileSync,
  chownSync,
  constants,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { freePort } from './free-port.ts';
import { constants as osConstants, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

const DATABASE = 'altsports_test';
const SUPERUSER = 'postgres';
const REQUIRED = ['initdb', 'pg_ctl', 'postgres'];
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Shell convention for "killed by signal n". */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (osConstants.signals[signal] ?? 0);
}

function log(message: string): void {
  process.stderr.write(`[with-postgres] ${message}\n`);
}

function fail(message: string): never {
  log(message);
  process.exit(1);
}

const argv = process.argv.slice(2);
const separator = argv.indexOf('--');
const command = separator === -1 ? argv : argv.slice(separator + 1);
if (command.length === 0) fail('usage: node --import tsx scripts/with-postgres.ts -- <command...>');

// --- the command -------------------------------------------------------------------------------

let child: ReturnType<typeof spawn> | undefined;

/** Runs the command with inherited stdio; resolves with its exit code (128+n when killed by signal n). */
function runCommand(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const [file, ...args] = command as [string, ...string[]];
    child = spawn(file, args, { stdio: 'inherit', env });
    child.on('error', (error) => {
      log(`cannot run ${file}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? signalExitCode(signal) : 1)));
  });
}

// --- the cluster -------------------------------------------------------------------------------

interface Cluster {
  binDir: string;
  dir: string;
  dataDir: string;
  logFile: string;
  /** uid/gid the server runs as when we are root; undefined otherwise. */
  owner: { uid: number; gid: number } | undefined;
  started: boolean;
}

let cluster: Cluster | undefined;

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Runs a setup step as the cluster owner, capturing output (shown only when the step fails). */
function runStep(file: string, args: string[], owner: Cluster['owner'], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    // Node's spawn uid/gid drops to the unprivileged user (and clears supplementary groups), the same as
    // runuser/setpriv without depending on them or on PAM. cwd: the caller's may not be readable by that user.
    const options: SpawnOptions = { cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(owner ?? {}) };
    const proc = spawn(file, args, options);
    let output = '';
    proc.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.on('error', (error) => resolve({ code: 127, output: `${output}${error.message}\n` }));
    proc.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function hasServerBinaries(dir: string): boolean {
  return REQUIRED.every((name) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function findBinDir(): string {
  const candidates: string[] = [];
  if (process.env.PG_BINDIR) candidates.push(process.env.PG_BINDIR);
  // pg_config may come from libpq-dev alone, so its bindir is only used when the server binaries are there.
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (pgConfig.status === 0 && pgConfig.stdout.trim()) candidates.push(pgConfig.stdout.trim());
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((name) => /^\d+(\.\d+)?$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const initdb = join(dir, 'initdb');
    if (existsSync(initdb)) candidates.push(dirname(realpathSync(initdb)));
  }
  const found = candidates.find(hasServerBinaries);
  if (found) return found;
  return fail(
    'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found; looked at $PG_BINDIR, `pg_config --bindir`, ' +
      '/usr/lib/postgresql/*/bin and PATH.\n' +
      '  Install them with:  apt-get install postgresql-15   (Debian/Ubuntu)\n' +
      '  or point TEST_DATABASE_URL at an existing PostgreSQL database.',
  );
}

function serverOwner(): Cluster['owner'] {
  if (!isRoot()) return undefined;
  const user = process.env.PG_RUN_AS ?? 'postgres';
  const entry = spawnSync('getent', ['passwd', user], { encoding: 'utf8' });
  const [, , uid, gid] = entry.status === 0 ? entry.stdout.trim().split(':') : [];
  if (uid === undefined || gid === undefined || Number(uid) === 0) {
    return fail(
      `running as root, but there is no unprivileged user "${user}" to run PostgreSQL as ` +
        '(apt-get install postgresql-15 creates it; or set PG_RUN_AS to another user).',
    );
  }
  return { uid: Number(uid), gid: Number(gid) };
}


function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

/** Synchronous so that it also works from signal and exit handlers. Safe to call more than once. */
function destroyCluster(): void {
  const current = cluster;
  cluster = undefined;
  if (!current) return;
  if (current.started) {
    spawnSync(join(current.binDir, 'pg_ctl'), ['stop', '-D', current.dataDir, '-m', 'immediate', '-s'], {
      cwd: current.dir,
      stdio: 'ignore',
      ...(current.owner ?? {}),
    });
  }
  rmSync(current.dir, { recursive: true, force: true });
}

async function createCluster(binDir: string): Promise<string> {
  const owner = serverOwner();
  const dir = mkdtempSync(join(tmpdir(), 'altsports-pg-'));
  cluster = { binDir, dir, dataDir: join(dir, 'data'), logFile: join(dir, 'server.log'), owner, started: false };
  // mkdtemp makes a 0700 dir owned by us; the server user must own it (data dir and unix socket live there).
  if (owner) chownSync(dir, owner.uid, owner.gid);

  const initdb = await runStep(
    join(binDir, 'initdb'),
    ['-D', cluster.dataDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync'],
    owner,
    dir,
  );
  if (initdb.code !== 0) fail(`initdb failed:\n${initdb.output}`);

  // Trust is acceptable only because the server listens on loopback and its socket sits in a 0700 dir.
  writeFileSync(
    join(cluster.dataDir, 'pg_hba.conf'),
    'local all all trust\nhost all all 127.0.0.1/32 trust\n',
  );
  appendFileSync(
    join(cluster.dataDir, 'postgresql.conf'),
    [
      '',
      '# with-postgres.ts: throwaway test cluster',
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'),
  );

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    cluster.started = true; // from here on a stop is attempted on cleanup, even if start fails half-way
    const start = await runStep(
      join(binDir, 'pg_ctl'),
      ['start', '-D', cluster.dataDir, '-l', cluster.logFile, '-w', '-t', '60', '-o', `-p ${port}`],
      owner,
      dir,
    );
    if (start.code === 0) {
      const createdb = await runStep(
        existsSync(join(binDir, 'createdb')) ? join(binDir, 'createdb') : 'createdb',
        ['-h', '127.0.0.1', '-p', String(port), '-U', SUPERUSER, DATABASE],
        owner,
        dir,
      );
      if (createdb.code !== 0) fail(`createdb failed:\n${createdb.output}`);
      return `postgres://${SUPERUSER}@127.0.0.1:${port}/${DATABASE}`;
    }
    const serverLog = tail(cluster.logFile);
    // Another process may grab the port between freePort() and the server binding it.
    if (attempt < 3 && /could not bind|address already in use/i.test(serverLog)) {
      log(`port ${port} was taken, retrying`);
      continue;
    }
    fail(`pg_ctl start failed:\n${start.output}\n--- ${cluster.logFile} ---\n${serverLog}`);
  }
}

// --- main --------------------------------------------------------------------------------------

for (const signal of FORWARDED_SIGNALS) {
  process.on(signal, () => {
    // While the command runs it gets the signal and we clean up when it exits; before that, stop now.
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    else process.exit(signalExitCode(signal));
  });
}
process.on('exit', destroyCluster);

if (process.env.TEST_DATABASE_URL) process.exit(await runCommand(process.env));

const binDir = findBinDir();
const url = await createCluster(binDir);
const version = spawnSync(join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.trim();
log(`${version} ready: TEST_DATABASE_URL=${url}`);
const code = await runCommand({ ...process.env, TEST_DATABASE_URL: url });
destroyCluster();
process.exit(code);
