-- The SQL each method of store/repositories/feed-activity-repository.ts runs on SQLite,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- touch
select
  "event_id"
from "feed_activity"
where "event_id" in (?, ?)
  and "stale_published_at" is not null;

insert into feed_activity (event_id, competition, last_message_at, stale_published_at)
select
  id,
  competition,
  ?,
  null
from events
where id in (?, ?)
on conflict (event_id)
do update set
  last_message_at = excluded.last_message_at,
  stale_published_at = null;

-- anyStale
select
  "feed_activity"."event_id"
from "feed_activity"
inner join "events" on "events"."id" = "feed_activity"."event_id"
where "events"."event_status" = ?
  and "feed_activity"."stale_published_at" is null
  and "feed_activity"."last_message_at" <= ?
limit ?;

-- claimStale
select
  "feed_activity"."event_id",
  "feed_activity"."competition"
from "feed_activity"
inner join "events" on "events"."id" = "feed_activity"."event_id"
where "events"."event_status" = ?
  and "feed_activity"."stale_published_at" is null
  and "feed_activity"."last_message_at" <= ?
order by "feed_activity"."event_id"
limit ?;

update "feed_activity"
set
  "stale_published_at" = ?
where "event_id" in (?);

-- markScoreChanged
update "feed_activity"
set
  "score_changed_at" = ?
where "event_id" in (
  select
    "id"
  from "events"
  where "id" in (?, ?)
    and "event_status" = ?
);

-- scoreStops
select
  "feed_activity"."event_id",
  "feed_activity"."competition",
  "feed_activity"."score_changed_at" as "score_changed_at",
  "feed_activity"."score_stop_published_at"
from "feed_activity"
inner join "events" on "events"."id" = "feed_activity"."event_id"
where "events"."event_status" = ?
  and "feed_activity"."score_changed_at" is not null
  and (
    "feed_activity"."score_changed_at" > ?
    or "feed_activity"."score_stop_published_at" is not null
  )
order by "feed_activity"."event_id"
limit ?;

-- setScoreStopPublished
update "feed_activity"
set
  "score_stop_published_at" = ?
where "event_id" in (?);

-- lastByCompetition
select
  "competition",
  max("last_message_at") as "last"
from "feed_activity"
group by "competition";

-- liveEvents
select
  "events"."id" as "event_id",
  "events"."competition",
  "feed_activity"."last_message_at",
  "feed_activity"."score_changed_at"
from "events"
left join "feed_activity" on "feed_activity"."event_id" = "events"."id"
where "events"."event_status" = ?
order by "events"."id";

-- liveEvents (of some events)
select
  "events"."id" as "event_id",
  "events"."competition",
  "feed_activity"."last_message_at",
  "feed_activity"."score_changed_at"
from "events"
left join "feed_activity" on "feed_activity"."event_id" = "events"."id"
where "events"."event_status" = ?
  and "events"."id" in (?, ?)
order by "events"."id";
