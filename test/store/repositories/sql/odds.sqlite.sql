-- The SQL each method of store/repositories/odds-repository.ts runs on SQLite,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- recordModel
insert into "pricing_models" ("id", "model", "updated_at")
values
  (?, ?, ?)
on conflict ("id")
do update set
  "model" = ?,
  "updated_at" = ?;

-- recordedModel
select
  "model"
from "pricing_models"
where "id" = ?;

-- marketsOfEvent
select
  *
from "markets"
where "event_id" = ?
order by "reference_id";

-- marketsOfEvent (one odd type, exactas, over/under)
select
  *
from "markets"
where "event_id" = ?
  and "odd_type" = ?
  and "exactas_type" = ?
  and "over_under_sub_market_type" = ?
order by "reference_id";

-- marketsOfEvent (odd types)
select
  *
from "markets"
where "event_id" = ?
  and "odd_type" in (?, ?)
order by "reference_id";

-- oddsOfMarkets
select
  *
from "odds"
where "event_id" = ?
  and "market_id" in (?, ?)
order by "position", "reference_id";

-- oddsOfEvent
select
  *
from "odds"
where "event_id" = ?
order by "position", "reference_id";

-- suspend
update "odds"
set
  "status" = ?,
  "status_reason" = ?
where "id" in (?, ?);

-- outcomesPage
select
  *
from "odds"
where "event_id" = ?
order by "reference_id";

-- outcomesPage (every option)
select
  *
from "odds"
where "event_id" = ?
  and "market_id" in (
    select
      "id"
    from "markets"
    where "event_id" = ?
      and "odd_type" in (?)
  )
  and (
    "id" = ?
    or "reference_id" = ?
  )
  and "reference_id" > ?
order by "reference_id"
limit ?;

-- findOdds
select
  "odds".*,
  "events"."competition"
from "odds"
inner join "markets" on "markets"."id" = "odds"."market_id"
inner join "events" on "events"."id" = "markets"."event_id"
where (
  "odds"."id" in (?, ?)
  or "odds"."reference_id" in (?)
);

-- marketShapes
select
  "id",
  "event_id",
  "odd_type",
  "heat_id",
  "exactas_type",
  "over_under_sub_market_type",
  "line",
  "athlete_ids",
  "places",
  "proposition",
  "team_market_type",
  "round_id"
from "markets"
where "id" in (?, ?);

-- findMarkets
select
  *
from "markets"
where "id" in (?, ?);

-- oddsVersion
select
  (
    select
      max(updated_at)
    from odds
    where event_id = ?
  ) as latest,
  (
    select
      count(*)
    from odds
    where event_id = ?
  ) as total,
  (
    select
      max(updated_at)
    from markets
    where event_id = ?
  ) as mlatest,
  (
    select
      count(*)
    from markets
    where event_id = ?
  ) as mtotal;

-- placesOfEvent
select
  *
from "heats"
where "event_id" = ?;

select
  *
from "rounds"
where "event_id" = ?;
