import { type Kysely, sql } from 'kysely';
import type { Database, KeyUsageRow } from '../schema.ts';

/** Rows written at once: 4 parameters each, well under either store's parameter limit. */
const WRITE_CHUNK = 500;

export function usageRepository(db: Kysely<Database>) {
  return {
    /** Adds each row's requests to what its key, day and route already hold. */
    async add(rows: readonly KeyUsageRow[]): Promise<void> {
      if (rows.length === 0) return;
      await db.transaction().execute(async (tx) => {
        for (let i = 0; i < rows.length; i += WRITE_CHUNK)
          await tx
            .insertInto('keyUsage')
            .values(rows.slice(i, i + WRITE_CHUNK))
            .onConflict((oc) =>
              oc
                .columns(['keyId', 'day', 'route'])
                .doUpdateSet({ requests: sql<number>`key_usage.requests + excluded.requests` }),
            )
            .execute();
      });
    },

    /** The rows of the days `from`..`to` (YYYY-MM-DD, both included), of one key or of every key. */
    async between(from: string, to: string, keyId?: string): Promise<KeyUsageRow[]> {
      let query = db.selectFrom('keyUsage').selectAll().where('day', '>=', from).where('day', '<=', to);
      if (keyId !== undefined) query = query.where('keyId', '=', keyId);
      return query.orderBy('day').orderBy('keyId').orderBy('route').execute();
    },

    /** Each of these keys' requests on the days from `from` (YYYY-MM-DD) on; keys without any are left out. */
    async totalsSince(keyIds: readonly string[], from: string): Promise<Map<string, number>> {
      if (keyIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('keyUsage')
        .select(['keyId', (eb) => eb.fn.sum<number | string>('requests').as('requests')])
        .where('keyId', 'in', keyIds)
        .where('day', '>=', from)
        .groupBy('keyId')
        .execute();
      return new Map(rows.map((row) => [row.keyId, Number(row.requests)]));
    },
  };
}

export type UsageRepository = ReturnType<typeof usageRepository>;
