-- The SQL each method of store/repositories/odds-history-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- record
insert into odds_history (odd_id, decimal_odds, probability, status, status_reason, changed_at, is_first)
select
  o.id,
  o.decimal_odds,
  o.probability,
  o.status,
  o.status_reason,
  o.updated_at,
  case when last.id is null then 1 else 0 end
from (
  select
    id,
    decimal_odds,
    probability,
    status,
    status_reason,
    updated_at,
    (
      select
        max(h.id)
      from odds_history h
      where h.odd_id = odds.id
    ) as last_id
  from odds
  where id in ($1, $2)
) o
left join odds_history last on last.id = o.last_id
where last.id is null
  or last.decimal_odds <> o.decimal_odds
  or last.status <> o.status;

-- changesOf
select
  "odd_id",
  "decimal_odds",
  "probability",
  "status",
  "status_reason",
  "changed_at",
  "is_first"
from "odds_history"
where "odd_id" in ($1, $2)
order by "odd_id", "id";

-- changesOf (a window)
select
  "odd_id",
  "decimal_odds",
  "probability",
  "status",
  "status_reason",
  "changed_at",
  "is_first"
from "odds_history"
where "odd_id" in ($1, $2)
  and "changed_at" >= $3
  and "changed_at" < $4
order by "odd_id", "id";

-- firstOf
select
  h.odd_id as "oddId",
  h.decimal_odds as "decimalOdds",
  h.probability,
  h.status,
  h.status_reason as "statusReason",
  h.changed_at as "changedAt",
  h.is_first as "isFirst"
from odds_history h
where h.id in (
  select
    (
      select
        min(f.id)
      from odds_history f
      where f.odd_id = o.id
    )
  from odds o
  where o.id in ($1, $2)
);

-- lastOpenOf
select
  h.odd_id as "oddId",
  h.decimal_odds as "decimalOdds",
  h.probability,
  h.status,
  h.status_reason as "statusReason",
  h.changed_at as "changedAt",
  h.is_first as "isFirst"
from odds_history h
where h.id in (
  select
    (
      select
        max(f.id)
      from odds_history f
      where f.odd_id = o.id
        and f.status = 'OPEN'
    )
  from odds o
  where o.id in ($1, $2)
);

-- prune
delete from odds_history
where changed_at < $1
  and id < (
    select
      max(h.id)
    from odds_history h
    where h.odd_id = odds_history.odd_id
  )
  and id <> coalesce( (
    select
      max(h.id)
    from odds_history h
    where h.odd_id = odds_history.odd_id
      and h.status = 'OPEN'
  ), 0);
