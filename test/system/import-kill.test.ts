/**
 * `altsports import` killed with SIGKILL in the middle of writing a large feed (docs/decisions.md "Faults").
 * The feed is written in one transaction, so whatever the moment of the kill, every table holds what
 * it held before the batch or what it holds after it, never something between; and the store stays
 * usable: SQLite recovers its WAL on the next open, PostgreSQL releases the dead session's locks (the
 * ingest's advisory lock included), and the same import then runs to completion.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createThrowawayDatabase } from '../../scripts/throwaway-database.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { INGEST_LOCK } from '../../src/ingest/ingest-feed.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { isSqliteBusy } from '../../src/store/sqlite-errors.ts';
import { parseImportSummary, runCli, spawnCli, tempDir } from '../helpers/cli.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';
import { STORE_KINDS, type StoreKind } from '../helpers/stores.ts';

/** Events of the large feed: about 90,000 rows, seconds of writing on either store. */
const EVENTS = 800;
/** Bounded waits, not timing assertions. */
const WRITING_WITHIN_MS = 60_000;

/** A large feed on top of the fixture's tour: events with participants, rounds, heats and heat entries. */
function largeFeed(events: number): FeedDocument {
  const at = '2026-05-01T00:00:00Z';
  const athletes = Array.from({ length: 400 }, (_, i) => ({
    id: `big-ath-${i}`,
    firstName: 'Big',
    lastName: `Athlete ${i}`,
    nationality: 'AUS',
    updatedAt: at,
  }));
  const feed = { athletes, events: [], rounds: [], heats: [], eventParticipants: [], heatEntries: [] } as Required<
    Pick<FeedDocument, 'athletes' | 'events' | 'rounds' | 'heats' | 'eventParticipants' | 'heatEntries'>
  >;
  for (let e = 0; e < events; e++) {
    const id = `wsl:d0d0d0d0-0000-4000-8000-${e.toString(16).padStart(12, '0')}`;
    feed.events.push({
      id,
      competition: 'wsl',
      tourId: 'wsl-ct-men',
      tourYearId: 'wsl-ct-men-2026',
      name: `Big event ${e}`,
      startDate: '2026-05-01T00:00:00Z',
      endDate: '2026-05-10T00:00:00Z',
      eventNumber: 100 + e,
      eventStatus: 'UPCOMING',
      updatedAt: at,
    });
    const entrants = Array.from({ length: 16 }, (_, k) => `big-ath-${(e * 7 + k) % athletes.length}`);
    entrants.forEach((athleteId, k) => {
      feed.eventParticipants.push({ id: `big-ep-${e}-${k}`, eventId: id, athleteId, seedNo: k + 1, updatedAt: at });
    });
    for (let r = 0; r < 3; r++) {
      const roundId = `big-r-${e}-${r}`;
      feed.rounds.push({
        id: roundId,
        eventId: id,
        roundName: `Round ${r + 1}`,
        roundNo: r + 1,
        roundStatus: 'UPCOMING',
        updatedAt: at,
      });
      for (let h = 0; h < 4; h++) {
        const heatId = `big-h-${e}-${r}-${h}`;
        feed.heats.push({
          id: heatId,
          roundId,
          heatName: `Heat ${h + 1}`,
          heatNo: h + 1,
          heatStatus: 'UPCOMING',
          updatedAt: at,
        });
        for (let k = 0; k < 4; k++)
          feed.heatEntries.push({
            id: `big-he-${e}-${r}-${h}-${k}`,
            heatId,
            athleteId: entrants[h * 4 + k] as string,
            seed: k + 1,
            updatedAt: at,
          });
      }
    }
  }
  return feed;
}

/** Row count and a content hash of every table (rows as JSON, sorted: independent of their order). */
type Snapshot = Record<string, { rows: number; hash: string }>;

async function snapshot(store: Store): Promise<Snapshot> {
  const tables =
    store.dialect === 'sqlite'
      ? (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(
            store.db,
          )
        ).rows
      : (
          await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(
            store.db,
          )
        ).rows;
  const result: Snapshot = {};
  for (const { name } of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(store.db);
    const lines = rows.map((row) => JSON.stringify(row)).sort();
    result[name] = { rows: rows.length, hash: createHash('sha1').update(lines.join('\n')).digest('hex') };
  }
  return result;
}

const counts = (s: Snapshot) => Object.fromEntries(Object.entries(s).map(([table, { rows }]) => [table, rows]));

interface Target {
  env: Record<string, string>;
  open(): Store;
  /** True while an import's write transaction is open (checked from another connection). */
  writing(): Promise<boolean>;
  /** True once no session is left holding the ingest's locks or an open transaction. */
  released(): Promise<boolean>;
  cleanup(): Promise<void>;
}

