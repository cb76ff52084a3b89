-- The SQL each method of store/repositories/changes-repository.ts runs on SQLite,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- append (the log trimmed)
insert into "changes" ("kind", "competition", "event_id", "data", "created_at")
values
  (?, ?, ?, ?, ?)
returning "id";

delete from "changes"
where "id" <= ?;

-- append (within the log)
insert into "changes" ("kind", "competition", "event_id", "data", "created_at")
values
  (?, ?, ?, ?, ?)
returning "id";

-- since
select
  *
from "changes"
where "id" > ?
order by "id"
limit ?;

-- bounds
select
  min("id") as "first",
  max("id") as "last"
from "changes";
