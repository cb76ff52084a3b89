import { type Static, Type } from 'typebox';
import {
  EVENT_STATUSES,
  GAME_TYPES,
  MARKET_STATUSES,
  MATCH_SIDES,
  OUTCOME_STATUSES,
  SETTLEMENTS,
} from '../domain/enumerations.ts';
import { STATUS_REASONS } from '../domain/markets/market-status.ts';
import { OUTCOME_SIDES } from '../domain/markets/selection.ts';
import { CompetitionKey, Nullable, Price, Ref, StringEnum, Timestamp } from './common.ts';
import { Selection, Settled } from './odds.ts';

/**
 * Documents of routes 8 to 17. Section 2.6 gives the curling event's opening fields, team, end and
 * score details; section 2.7 the Jai Alai item; section 2.8 the Jai Alai odds. The rest (table
 * tennis, lacrosse and 3-on-3 hockey documents, the odds of curling, table tennis and lacrosse, the
 * bracket) follows the same spirit and is recorded in docs/decisions.md.
 */

const Side = Nullable(StringEnum(MATCH_SIDES, { description: 'home or away' }));

export const ScoreDetail = Type.Object(
  {
    id: Type.String(),
    label: Type.String({ description: 'team name' }),
    teamId: Type.String(),
    score: Type.Number({ description: 'score in this period' }),
  },
  { $id: 'ScoreDetail', title: 'ScoreDetail' },
);
export type ScoreDetail = Static<typeof ScoreDetail>;

export const MatchTeamDetail = Type.Object(
  {
    id: Type.String({ description: 'this team in this match' }),
    teamId: Type.String({
      description: "the team's own id, identical in every match (the trading feed's participant id)",
    }),
    referenceId: Type.Integer(),
    name: Type.String(),
    shortName: Nullable(Type.String()),
    isHomeTeam: Type.Boolean(),
    score: Type.Number({ description: 'match score: goals or points, or games won in table tennis' }),
    hasHammer: Type.Optional(
      Type.Boolean({
        description:
          'curling: has the last-stone advantage now (derived: the team that scores an end gives it up; a blank end keeps it)',
      }),
    ),
    stoneColor: Type.Optional(Nullable(Type.String({ description: 'curling' }))),
  },
  { $id: 'MatchTeamDetail', title: 'MatchTeamDetail' },
);
export type MatchTeamDetail = Static<typeof MatchTeamDetail>;

export const PeriodDetail = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'for example "End 3", "Game 2", "Q4", "1st Half", "Overtime"' }),
    number: Type.Integer(),
    roundStatus: StringEnum(EVENT_STATUSES, { description: 'curling ends use UPCOMING, LIVE and COMPLETED only' }),
    startDate: Nullable(Timestamp),
    endDate: Nullable(Timestamp),
    scores: Type.Array(Ref(ScoreDetail)),
    winner: Side,
    winnerTeamId: Nullable(Type.String()),
    hammer: Type.Optional(
      Nullable(
        StringEnum(MATCH_SIDES, {
          description: 'curling: the side with the hammer in this end; null for ends not yet reached',
        }),
      ),
    ),
    gameType: Type.Optional(Nullable(StringEnum(GAME_TYPES, { description: 'table tennis' }))),
    homeLineup: Type.Optional(Nullable(Type.String({ description: 'table tennis: the home player(s) in this game' }))),
    awayLineup: Type.Optional(Nullable(Type.String())),
  },
  { $id: 'PeriodDetail', title: 'PeriodDetail' },
);
export type PeriodDetail = Static<typeof PeriodDetail>;

const headerFields = {
  id: Type.String({ description: '<sport_key>:<uuid>' }),
  numericEventId: Type.Integer(),
  numericSportId: Type.Integer(),
  sportKey: Type.String(),
  sportName: Type.String(),
  numericCompetitionId: Type.Integer(),
  competitionKey: CompetitionKey,
  competitionName: Type.String(),
  name: Type.String(),
  startDate: Timestamp,
  endDate: Timestamp,
  eventNumber: Type.Integer(),
  eventStatus: StringEnum(EVENT_STATUSES),
  eventLocation: Nullable(Type.String()),
  tourId: Type.String(),
  tourName: Type.String(),
  tourYearId: Nullable(Type.String()),
  year: Type.Integer(),
};