async function target(kind: StoreKind, root: string): Promise<Target> {
  if (kind === 'sqlite') {
    const dataDir = join(root, 'data');
    return {
      env: { DATA_DIR: dataDir },
      open: () => openStore({ dataDir }),
      // The import's transaction holds SQLite's write lock from its first write to its commit: taking
      // it from another connection (without waiting) fails exactly then.
      async writing() {
        const probe = new DatabaseSync(join(dataDir, 'altsports.db'), { timeout: 0 });
        try {
          probe.exec('begin immediate');
          probe.exec('rollback');
          return false;
        } catch (error) {
          if (isSqliteBusy(error)) return true;
          throw error;
        } finally {
          probe.close();
        }
      },
      released: async () => true,
      cleanup: async () => {},
    };
  }
  const testUrl = process.env.TEST_DATABASE_URL;
  if (!testUrl) throw new Error('TEST_DATABASE_URL is not set: run through `npm test`, which starts PostgreSQL');
  const { name: database, url: databaseUrl, admin, drop } = await createThrowawayDatabase(testUrl, 'import_kill');
  const lockHeld = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
      where l.locktype = 'advisory' and l.granted and l.objid = ${INGEST_LOCK} and d.datname = ${database}`.execute(
      admin.db,
    );
    return (rows[0]?.n ?? 0) > 0;
  };
  return {
    env: { DATABASE_URL: databaseUrl },
    open: () => openStore({ databaseUrl, pgPoolSize: 2 }),
    // The ingest takes its advisory lock first thing in its transaction and holds it to the end.
    writing: lockHeld,
    async released() {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity where datname = ${database} and xact_start is not null and pid <> pg_backend_pid()`.execute(
        admin.db,
      );
      return (rows[0]?.n ?? 0) === 0 && !(await lockHeld());
    },
    cleanup: drop,
  };
}

describe('kill -9 during a large import: every table as before the batch or as after it, and the store usable', () => {
  let root: string;
  let removeRoot: () => Promise<void>;
  let smallFile: string;
  let largeFile: string;
  const large = largeFeed(EVENTS);

  before(async () => {
    ({ dir: root, cleanup: removeRoot } = await tempDir('altsports-import-kill-'));
    smallFile = join(root, 'small.json');
    largeFile = join(root, 'large.json');
    await writeFile(smallFile, JSON.stringify(fixtureFeed()));
    await writeFile(largeFile, JSON.stringify(large));
  });
  after(async () => removeRoot?.());

  for (const kind of STORE_KINDS) {
    test(kind, async (t) => {
      const store = await target(kind, join(root, kind));
      try {
        const first = await runCli(['import', smallFile], store.env);
        assert.equal(first.code, 0, first.stderr);
        const opened = store.open();
        const beforeBatch = await snapshot(opened).finally(() => opened.close());

        // The large import, killed while its transaction is open and has been writing for a moment.
        const child = spawnCli(['import', largeFile], store.env);
        let output = '';
        child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          child.once('exit', (code, signal) => resolve({ code, signal })),
        );
        const deadline = performance.now() + WRITING_WITHIN_MS;
        while (!(await store.writing())) {
          if (child.exitCode !== null || performance.now() > deadline) {
            child.kill('SIGKILL');
            assert.fail(`the import was never seen writing (exit ${child.exitCode})\n${output}`);
          }
          await sleep(20);
        }
        await sleep(300);
        const stillWriting = await store.writing();
        child.kill('SIGKILL');
        const { signal } = await exited;
        assert.equal(signal, 'SIGKILL', `the import ended before the kill\n${output}`);
        assert.doesNotMatch(output, /Imported/);

        // PostgreSQL: the dead session's transaction is rolled back and its locks released.
        const releasedBy = performance.now() + 30_000;
        while (!(await store.released())) {
          if (performance.now() > releasedBy)
            assert.fail('the killed import still holds a transaction or the ingest lock after 30 s');
          await sleep(50);
        }

        // Opening the store recovers it (SQLite: the WAL's uncommitted frames are dropped).
        const reopened = store.open();
        const afterKill = await snapshot(reopened).finally(() => reopened.close());
        if (kind === 'sqlite') {
          const check = new DatabaseSync(join(store.env.DATA_DIR as string, 'altsports.db'), { readOnly: true });
          try {
            assert.equal(check.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
          } finally {
            check.close();
          }
        }

        // The same import, to completion: the store is usable, nothing blocks it.
        const completed = await runCli(['import', largeFile], store.env);
        assert.equal(completed.code, 0, completed.stderr);
        const reopenedAgain = store.open();
        const afterBatch = await snapshot(reopenedAgain).finally(() => reopenedAgain.close());

        t.diagnostic(
          `killed ${stillWriting ? 'while the transaction was open' : 'after the transaction ended'}; tables after the kill ${JSON.stringify(counts(afterKill))}`,
        );
        const matches =
          JSON.stringify(afterKill) === JSON.stringify(beforeBatch)
            ? 'before'
            : JSON.stringify(afterKill) === JSON.stringify(afterBatch)
              ? 'after'
              : 'neither';
        assert.notEqual(
          matches,
          'neither',
          `after the kill the store is neither as before the batch nor as after it:\nbefore ${JSON.stringify(counts(beforeBatch))}\nkilled ${JSON.stringify(counts(afterKill))}\nafter  ${JSON.stringify(counts(afterBatch))}`,
        );
        // Killed with the transaction still open (checked just before the kill), it cannot have committed.
        if (stillWriting) assert.equal(matches, 'before', 'a batch killed mid-transaction was (partly) kept');

        // The completed import wrote the whole batch (again, when the killed one had been rolled back).
        const summary = parseImportSummary(completed.stdout).collections;
        const expectInserted = matches === 'before';
        for (const collection of ['events', 'rounds', 'heats', 'eventParticipants', 'heatEntries'] as const) {
          const received = (large[collection] ?? []).length;
          assert.equal(summary[collection]?.received, received, collection);
          assert.equal(
            summary[collection]?.inserted,
            expectInserted ? received : 0,
            `${collection}: ${completed.stdout}`,
          );
        }
        assert.equal(afterBatch.events?.rows, (beforeBatch.events?.rows ?? 0) + EVENTS);
        assert.equal(afterBatch.heat_entries?.rows, (beforeBatch.heat_entries?.rows ?? 0) + large.heatEntries!.length);
      } finally {
        await store.cleanup();
      }
    });
  }
});
