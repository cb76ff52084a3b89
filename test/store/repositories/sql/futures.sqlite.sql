-- The SQL each method of store/repositories/futures-repository.ts runs on SQLite,
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
where "futures"."competition" in (?, ?)
order by "futures"."competition", "futures"."year" desc, "futures"."reference_id";

-- findWithOdds
select
  *
from "futures"
where "competition" = ?
  and "tour_id" = ?
  and "type" = ?
order by "year" desc, "reference_id";

select
  *
from "future_odds"
where "future_id" in (?, ?)
order by "reference_id";

-- competitionsOf
select
  "id",
  "competition"
from "futures"
where "id" in (?, ?);