const matchFields = {
  homeScore: Type.Number(),
  awayScore: Type.Number(),
  winner: Side,
  winnerTeamId: Nullable(Type.String()),
  teams: Type.Array(Ref(MatchTeamDetail)),
  updatedAt: Timestamp,
};

const Periods = (description: string) => Type.Array(Ref(PeriodDetail), { description });

export const CurlingEvent = Type.Object(
  { ...headerFields, ...matchFields, ends: Periods('ends in play order, extra ends included') },
  { $id: 'CurlingEvent', title: 'CurlingEvent' },
);
export type CurlingEvent = Static<typeof CurlingEvent>;
export const TableTennisEvent = Type.Object(
  {
    ...headerFields,
    ...matchFields,
    games: Periods('games in play order; games not needed once the match is decided are CANCELLED'),
  },
  { $id: 'TableTennisEvent', title: 'TableTennisEvent' },
);
export type TableTennisEvent = Static<typeof TableTennisEvent>;
export const LacrosseEvent = Type.Object(
  { ...headerFields, ...matchFields, quarters: Periods('quarters, then overtime when played') },
  { $id: 'LacrosseEvent', title: 'LacrosseEvent' },
);
export type LacrosseEvent = Static<typeof LacrosseEvent>;
export const ThreeIceEvent = Type.Object(
  {
    ...headerFields,
    ...matchFields,
    periods: Periods('periods (halves), then overtime when played'),
    bracketUrl: Type.Optional(Type.String({ description: "path of the season's knockout bracket (route 15)" })),
    bracketRound: Nullable(
      Type.Integer({ description: "the game's round in the knockout bracket; null for a regular-season game" }),
    ),
    bracketSlot: Nullable(Type.Integer()),
  },
  { $id: 'ThreeIceEvent', title: 'ThreeIceEvent' },
);
export type ThreeIceEvent = Static<typeof ThreeIceEvent>;

const JaiAlaiSet = Type.Object({
  id: Type.String(),
  startDate: Nullable(Timestamp),
  endDate: Nullable(Timestamp),
  roundStatus: StringEnum(EVENT_STATUSES),
  name: Type.String(),
  scores: Type.Array(Ref(ScoreDetail)),
});

export const JaiAlaiMatch = Type.Object(
  {
    id: Type.String({ description: 'jaialai:<uuid>: the match, as its odds route takes it' }),
    cardId: Type.String(),
    numericEventId: Type.Integer(),
    name: Type.String(),
    startDate: Timestamp,
    endDate: Timestamp,
    eventNumber: Type.Integer(),
    eventType: Type.String({ description: 'Doubles or Singles' }),
    streamUrl: Nullable(Type.String({ format: 'uri' })),
    eventStatus: StringEnum(EVENT_STATUSES),
    matchStatus: Type.String({
      description: 'UPCOMING, LIVE or COMPLETED by the sets played (CANCELLED, POSTPONED, NEXT as the event)',
    }),
    onServeNow: Side,
    winner: Side,
    eventLocation: Nullable(Type.String()),
    sets: Type.Array(JaiAlaiSet),
    homeTeam: Nullable(Type.String({ description: 'the home pair, as player names' })),
    awayTeam: Nullable(Type.String()),
    homeTeamFinalScore: Type.Number({ description: 'points over all sets' }),
    awayTeamFinalScore: Type.Number(),
    homeTeamMatchScore: Type.Number({ description: 'sets won' }),
    awayTeamMatchScore: Type.Number(),
    teams: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), isHomeTeam: Type.Boolean() })),
    updatedAt: Timestamp,
  },
  { $id: 'JaiAlaiMatch', title: 'JaiAlaiMatch' },
);
export type JaiAlaiMatch = Static<typeof JaiAlaiMatch>;

/** Why an outcome or a market is not open, left out while it is. */
const OutcomeStatusReason = Type.Optional(
  StringEnum(STATUS_REASONS, { description: 'why it is not OPEN (absent when it is): see the odds route' }),
);
const MarketStatusReason = Type.Optional(
  StringEnum(STATUS_REASONS, {
    description:
      'why the market is not ACTIVE (absent when it is): OPERATOR, FEED_STALE (bet stop: the feed is silent about the LIVE event), SCORE_CHANGE (a score of the LIVE event just changed), EVENT_STARTED (priced before the event went LIVE), RESULTED',
  }),
);

