-- The SQL each method of store/repositories/odds-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- recordModel
insert into "pricing_models" ("id", "model", "updated_at")
values
  ($1, $2, $3)
on conflict ("id")
do update set
  "model" = $4,
  "updated_at" = $5;

-- recordedModel
select
  "model"
from "pricing_models"
where "id" = $1;

-- marketsOfEvent
select
  *
from "markets"
where "event_id" = $1
order by "reference_id";

-- marketsOfEvent (one odd type, exactas, over/under)
select
  *
from "markets"
where "event_id" = $1
  and "odd_type" = $2
  and "exactas_type" = $3
  and "over_under_sub_market_type" = $4
order by "reference_id";

-- marketsOfEvent (odd types)
select
  *
from "markets"
where "event_id" = $1
  and "odd_type" in ($2, $3)
order by "reference_id";

-- oddsOfMarkets
select
  *
from "odds"
where "event_id" = $1
  and "market_id" in ($2, $3)
order by "position", "reference_id";

-- oddsOfEvent
select
  *
from "odds"
where "event_id" = $1
order by "position", "reference_id";

-- suspend
update "odds"
set
  "status" = $1,
  "status_reason" = $2
where "id" in ($3, $4);

-- outcomesPage
select
  *
from "odds"
where "event_id" = $1
order by "reference_id";

-- outcomesPage (every option)
select
  *
from "odds"
where "event_id" = $1
  and "market_id" in (
    select
      "id"
    from "markets"
    where "event_id" = $2
      and "odd_type" in ($3)
  )
  and (
    "id" = $4
    or "reference_id" = $5
  )
  and "reference_id" > $6
order by "reference_id"
limit $7;

-- findOdds
select
  "odds".*,
  "events"."competition"
from "odds"
inner join "markets" on "markets"."id" = "odds"."market_id"
inner join "events" on "events"."id" = "markets"."event_id"
where (
  "odds"."id" in ($1, $2)
  or "odds"."reference_id" in ($3)
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
where "id" in ($1, $2);

-- findMarkets
select
  *
from "markets"
where "id" in ($1, $2);

-- oddsVersion
select
  (
    select
      max(updated_at)
    from odds
    where event_id = $1
  ) as latest,
  (
    select
      count(*)
    from odds
    where event_id = $2
  ) as total,
  (
    select
      max(updated_at)
    from markets
    where event_id = $3
  ) as mlatest,
  (
    select
      count(*)
    from markets
    where event_id = $4
  ) as mtotal;

-- placesOfEvent
select
  *
from "heats"
where "event_id" = $1;

select
  *
from "rounds"
where "event_id" = $1;
