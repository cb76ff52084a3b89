import type { Transaction } from 'kysely';
import type { SettlementMove, SettlementState } from '../domain/changes.ts';
import { getCompetition } from '../domain/competitions.ts';
import { groupBy } from '../domain/group-by.ts';
import { type LedgerEntry, nextLedgerEntry } from '../domain/markets/settlement-ledger.ts';
import type { SettlementReason } from '../domain/markets/settlement-reason.ts';
import type { SettlementStatus } from '../domain/markets/settlement-status.ts';
import type { SettlementKeeper } from '../store/database.ts';
import { pace } from '../store/event-loop-turns.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import type { Database, OddRow, SettlementRow } from '../store/schema.ts';
import { pricedOutcome, settlementLedger } from './odds.ts';
import { scopeResults } from './scope-results.ts';

/**
 * The settlements ledger (issue 27): in the transaction of each batch that may move settlements, every
 * outcome of the events it touched is settled as the odds routes would publish it, and compared with
 * the ledger. What moved is written (nextLedgerEntry: settledAt, RESULT_CHANGED) and returned for the
 * batch's `settlement` change, with the previous settlement beside the new one.
 */
export const keepSettlements: SettlementKeeper = async (trx, eventIds, committedAt) => {
  const moves = new Map<string, SettlementMove[]>();
  for (const eventId of eventIds) {
    const moved = await settleEvent(trx, eventId, committedAt);
    if (moved.length > 0) moves.set(eventId, moved);
    // A batch of many events settles them one by one, letting others be answered (issue 25).
    await pace();
  }
  return moves;
};

async function settleEvent(trx: Transaction<Database>, eventId: string, at: string): Promise<SettlementMove[]> {
  const event = await trx.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirst();
  if (!event) return [];
  const store = { db: trx };
  const repo = oddsRepository(trx);
  const markets = await repo.marketsOfEvent(eventId);
  const odds = await repo.oddsOfMarkets(
    eventId,
    markets.map((m) => m.id),
  );
  const [results, ledger] = await Promise.all([
    scopeResults(store, event, getCompetition(event.competition), markets),
    settlementLedger(store, eventId),
  ]);
  const byMarket = groupBy(odds, (odd) => odd.marketId);
  const moves: SettlementMove[] = [];
  const rows: SettlementRow[] = [];
  for (const market of markets) {
    const siblings = byMarket.get(market.id) ?? [];
    for (const odd of siblings) {
      // Without the ledger, the outcome is priced as derived now: the reason from the results alone.
      const priced = pricedOutcome(market, odd, siblings, {
        results,
        eventStatus: event.eventStatus,
        abandoned: event.abandoned === 1,
      });
      const kept = ledger.get(odd.id);
      const previous = kept ? entryOf(kept) : undefined;
      const { entry, changed } = nextLedgerEntry(
        previous,
        {
          settlement: priced.settlement,
          settlementReason: priced.settlementReason,
          deadHeatFactor: priced.deadHeatFactor,
          settlementStatus: priced.settlementStatus,
        },
        at,
      );
      if (!changed) continue;
      rows.push(rowOf(odd, entry));
      moves.push({
        id: odd.id,
        marketId: market.id,
        previous: stateOf(previous),
        settlement: stateOf(entry),
      });
    }
  }
  await writeLedger(trx, rows);
  return moves;
}

function entryOf(row: SettlementRow): LedgerEntry {
  return {
    settlement: row.settlement,
    settlementReason: (row.settlementReason as SettlementReason | null) ?? undefined,
    deadHeatFactor: row.deadHeatFactor,
    settlementStatus: (row.settlementStatus as SettlementStatus | null) ?? undefined,
    settledAt: row.settledAt ?? undefined,
  };
}

function rowOf(odd: OddRow, entry: LedgerEntry): SettlementRow {
  return {
    oddId: odd.id,
    eventId: odd.eventId,
    marketId: odd.marketId,
    settlement: entry.settlement,
    settlementReason: entry.settlementReason ?? null,
    deadHeatFactor: entry.deadHeatFactor,
    settlementStatus: entry.settlementStatus ?? null,
    settledAt: entry.settledAt ?? null,
  };
}

/** A ledger entry as the stream publishes it (absent fields left out); NOT_SET before any. */
function stateOf(entry: LedgerEntry | undefined): SettlementState {
  if (!entry) return { settlement: 'NOT_SET', deadHeatFactor: 1 };
  return {
    settlement: entry.settlement,
    ...(entry.settlementReason ? { settlementReason: entry.settlementReason } : {}),
    deadHeatFactor: entry.deadHeatFactor,
    ...(entry.settlementStatus ? { settlementStatus: entry.settlementStatus } : {}),
    ...(entry.settledAt ? { settledAt: entry.settledAt } : {}),
  };
}

/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits (8 columns a row). */
const LEDGER_CHUNK = 500;

async function writeLedger(trx: Transaction<Database>, rows: SettlementRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += LEDGER_CHUNK) {
    await trx
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
}
