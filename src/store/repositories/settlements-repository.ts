import type { Kysely, Transaction } from 'kysely';
import type { LedgerEntry } from '../../domain/markets/settlement-ledger.ts';
import type { SettlementReason } from '../../domain/markets/settlement-reason.ts';
import type { SettlementStatus } from '../../domain/markets/settlement-status.ts';
import type { Database, SettlementRow } from '../schema.ts';

/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits (8 columns a row). */
const LEDGER_CHUNK = 500;

/**
 * The settlements ledger: each outcome's settlement as last published, with when and why it settled.
 * The ingest writes it in the transaction of the batch that moved it; the odds routes read it.
 */
export function settlementsRepository(db: Kysely<Database> | Transaction<Database>) {
  return {
    /** The event's ledger rows, by odd id. */
    async ofEvent(eventId: string): Promise<Map<string, SettlementRow>> {
      const rows = await db.selectFrom('settlements').selectAll().where('eventId', '=', eventId).execute();
      return new Map(rows.map((row) => [row.oddId, row]));
    },

    /** Writes these outcomes' entries over what the ledger held. */
    async keep(entries: ReadonlyArray<{ oddId: string; eventId: string; marketId: string; entry: LedgerEntry }>) {
      const rows = entries.map(rowOf);
      for (let i = 0; i < rows.length; i += LEDGER_CHUNK) {
        await db
          .insertInto('settlements')
          .values(rows.slice(i, i + LEDGER_CHUNK))
          .onConflict((oc) =>
            oc.column('oddId').doUpdateSet((eb) => ({
              settlement: eb.ref('excluded.settlement'),
              settlementReason: eb.ref('excluded.settlementReason'),
              deadHeatFactor: eb.ref('excluded.deadHeatFactor'),
              settlementStatus: eb.ref('excluded.settlementStatus'),
              settledAt: eb.ref('excluded.settledAt'),
            })),
          )
          .execute();
      }
    },
  };
}

/** A ledger row as the domain reads it. */
export function ledgerEntryOf(row: SettlementRow): LedgerEntry {
  return {
    settlement: row.settlement,
    settlementReason: (row.settlementReason as SettlementReason | null) ?? undefined,
    deadHeatFactor: row.deadHeatFactor,
    settlementStatus: (row.settlementStatus as SettlementStatus | null) ?? undefined,
    settledAt: row.settledAt ?? undefined,
  };
}

function rowOf(move: { oddId: string; eventId: string; marketId: string; entry: LedgerEntry }): SettlementRow {
  const { entry } = move;
  return {
    oddId: move.oddId,
    eventId: move.eventId,
    marketId: move.marketId,
    settlement: entry.settlement,
    settlementReason: entry.settlementReason ?? null,
    deadHeatFactor: entry.deadHeatFactor,
    settlementStatus: entry.settlementStatus ?? null,
    settledAt: entry.settledAt ?? null,
  };
}
