import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../schema.ts';

export interface LiveEventActivity {
  eventId: string;
  competition: string;
  /** Null when the feed has never spoken of it since the store began keeping track. */
  lastMessageAt: string | null;
  scoreChangedAt: string | null;
}

export interface ScoreStop {
  eventId: string;
  competition: string;
  scoreChangedAt: string;
  scoreStopPublishedAt: string | null;
}

/**
 * When the feed last spoke of each event, by the server's clock. Written by every ingest, in its
 * transaction; read by every node to derive feed health and the FEED_STALE bet stop.
 * Long only as a list of short methods is: every repository is one object of its aggregate's queries
 * (docs/decisions.md, "SQL in repositories").
 */
export function feedActivityRepository(db: Kysely<Database> | Transaction<Database>) {
  return {
    /**
     * Notes that a batch committed at `at` spoke of these events; returns those of them whose bet stop
     * had been pushed (they reopen now). On PostgreSQL one statement per 500 events (price ticks are
     * the hot path); a data-modifying WITH reads the marks as they were before its upsert.
     */
    async touch(eventIds: readonly string[], at: string, postgres: boolean): Promise<string[]> {
      const reopened: string[] = [];
      for (let i = 0; i < eventIds.length; i += 500) {
        const part = eventIds.slice(i, i + 500);
        const ids = sql.join(part);
        const upsert = sql`insert into feed_activity (event_id, competition, last_message_at, stale_published_at)
          select id, competition, ${at}, null from events where id in (${ids})
          on conflict (event_id) do update set last_message_at = excluded.last_message_at, stale_published_at = null`;
        if (postgres) {
          const { rows } = await sql<Record<string, string>>`with stopped as (
              select event_id from feed_activity where event_id in (${ids}) and stale_published_at is not null
            ), upserted as (${upsert})
            select event_id from stopped`.execute(db);
          reopened.push(...rows.map((r) => (r.eventId ?? r.event_id) as string));
          continue;
        }
        const stopped = await db
          .selectFrom('feedActivity')
          .select('eventId')
          .where('eventId', 'in', part)
          .where('stalePublishedAt', 'is not', null)
          .execute();
        reopened.push(...stopped.map((r) => r.eventId));
        await upsert.execute(db);
      }
      return reopened;
    },

    /** Whether a LIVE event silent since `before` awaits its bet stop: a read, before taking any lock. */
    async anyStale(before: string): Promise<boolean> {
      const row = await db
        .selectFrom('feedActivity')
        .innerJoin('events', 'events.id', 'feedActivity.eventId')
        .select('feedActivity.eventId')
        .where('events.eventStatus', '=', 'LIVE')
        .where('feedActivity.stalePublishedAt', 'is', null)
        .where('feedActivity.lastMessageAt', '<=', before)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * LIVE events silent since `before` whose bet stop no node has pushed yet, marked as pushed at `at`.
     * Run inside the ingest lock, so that one node alone pushes each.
     */
    async claimStale(before: string, at: string): Promise<Array<{ eventId: string; competition: string }>> {
      const rows = await db
        .selectFrom('feedActivity')
        .innerJoin('events', 'events.id', 'feedActivity.eventId')
        .select(['feedActivity.eventId', 'feedActivity.competition'])
        .where('events.eventStatus', '=', 'LIVE')
        .where('feedActivity.stalePublishedAt', 'is', null)
        .where('feedActivity.lastMessageAt', '<=', before)
        .orderBy('feedActivity.eventId')
        .limit(500)
        .execute();
      if (rows.length === 0) return [];
      const ids = rows.map((r) => r.eventId);
      await db.updateTable('feedActivity').set({ stalePublishedAt: at }).where('eventId', 'in', ids).execute();
      return rows;
    },

    /** Notes that a batch committed at `at` changed a score of these events, those of them LIVE. */
    async markScoreChanged(eventIds: readonly string[], at: string): Promise<void> {
      for (let i = 0; i < eventIds.length; i += 500)
        await db
          .updateTable('feedActivity')
          .set({ scoreChangedAt: at })
          .where('eventId', 'in', (eb) =>
            eb
              .selectFrom('events')
              .select('id')
              .where('id', 'in', eventIds.slice(i, i + 500))
              .where('eventStatus', '=', 'LIVE'),
          )
          .execute();
    },

    /**
     * LIVE events whose SCORE_CHANGE suspension may need a push: a score changed since `since`, or
     * their suspension was pushed and not yet its end.
     */
    async scoreStops(since: string): Promise<ScoreStop[]> {
      return db
        .selectFrom('feedActivity')
        .innerJoin('events', 'events.id', 'feedActivity.eventId')
        .select([
          'feedActivity.eventId',
          'feedActivity.competition',
          'feedActivity.scoreChangedAt as scoreChangedAt',
          'feedActivity.scoreStopPublishedAt',
        ])
        .where('events.eventStatus', '=', 'LIVE')
        .where('feedActivity.scoreChangedAt', 'is not', null)
        .where((eb) =>
          eb.or([
            eb('feedActivity.scoreChangedAt', '>', since),
            eb('feedActivity.scoreStopPublishedAt', 'is not', null),
          ]),
        )
        .orderBy('feedActivity.eventId')
        .limit(500)
        .$narrowType<{ scoreChangedAt: string }>()
        .execute();
    },

    /** Marks the SCORE_CHANGE suspension of these events pushed at `at`, or its end pushed (null). */
    async setScoreStopPublished(eventIds: readonly string[], at: string | null): Promise<void> {
      if (eventIds.length === 0) return;
      await db
        .updateTable('feedActivity')
        .set({ scoreStopPublishedAt: at })
        .where('eventId', 'in', [...eventIds])
        .execute();
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
        .select([
          'events.id as eventId',
          'events.competition',
          'feedActivity.lastMessageAt',
          'feedActivity.scoreChangedAt',
        ])
        .where('events.eventStatus', '=', 'LIVE');
      if (eventIds) query = query.where('events.id', 'in', eventIds);
      return query.orderBy('events.id').execute();
    },
  };
}
