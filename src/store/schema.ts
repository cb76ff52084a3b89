import type { Generated } from 'kysely';
import type {
  EventStatus,
  FutureType,
  GameType,
  Gender,
  HeatStatus,
  LapStatus,
  MatchSide,
  OddType,
  OutcomeStatus,
  OverUnderSubMarketType,
  ParticipantStatus,
  ResultStatus,
  RoundStatus,
  Settlement,
  TeamMarketType,
} from '../domain/enumerations.ts';
import type { OutcomeSide } from '../domain/markets/selection.ts';

/**
 * Row types of the store, in the camelCase that Kysely's CamelCasePlugin maps to snake_case columns.
 * Timestamps are canonical UTC ISO 8601 text and booleans are 0/1 integers on both stores, so that
 * SQLite and PostgreSQL share one code path (docs/decisions.md, "Store"). Enumerated columns hold
 * only what the feed schema let in, and are typed so.
 */

export interface TourRow {
  id: string;
  referenceId: number;
  competition: string;
  name: string;
  gender: Gender | null;
  updatedAt: string;
}

export interface TourYearRow {
  id: string;
  referenceId: number;
  tourId: string;
  year: number;
  startDate: string | null;
  endDate: string | null;
  updatedAt: string;
}

export interface TeamRow {
  id: string;
  referenceId: number;
  competition: string;
  name: string;
  shortName: string | null;
  logo: string | null;
  updatedAt: string;
}

export interface AthleteRow {
  id: string;
  referenceId: number;
  firstName: string;
  middleName: string;
  lastName: string;
  nationality: string | null;
  stance: string | null;
  teamId: string | null;
  hometown: string | null;
  height: string | null;
  weight: string | null;
  gender: Gender | null;
  weightClass: string | null;
  dob: string | null;
  providerId: string | null;
  updatedAt: string;
}

export interface EventRow {
  id: string;
  referenceId: number;
  competition: string;
  tourId: string;
  tourYearId: string | null;
  name: string;
  startDate: string;
  endDate: string;
  year: number;
  eventNumber: number;
  eventStatus: EventStatus;
  /** PROVISIONAL while the event's result (its places, its score) is not official. */
  resultStatus: ResultStatus;
  /** 1: the event was abandoned once under way (published CANCELLED; its markets void as EVENT_ABANDONED). */
  abandoned: number;
  eventLocation: string | null;
  eventLocationNumericId: number | null;
  eventLocationGroup: string | null;
  providerId: string | null;
  seasonType: string | null;
  /** JSON array of `{ teamId, isHomeTeam, stoneColor?, firstHammer? }`: the teams taking part, in feed order. */
  teams: string;
  /** Jai Alai: the card (night) the match belongs to, `<prefix>:<YYYY-MM-DD>_<text>`; route 16 lists a card's matches. */
  cardId: string | null;
  /** Jai Alai: display text of the match type (Doubles, Singles). */
  eventType: string | null;
  streamUrl: string | null;
  /** Jai Alai: the side serving now (home or away). */
  onServe: MatchSide | null;
  /** 3-on-3 hockey: the game's place in its season's knockout bracket. */
  bracketRound: number | null;
  bracketSlot: number | null;
  updatedAt: string;
  /** The latest updatedAt of the event and everything published inside its document. */
  contentUpdatedAt: string;
  /**
   * The latest updatedAt of any row of the event's public documents: the event document's, its heats'
   * score rows, its markets and odds. Null only between an event's insert and the end of
   * its batch.
   */
  lastChangedAt: string | null;
}

export interface RoundRow {
  id: string;
  referenceId: number;
  eventId: string;
  roundName: string;
  roundNo: number;
  roundStatus: RoundStatus;
  startDate: string | null;
  endDate: string | null;
  providerId: string | null;
  /** Table tennis: singles or doubles. */
  gameType: GameType | null;
  /** Table tennis: the players of each side in this game, as display text. */
  homeLineup: string | null;
  awayLineup: string | null;
  updatedAt: string;
}

export interface HeatRow {
  id: string;
  referenceId: number;
  roundId: string;
  eventId: string;
  heatName: string;
  heatNo: number;
  heatStatus: HeatStatus;
  startDate: string | null;
  endDate: string | null;
  providerId: string | null;
  updatedAt: string;
}

export interface RoundScoreRow {
  id: string;
  referenceId: number;
  roundId: string;
  eventId: string;
  teamId: string;
  goals: number;
  updatedAt: string;
}

export interface EventParticipantRow {
  id: string;
  referenceId: number;
  eventId: string;
  athleteId: string;
  seedNo: number | null;
  status: ParticipantStatus;
  /** Final standing once the event completes; event markets settle from it. */
  place: number | null;
  updatedAt: string;
}

