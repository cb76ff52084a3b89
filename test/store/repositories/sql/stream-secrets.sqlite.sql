-- The SQL each method of store/repositories/stream-secrets-repository.ts runs on SQLite,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- list
select
  *
from "stream_token_secrets"
order by "created_at";

-- rotate
begin;

update "stream_token_secrets"
set
  "retired_at" = ?
where "retired_at" is null;

delete from "stream_token_secrets"
where "retired_at" < ?;

insert into "stream_token_secrets" ("id", "secret", "created_at", "retired_at")
values
  (?, ?, ?, ?);

commit;
