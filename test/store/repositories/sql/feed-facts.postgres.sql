-- The SQL each method of store/repositories/feed-facts-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- takeIngestLock
select
  pg_advisory_xact_lock($1);

-- upsertNewer (new events, reference ids assigned)
select
  "id",
  "reference_id",
  "updated_at"
from "events"
where "id" in ($1, $2);

select
  coalesce(max(reference_id), 0) as "max"
from "events";

insert into "events" ("id", "reference_id", "name", "event_status", "updated_at", "content_updated_at")
values
  ($1, $2, $3, $4, $5, $6),
  ($7, $8, $9, $10, $11, $12);

-- upsertNewer (stored odds, explicit reference ids)
select
  "id",
  "reference_id",
  "updated_at"
from "odds"
where "id" in ($1, $2);

select
  "id",
  "reference_id"
from "odds"
where "reference_id" in ($1, $2);

insert into "odds" ("id", "reference_id", "decimal_odds", "status", "updated_at")
values
  ($1, $2, $3, $4, $5),
  ($6, $7, $8, $9, $10)
on conflict ("id")
do update set
  "reference_id" = "excluded"."reference_id",
  "decimal_odds" = "excluded"."decimal_odds",
  "status" = "excluded"."status",
  "updated_at" = "excluded"."updated_at"
where (
  "odds"."updated_at" <= excluded.updated_at
  and (
    "odds"."reference_id" is distinct from "excluded"."reference_id"
    or "odds"."decimal_odds" is distinct from "excluded"."decimal_odds"
    or "odds"."status" is distinct from "excluded"."status"
  )
)
returning "id";

-- upsertNewer (a new future, created at its updatedAt)
select
  "id",
  "reference_id",
  "updated_at"
from "futures"
where "id" in ($1);

select
  "id",
  "reference_id"
from "futures"
where "reference_id" in ($1);

insert into "futures" ("id", "reference_id", "name", "updated_at", "created_at")
values
  ($1, $2, $3, $4, $5);

-- upsertNewer (stored laps, no reference ids)
select
  "id",
  "updated_at"
from "laps"
where "id" in ($1);

insert into "laps" ("id", "heat_entry_id", "lap_no", "updated_at")
values
  ($1, $2, $3, $4)
on conflict ("id")
do update set
  "heat_entry_id" = "excluded"."heat_entry_id",
  "lap_no" = "excluded"."lap_no",
  "updated_at" = "excluded"."updated_at"
where (
  "laps"."updated_at" <= excluded.updated_at
  and (
    "laps"."heat_entry_id" is distinct from "excluded"."heat_entry_id"
    or "laps"."lap_no" is distinct from "excluded"."lap_no"
  )
)
returning "id";

-- findExisting (tours)
select
  "id",
  "competition"
from "tours"
where "id" in ($1, $2);

-- findExisting (rounds)
select
  "rounds"."id",
  "events"."competition"
from "rounds"
inner join "events" on "events"."id" = "rounds"."event_id"
where "rounds"."id" in ($1, $2);

-- findExisting (heats)
select
  "heats"."id",
  "events"."competition"
from "heats"
inner join "events" on "events"."id" = "heats"."event_id"
where "heats"."id" in ($1, $2);

-- findExisting (heatEntries)
select
  "heat_entries"."id",
  "events"."competition"
from "heat_entries"
inner join "heats" on "heats"."id" = "heat_entries"."heat_id"
inner join "events" on "events"."id" = "heats"."event_id"
where "heat_entries"."id" in ($1, $2);

-- findExisting (markets)
select
  "markets"."id",
  "events"."competition"
from "markets"
inner join "events" on "events"."id" = "markets"."event_id"
where "markets"."id" in ($1, $2);

-- findExisting (athletes)
select
  "id"
from "athletes"
where "id" in ($1, $2);
