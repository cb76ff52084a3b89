#!/usr/bin/env bash
# A tour of the routes against `npm start` (README.md, "A tour of the routes", shows this file from the
# line after this comment; test/docs/tour.test.ts runs it against a fresh server). Every id comes from the API.
KEY=altsports-demo-key
API=${HOST:-http://127.0.0.1:3000}/api/v1/public
json() { node -pe "const d = JSON.parse(require('fs').readFileSync(0)); $1"; }   # prints one field of JSON on stdin
curl() { command curl -sS -w '\n' "$@"; }   # each answer on lines of its own
step() { printf '\n=== %s\n' "$*"; }       # a header before each step's answers

step "1. The catalogue: 30 competitions with their markets"
curl -H "X-API-KEY: $KEY" $API/sports

step "2. Events: filter by competition, status (repeated, comma list, [] or [0] forms), dates that overlap"
curl -H "X-API-KEY: $KEY" "$API/events?competition=wsl&eventStatus=LIVE,NEXT"
curl -H "X-API-KEY: $KEY" "$API/events?startDate=2026-11-01&endDate=2026-11-30&sortOrder=DESC"
curl -H "X-API-KEY: $KEY" -i "$API/events?limit=20"      # Link: <...&cursor=...>; rel="next"
curl -H "X-API-KEY: $KEY" "$API/events?updatedSince=2026-11-21T12:00:00Z"

step "3. One event with its rounds, heats, round scores and teams (prefixed id or bare uuid)"
EVENT=$(curl -s -H "X-API-KEY: $KEY" "$API/events?competition=wsl&eventStatus=LIVE" | json 'd[0].id')
curl -H "X-API-KEY: $KEY" "$API/events/$EVENT"

step "4. The athletes entered in an event, by seed (400 for team sports: read the event's teams)"
curl -H "X-API-KEY: $KEY" "$API/events/$EVENT/participants"

step "5. One heat's score rows, by rank then seed; every heat in the event document links here (scoresUrl)"
HEAT=$(curl -s -H "X-API-KEY: $KEY" "$API/events/$EVENT" | json 'd.rounds[0].heats[0].scoresUrl')
curl -H "X-API-KEY: $KEY" "${API%/api/v1/public}$HEAT"

step "6. One odd type's outcomes: decimal, American and probability (percent), status, settlement."
#    The engine's prices are published as a bookmaker's: two decimals, rounded towards the house, within
#    MIN_DECIMAL_ODDS..MAX_DECIMAL_ODDS (1.01 to 1000), beside the model's probability ("odds":6.82,
#    "americanOdds":582,"probability":14.654); ?oddsFormat=fractional adds each price as 11/2, 6/4, ...
#    (fastestLap, eventWinner, secondPlace, holeShot, heatWinner, overUnder, multiOverUnder, headToHead,
#     shows, podiums, propBets, dreamTeam, eventExacta, heatExacta, raceTop10, raceTop5, raceTop3, teamMarkets)
SX=$(curl -s -H "X-API-KEY: $KEY" "$API/events?competition=spr&eventStatus=UPCOMING" | json 'd[0].id')
curl -H "X-API-KEY: $KEY" "$API/events/$SX/eventWinner"
curl -H "X-API-KEY: $KEY" "$API/events/$SX/eventExacta?exactasType=3"          # 2 exacta, 3 trifecta, 4 superfecta
curl -H "X-API-KEY: $KEY" "$API/events/$SX/overUnder?overUnderSubMarketType=finishingPosition"
curl -H "X-API-KEY: $KEY" "$API/events/$SX/teamMarkets"     # 404: Supercross does not offer teamMarkets

step "7. A same game parlay of odd ids (or outcomeIds) of one event, and the bet builder"
#    201 with the joint probability, odds, the independent product and the correlation factor; a 422 names each bad leg with a code
#    in metadata.legs (UNKNOWN_ODD, OTHER_EVENT, NOT_OPEN, DUPLICATE, SAME_MARKET, CONTRADICTS,
#    TOO_MANY_LEGS past SGP_MAX_LEGS, 12 by default), the bet builder's words for the same legs.
#    ?oddsFormat= adds price to the parlay and its legs.
#    Here: the favourite wins and another rider comes second.
WIN=$(curl -s -H "X-API-KEY: $KEY" "$API/events/$SX/eventWinner" | json 'd.eventWinner[0].id')
RIDER=$(curl -s -H "X-API-KEY: $KEY" "$API/events/$SX/eventWinner" | json 'd.eventWinner[0].athlete.id')
SECOND=$(curl -s -H "X-API-KEY: $KEY" "$API/events/$SX/secondPlace" | json "d.secondPlace.find((o) => o.athlete.id !== '$RIDER').id")
curl -H "X-API-KEY: $KEY" -H 'content-type: application/json' -X POST "$API/events/$SX/sgp" \
     --data "{\"oddIds\": [\"$WIN\", \"$SECOND\"]}"
# The bet builder: with the favourite to win as the leg, every outcome still offered says whether it
# combines (and the parlay's price with it) or why not (DUPLICATE, NOT_OPEN, TOO_MANY_LEGS,
# SAME_MARKET, CONTRADICTS)
curl -H "X-API-KEY: $KEY" -H 'content-type: application/json' -X POST "$API/events/$SX/sgp/options" \
     --data "{\"oddIds\": [\"$WIN\"]}"
# The favourite's price history: opening, closing (null while open), every price and status change
curl -H "X-API-KEY: $KEY" "$API/events/$SX/odds-history?outcomeId=$WIN"

step "8-17. Sport-specific routes: curling, table tennis, box lacrosse, 3-on-3 hockey and Jai Alai"
#    (gsoc, mltt, nll, 3ice, jaialai). Detail: teams, per-period scores (ends, games, quarters, periods, sets)
GSOC=$(curl -s -H "X-API-KEY: $KEY" "$API/events?competition=gsoc&eventStatus=LIVE" | json 'd[0].id')
curl -H "X-API-KEY: $KEY" "$API/events/gsoc/$GSOC"         # teams with hasHammer and stoneColor, ends with scores
curl -H "X-API-KEY: $KEY" "$API/events/gsoc/$GSOC/odds"    # moneyline, spread, total: the match and each end
MLTT=$(curl -s -H "X-API-KEY: $KEY" "$API/events?competition=mltt" | json 'd[0].id')
curl -H "X-API-KEY: $KEY" "$API/events/mltt/$MLTT/odds"    # match in games, each game in points
curl -H "X-API-KEY: $KEY" "$API/events/nll/$MLTT/odds"     # 400: a table tennis id on the lacrosse route, named
# The season's knockout bracket; its id is tourYearId in the 3ICE event document
ICE=$(curl -s -H "X-API-KEY: $KEY" "$API/events?competition=3ice" | json 'd[0].id')
BRACKET=$(curl -s -H "X-API-KEY: $KEY" "$API/events/3ice/$ICE" | json 'd.tourYearId')
curl -H "X-API-KEY: $KEY" "$API/events/3ice/bracket/$BRACKET"
# A Jai Alai card (a night's matches): its id <prefix>:<YYYY-MM-DD>_<text> is cardId in the event list
CARD=$(curl -s -H "X-API-KEY: $KEY" "$API/events?competition=jaialai" | json 'd[0].cardId')
curl -H "X-API-KEY: $KEY" "$API/events/jaialai/$CARD"
MATCH=$(curl -s -H "X-API-KEY: $KEY" "$API/events?competition=jaialai" | json 'd[0].id')
curl -H "X-API-KEY: $KEY" "$API/events/jaialai/$MATCH/odds"   # eventWinner, matchWinner, sets, futures

step "18, 19. Futures, and the odds of one tour's futures of one type"
curl -H "X-API-KEY: $KEY" $API/futures
TOUR=$(curl -s -H "X-API-KEY: $KEY" "$API/futures" | json "d.find((f) => f.id.startsWith('wsl:')).tourId")
curl -H "Authorization: Bearer $KEY" "$API/futures/wsl/tour/$TOUR/odds/winner"

# Errors are the specification's ServerErrorResponse, with a stable code to tell them apart
curl -H "X-API-KEY: $KEY" "$API/events?eventStatus=FINISHED"
# {"message":"Invalid query parameter \"eventStatus\": must be one of LIVE, UPCOMING, ...","statusCode":400,"code":"INVALID_PARAMETER",...}
