-- The SQL each method of store/repositories/events-repository.ts runs on SQLite,
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
where "events"."competition" in (?, ?)
  and "events"."event_status" in (?, ?)
  and "events"."end_date" >= ?
  and "events"."start_date" < ?
  and "events"."last_changed_at" > ?
  and (
    "events"."start_date" < ?
    or (
      "events"."start_date" = ?
      and "events"."reference_id" < ?
    )
  )
order by "events"."start_date" desc, "events"."reference_id" desc
limit ?;

-- findById
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."id" = ?;

-- findDocument
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."id" = ?;

select
  *
from "rounds"
where "event_id" in (?)
order by "round_no", "reference_id";

select
  *
from "heats"
where "event_id" in (?)
order by "heat_no", "reference_id";

select
  *
from "round_scores"
where "event_id" in (?)
order by "reference_id";

select
  *
from "teams"
where "id" in (?);

-- documentsOf
select
  *
from "rounds"
where "event_id" in (?)
order by "round_no", "reference_id";

select
  *
from "heats"
where "event_id" in (?)
order by "heat_no", "reference_id";

select
  *
from "round_scores"
where "event_id" in (?)
order by "reference_id";

select
  *
from "teams"
where "id" in (?);

-- findCard
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."card_id" = ?
order by "events"."start_date", "events"."event_number", "events"."reference_id";

-- bracketGames
select
  "events".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "events"
inner join "tours" on "tours"."id" = "events"."tour_id"
where "events"."tour_year_id" = ?
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
where "tour_years"."id" = ?;

-- findPricingFacts
select
  "id",
  "competition",
  "teams",
  "event_status"
from "events"
where "id" = ?;

-- statusesOf
select
  "id",
  "event_status"
from "events"
where "id" in (?, ?);

-- competitionsOf
select
  "id",
  "competition"
from "events"
where "id" in (?, ?);

-- roundStatuses
select
  "id",
  "round_status"
from "rounds"
where "event_id" = ?
order by "round_no", "reference_id";

-- statesOf
select
  "id",
  "competition",
  "event_status"
from "events"
where "id" in (?, ?);

-- heatStates
select
  "id",
  "event_id",
  "heat_status"
from "heats"
where "id" in (?, ?);

-- eventsOfRounds
select
  "id",
  "event_id"
from "rounds"
where "id" in (?, ?);

-- touchContent
update "events"
set
  "content_updated_at" = ?
where "id" = ?
  and "content_updated_at" < ?;

-- touchLastChanged
update "events"
set
  "last_changed_at" = ?
where "id" in (?, ?)
  and (
    "last_changed_at" is null
    or "last_changed_at" < ?
  );

-- isEmpty
select
  "id"
from "events"
limit ?;

-- startDatesOf
select
  "id",
  "start_date"
from "events"
where "id" in (?, ?);

-- progressOf
select
  max("end_date") as "at"
from "heats"
where "event_id" in (?, ?)
  and "heat_status" = ?;

select
  max("start_date") as "at"
from "heats"
where "event_id" in (?, ?)
  and "heat_status" = ?;

select
  max("end_date") as "at"
from "rounds"
where "event_id" in (?, ?)
  and "round_status" = ?;

select
  max("start_date") as "at"
from "rounds"
where "event_id" in (?, ?)
  and "round_status" = ?;
