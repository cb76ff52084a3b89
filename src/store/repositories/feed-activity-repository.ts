import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.ts';

export interface LiveEventActivity {
  eventId: string;
  competition: string;
  /** Null when the feed has never spoken of it since the store began keeping track. */
  lastMessageAt: string | null;
}

/**
 * When the feed last spoke of each event, by the server's clock. Written by every ingest, in its
 * transaction; read by every node to derive feed health and the FEED_STALE bet stop.
 */
export function feedActivityRepository(db: Kysely<Database> | Transaction<Database>) {
  return {
    /** Notes that a batch committed at `at` spoke of these events. */
    async touch(eventIds: readonly string[], at: string): Promise<void> {
      if (eventIds.length === 0) return;
      for (let i = 0; i < eventIds.length; i += 500) {
        const part = eventIds.slice(i, i + 500);
        const events = await db.selectFrom('events').select(['id', 'competition']).where('id', 'in', part).execute();
        if (events.length === 0) continue;
        await db
          .insertInto('feedActivity')
          .values(events.map((e) => ({ eventId: e.id, competition: e.competition, lastMessageAt: at })))
          .onConflict((oc) =>
            oc.column('eventId').doUpdateSet((eb) => ({ lastMessageAt: eb.ref('excluded.lastMessageAt') })),
          )
          .execute();
      }
    },

    /** The latest message time of each competition the feed has spoken of. */
    async lastByCompetition(): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('feedActivity')
        .select((eb) => ['competition', eb.fn.max('lastMessageAt').as('last')])
        .groupBy('competition')
        .execute();
      return new Map(rows.map((r) => [r.competition, String(r.last)]));
    },

    /** The LIVE events, with when the feed last spoke of each. */
    async liveEvents(eventIds?: readonly string[]): Promise<LiveEventActivity[]> {
      if (eventIds && eventIds.length === 0) return [];
      let query = db
        .selectFrom('events')
        .leftJoin('feedActivity', 'feedActivity.eventId', 'events.id')
        .select(['events.id as eventId', 'events.competition', 'feedActivity.lastMessageAt'])
        .where('events.eventStatus', '=', 'LIVE');
      if (eventIds) query = query.where('events.id', 'in', eventIds);
      return query.orderBy('events.id').execute();
    },
  };
}
