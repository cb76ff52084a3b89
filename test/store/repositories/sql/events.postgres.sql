-- The SQL each method of store/repositories/events-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- list
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
order by "events"."start_date" asc, "events"."reference_id" asc;

-- list (every filter)
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."competition" in ($1, $2)
  and "events"."event_status" in ($3, $4)
  and "events"."end_date" >= $5
  and "events"."start_date" < $6
  and "events"."last_changed_at" > $7
  and (
    "events"."start_date" < $8
    or (
      "events"."start_date" = $9
      and "events"."reference_id" < $10
    )
  )
order by "events"."start_date" desc, "events"."reference_id" desc
limit $11;

-- findById
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."id" = $1;

-- findDocument
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."id" = $1;

select
  *
from "rounds"
where "event_id" in ($1)
order by "round_no", "reference_id";

select
  *
from "heats"
where "event_id" in ($1)
order by "heat_no", "reference_id";

select
  *
from "round_scores"
where "event_id" in ($1)
order by "reference_id";

select
  *
from "teams"
where "id" in ($1);

-- documentsOf
select
  *
from "rounds"
where "event_id" in ($1)
order by "round_no", "reference_id";

select
  *
from "heats"
where "event_id" in ($1)
order by "heat_no", "reference_id";

select
  *
from "round_scores"
where "event_id" in ($1)
order by "reference_id";

select
  *
from "teams"
where "id" in ($1);

-- findCard
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."card_id" = $1
order by "events"."start_date", "events"."event_number", "events"."reference_id";

-- bracketGames
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."tour_year_id" = $1
  and "events"."bracket_round" is not null
order by "events"."bracket_round", "events"."bracket_slot";

-- findTourYear
select
  "tour_years"."id",
  "tour_years"."year",
  "tour_years"."updated_at",
  "tours"."id" as "tour_id",
  "tours"."name" as "tour_name",
  "tours"."competition"
from "tour_years"
inner join "tours" on "tours"."id" = "tour_years"."tour_id"
where "tour_years"."id" = $1;

-- findPricingFacts
select
  "id",
  "competition",
  "teams",
  "event_status"
from "events"
where "id" = $1;

-- statusesOf
select
  "id",
  "event_status"
from "events"
where "id" in ($1, $2);

-- competitionsOf
select
  "id",
  "competition"
from "events"
where "id" in ($1, $2);

-- roundStatuses
select
  "id",
  "round_status"
from "rounds"
where "event_id" = $1
order by "round_no", "reference_id";

-- statesOf
select
  "id",
  "competition",
  "event_status"
from "events"
where "id" in ($1, $2);

-- heatStates
select
  "id",
  "event_id",
  "heat_status"
from "heats"
where "id" in ($1, $2);

-- eventsOfRounds
select
  "id",
  "event_id"
from "rounds"
where "id" in ($1, $2);

-- touchContent
update "events"
set
  "content_updated_at" = $1
where "id" = $2
  and "content_updated_at" < $3;

-- touchLastChanged
update "events"
set
  "last_changed_at" = $1
where "id" in ($2, $3)
  and (
    "last_changed_at" is null
    or "last_changed_at" < $4
  );

-- isEmpty
select
  "id"
from "events"
limit $1;

-- startDatesOf
select
  "id",
  "start_date"
from "events"
where "id" in ($1, $2);

-- progressOf
select
  max("end_date") as "at"
from "heats"
where "event_id" in ($1, $2)
  and "heat_status" = $3;

select
  max("start_date") as "at"
from "heats"
where "event_id" in ($1, $2)
  and "heat_status" = $3;

select
  max("end_date") as "at"
from "rounds"
where "event_id" in ($1, $2)
  and "round_status" = $3;

select
  max("start_date") as "at"
from "rounds"
where "event_id" in ($1, $2)
  and "round_status" = $3;
