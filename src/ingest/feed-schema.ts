import { type Static, Type } from 'typebox';
import { COMPETITION_KEYS } from '../domain/competitions.ts';
import {
  EVENT_STATUSES,
  EXACTAS_TYPES,
  FUTURE_TYPES,
  GAME_TYPES,
  GENDERS,
  LAP_STATUSES,
  MATCH_SIDES,
  ODD_TYPES,
  OUTCOME_STATUSES,
  OVER_UNDER_SUB_MARKET_TYPES,
  PARTICIPANT_STATUSES,
  RESULT_STATUSES,
  SETTLEMENTS,
  TEAM_MARKET_TYPES,
} from '../domain/enumerations.ts';
import { STATUS_REASONS } from '../domain/markets/market-status.ts';
import { OUTCOME_SIDES } from '../domain/markets/selection.ts';
import { MAX_DECIMAL_ODDS } from '../domain/odds-format.ts';

/**
 * The feed document: raw facts keyed by stable ids, upserted idempotently (DESIGN, "Input side").
 * Every collection is optional; items carry `updatedAt`, or inherit the document's, or the time of
 * ingest. This one declaration validates the admin route and `altsports import`, and is published in
 * the OpenAPI document.
 */

const Id = Type.String({
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.:\\-]*$',
  description: 'stable id from the feed',
});
const PublicOrBareUuid = Type.String({
  pattern: '^([a-z0-9]+:)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: '`<sport_key>:<uuid>` or a bare uuid',
});
const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 date-time with a zone' });
const Text = (maxLength = 200) => Type.String({ minLength: 1, maxLength });
const OptionalText = (maxLength = 200) => Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]));
const ReferenceId = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'numeric id; assigned by the store when absent' }),
);
const UpdatedAt = Type.Optional(Timestamp);
/** One of `values`, typed as one of them; the JSON Schema is `{ type, enum, description? }`. */
const Enum = <const Values extends readonly (string | number)[]>(values: Values, description?: string) =>
  Type.Unsafe<Values[number]>({
    ...(typeof values[0] === 'number' ? { type: 'integer' } : { type: 'string' }),
    enum: [...values],
    ...(description ? { description } : {}),
  });
const Competition = Type.Unsafe<string>({
  type: 'string',
  enum: [...COMPETITION_KEYS],
  description: 'competition key',
});
const EventStatus = Enum(EVENT_STATUSES);
/** A result fed before it is official settles PROVISIONAL; its later changes re-settle. */
const ResultStatus = Type.Optional(
  Enum(
    RESULT_STATUSES,
    'PROVISIONAL while the result may still change (its settlements are published PROVISIONAL), OFFICIAL once final; OFFICIAL when absent',
  ),
);
/** An operator's assertion that the item changes a result already fed (refused when there is none). */
const Correction = (what: string) =>
  Type.Optional(
    Type.Boolean({
      description: `true: this item corrects ${what} already in the store; a 400 when there is none. Any changed result re-settles, flagged or not`,
    }),
  );
const Gender = Type.Optional(Type.Union([Enum(GENDERS), Type.Null()]));

export const FeedTour = Type.Object(
  { id: Id, referenceId: ReferenceId, competition: Competition, name: Text(), gender: Gender, updatedAt: UpdatedAt },
  { additionalProperties: false },
);

export const FeedTourYear = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    tourId: Id,
    year: Type.Integer({ minimum: 1900, maximum: 2200 }),
    startDate: Type.Optional(Type.Union([Timestamp, Type.Null()])),
    endDate: Type.Optional(Type.Union([Timestamp, Type.Null()])),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false },
);

export const FeedTeam = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    competition: Competition,
    name: Text(),
    shortName: OptionalText(40),
    logo: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2000 }), Type.Null()])),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false },
);

export const FeedAthlete = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    firstName: Type.String({ maxLength: 100 }),
    middleName: Type.Optional(Type.String({ maxLength: 100 })),
    lastName: Type.String({ maxLength: 100 }),
    nationality: OptionalText(60),
    stance: OptionalText(20),
    teamId: Type.Optional(Type.Union([Id, Type.Null()])),
    hometown: OptionalText(),
    height: Type.Optional(
      Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 300 }), Type.Null()], { description: 'centimetres' }),
    ),
    weight: Type.Optional(
      Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 500 }), Type.Null()], { description: 'kilograms' }),
    ),
    gender: Gender,
    weightClass: OptionalText(60),
    dob: Type.Optional(Type.Union([Type.String({ format: 'date' }), Timestamp, Type.Null()])),
    providerId: OptionalText(),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false },
);

