import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { pace } from '../../base/event-loop-turns.ts';
import type { Database, OddsHistoryRow } from '../schema.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Odd ids per recording statement (parameters, well under both stores' limits). */
const RECORD_CHUNK = 500;

/** A recorded change as read back: the generated id left out. */
export type OddsHistoryEntry = Omit<OddsHistoryRow, 'id'>;

/**
 * The price history: each outcome's price and status as written, one row per real change.
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
        // Each odd's last row found once (an index lookup), then joined by primary key.
        await sql`
          insert into odds_history (odd_id, decimal_odds, probability, status, status_reason, changed_at, is_first)
          select o.id, o.decimal_odds, o.probability, o.status, o.status_reason, o.updated_at,
                 case when last.id is null then 1 else 0 end
          from (select id, decimal_odds, probability, status, status_reason, updated_at,
                       (select max(h.id) from odds_history h where h.odd_id = odds.id) as last_id
                from odds where id in (${sql.join(part)})) o
          left join odds_history last on last.id = o.last_id
          where last.id is null or last.decimal_odds <> o.decimal_odds or last.status <> o.status`.execute(db);
        await pace();
      }
    },

    /** The recorded changes of these odds in [since, until), each outcome's in the order written. */
    async changesOf(oddIds: readonly string[], since?: string, until?: string): Promise<OddsHistoryEntry[]> {
      if (oddIds.length === 0) return [];
      let query = db
        .selectFrom('oddsHistory')
        .select(['oddId', 'decimalOdds', 'probability', 'status', 'statusReason', 'changedAt', 'isFirst'])
        .where('oddId', 'in', [...oddIds]);
      if (since) query = query.where('changedAt', '>=', since);
      if (until) query = query.where('changedAt', '<', until);
      return query.orderBy('oddId').orderBy('id').execute();
    },

    /** The oldest retained row of each of these odds: the opening, whatever window was asked for. */
    firstOf(oddIds: readonly string[]): Promise<OddsHistoryEntry[]> {
      return rowsAt(db, oddIds, sql`min(f.id)`, sql``);
    },

    /** The latest row of each of these odds that was OPEN: the closing price, once it has closed for good. */
    lastOpenOf(oddIds: readonly string[]): Promise<OddsHistoryEntry[]> {
      return rowsAt(db, oddIds, sql`max(f.id)`, sql`and f.status = 'OPEN'`);
    },

    /**
     * Deletes rows changed before `before`, except each outcome's last row (the price it holds) and its
     * last OPEN row (its closing price, once closed for good). Returns how many rows went.
     */
    async prune(before: string): Promise<number> {
      const result = await sql`
        delete from odds_history
        where changed_at < ${before}
          and id < (select max(h.id) from odds_history h where h.odd_id = odds_history.odd_id)
          and id <> coalesce(
            (select max(h.id) from odds_history h where h.odd_id = odds_history.odd_id and h.status = 'OPEN'), 0)`.execute(
        db,
      );
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

/**
 * One row per odd, the one `pick` (min or max of f.id) chooses among its rows (`where`): one index
 * lookup per odd, then the rows by primary key, however long each outcome's history.
 */
async function rowsAt(
  db: Db,
  oddIds: readonly string[],
  pick: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
): Promise<OddsHistoryEntry[]> {
  if (oddIds.length === 0) return [];
  const { rows } = await sql<OddsHistoryEntry>`
    select h.odd_id as "oddId", h.decimal_odds as "decimalOdds", h.probability, h.status, h.status_reason as "statusReason",
           h.changed_at as "changedAt", h.is_first as "isFirst"
    from odds_history h
    where h.id in (select (select ${pick} from odds_history f where f.odd_id = o.id ${where})
                   from odds o where o.id in (${sql.join([...oddIds])}))`.execute(db);
  return rows;
}
