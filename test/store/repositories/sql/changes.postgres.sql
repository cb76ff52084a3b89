-- The SQL each method of store/repositories/changes-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- append (the log trimmed)
insert into "changes" ("kind", "competition", "event_id", "data", "created_at")
values
  ($1, $2, $3, $4, $5)
returning "id";

with trimmed as (
  delete from changes
  where id <= $1
)
select
  pg_notify($2, $3);

-- append (within the log)
insert into "changes" ("kind", "competition", "event_id", "data", "created_at")
values
  ($1, $2, $3, $4, $5)
returning "id";

select
  pg_notify($1, $2);

-- since
select
  *
from "changes"
where "id" > $1
order by "id"
limit $2;

-- bounds
select
  min("id") as "first",
  max("id") as "last"
from "changes";
