import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { ingestFeed } from '../../src/ingest/ingest-feed.ts';
import { migrateToLatest, openStore } from '../../src/store/database.ts';
import { runCli, tempDir } from '../helpers/cli.ts';
import { fixtureFeed } from '../helpers/feed-fixture.ts';

/** A store that cannot be opened stops the command with one line naming where and why: no stack, no hang. */
const noStack = (stderr: string) => assert.doesNotMatch(stderr, /^\s+at /m, stderr);

test('a corrupt SQLite file: serve stops, naming the file and the reason', async () => {
  const { dir, cleanup } = await tempDir('altsports-corrupt-');
  try {
    const file = join(dir, 'altsports.db');
    await writeFile(file, randomBytes(64 * 1024));
    const result = await runCli(['serve'], { DATA_DIR: dir, PORT: '0' });
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim(), `altsports serve: cannot open the store at ${file}: file is not a database`);
    noStack(result.stderr);
  } finally {
    await cleanup();
  }
});

test('a DATA_DIR that cannot be created (under /proc): serve stops at once, naming the directory', async () => {
  const result = await runCli(['serve'], { DATA_DIR: '/proc/altsports/data', PORT: '0' });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /cannot open the store at \/proc\/altsports\/data\/altsports\.db: .*mkdir '\/proc\/altsports'/,
  );
  noStack(result.stderr);
});

test('a SQLite file with a zeroed page: serve stops at start, naming the file and the integrity check', async () => {
  const { dir, cleanup } = await tempDir('altsports-zeroed-');
  try {
    const store = openStore({ dataDir: dir });
    await migrateToLatest(store);
    await ingestFeed(store, fixtureFeed());
    await store.close();
    const file = join(dir, 'altsports.db');
    // The pages of the events table: a table no migration reads, so only an integrity check finds them.
    const db = new DatabaseSync(file);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const root = db.prepare("select rootpage from sqlite_master where name = 'events'").get()?.rootpage as number;
    const pageSize = db.prepare('PRAGMA page_size').get()?.page_size as number;
    db.close();
    const handle = await open(file, 'r+');
    await handle.write(Buffer.alloc(pageSize), 0, pageSize, (root - 1) * pageSize);
    await handle.close();

    const result = await runCli(['serve'], { DATA_DIR: dir, PORT: '0' }, 30_000);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr.trim(),
      new RegExp(
        `^altsports serve: cannot open the store at ${file}: the integrity check \\(PRAGMA quick_check\\) failed: `,
      ),
    );
    noStack(result.stderr);
  } finally {
    await cleanup();
  }
});