export const FeedEventTeam = Type.Object(
  {
    teamId: Id,
    isHomeTeam: Type.Boolean(),
    stoneColor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description: 'curling: the colour of the stones the team throws in this match',
      }),
    ),
    firstHammer: Type.Optional(
      Type.Boolean({
        description:
          'curling: the team has the hammer (last stone) in the first end; hasHammer is derived from it and the end scores',
      }),
    ),
  },
  { additionalProperties: false },
);

/** `<prefix>:<YYYY-MM-DD>_<text>`, the prefix without a colon: the id of a Jai Alai card (route 16). */
export const JAI_ALAI_CARD_ID_PATTERN = '^[A-Za-z0-9_-]+:[0-9]{4}-[0-9]{2}-[0-9]{2}_[A-Za-z0-9][A-Za-z0-9._-]*$';

export const FeedEvent = Type.Object(
  {
    id: PublicOrBareUuid,
    referenceId: ReferenceId,
    competition: Competition,
    tourId: Id,
    tourYearId: Type.Optional(Type.Union([Id, Type.Null()])),
    name: Text(),
    startDate: Timestamp,
    endDate: Timestamp,
    eventNumber: Type.Integer({ minimum: 0, maximum: 100_000 }),
    eventStatus: EventStatus,
    eventLocation: OptionalText(),
    eventLocationNumericId: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    eventLocationGroup: OptionalText(),
    providerId: OptionalText(),
    seasonType: OptionalText(40),
    teams: Type.Optional(Type.Array(FeedEventTeam, { maxItems: 64 })),
    cardId: Type.Optional(
      Type.Union([Type.String({ pattern: JAI_ALAI_CARD_ID_PATTERN, maxLength: 128 }), Type.Null()], {
        description:
          'Jai Alai: the card (night of matches) this match is on, `<prefix>:<YYYY-MM-DD>_<text>`; derived from the start date and location when absent',
      }),
    ),
    eventType: OptionalText(60),
    streamUrl: Type.Optional(
      Type.Union([Type.String({ format: 'uri', maxLength: 2000 }), Type.Null()], {
        description: 'Jai Alai: where the match streams',
      }),
    ),
    onServe: Type.Optional(
      Type.Union([Enum(MATCH_SIDES), Type.Null()], {
        description: 'Jai Alai: the side serving now',
      }),
    ),
    bracketRound: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 10 }), Type.Null()], {
        description: "3-on-3 hockey: the game's round in its season's knockout bracket (1 = first round)",
      }),
    ),
    bracketSlot: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 512 }), Type.Null()], {
        description:
          "3-on-3 hockey: the game's position in its bracket round (1-based); slots 2s-1 and 2s feed slot s of the next round",
      }),
    ),
    resultStatus: ResultStatus,
    abandoned: Type.Optional(
      Type.Boolean({
        description:
          'true with eventStatus CANCELLED: the event was abandoned once under way; its markets void with settlementReason EVENT_ABANDONED (false when absent)',
      }),
    ),
    correction: Correction('the result (places, score) of an event COMPLETED'),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false },
);

export const FeedRound = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    eventId: PublicOrBareUuid,
    roundName: Text(),
    roundNo: Type.Integer({ minimum: 0, maximum: 1000 }),
    roundStatus: EventStatus,
    startDate: Type.Optional(Type.Union([Timestamp, Type.Null()])),
    endDate: Type.Optional(Type.Union([Timestamp, Type.Null()])),
    providerId: OptionalText(),
    gameType: Type.Optional(
      Type.Union([Enum(GAME_TYPES), Type.Null()], {
        description: 'table tennis: a singles or doubles game',
      }),
    ),
    homeLineup: OptionalText(200),
    awayLineup: OptionalText(200),
    updatedAt: UpdatedAt,
  },
  {
    additionalProperties: false,
    description:
      'a round of an event; in team matches, one period: quarter, period, end, game or set (its team scores are roundScores)',
  },
);

