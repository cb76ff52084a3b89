-- The SQL each method of store/repositories/scope-facts-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- resultsOf (heat, lap, match and event scopes)
select
  "id"
from "heats"
where "event_id" = $1;

select
  *
from "heats"
where "id" in ($1, $2);

select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."id" = $1;

select
  "athlete_id",
  "status",
  "place"
from "event_participants"
where "event_id" = $1;

-- heatsOfEvent
select
  "id"
from "heats"
where "event_id" = $1;
