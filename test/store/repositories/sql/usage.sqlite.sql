-- The SQL each method of store/repositories/usage-repository.ts runs on SQLite,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- add
begin;

insert into "key_usage" ("key_id", "day", "route", "requests")
values
  (?, ?, ?, ?),
  (?, ?, ?, ?)
on conflict ("key_id", "day", "route")
do update set
  "requests" = key_usage.requests + excluded.requests;

commit;

-- between
select
  *
from "key_usage"
where "day" >= ?
  and "day" <= ?
order by "day", "key_id", "route";

-- between (one key)
select
  *
from "key_usage"
where "day" >= ?
  and "day" <= ?
  and "key_id" = ?
order by "day", "key_id", "route";

-- totalsSince
select
  "key_id",
  sum("requests") as "requests"
from "key_usage"
where "key_id" in (?, ?)
  and "day" >= ?
group by "key_id";
