import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** The error `fail` throws: what node:sqlite raised, for real. */
function raised(fail: () => void): Error {
  try {
    fail();
  } catch (error) {
    return error as Error;
  }
  throw new Error('SQLite did not fail');
}

/** SQLITE_BUSY: a second connection asks for the write lock another holds, without waiting. */
export function sqliteBusy(): Error {
  const dir = mkdtempSync(join(tmpdir(), 'altsports-busy-'));
  const holder = new DatabaseSync(join(dir, 'busy.db'));
  const other = new DatabaseSync(join(dir, 'busy.db'), { timeout: 0 });
  try {
    holder.exec('begin immediate');
    return raised(() => other.exec('begin immediate'));
  } finally {
    holder.close();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** SQLITE_CONSTRAINT_UNIQUE: a failing statement, not a store that is down. */
export function sqliteUniqueViolation(): Error {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec('create table t (a text unique); insert into t values (1)');
    return raised(() => db.exec('insert into t values (1)'));
  } finally {
    db.close();
  }
}