/** One athlete's entry in a heat: the raw facts of a heat score row. Its updatedAt is the score's date. */
export interface HeatEntryRow {
  id: string;
  referenceId: number;
  heatId: string;
  athleteId: string;
  teamId: string | null;
  seed: number | null;
  position: number | null;
  heatScore: number | null;
  lapTime: number | null;
  penaltyTime: number | null;
  jokerLapTime: number | null;
  jokerLap: number | null;
  lapStatus: LapStatus | null;
  totalLaps: number | null;
  lineScore1: number | null;
  lineScore2: number | null;
  trick1Score: number | null;
  trick2Score: number | null;
  trick3Score: number | null;
  trick4Score: number | null;
  trick5Score: number | null;
  trick6Score: number | null;
  riderScore: number | null;
  bullScore: number | null;
  updatedAt: string;
}

/** One lap of a heat entry; `id` is `<heatEntryId>/<lapNo>`. */
export interface LapRow {
  id: string;
  heatEntryId: string;
  heatId: string;
  lapNo: number;
  lapTime: number | null;
  position: number | null;
  updatedAt: string;
}

/** How a fight, battle or pairing ended; `id` is the heat's id. */
export interface HeatResultRow {
  id: string;
  winnerAthleteId: string | null;
  method: string | null;
  /** PROVISIONAL until the result is official; OFFICIAL when the feed says nothing. */
  resultStatus: ResultStatus;
  updatedAt: string;
}

/** A bull-riding heat played between two teams; `id` is the heat's id. */
export interface TeamGameRow {
  id: string;
  homeTeamId: string;
  awayTeamId: string;
  eventType: string | null;
  updatedAt: string;
}

export interface FutureRow {
  id: string;
  referenceId: number;
  competition: string;
  tourId: string;
  tourYearId: string;
  type: FutureType;
  gender: Gender | null;
  startDate: string;
  endDate: string;
  year: number;
  isMarketOpen: number;
  createdAt: string;
  updatedAt: string;
}

export interface FutureOddRow {
  id: string;
  referenceId: number;
  futureId: string;
  name: string;
  athleteId: string | null;
  teamId: string | null;
  /** JSON array of `{ outcomeName, decimalOdds }`; American odds are derived when published. */
  prices: string;
  updatedAt: string;
}

/** An odds market of an event: what is bet on. Its priced outcomes are OddRows. */
export interface MarketRow {
  id: string;
  referenceId: number;
  eventId: string;
  oddType: OddType;
  heatId: string | null;
  exactasType: number | null;
  overUnderSubMarketType: OverUnderSubMarketType | null;
  line: number | null;
  /** JSON array of athlete ids (over/under subjects), or null. */
  athleteIds: string | null;
  places: number | null;
  proposition: string | null;
  /** teamMarkets: moneyline, spread or total, settled from the match score; null for a market the operator settles. */
  teamMarketType: TeamMarketType | null;
  /** teamMarkets: the period (round) the market is decided in; null for the whole match. */
  roundId: string | null;
  status: OutcomeStatus;
  /** Why the operator set `status` (STATUS_REASONS); null while OPEN. */
  statusReason: string | null;
  updatedAt: string;
}

/** A priced outcome of a market; its id is the odd id of the parlay route. Prices are kept decimal. */
export interface OddRow {
  id: string;
  referenceId: number;
  marketId: string;
  /** The market's event, copied at ingest so that an event's odds are one indexed read. */
  eventId: string;
  athleteId: string | null;
  /** JSON array of athlete ids (exacta order, dream team), or null. */
  athleteIds: string | null;
  teamId: string | null;
  side: OutcomeSide | null;
  name: string | null;
  position: number | null;
  decimalOdds: number;
  /** The probability (percent) an engine-priced outcome was published from; null for a fed price (100 / odds). */
  probability: number | null;
  status: OutcomeStatus;
  /** Why the operator set `status` (STATUS_REASONS); null while OPEN. */
  statusReason: string | null;
  /** The operator's settlement, when fed; null means derive it from the results. */
  settlement: Settlement | null;
  /** The share of the stake the operator's dead-heat WIN pays at full odds (0 < f <= 1); null: 1. */
  deadHeatFactor: number | null;
  updatedAt: string;
}

export interface ApiKeyRow {
  id: string;
  name: string;
  keyHash: string;
  keyPrefix: string;
  /** JSON array of competition keys, or null for every competition. */
  competitions: string | null;
  createdAt: string;
  revokedAt: string | null;
  /** Requests allowed per minute and per UTC day; null: the plan's, else the server's default; 0: no limit. */
  ratePerMinute: number | null;
  ratePerDay: number | null;
  /** The plan the key belongs to; null: its own limits only. */
  planId: string | null;
}

