-- The SQL each method of store/repositories/settlements-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- ofEvent
select
  *
from "settlements"
where "event_id" = $1;

-- keep
insert into "settlements" ("odd_id", "event_id", "market_id", "settlement", "settlement_reason", "dead_heat_factor", "settlement_status", "settled_at")
values
  ($1, $2, $3, $4, $5, $6, $7, $8)
on conflict ("odd_id")
do update set
  "settlement" = "excluded"."settlement",
  "settlement_reason" = "excluded"."settlement_reason",
  "dead_heat_factor" = "excluded"."dead_heat_factor",
  "settlement_status" = "excluded"."settlement_status",
  "settled_at" = "excluded"."settled_at";