export const TeamOutcome = Type.Object(
  {
    id: Type.String({ description: 'odd id, accepted by the parlay route' }),
    outcomeId: Type.String(),
    side: StringEnum(OUTCOME_SIDES),
    teamId: Nullable(Type.String()),
    name: Type.String(),
    selection: Selection,
    line: Nullable(
      Type.Number({ description: "the side's handicap on a spread, the line of a total; null on a moneyline" }),
    ),
    odds: Type.Number(),
    americanOdds: Type.Number(),
    price: Price,
    probability: Type.Number({ description: 'percent' }),
    status: StringEnum(OUTCOME_STATUSES),
    statusReason: OutcomeStatusReason,
    settlement: StringEnum(SETTLEMENTS),
    ...Settled,
    updatedAt: Timestamp,
  },
  { $id: 'TeamOutcome', title: 'TeamOutcome' },
);
export type TeamOutcome = Static<typeof TeamOutcome>;

export const TeamMarket = Type.Object(
  {
    marketId: Type.String(),
    referenceId: Type.Integer(),
    status: StringEnum(MARKET_STATUSES),
    statusReason: MarketStatusReason,
    line: Nullable(Type.Number({ description: 'spread: the home handicap; total: the line' })),
    selection: Type.Array(Ref(TeamOutcome)),
  },
  { $id: 'TeamMarket', title: 'TeamMarket' },
);
export type TeamMarket = Static<typeof TeamMarket>;

export const TeamOddsGroup = Type.Object(
  {
    roundId: Nullable(Type.String({ description: 'the period; null for the whole match' })),
    name: Type.String(),
    number: Nullable(Type.Integer()),
    moneyLine: Nullable(Ref(TeamMarket)),
    spread: Type.Array(Ref(TeamMarket)),
    total: Type.Array(Ref(TeamMarket)),
  },
  { $id: 'TeamOddsGroup', title: 'TeamOddsGroup' },
);
export type TeamOddsGroup = Static<typeof TeamOddsGroup>;

const oddsHeader = {
  eventId: Type.String(),
  publicId: Type.String(),
  numericEventId: Type.Integer(),
  eventStatus: StringEnum(EVENT_STATUSES),
  homeTeam: Nullable(Type.Object({ teamId: Type.String(), name: Type.String() })),
  awayTeam: Nullable(Type.Object({ teamId: Type.String(), name: Type.String() })),
  event: Ref(TeamOddsGroup, { description: 'the whole match' }),
};

export const CurlingOdds = Type.Object(
  { ...oddsHeader, ends: Type.Array(Ref(TeamOddsGroup)) },
  { $id: 'CurlingOdds', title: 'CurlingOdds' },
);
export type CurlingOdds = Static<typeof CurlingOdds>;
export const TableTennisOdds = Type.Object(
  { ...oddsHeader, games: Type.Array(Ref(TeamOddsGroup)) },
  { $id: 'TableTennisOdds', title: 'TableTennisOdds' },
);
export type TableTennisOdds = Static<typeof TableTennisOdds>;
export const LacrosseOdds = Type.Object(
  { ...oddsHeader, quarters: Type.Array(Ref(TeamOddsGroup)) },
  { $id: 'LacrosseOdds', title: 'LacrosseOdds' },
);
export type LacrosseOdds = Static<typeof LacrosseOdds>;

const JaiAlaiOutcome = Type.Object({
  id: Type.String({ description: 'odd id, accepted by the parlay route' }),
  outcomeId: Type.String(),
  probability: Type.Number({ description: 'percent' }),
  settlement: StringEnum(SETTLEMENTS),
  odds: Type.Number({ description: 'decimal' }),
  americanOdds: Type.Number(),
  price: Price,
  sets: Type.Number({
    description: "the outcome's line: sets on the match spread and total, points on a set's; 0 on a moneyline",
  }),
  homeLineup: Nullable(Type.String()),
  awayLineup: Nullable(Type.String()),
  type: Type.String({ description: 'HOME, AWAY, OVER, UNDER (WINNER on futures)' }),
  selection: Selection,
  status: StringEnum(OUTCOME_STATUSES),
  statusReason: OutcomeStatusReason,
  ...Settled,
});

