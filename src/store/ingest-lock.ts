import { sql, type Transaction } from 'kysely';
import type { StoreDialect } from './connection.ts';
import type { Database } from './schema.ts';

/** Serialises ingest across API nodes sharing one PostgreSQL store (reference-id assignment). */
export const INGEST_LOCK = 0x616c7473;

/**
 * Takes the ingest lock for the rest of this transaction: every writer of feed facts and of the
 * changes derived from them (the bet stops) takes it first. SQLite has one writer at a time already.
 */
export async function takeIngestLock(trx: Transaction<Database>, dialect: StoreDialect): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${INGEST_LOCK})`.execute(trx);
}
