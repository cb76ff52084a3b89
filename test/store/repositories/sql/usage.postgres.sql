-- The SQL each method of store/repositories/usage-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- add
begin;

insert into "key_usage" ("key_id", "day", "route", "requests")
values
  ($1, $2, $3, $4),
  ($5, $6, $7, $8)
on conflict ("key_id", "day", "route")
do update set
  "requests" = key_usage.requests + excluded.requests;

commit;

-- between
select
  *
from "key_usage"
where "day" >= $1
  and "day" <= $2
order by "day", "key_id", "route";

-- between (one key)
select
  *
from "key_usage"
where "day" >= $1
  and "day" <= $2
  and "key_id" = $3
order by "day", "key_id", "route";

-- totalsSince
select
  "key_id",
  sum("requests") as "requests"
from "key_usage"
where "key_id" in ($1, $2)
  and "day" >= $3
group by "key_id";
