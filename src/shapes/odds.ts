import { type Static, type TArray, type TOptional, type TProperties, type TUnsafe, Type } from 'typebox';
import {
  EXACTAS_TYPES,
  HEAT_MARKET_STATUSES,
  ODD_TYPES,
  type OddType,
  OUTCOME_STATUSES,
  OVER_UNDER_SUB_MARKET_TYPES,
  RESULT_STATUSES,
  SETTLEMENTS,
} from '../domain/enumerations.ts';
import { STATUS_REASONS } from '../domain/markets/market-status.ts';
import { OPTION_REASONS } from '../domain/markets/parlay-legs.ts';
import { OVER_UNDER_SIDES } from '../domain/markets/selection.ts';
import { SETTLEMENT_REASONS } from '../domain/markets/settlement-reason.ts';
import { Nullable, OddsFormatParam, Price, Ref, StringEnum, Timestamp } from './common.ts';
import { Athlete, ParticipantTeam } from './results.ts';

/** Route 6's response (DESIGN decision 7) and route 7's (decision 8). */

const AthleteRef = Nullable(Ref(Athlete));
const Participants = Type.Array(Ref(Athlete), {
  description: 'the athletes, in the order the outcome names them',
});
const Probability = Type.Number({ description: 'percent: 49.4 means 49.4%' });

const Prices = {
  odds: Type.Number({
    description:
      'decimal odds: as fed, or as the engine publishes its prices (within MIN_DECIMAL_ODDS..MAX_DECIMAL_ODDS, two decimals by default, rounded towards the house; never more than 100 / probability)',
  }),
  americanOdds: Type.Integer({ description: 'American odds, rounded towards the house' }),
  probability: Type.Number({
    description:
      "percent: 49.4 means 49.4%; the model's (margin included) for a price the engine computed, 100 / odds for a fed one",
  }),
};

/** How an outcome settled, besides `settlement`: on every outcome that carries a settlement. */
export const Settled = {
  settlementReason: Type.Optional(
    StringEnum(SETTLEMENT_REASONS, {
      description:
        'why it settled so, once settled: RESULT, DEAD_HEAT, NON_RUNNER, EVENT_CANCELLED, EVENT_ABANDONED, RESULT_CHANGED, OPERATOR',
    }),
  ),
  deadHeatFactor: Type.Number({ description: 'share of the stake paid at full odds after a dead heat; 1 otherwise' }),
  settlementStatus: Type.Optional(
    StringEnum(RESULT_STATUSES, {
      description:
        'once settled: PROVISIONAL while the result it was read from is provisional (it may still change), else OFFICIAL',
    }),
  ),
  settledAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'once settled: server time of the write that settled it (moved when a changed result settles it again)',
    }),
  ),
};

const Priced = {
  id: Type.String({ description: 'odd id: pass it (or outcomeId) to the parlay route' }),
  outcomeId: Type.String({ description: 'the numeric reference id as text; the parlay route accepts it as well' }),
  referenceId: Type.Integer(),
  marketId: Type.String(),
  ...Prices,
  price: Price,
  status: StringEnum(OUTCOME_STATUSES),
  statusReason: Type.Optional(
    StringEnum(STATUS_REASONS, {
      description:
        'why it is not OPEN: OPERATOR, FEED_STALE (bet stop: the feed is silent about the LIVE event), SCORE_CHANGE (a score of the LIVE event just changed), EVENT_STARTED (priced before the event went LIVE), RESULTED',
    }),
  ),
  settlement: StringEnum(SETTLEMENTS),
  ...Settled,
  updatedAt: Timestamp,
};

/** The priced and settled part of every outcome. */
const PricedOutcome = Type.Object(Priced);
export type PricedOutcome = Static<typeof PricedOutcome>;

/** What a bet slip shows for an outcome; the parlay's legs and the bet builder's options carry the same. */
export const Selection = Type.String({
  description:
    'what the outcome backs, in words a bet slip can show: "X to win the event", "X to win Heat 3", "X fastest lap", "X holeshot", "X to finish 2nd", "X top 3", "Exacta: X 1st, Y 2nd", "X to beat Y", "X finishing position under 3.5", ...; the parlay legs and bet builder options give the same text',
});

