-- The SQL each method of store/repositories/plans-repository.ts runs on SQLite,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- insert
insert into "plans" ("id", "name", "monthly_quota", "rate_per_minute", "rate_per_day", "competitions", "created_at")
values
  (?, ?, ?, ?, ?, ?, ?);

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
  "id" = ?
  or "name" = ?
);

-- findByIds
select
  *
from "plans"
where "id" in (?, ?);

-- update
update "plans"
set
  "monthly_quota" = ?,
  "rate_per_day" = ?
where "id" = ?;
