import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { ChangeKind, ChangeRecord, StoredChange } from '../../domain/changes.ts';
import type { ChangeRow, Database } from '../schema.ts';

/**
 * The bounded change log: what each committed batch changed, in commit order. Every node reads it
 * to drop its caches and feed its stream clients; a stream client resumes from it (Last-Event-ID).
 */
export function changesRepository(db: Kysely<Database> | Transaction<Database>) {
  return {
    /**
     * Appends records inside the writing transaction and trims the log to its last `keep` entries.
     * On PostgreSQL `channel` is notified of the last id, which every listening node hears at commit.
     */
    async append(
      records: ChangeRecord[],
      createdAt: string,
      keep: number,
      channel: string | null,
    ): Promise<StoredChange[]> {
      const rows = records.map((r) => ({
        kind: r.kind,
        competition: r.competition,
        eventId: r.eventId,
        data: JSON.stringify(r.data),
        createdAt,
      }));
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += 200) {
        const inserted = await db
          .insertInto('changes')
          .values(rows.slice(i, i + 200))
          .returning('id')
          .execute();
        ids.push(...inserted.map((row) => Number(row.id)));
      }
      ids.sort((a, b) => a - b);
      const last = ids.at(-1) ?? 0;
      const trimTo = last > keep ? last - keep : null;
      if (channel === null) {
        if (trimTo !== null) await db.deleteFrom('changes').where('id', '<=', trimTo).execute();
      } else if (trimTo === null) {
        await sql`select pg_notify(${channel}, ${String(last)})`.execute(db);
      } else {
        // The trim and the notification in one round trip: PostgreSQL runs a data-modifying WITH whether or not it is read.
        await sql`with trimmed as (delete from changes where id <= ${trimTo}) select pg_notify(${channel}, ${String(last)})`.execute(
          db,
        );
      }
      return records.map((record, i) => ({ ...record, id: ids[i] as number, createdAt }));
    },

    /** Changes after `afterId`, oldest first. */
    async since(afterId: number, limit: number): Promise<StoredChange[]> {
      const rows = await db
        .selectFrom('changes')
        .selectAll()
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toStored);
    },

    /** The first and last ids held (0 and 0 for an empty log). */
    async bounds(): Promise<{ first: number; last: number }> {
      const row = await db
        .selectFrom('changes')
        .select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')])
        .executeTakeFirst();
      return { first: Number(row?.first ?? 0), last: Number(row?.last ?? 0) };
    },
  };
}

function toStored(row: Selectable<ChangeRow>): StoredChange {
  return {
    id: Number(row.id),
    kind: row.kind as ChangeKind,
    competition: row.competition,
    eventId: row.eventId,
    data: JSON.parse(row.data) as Record<string, unknown>,
    createdAt: row.createdAt,
  };
}