export const FeedHeat = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    roundId: Id,
    heatName: Text(),
    heatNo: Type.Integer({ minimum: 0, maximum: 10_000 }),
    heatStatus: EventStatus,
    startDate: Type.Optional(Type.Union([Timestamp, Type.Null()])),
    endDate: Type.Optional(Type.Union([Timestamp, Type.Null()])),
    providerId: OptionalText(),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false },
);

export const FeedRoundScore = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    roundId: Id,
    teamId: Id,
    goals: Type.Integer({ minimum: 0, maximum: 1000 }),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false },
);

const Score = (maximum: number, description: string) =>
  Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum }), Type.Null()], { description }));
const Seconds = (description: string) =>
  Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1_000_000 }), Type.Null()], { description }));
const Count = (maximum: number, description: string) =>
  Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum }), Type.Null()], { description }));

export const FeedEventParticipant = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    eventId: PublicOrBareUuid,
    athleteId: Id,
    seedNo: Count(10_000, 'seed in the event; null when unseeded'),
    status: Type.Optional(Enum(PARTICIPANT_STATUSES, 'ACTIVE when absent')),
    place: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 10_000 }), Type.Null()], {
        description:
          'final standing in the event once it completes (athletes who tie share a place); null when not classified. Event markets settle from it',
      }),
    ),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false, description: 'an athlete entered in an event (route 4)' },
);

export const FeedHeatEntry = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    heatId: Id,
    athleteId: Id,
    teamId: Type.Optional(
      Type.Union([Id, Type.Null()], {
        description:
          "the team the athlete rides for in this heat (bull-riding team games); else the athlete's own team",
      }),
    ),
    seed: Count(10_000, 'athleteRoundSeed'),
    position: Count(10_000, 'stored position in the heat; 0 or null for none'),
    heatScore: Type.Optional(
      Type.Union([Type.Number({ minimum: -1_000_000, maximum: 1_000_000 }), Type.Null()], {
        description: 'null until scored',
      }),
    ),
    lapTime: Seconds('athleteLapTime, seconds'),
    penaltyTime: Seconds('athletePenaltyTime, seconds; 0 when absent'),
    jokerLapTime: Seconds('athleteJokerLapTime, seconds; 0 when absent'),
    jokerLap: Count(10_000, 'athleteJokerLap; 0 when absent'),
    lapStatus: Type.Optional(
      Type.Union([Enum(LAP_STATUSES), Type.Null()], {
        description: 'ACT when absent',
      }),
    ),
    totalLaps: Count(10_000, 'total laps in the round'),
    lineScore1: Score(10, 'sls run score, out of 10'),
    lineScore2: Score(10, 'sls run score, out of 10'),
    trick1Score: Score(10, 'sls trick score, out of 10'),
    trick2Score: Score(10, 'sls trick score, out of 10'),
    trick3Score: Score(10, 'sls trick score, out of 10'),
    trick4Score: Score(10, 'sls trick score, out of 10'),
    trick5Score: Score(10, 'sls trick score, out of 10'),
    trick6Score: Score(10, 'sls trick score, out of 10'),
    riderScore: Score(100, 'pbr rider score; a ride qualifies when above 0'),
    bullScore: Score(100, 'pbr bull score'),
    updatedAt: Type.Optional(Timestamp),
  },
  { additionalProperties: false, description: "one athlete's entry in a heat; its updatedAt is the score's own date" },
);

export const FeedLap = Type.Object(
  {
    heatEntryId: Id,
    lapNo: Type.Integer({ minimum: 1, maximum: 10_000 }),
    lapTime: Seconds('time of the lap, seconds'),
    position: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 10_000 }), Type.Null()], {
        description: 'position at the end of the lap',
      }),
    ),
    updatedAt: UpdatedAt,
  },
  {
    additionalProperties: false,
    description: 'one lap of a heat entry, keyed by heatEntryId and lapNo (lap-racing formats)',
  },
);

export const FeedHeatResult = Type.Object(
  {
    heatId: Id,
    winnerAthleteId: Type.Optional(Type.Union([Id, Type.Null()], { description: 'null for a draw or a no contest' })),
    method: OptionalText(100),
    resultStatus: ResultStatus,
    correction: Correction('the result of this heat'),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false, description: 'how a fight, drift battle or drag pairing ended, keyed by heatId' },
);

