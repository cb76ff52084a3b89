import type { Transaction } from 'kysely';
import { pace } from '../base/event-loop-turns.ts';
import type { SettlementMove, SettlementState } from '../domain/changes.ts';
import { getCompetition } from '../domain/competitions.ts';
import { groupBy } from '../domain/group-by.ts';
import { ledgerMoves } from '../domain/markets/outcome-settlement.ts';
import type { LedgerEntry } from '../domain/markets/settlement-ledger.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import { scopeFactsRepository } from '../store/repositories/scope-facts-repository.ts';
import { ledgerEntryOf, settlementsRepository } from '../store/repositories/settlements-repository.ts';
import type { Database } from '../store/schema.ts';

/**
 * The settlements ledger: in the transaction of each batch that may move settlements, every outcome
 * of the events it touched is settled as the odds routes would publish it (domain/markets/
 * outcome-settlement.ts), and compared with the ledger. What moved is written and returned for the
 * batch's `settlement` change, with the previous settlement beside the new one.
 */
export async function keepSettlements(
  trx: Transaction<Database>,
  eventIds: readonly string[],
  committedAt: string,
): Promise<Map<string, SettlementMove[]>> {
  const moves = new Map<string, SettlementMove[]>();
  for (const eventId of eventIds) {
    const moved = await settleEvent(trx, eventId, committedAt);
    if (moved.length > 0) moves.set(eventId, moved);
    // A batch of many events settles them one by one, letting others be answered.
    await pace();
  }
  return moves;
}

async function settleEvent(trx: Transaction<Database>, eventId: string, at: string): Promise<SettlementMove[]> {
  const repo = oddsRepository(trx);
  const markets = await repo.marketsOfEvent(eventId);
  // An event without markets has nothing to settle (most batches of a live event's scores).
  if (markets.length === 0) return [];
  const event = await eventsRepository(trx).findById(eventId);
  if (!event) return [];
  const settlements = settlementsRepository(trx);
  const odds = await repo.oddsOfMarkets(
    eventId,
    markets.map((m) => m.id),
  );
  const [results, ledger] = await Promise.all([
    scopeFactsRepository(trx).resultsOf(event, getCompetition(event.competition).resultsFormat, markets),
    settlements.ofEvent(eventId),
  ]);
  const entries = new Map([...ledger].map(([oddId, row]) => [oddId, ledgerEntryOf(row)]));
  // Without the ledger, each outcome is settled as derived now: the reason from the results alone.
  const moved = ledgerMoves(
    markets,
    groupBy(odds, (odd) => odd.marketId),
    { results, abandoned: event.abandoned === 1 },
    entries,
    at,
  );
  await settlements.keep(moved.map((move) => ({ ...move, eventId })));
  return moved.map(({ oddId, marketId, previous, entry }) => ({
    id: oddId,
    marketId,
    previous: stateOf(previous),
    settlement: stateOf(entry),
  }));
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