const item = <Fields extends TProperties>(id: string, description: string, fields: Fields) =>
  Type.Object({ ...Priced, selection: Selection, ...fields }, { $id: id, title: id, description });

const Position = Nullable(Type.Integer({ description: 'display order' }));
const HeatFields = {
  roundId: Nullable(Type.String()),
  roundName: Nullable(Type.String()),
  roundNo: Nullable(Type.Integer()),
  heatId: Nullable(Type.String()),
  heatName: Nullable(Type.String()),
  heatNo: Nullable(Type.Integer()),
  marketStatus: StringEnum(HEAT_MARKET_STATUSES),
};

export const AthleteOdd = item(
  'AthleteOdd',
  'an outcome backing one athlete: eventWinner, secondPlace, fastestLap, holeShot, shows, podiums, raceTop3/5/10',
  {
    position: Position,
    heatId: Nullable(Type.String({ description: 'the heat, for heat-level fastestLap and holeShot' })),
    athlete: AthleteRef,
  },
);
export type AthleteOdd = Static<typeof AthleteOdd>;
/** Exotic markets list their likeliest combinations; any other is priced on request (query athleteIds). */
const ExoticCounts = {
  combinations: Type.Optional(
    Type.Integer({ description: 'exactas only: how many ordered combinations of this type the field has' }),
  ),
  combinationsShown: Type.Optional(
    Type.Integer({ description: 'exactas only: how many of them the market lists (the likeliest)' }),
  ),
  onRequest: Type.Optional(
    Type.Boolean({
      description:
        'true for a combination asked for by athleteIds that the market does not list: priced from the event model with its margin, not a parlay leg',
    }),
  ),
};

export const HeatOdd = item(
  'HeatOdd',
  'heatWinner and heatExacta: a flat list of outcomes, each with its round and heat',
  {
    position: Position,
    exactasType: Type.Optional(Type.Integer({ description: 'heatExacta only' })),
    ...HeatFields,
    athlete: Type.Optional(AthleteRef),
    participants: Type.Optional(Participants),
    ...ExoticCounts,
  },
);
export type HeatOdd = Static<typeof HeatOdd>;
export const ExactaOdd = item(
  'ExactaOdd',
  'eventExacta: the first places in order (exacta 2, trifecta 3, superfecta 4)',
  {
    position: Position,
    exactasType: Type.Integer(),
    participants: Participants,
    ...ExoticCounts,
  },
);
export type ExactaOdd = Static<typeof ExactaOdd>;
export const OverUnderOdd = item('OverUnderOdd', 'overUnder and multiOverUnder: one side of a line', {
  overUnderSubMarketType: StringEnum(OVER_UNDER_SUB_MARKET_TYPES),
  line: Type.Number(),
  side: StringEnum(OVER_UNDER_SIDES),
  heatId: Nullable(Type.String()),
  athlete: Type.Optional(AthleteRef),
  athletes: Type.Optional(Participants),
});
export type OverUnderOdd = Static<typeof OverUnderOdd>;
export const PropBetOdd = item('PropBetOdd', 'propBets: an outcome of a proposition', {
  proposition: Nullable(Type.String()),
  name: Nullable(Type.String()),
  betStatus: StringEnum(OUTCOME_STATUSES),
  athlete: AthleteRef,
});
export type PropBetOdd = Static<typeof PropBetOdd>;
export const DreamTeamOdd = item(
  'DreamTeamOdd',
  "dreamTeam: a team of athletes; it wins when its athletes' finishing positions add up to the lowest total",
  {
    position: Position,
    name: Nullable(Type.String()),
    participants: Participants,
  },
);
export type DreamTeamOdd = Static<typeof DreamTeamOdd>;
export const TeamMarketOdd = item('TeamMarketOdd', 'teamMarkets: an outcome backing a team', {
  name: Nullable(Type.String()),
  team: Nullable(Ref(ParticipantTeam)),
  heatId: Nullable(Type.String()),
});
export type TeamMarketOdd = Static<typeof TeamMarketOdd>;

