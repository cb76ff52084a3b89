-- The SQL each method of store/repositories/plans-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- insert
insert into "plans" ("id", "name", "monthly_quota", "rate_per_minute", "rate_per_day", "competitions", "created_at")
values
  ($1, $2, $3, $4, $5, $6, $7);

-- list
select
  *
from "plans"
order by "created_at", "id";

-- find
select
  *
from "plans"
where (
  "id" = $1
  or "name" = $2
);

-- findByIds
select
  *
from "plans"
where "id" in ($1, $2);

-- update
update "plans"
set
  "monthly_quota" = $1,
  "rate_per_day" = $2
where "id" = $3;