export const JaiAlaiMarket = Type.Object(
  {
    marketId: Type.Integer(),
    id: Type.String(),
    status: StringEnum(MARKET_STATUSES),
    statusReason: MarketStatusReason,
    selection: Type.Array(JaiAlaiOutcome, { description: 'always an array (an empty one is [], never the text "[]")' }),
  },
  { $id: 'JaiAlaiMarket', title: 'JaiAlaiMarket' },
);
export type JaiAlaiMarket = Static<typeof JaiAlaiMarket>;

export const JaiAlaiOdds = Type.Object(
  {
    eventId: Type.String(),
    publicId: Type.String(),
    numericEventId: Type.Integer(),
    eventWinner: Type.Object({
      groupId: Type.Integer(),
      publicId: Type.String(),
      moneyLine: Nullable(Ref(JaiAlaiMarket)),
    }),
    matchWinner: Type.Object({
      groupId: Type.Integer(),
      publicId: Type.String(),
      moneyLine: Nullable(Ref(JaiAlaiMarket)),
      spread: Type.Array(Ref(JaiAlaiMarket)),
      total: Type.Array(Ref(JaiAlaiMarket)),
    }),
    sets: Type.Array(
      Type.Object({
        id: Nullable(Type.String()),
        groupId: Nullable(Type.Integer()),
        publicId: Type.String(),
        name: Nullable(Type.String()),
        moneyLine: Nullable(Ref(JaiAlaiMarket)),
        spread: Type.Array(Ref(JaiAlaiMarket)),
        total: Type.Array(Ref(JaiAlaiMarket)),
      }),
    ),
    futures: Nullable(
      Type.Object({ groupId: Type.Integer(), type: Type.String(), moneyLine: Type.Array(Ref(JaiAlaiMarket)) }),
    ),
  },
  { $id: 'JaiAlaiOdds', title: 'JaiAlaiOdds' },
);
export type JaiAlaiOdds = Static<typeof JaiAlaiOdds>;

const BracketTeam = Nullable(
  Type.Object({ teamId: Type.String(), name: Nullable(Type.String()), shortName: Nullable(Type.String()) }),
);

export const KnockoutBracket = Type.Object(
  {
    tourYearId: Type.String(),
    year: Type.Integer(),
    tourId: Type.String(),
    tourName: Type.String(),
    competition: CompetitionKey,
    rounds: Type.Array(
      Type.Object({
        roundNo: Type.Integer(),
        name: Type.String({ description: 'Quarterfinals, Semifinals, Final, Round of 16, ...' }),
        slots: Type.Array(
          Type.Object({
            slot: Type.Integer({
              description: 'slots 2s-1 and 2s send their winners to slot s of the next round (home and away)',
            }),
            eventId: Nullable(Type.String({ description: 'the game, once scheduled' })),
            name: Nullable(Type.String()),
            startDate: Nullable(Timestamp),
            eventStatus: Nullable(StringEnum(EVENT_STATUSES)),
            homeTeam: BracketTeam,
            awayTeam: BracketTeam,
            homeScore: Nullable(Type.Number()),
            awayScore: Nullable(Type.Number()),
            winnerTeamId: Nullable(Type.String()),
          }),
        ),
      }),
    ),
    championTeamId: Nullable(Type.String()),
    champion: BracketTeam,
    updatedAt: Timestamp,
  },
  { $id: 'KnockoutBracket', title: 'KnockoutBracket' },
);
export type KnockoutBracket = Static<typeof KnockoutBracket>;

export const SPORT_SHARED_SCHEMAS = [
  ScoreDetail,
  MatchTeamDetail,
  PeriodDetail,
  CurlingEvent,
  TableTennisEvent,
  LacrosseEvent,
  ThreeIceEvent,
  JaiAlaiMatch,
  TeamOutcome,
  TeamMarket,
  TeamOddsGroup,
  CurlingOdds,
  TableTennisOdds,
  LacrosseOdds,
  JaiAlaiMarket,
  JaiAlaiOdds,
  KnockoutBracket,
];