export const FeedTeamGame = Type.Object(
  {
    heatId: Id,
    homeTeamId: Id,
    awayTeamId: Id,
    eventType: OptionalText(100),
    updatedAt: UpdatedAt,
  },
  {
    additionalProperties: false,
    description: 'a bull-riding heat played as a game between two teams, keyed by heatId',
  },
);

export const FeedFuture = Type.Object(
  {
    id: PublicOrBareUuid,
    referenceId: ReferenceId,
    competition: Competition,
    tourId: Id,
    tourYearId: Id,
    type: Enum(FUTURE_TYPES),
    gender: Gender,
    startDate: Timestamp,
    endDate: Timestamp,
    isMarketOpen: Type.Boolean(),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false },
);

export const FeedFuturePrice = Type.Object(
  {
    outcomeName: Text(100),
    decimalOdds: Type.Optional(Type.Number({ exclusiveMinimum: 1, maximum: MAX_DECIMAL_ODDS })),
    americanOdds: Type.Optional(Type.Number({ description: 'at most -100 or at least +100' })),
  },
  { additionalProperties: false, description: 'a price as decimalOdds or americanOdds (exactly one)' },
);

export const FeedFutureOdd = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    futureId: PublicOrBareUuid,
    name: Text(),
    athleteId: Type.Optional(Type.Union([Id, Type.Null()])),
    teamId: Type.Optional(Type.Union([Id, Type.Null()])),
    odds: Type.Array(FeedFuturePrice, { minItems: 1, maxItems: 20 }),
    updatedAt: UpdatedAt,
  },
  { additionalProperties: false },
);

export const FeedMarket = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    eventId: PublicOrBareUuid,
    oddType: Enum(ODD_TYPES, "odd type; the event's competition must offer it"),
    heatId: Type.Optional(
      Type.Union([Id, Type.Null()], {
        description:
          'the heat decided by heatWinner and heatExacta (required for them); optional for headToHead, fastestLap, overUnder and teamMarkets',
      }),
    ),
    exactasType: Type.Optional(
      Enum(EXACTAS_TYPES, 'eventExacta and heatExacta: 2 exacta, 3 trifecta, 4 superfecta (2 when absent)'),
    ),
    overUnderSubMarketType: Type.Optional(
      Enum(
        OVER_UNDER_SUB_MARKET_TYPES,
        'overUnder and multiOverUnder: what the line measures (finishingPosition when absent); points and gapToLeaders need a heat',
      ),
    ),
    line: Type.Optional(
      Type.Union([Type.Number({ minimum: -100_000, maximum: 100_000 }), Type.Null()], {
        description: 'overUnder, multiOverUnder and teamMarkets total: the line; teamMarkets spread: the home handicap',
      }),
    ),
    athleteIds: Type.Optional(
      Type.Array(Id, {
        minItems: 1,
        maxItems: 10,
        description: 'overUnder: the athlete measured; multiOverUnder: the athletes whose measures are summed',
      }),
    ),
    places: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()], {
        description: 'shows: the places paid (3 when absent)',
      }),
    ),
    proposition: OptionalText(300),
    teamMarketType: Type.Optional(
      Enum(
        TEAM_MARKET_TYPES,
        'teamMarkets settled from the match score: moneyline (sides HOME, AWAY, DRAW), spread (HOME, AWAY; line is the home handicap) or total (OVER, UNDER); absent for a market the operator settles',
      ),
    ),
    roundId: Type.Optional(
      Type.Union([Id, Type.Null()], {
        description: 'typed teamMarkets: the period (round) decided; absent for the whole match',
      }),
    ),
    status: Type.Optional(Enum(OUTCOME_STATUSES, 'OPEN when absent; every outcome of a CLOSED market is closed')),
    statusReason: Type.Optional(
      Enum(STATUS_REASONS, 'why the market is not OPEN (published as statusReason); OPERATOR when absent'),
    ),
    updatedAt: UpdatedAt,
  },
  {
    additionalProperties: false,
    description: 'an odds market of an event: what is bet on; its priced outcomes are `odds` items',
  },
);

