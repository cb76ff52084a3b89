import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { walCheckpointer } from '../../src/store/wal-checkpointer.ts';

test('a write is checkpointed into the database file by the thread, not by the committing connection', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'store.db');
  const db = new DatabaseSync(file);
  t.after(() => db.close());
  db.exec('PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE rows (text TEXT)');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const before = statSync(file).size;
  const insert = db.prepare('INSERT INTO rows (text) VALUES (?)');
  for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(200));
  assert.equal(statSync(file).size, before, 'the commit leaves the rows in the WAL');
  const checkpointer = walCheckpointer(file);
  t.after(() => checkpointer.close());
  checkpointer.wrote();
  for (let waited = 0; statSync(file).size === before && waited < 100; waited++) await sleep(50);
  assert.ok(statSync(file).size > before + 200 * 1_000, 'the rows reached the database file');
});
