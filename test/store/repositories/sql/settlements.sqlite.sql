-- The SQL each method of store/repositories/settlements-repository.ts runs on SQLite,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- ofEvent
select
  *
from "settlements"
where "event_id" = ?;

-- keep
insert into "settlements" ("odd_id", "event_id", "market_id", "settlement", "settlement_reason", "dead_heat_factor", "settlement_status", "settled_at")
values
  (?, ?, ?, ?, ?, ?, ?, ?)
on conflict ("odd_id")
do update set
  "settlement" = "excluded"."settlement",
  "settlement_reason" = "excluded"."settlement_reason",
  "dead_heat_factor" = "excluded"."dead_heat_factor",
  "settlement_status" = "excluded"."settlement_status",
  "settled_at" = "excluded"."settled_at";
