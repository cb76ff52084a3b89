-- The SQL each method of store/repositories/results-repository.ts runs on PostgreSQL,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- findHeatResults
select
  *
from "heats"
where "id" in ($1);

select
  *
from "heat_entries"
where "heat_id" in ($1)
order by "heat_id", "reference_id";

select
  *
from "laps"
where "heat_id" in ($1)
order by "heat_id", "lap_no";

select
  *
from "heat_results"
where "id" in ($1);

select
  *
from "team_games"
where "id" in ($1);

select
  *
from "athletes"
where "id" in ($1);

select
  *
from "teams"
where "id" in ($1, $2);

-- findHeatsResults
select
  *
from "heats"
where "id" in ($1, $2);

select
  *
from "heat_entries"
where "heat_id" in ($1)
order by "heat_id", "reference_id";

select
  *
from "laps"
where "heat_id" in ($1)
order by "heat_id", "lap_no";

select
  *
from "heat_results"
where "id" in ($1);

select
  *
from "team_games"
where "id" in ($1);

select
  *
from "athletes"
where "id" in ($1);

select
  *
from "teams"
where "id" in ($1);

-- participantPlaces
select
  "athlete_id",
  "status",
  "place"
from "event_participants"
where "event_id" = $1;

-- eliminatedAthletes
select
  "athlete_id"
from "event_participants"
where "event_id" = $1
  and "status" = $2;

-- knownAthletes
select
  "id"
from "athletes"
where "id" in ($1, $2);

-- entriesWithHeatStatus
select
  "heat_entries"."heat_id",
  "heat_entries"."athlete_id",
  "heats"."heat_status"
from "heat_entries"
inner join "heats" on "heats"."id" = "heat_entries"."heat_id"
where "heats"."event_id" = $1
order by "heats"."reference_id";

-- entriesOfEvent
select
  "heat_entries"."heat_id",
  "heat_entries"."athlete_id",
  "heat_entries"."position",
  "heat_entries"."heat_score"
from "heat_entries"
inner join "heats" on "heats"."id" = "heat_entries"."heat_id"
where "heats"."event_id" = $1;

-- findParticipants
select
  *
from "event_participants"
where "event_id" = $1
order by "reference_id";

select
  *
from "athletes"
where "id" in ($1);

select
  *
from "teams"
where "id" in ($1);

-- athletesByIds
select
  *
from "athletes"
where "id" in ($1, $2);

-- teamsByIds
select
  *
from "teams"
where "id" in ($1, $2);

-- entrantsOf (heatEntries)
select
  "id",
  "heat_id" as "owner_id",
  "athlete_id"
from "heat_entries"
where "heat_id" in ($1, $2);

-- entrantsOf (eventParticipants)
select
  "id",
  "event_id" as "owner_id",
  "athlete_id"
from "event_participants"
where "event_id" in ($1, $2);

-- heatsOfEntries
select
  "id",
  "heat_id"
from "heat_entries"
where "id" in ($1, $2);

-- resultsHeld (events)
select
  "id"
from "events"
where "id" in ($1, $2)
  and "event_status" = $3;

-- resultsHeld (heatResults)
select
  "id"
from "heat_results"
where "id" in ($1, $2);
