/**
 * A throwaway PostgreSQL cluster in a temp dir: initdb, pg_ctl start/stop on a loopback port of its
 * own, trust auth, durability off for speed. Used by scripts/with-postgres.ts (the cluster `npm test`
 * runs against) and by tests that must stop and restart a server (test/system/pg-outage.test.ts).
 *
 * Server binaries: $PG_BINDIR, else `pg_config --bindir`, else the highest /usr/lib/postgresql/<v>/bin,
 * else `initdb` on PATH. initdb/postgres refuse to run as root, so as root they run as the `postgres`
 * system user ($PG_RUN_AS to override).
 */
import { type SpawnOptions, spawn, spawnSync } from 'node:child_process';
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
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { freePort } from './free-port.ts';

export const SUPERUSER = 'postgres';
const REQUIRED = ['initdb', 'pg_ctl', 'postgres'];

/** A setup problem, with a message meant for the person running the tests. */
export class PgClusterError extends Error {
  override name = 'PgClusterError';
}

type Owner = { uid: number; gid: number } | undefined;

/** Runs a step as the cluster owner, capturing output (shown only when the step fails). */
function runStep(file: string, args: string[], owner: Owner, cwd: string): Promise<{ code: number; output: string }> {
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

export function findBinDir(): string {
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
  throw new PgClusterError(
    'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found; looked at $PG_BINDIR, `pg_config --bindir`, ' +
      '/usr/lib/postgresql/*/bin and PATH.\n' +
      '  Install them with:  apt-get install postgresql-15   (Debian/Ubuntu)\n' +
      '  or point TEST_DATABASE_URL at an existing PostgreSQL database.',
  );
}

function serverOwner(): Owner {
  if (process.getuid?.() !== 0) return undefined;
  const user = process.env.PG_RUN_AS ?? 'postgres';
  const entry = spawnSync('getent', ['passwd', user], { encoding: 'utf8' });
  const [, , uid, gid] = entry.status === 0 ? entry.stdout.trim().split(':') : [];
  if (uid === undefined || gid === undefined || Number(uid) === 0) {
    throw new PgClusterError(
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

/** pg_ctl shutdown modes: `fast` ends sessions with admin_shutdown (57P01), `immediate` is a crash. */
export type StopMode = 'smart' | 'fast' | 'immediate';

export interface PgCluster {
  readonly binDir: string;
  readonly dir: string;
  readonly dataDir: string;
  readonly logFile: string;
  readonly port: number;
  /** The URL of a database of this cluster (as the superuser, trust auth). */
  url(database?: string): string;
  /** Creates a database; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (keeping its data), waiting until it is down. */
  stop(mode?: StopMode): Promise<void>;
  /** Starts it again on the same data dir and port, waiting until it accepts connections. */
  start(): Promise<void>;
  /** The last lines of the server log, for failure messages. */
  logTail(lines?: number): string;
  /** Stops the server at once and deletes its files. Synchronous (works from exit handlers); idempotent. */
  destroy(): void;
}

export interface ClusterOptions {
  binDir?: string;
  /** Progress messages (port retries). */
  log?: (message: string) => void;
}

/** Creates and starts a cluster; on failure whatever was created is removed again. */
export async function startCluster(options: ClusterOptions = {}): Promise<PgCluster> {
  const binDir = options.binDir ?? findBinDir();
  const owner = serverOwner();
  const dir = mkdtempSync(join(tmpdir(), 'altsports-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  let running = false;
  let destroyed = false;
  let port = 0;

  const destroy = (): void => {
    if (destroyed) return;
    destroyed = true;
    if (running) {
      spawnSync(join(binDir, 'pg_ctl'), ['stop', '-D', dataDir, '-m', 'immediate', '-s'], {
        cwd: dir,
        stdio: 'ignore',
        ...(owner ?? {}),
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const pgCtlStart = () =>
    runStep(
      join(binDir, 'pg_ctl'),
      ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', `-p ${port}`],
      owner,
      dir,
    );

  try {
    // mkdtemp makes a 0700 dir owned by us; the server user must own it (data dir and unix socket live there).
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const initdb = await runStep(
      join(binDir, 'initdb'),
      ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync'],
      owner,
      dir,
    );
    if (initdb.code !== 0) throw new PgClusterError(`initdb failed:\n${initdb.output}`);

    // Trust is acceptable only because the server listens on loopback and its socket sits in a 0700 dir.
    writeFileSync(join(dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    appendFileSync(
      join(dataDir, 'postgresql.conf'),
      [
        '',
        '# pg-cluster.ts: throwaway test cluster',
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        // Test files run in parallel, each with its own pools, twins and `altsports serve` children.
        'max_connections = 400',
        '',
      ].join('\n'),
    );

    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      running = true; // from here on a stop is attempted on cleanup, even if start fails half-way
      const start = await pgCtlStart();
      if (start.code === 0) break;
      const serverLog = tail(logFile);
      // Another process may grab the port between freePort() and the server binding it.
      if (attempt < 3 && /could not bind|address already in use/i.test(serverLog)) {
        options.log?.(`port ${port} was taken, retrying`);
        continue;
      }
      throw new PgClusterError(`pg_ctl start failed:\n${start.output}\n--- ${logFile} ---\n${serverLog}`);
    }
  } catch (error) {
    destroy();
    throw error;
  }

  const url = (database = 'postgres') => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  return {
    binDir,
    dir,
    dataDir,
    logFile,
    get port() {
      return port;
    },
    url,
    async createDatabase(name) {
      const createdb = await runStep(
        existsSync(join(binDir, 'createdb')) ? join(binDir, 'createdb') : 'createdb',
        ['-h', '127.0.0.1', '-p', String(port), '-U', SUPERUSER, name],
        owner,
        dir,
      );
      if (createdb.code !== 0) throw new PgClusterError(`createdb failed:\n${createdb.output}`);
      return url(name);
    },
    async stop(mode = 'fast') {
      const stop = await runStep(
        join(binDir, 'pg_ctl'),
        ['stop', '-D', dataDir, '-m', mode, '-w', '-t', '60'],
        owner,
        dir,
      );
      if (stop.code !== 0)
        throw new PgClusterError(
          `pg_ctl stop -m ${mode} failed:\n${stop.output}\n--- ${logFile} ---\n${tail(logFile)}`,
        );
      running = false;
    },
    async start() {
      running = true;
      const start = await pgCtlStart();
      if (start.code !== 0)
        throw new PgClusterError(`pg_ctl start failed:\n${start.output}\n--- ${logFile} ---\n${tail(logFile)}`);
    },
    logTail: (lines) => tail(logFile, lines),
    destroy,
  };
}