/** What a key on a plan gets unless the key says otherwise. */
export interface PlanRow {
  id: string;
  name: string;
  /** Requests per calendar month (UTC); null or 0: no quota. */
  monthlyQuota: number | null;
  /** Null: the server's default; 0: no limit. */
  ratePerMinute: number | null;
  ratePerDay: number | null;
  /** JSON array of competition keys, or null for every competition. */
  competitions: string | null;
  createdAt: string;
}

/** A key's counted requests on one UTC day (YYYY-MM-DD) to one route template. */
export interface KeyUsageRow {
  keyId: string;
  day: string;
  route: string;
  requests: number;
}

/** A secret stream tokens are signed with; the one not retired signs new tokens. */
export interface StreamTokenSecretRow {
  /** Short and public: a token names the secret it was signed with. */
  id: string;
  /** 32 random bytes, base64url. */
  secret: string;
  createdAt: string;
  /** When a rotation replaced it; its tokens are honoured until they expire. */
  retiredAt: string | null;
}

/** One entry of the bounded change log: what a committed feed batch changed. */
export interface ChangeRow {
  id: Generated<number>;
  /** A stream event name (CHANGE_KINDS). */
  kind: string;
  competition: string | null;
  /** The event changed, as its stored (bare) id; null for futures and store-wide changes. */
  eventId: string | null;
  /** JSON: the stream event's data. */
  data: string;
  createdAt: string;
}

/**
 * The finishing-order model an event's markets were generated from, by scope: the parlay
 * route prices from it while the scope's winner market still carries the prices it generated.
 */
export interface PricingModelRow {
  /** The event's stored (bare) id. */
  id: string;
  /** JSON: a `RecordedModel` (src/domain/pricing/recorded-model.ts). */
  model: string;
  updatedAt: string;
}

/** When the feed last sent anything about an event (server time of the batch that did). */
export interface FeedActivityRow {
  eventId: string;
  competition: string;
  lastMessageAt: string;
  /** When a node pushed the event's FEED_STALE bet stop; null until then and after its next message. */
  stalePublishedAt: string | null;
  /** Server time of the last batch that changed one of its scores while it was LIVE. */
  scoreChangedAt: string | null;
  /** When a node pushed its SCORE_CHANGE suspension; null until then and once it reopened. */
  scoreStopPublishedAt: string | null;
}

/**
 * An outcome's settlement as last published: written in the batch that moved it, so that a
 * changed result is known as one (RESULT_CHANGED) and the stream can say what it was before.
 */
export interface SettlementRow {
  oddId: string;
  eventId: string;
  marketId: string;
  /** NOT_SET once a settled outcome is unsettled again (its result withdrawn). */
  settlement: Settlement;
  settlementReason: string | null;
  deadHeatFactor: number;
  settlementStatus: string | null;
  /** Server time of the write that settled it; null while NOT_SET. */
  settledAt: string | null;
}

/** One change of an outcome's price or status, append-only; pruned after ODDS_HISTORY_DAYS. */
export interface OddsHistoryRow {
  /** Generated; orders an outcome's rows as written, which is time order (newer wins at ingest). */
  id: Generated<number | string>;
  oddId: string;
  decimalOdds: number;
  /** The model probability the price was published from (OddRow.probability); null for a fed price. */
  probability: number | null;
  status: OutcomeStatus;
  statusReason: string | null;
  /** The odd's updatedAt as written. */
  changedAt: string;
  /** 1 on the outcome's first price ever recorded; 0 after, and on prices held when the history began. */
  isFirst: number;
}

export interface Database {
  tours: TourRow;
  tourYears: TourYearRow;
  teams: TeamRow;
  athletes: AthleteRow;
  events: EventRow;
  rounds: RoundRow;
  heats: HeatRow;
  roundScores: RoundScoreRow;
  eventParticipants: EventParticipantRow;
  heatEntries: HeatEntryRow;
  laps: LapRow;
  heatResults: HeatResultRow;
  teamGames: TeamGameRow;
  futures: FutureRow;
  futureOdds: FutureOddRow;
  markets: MarketRow;
  odds: OddRow;
  apiKeys: ApiKeyRow;
  plans: PlanRow;
  keyUsage: KeyUsageRow;
  streamTokenSecrets: StreamTokenSecretRow;
  changes: ChangeRow;
  pricingModels: PricingModelRow;
  feedActivity: FeedActivityRow;
  settlements: SettlementRow;
  oddsHistory: OddsHistoryRow;
}

/** The tables of raw facts, which feed batches write: one per feed collection, of the same name. */
export type FactTable = Exclude<
  keyof Database,
  | 'apiKeys'
  | 'plans'
  | 'keyUsage'
  | 'streamTokenSecrets'
  | 'changes'
  | 'pricingModels'
  | 'feedActivity'
  | 'settlements'
  | 'oddsHistory'
>;