export const HeadToHeadSide = Type.Object(
  {
    id: Type.String({ description: 'odd id of this side' }),
    outcomeId: Type.String(),
    selection: Selection,
    position: Position,
    ...Prices,
    price: Price,
    status: StringEnum(OUTCOME_STATUSES),
    statusReason: Type.Optional(StringEnum(STATUS_REASONS, { description: 'why it is not OPEN' })),
    settlement: StringEnum(SETTLEMENTS),
    ...Settled,
    athlete: AthleteRef,
  },
  { $id: 'HeadToHeadSide', title: 'HeadToHeadSide' },
);
export type HeadToHeadSide = Static<typeof HeadToHeadSide>;
export const HeadToHeadOdd = Type.Object(
  {
    id: Type.String({ description: 'market id' }),
    outcomeId: Type.String(),
    referenceId: Type.Integer(),
    heatId: Nullable(Type.String()),
    eventParticipant1: Ref(HeadToHeadSide),
    eventParticipant2: Ref(HeadToHeadSide),
    winnerParticipantId: Nullable(Type.String({ description: "the winning side's athlete id once settled" })),
    betStatus: StringEnum(OUTCOME_STATUSES),
    updatedAt: Timestamp,
  },
  { $id: 'HeadToHeadOdd', title: 'HeadToHeadOdd', description: 'headToHead: two athletes; each side is an odd id' },
);
export type HeadToHeadOdd = Static<typeof HeadToHeadOdd>;

/** The item of each odd type. */
const ITEM_OF = {
  fastestLap: AthleteOdd,
  eventWinner: AthleteOdd,
  secondPlace: AthleteOdd,
  holeShot: AthleteOdd,
  heatWinner: HeatOdd,
  overUnder: OverUnderOdd,
  multiOverUnder: OverUnderOdd,
  headToHead: HeadToHeadOdd,
  shows: AthleteOdd,
  podiums: AthleteOdd,
  propBets: PropBetOdd,
  dreamTeam: DreamTeamOdd,
  eventExacta: ExactaOdd,
  heatExacta: HeatOdd,
  raceTop10: AthleteOdd,
  raceTop5: AthleteOdd,
  raceTop3: AthleteOdd,
  teamMarkets: TeamMarketOdd,
} as const;

/** The outcomes of one odd type, under its own name; the items are named schemas. */
type OddTypeMembers = {
  [T in OddType]: TOptional<TArray<TUnsafe<Static<(typeof ITEM_OF)[T]>>>>;
};
const oddTypeMembers = Object.fromEntries(
  ODD_TYPES.map((t) => [
    t,
    Type.Optional(Type.Array(Ref(ITEM_OF[t]), { description: `present when oddType is ${t}` })),
  ]),
) as OddTypeMembers;

export const EventOdds = Type.Object(
  {
    eventId: Type.String({ description: '<sport_key>:<uuid>' }),
    publicId: Type.String(),
    numericEventId: Type.Integer(),
    oddType: StringEnum(ODD_TYPES),
    ...oddTypeMembers,
  },
  {
    $id: 'EventOdds',
    title: 'EventOdds',
    description: 'one odd type of an event: the outcomes are under the member named by oddType',
  },
);
export type EventOdds = Static<typeof EventOdds>;
/** The items of one odd type, as EventOdds carries them. */
export type OddItem<T extends OddType> = Static<(typeof ITEM_OF)[T]>;

export const EventOddsQuery = Type.Object({
  oddsFormat: Type.Optional(OddsFormatParam),
  exactasType: Type.Optional(
    Type.Unsafe<number>({
      type: 'integer',
      enum: [...EXACTAS_TYPES],
      description: 'eventExacta and heatExacta: 2 exacta, 3 trifecta, 4 superfecta; all when absent',
    }),
  ),
  overUnderSubMarketType: Type.Optional(
    StringEnum(OVER_UNDER_SUB_MARKET_TYPES, {
      description: 'overUnder and multiOverUnder: one sub-market; all when absent',
    }),
  ),
  athleteIds: Type.Optional(
    Type.String({
      maxLength: 600,
      pattern: '^[^,]+(,[^,]+){1,3}$',
      description:
        'eventExacta and heatExacta: athlete ids in finishing order, comma-separated (2 to 4): only that combination, priced even when the market does not list it',
    }),
  ),
});
export type EventOddsQuery = Static<typeof EventOddsQuery>;

