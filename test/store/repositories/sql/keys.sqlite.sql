-- The SQL each method of store/repositories/keys-repository.ts runs on SQLite,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- insert
insert into "api_keys" ("id", "name", "key_hash", "key_prefix", "competitions", "created_at", "revoked_at", "rate_per_minute", "rate_per_day", "plan_id")
values
  (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- findActiveByHash
select
  *
from "api_keys"
where "key_hash" = ?
  and "revoked_at" is null;

-- findActiveById
select
  *
from "api_keys"
where "id" = ?
  and "revoked_at" is null;

-- findActiveByIds
select
  *
from "api_keys"
where "id" in (?, ?)
  and "revoked_at" is null;

-- findByHash
select
  *
from "api_keys"
where "key_hash" = ?;

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
  "revoked_at" = ?
where "id" = ?;

-- setLimits
select
  *
from "api_keys"
where "revoked_at" is null;

update "api_keys"
set
  "rate_per_minute" = ?,
  "rate_per_day" = ?,
  "plan_id" = ?
where "id" = ?;

-- setSecret
select
  *
from "api_keys"
where "revoked_at" is null;

update "api_keys"
set
  "key_hash" = ?,
  "key_prefix" = ?
where "id" = ?;
