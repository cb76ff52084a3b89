-- The SQL each method of store/repositories/futures-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- list
select
  "futures".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "futures"
inner join "tours" on "tours"."id" = "futures"."tour_id"
order by "futures"."competition", "futures"."year" desc, "futures"."reference_id";

-- list (of some competitions)
select
  "futures".*,
  "tours"."name" as "tour_name",
  "tours"."reference_id" as "tour_reference_id"
from "futures"
inner join "tours" on "tours"."id" = "futures"."tour_id"
where "futures"."competition" in ($1, $2)
order by "futures"."competition", "futures"."year" desc, "futures"."reference_id";

-- findWithOdds
select
  *
from "futures"
where "competition" = $1
  and "tour_id" = $2
  and "type" = $3
order by "year" desc, "reference_id";

select
  *
from "future_odds"
where "future_id" in ($1, $2)
order by "reference_id";

-- competitionsOf
select
  "id",
  "competition"
from "futures"
where "id" in ($1, $2);