export const SgpLeg = Type.Object(
  {
    oddId: Type.String(),
    oddType: StringEnum(ODD_TYPES),
    selection: Type.String({ description: "what the leg backs, in words: the outcome's selection on the odds routes" }),
    probability: Probability,
    odds: Type.Number({ description: 'decimal odds' }),
    price: Price,
  },
  { $id: 'SgpLeg', title: 'SgpLeg' },
);
export type SgpLeg = Static<typeof SgpLeg>;

export const SgpResponse = Type.Object(
  {
    eventId: Type.String(),
    legs: Type.Array(Ref(SgpLeg)),
    probability: Type.Number({
      description:
        "percent: the joint probability that every leg wins, with the margin: a published bet's own price, else the winner market's overround once",
    }),
    odds: Type.Number({
      description:
        'decimal odds of the parlay, published as the engine publishes its prices: within MIN_DECIMAL_ODDS..MAX_DECIMAL_ODDS (a longer shot at MAX_DECIMAL_ODDS with its probability, never 0), on PRICE_LADDER, rounded towards the house',
    }),
    americanOdds: Type.Integer(),
    price: Price,
    combinedOdds: Type.Number({ description: 'the same as odds (the provider SDK reads this name)' }),
    independentProbability: Type.Number({
      description: "percent: the product of the legs' probabilities, as if they were independent",
    }),
    correlationFactor: Type.Number({
      description: 'probability / independentProbability: above 1 when the legs tend to win together',
    }),
  },
  { $id: 'SgpResponse', title: 'SgpResponse' },
);
export type SgpResponse = Static<typeof SgpResponse>;

export const SgpOption = Type.Object(
  {
    oddId: Type.String({ description: 'odd id of the outcome' }),
    oddType: StringEnum(ODD_TYPES),
    marketId: Type.String(),
    selection: Type.String({ description: 'what the outcome backs, in words: its selection on the odds routes' }),
    combinable: Type.Boolean({
      description: 'whether the legs and this outcome make a parlay the parlay route prices',
    }),
    reason: Type.Optional(
      StringEnum(OPTION_REASONS, {
        description:
          'when not combinable: DUPLICATE (a leg already), NOT_OPEN (suspended), TOO_MANY_LEGS (the legs are at SGP_MAX_LEGS), SAME_MARKET (another outcome of a single-winner market that is a leg), CONTRADICTS (cannot win with the legs)',
      }),
    ),
    probability: Type.Optional(
      Type.Number({ description: 'when combinable: percent, the parlay of the legs and this outcome' }),
    ),
    odds: Type.Optional(Type.Number({ description: 'when combinable: decimal odds of that parlay' })),
    price: Price,
  },
  { $id: 'SgpOption', title: 'SgpOption' },
);
export type SgpOption = Static<typeof SgpOption>;

export const SgpOptionsResponse = Type.Object(
  {
    eventId: Type.String(),
    legs: Type.Array(Ref(SgpLeg)),
    probability: Nullable(
      Type.Number({
        description: "percent: the legs' parlay (one leg: its own); null without legs",
      }),
    ),
    odds: Nullable(Type.Number({ description: 'decimal odds of the legs; null without legs' })),
    price: Price,
    options: Type.Array(Ref(SgpOption), {
      description: 'every outcome of the event still offered (open or suspended), in market order',
    }),
  },
  { $id: 'SgpOptionsResponse', title: 'SgpOptionsResponse' },
);
export type SgpOptionsResponse = Static<typeof SgpOptionsResponse>;

export const ODDS_SHARED_SCHEMAS = [
  AthleteOdd,
  HeatOdd,
  ExactaOdd,
  OverUnderOdd,
  PropBetOdd,
  DreamTeamOdd,
  TeamMarketOdd,
  HeadToHeadSide,
  HeadToHeadOdd,
  EventOdds,
  SgpLeg,
  SgpResponse,
  SgpOption,
  SgpOptionsResponse,
];
