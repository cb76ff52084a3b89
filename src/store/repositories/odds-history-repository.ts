import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, OddsHistoryRow } from '../schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Odd ids per recording statement (parameters, well under both stores' limits). */
const RECORD_CHUNK = 500;

/** A recorded change as read back: the generated id left out. */
export type OddsHistoryEntry = Omit<OddsHistoryRow, 'id'>;

/**
 * The price history (issue 27): each outcome's price and status as written, one row per real change.
 */
export function oddsHistoryRepository(db: Db) {
  return {
    /**
     * Records the present price and status of these odds (just written, inside the writing
     * transaction) where they differ from the outcome's last recorded row: one INSERT ... SELECT per
     * chunk, so that a tick of many prices costs a statement, not a query per price. An odd whose only
     * change was another column (a settlement, a name) writes nothing.
     */
    async record(oddIds: readonly string[]): Promise<void> {
      for (let i = 0; i < oddIds.length; i += RECORD_CHUNK) {
        const part = oddIds.slice(i, i + RECORD_CHUNK);
        await sql`
          insert into odds_history (odd_id, decimal_odds, status, status_reason, changed_at, is_first)
          select o.id, o.decimal_odds, o.status, o.status_reason, o.updated_at,
                 case when last.id is null then 1 else 0 end
          from odds o
          left join odds_history last
            on last.id = (select max(h.id) from odds_history h where h.odd_id = o.id)
          where o.id in (${sql.join(part)})
            and (last.id is null or last.decimal_odds <> o.decimal_odds or last.status <> o.status)`.execute(db);
      }
    },

    /** The recorded changes of these odds in [since, until), each outcome's in the order written. */
    async changesOf(oddIds: readonly string[], since?: string, until?: string): Promise<OddsHistoryEntry[]> {
      if (oddIds.length === 0) return [];
      let query = db
        .selectFrom('oddsHistory')
        .select(['oddId', 'decimalOdds', 'status', 'statusReason', 'changedAt', 'isFirst'])
        .where('oddId', 'in', [...oddIds]);
      if (since) query = query.where('changedAt', '>=', since);
      if (until) query = query.where('changedAt', '<', until);
      return query.orderBy('oddId').orderBy('id').execute();
    },

    /** The oldest retained row of each of these odds: the opening, whatever window was asked for. */
    async firstOf(oddIds: readonly string[]): Promise<OddsHistoryEntry[]> {
      if (oddIds.length === 0) return [];
      return db
        .selectFrom('oddsHistory as h')
        .select(['h.oddId', 'h.decimalOdds', 'h.status', 'h.statusReason', 'h.changedAt', 'h.isFirst'])
        .where('h.oddId', 'in', [...oddIds])
        .where((eb) =>
          eb(
            'h.id',
            '=',
            eb
              .selectFrom('oddsHistory as f')
              .select((f) => f.fn.min('f.id').as('id'))
              .whereRef('f.oddId', '=', 'h.oddId'),
          ),
        )
        .execute();
    },

    /** The latest row of each of these odds that was OPEN: the closing price, once it has closed for good. */
    async lastOpenOf(oddIds: readonly string[]): Promise<OddsHistoryEntry[]> {
      if (oddIds.length === 0) return [];
      return db
        .selectFrom('oddsHistory as h')
        .select(['h.oddId', 'h.decimalOdds', 'h.status', 'h.statusReason', 'h.changedAt', 'h.isFirst'])
        .where('h.oddId', 'in', [...oddIds])
        .where((eb) =>
          eb(
            'h.id',
            '=',
            eb
              .selectFrom('oddsHistory as l')
              .select((l) => l.fn.max('l.id').as('id'))
              .whereRef('l.oddId', '=', 'h.oddId')
              .where('l.status', '=', 'OPEN'),
          ),
        )
        .execute();
    },

    /**
     * Deletes rows changed before `before`, except each outcome's last one: an outcome whose price has
     * not moved within the retention keeps the price it holds. Returns how many rows went.
     */
    async prune(before: string): Promise<number> {
      const result = await sql`
        delete from odds_history
        where changed_at < ${before}
          and id < (select max(h.id) from odds_history h where h.odd_id = odds_history.odd_id)`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
}
