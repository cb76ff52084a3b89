-- The SQL each method of store/repositories/keys-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- insert
insert into "api_keys" ("id", "name", "key_hash", "key_prefix", "competitions", "created_at", "revoked_at", "rate_per_minute", "rate_per_day", "plan_id")
values
  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- findActiveByHash
select
  *
from "api_keys"
where "key_hash" = $1
  and "revoked_at" is null;

-- findActiveById
select
  *
from "api_keys"
where "id" = $1
  and "revoked_at" is null;

-- findActiveByIds
select
  *
from "api_keys"
where "id" in ($1, $2)
  and "revoked_at" is null;

-- findByHash
select
  *
from "api_keys"
where "key_hash" = $1;

-- find
select
  *
from "api_keys"
where "revoked_at" is null;

-- list
select
  *
from "api_keys"
order by "created_at", "id";

-- revoke
select
  *
from "api_keys"
where "revoked_at" is null;

update "api_keys"
set
  "revoked_at" = $1
where "id" = $2;

-- setLimits
select
  *
from "api_keys"
where "revoked_at" is null;

update "api_keys"
set
  "rate_per_minute" = $1,
  "rate_per_day" = $2,
  "plan_id" = $3
where "id" = $4;

-- setSecret
select
  *
from "api_keys"
where "revoked_at" is null;

update "api_keys"
set
  "key_hash" = $1,
  "key_prefix" = $2
where "id" = $3;
