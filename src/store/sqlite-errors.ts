/**
 * What node:sqlite's errors mean. It raises every SQLite failure as one Node error code
 * (`ERR_SQLITE_ERROR`) with SQLite's extended result code in `errcode`, whose low byte is the primary
 * code (https://sqlite.org/rescode.html).
 */
const SQLITE_BUSY = 5;
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;

function primaryCode(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  return code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number' ? errcode & 0xff : null;
}

/** Another connection holds the lock past the busy timeout (SQLITE_BUSY and its extended codes): retry later. */
export function isSqliteBusy(error: unknown): boolean {
  return primaryCode(error) === SQLITE_BUSY;
}

/** The file itself is broken (SQLITE_CORRUPT and its extended codes, SQLITE_NOTADB). */
export function isSqliteCorrupt(error: unknown): boolean {
  const code = primaryCode(error);
  return code === SQLITE_CORRUPT || code === SQLITE_NOTADB;
}