export const FeedOdd = Type.Object(
  {
    id: Id,
    referenceId: ReferenceId,
    marketId: Id,
    athleteId: Type.Optional(
      Type.Union([Id, Type.Null()], {
        description: 'the athlete this outcome backs (winner, place, top k, head-to-head side, fastest lap, hole shot)',
      }),
    ),
    athleteIds: Type.Optional(
      Type.Array(Id, {
        minItems: 1,
        maxItems: 10,
        description: "exactas: the athletes in finishing order; dreamTeam: the team's athletes",
      }),
    ),
    teamId: Type.Optional(Type.Union([Id, Type.Null()], { description: 'teamMarkets: the team this outcome backs' })),
    side: Type.Optional(
      Enum(
        OUTCOME_SIDES,
        'overUnder, multiOverUnder and teamMarkets total: OVER or UNDER; teamMarkets moneyline: HOME, AWAY or DRAW; spread: HOME or AWAY',
      ),
    ),
    name: OptionalText(200),
    position: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, description: 'display order in the market' })),
    odds: Type.Optional(Type.Number({ exclusiveMinimum: 1, maximum: MAX_DECIMAL_ODDS, description: 'decimal odds' })),
    americanOdds: Type.Optional(Type.Number({ description: 'at most -100 or at least +100' })),
    probability: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        exclusiveMaximum: 100,
        description:
          "implied probability in percent (49.4 is 49.4%); beside odds, the probability they were priced from (a model's, margin included), published as given: the odds must not pay more than it implies",
      }),
    ),
    status: Type.Optional(Enum(OUTCOME_STATUSES, 'OPEN when absent')),
    statusReason: Type.Optional(
      Enum(STATUS_REASONS, 'why the outcome is not OPEN (published as statusReason); OPERATOR when absent'),
    ),
    settlement: Type.Optional(
      Type.Union([Enum(SETTLEMENTS), Type.Null()], {
        description:
          "the operator's settlement; overrides the one derived from results (propBets and teamMarkets need it)",
      }),
    ),
    deadHeatFactor: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        description:
          "with settlement WIN: the share of the stake paid at full odds after a dead heat (0 < f <= 1; 1 when absent), published as deadHeatFactor with settlementReason DEAD_HEAT's share",
      }),
    ),
    updatedAt: UpdatedAt,
  },
  {
    additionalProperties: false,
    description:
      'a priced outcome of a market: give exactly one of odds, americanOdds and probability, or odds with the probability they were priced from (as the pricing engine publishes them); its id is the odd id clients pass to the parlay route',
  },
);

export const FEED_COLLECTION_LIMIT = 1_000_000;
const Collection = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Optional(Type.Array(item, { maxItems: FEED_COLLECTION_LIMIT }));

export const FeedDocument = Type.Object(
  {
    updatedAt: Type.Optional(Timestamp),
    tours: Collection(FeedTour),
    tourYears: Collection(FeedTourYear),
    teams: Collection(FeedTeam),
    athletes: Collection(FeedAthlete),
    events: Collection(FeedEvent),
    rounds: Collection(FeedRound),
    heats: Collection(FeedHeat),
    roundScores: Collection(FeedRoundScore),
    eventParticipants: Collection(FeedEventParticipant),
    heatEntries: Collection(FeedHeatEntry),
    laps: Collection(FeedLap),
    heatResults: Collection(FeedHeatResult),
    teamGames: Collection(FeedTeamGame),
    futures: Collection(FeedFuture),
    futureOdds: Collection(FeedFutureOdd),
    markets: Collection(FeedMarket),
    odds: Collection(FeedOdd),
  },
  { additionalProperties: false, $id: 'FeedDocument', title: 'FeedDocument' },
);
export type FeedDocument = Static<typeof FeedDocument>;
export type FeedCollection = Exclude<keyof FeedDocument, 'updatedAt'>;

/** Collections in write order: parents before the items that refer to them. */
export const FEED_COLLECTIONS = [
  'tours',
  'tourYears',
  'teams',
  'athletes',
  'events',
  'rounds',
  'heats',
  'roundScores',
  'eventParticipants',
  'heatEntries',
  'laps',
  'heatResults',
  'teamGames',
  'futures',
  'futureOdds',
  'markets',
  'odds',
] as const satisfies readonly FeedCollection[];
