-- The SQL each method of store/repositories/results-repository.ts runs on SQLite,
-- for the arguments test/store/repositories/sql.test.ts gives it. Written by that test: do not edit;
-- `npm run sql:update` rewrites it.

-- findHeatResults
select
  *
from "heats"
where "id" in (?);

select
  *
from "heat_entries"
where "heat_id" in (?)
order by "heat_id", "reference_id";

select
  *
from "laps"
where "heat_id" in (?)
order by "heat_id", "lap_no";

select
  *
from "heat_results"
where "id" in (?);

select
  *
from "team_games"
where "id" in (?);

select
  *
from "athletes"
where "id" in (?);

select
  *
from "teams"
where "id" in (?, ?);

-- findHeatsResults
select
  *
from "heats"
where "id" in (?, ?);

select
  *
from "heat_entries"
where "heat_id" in (?)
order by "heat_id", "reference_id";

select
  *
from "laps"
where "heat_id" in (?)
order by "heat_id", "lap_no";

select
  *
from "heat_results"
where "id" in (?);

select
  *
from "team_games"
where "id" in (?);

select
  *
from "athletes"
where "id" in (?);

select
  *
from "teams"
where "id" in (?);

-- participantPlaces
select
  "athlete_id",
  "status",
  "place"
from "event_participants"
where "event_id" = ?;

-- eliminatedAthletes
select
  "athlete_id"
from "event_participants"
where "event_id" = ?
  and "status" = ?;

-- knownAthletes
select
  "id"
from "athletes"
where "id" in (?, ?);

-- entriesWithHeatStatus
select
  "heat_entries"."heat_id",
  "heat_entries"."athlete_id",
  "heats"."heat_status"
from "heat_entries"
inner join "heats" on "heats"."id" = "heat_entries"."heat_id"
where "heats"."event_id" = ?
order by "heats"."reference_id";

-- entriesOfEvent
select
  "heat_entries"."heat_id",
  "heat_entries"."athlete_id",
  "heat_entries"."position",
  "heat_entries"."heat_score"
from "heat_entries"
inner join "heats" on "heats"."id" = "heat_entries"."heat_id"
where "heats"."event_id" = ?;

-- findParticipants
select
  *
from "event_participants"
where "event_id" = ?
order by "reference_id";

select
  *
from "athletes"
where "id" in (?);

select
  *
from "teams"
where "id" in (?);

-- athletesByIds
select
  *
from "athletes"
where "id" in (?, ?);

-- teamsByIds
select
  *
from "teams"
where "id" in (?, ?);

-- entrantsOf (heatEntries)
select
  "id",
  "heat_id" as "owner_id",
  "athlete_id"
from "heat_entries"
where "heat_id" in (?, ?);

-- entrantsOf (eventParticipants)
select
  "id",
  "event_id" as "owner_id",
  "athlete_id"
from "event_participants"
where "event_id" in (?, ?);

-- heatsOfEntries
select
  "id",
  "heat_id"
from "heat_entries"
where "id" in (?, ?);

-- resultsHeld (events)
select
  "id"
from "events"
where "id" in (?, ?)
  and "event_status" = ?;

-- resultsHeld (heatResults)
select
  "id"
from "heat_results"
where "id" in (?, ?);
