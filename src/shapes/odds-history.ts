import { type Static, Type } from 'typebox';
import { ODD_TYPES, OUTCOME_STATUSES } from '../domain/enumerations.ts';
import { STATUS_REASONS } from '../domain/markets/market-status.ts';
import { Nullable, Ref, StringEnum, Timestamp } from './common.ts';

/** GET /events/{eventId}/odds-history: each outcome's opening, closing and changes. */

const Prices = {
  odds: Type.Number({ description: 'decimal odds' }),
  americanOdds: Type.Integer({ description: 'American odds' }),
  probability: Type.Number({ description: 'percent: 49.4 means 49.4%' }),
};

const PricePoint = Type.Object(
  {
    ...Prices,
    at: Type.String({ format: 'date-time', description: "when the price took effect (the feed item's updatedAt)" }),
  },
  { $id: 'PricePoint', title: 'PricePoint' },
);

const PriceChange = Type.Object(
  {
    ...Prices,
    status: StringEnum(OUTCOME_STATUSES, { description: "the outcome's status as fed (OPEN, SUSPENDED, CLOSED)" }),
    statusReason: Type.Optional(
      StringEnum(STATUS_REASONS, { description: 'why it was not OPEN, as fed (OPERATOR when none was given)' }),
    ),
    at: Timestamp,
  },
  { $id: 'PriceChange', title: 'PriceChange' },
);

export const OutcomePriceHistory = Type.Object(
  {
    outcomeId: Type.String({ description: "the odd id (route 6's id; the parlay route accepts it)" }),
    oddType: StringEnum(ODD_TYPES),
    marketId: Type.String(),
    opening: Ref(PricePoint, {
      description: 'the oldest retained price: the first ever recorded when openingRetained is true',
    }),
    openingRetained: Type.Boolean({
      description:
        'false when the first price is no longer held: pruned after ODDS_HISTORY_DAYS, or older than the history (opening is then the oldest retained price)',
    }),
    closing: Nullable(
      Ref(PricePoint, {
        description:
          'the last price the outcome was open at, once its market has left OPEN for good; null while it may open',
      }),
    ),
    changes: Type.Array(Ref(PriceChange), {
      description: 'every change of price or status within since/until, in time order',
    }),
  },
  { $id: 'OutcomePriceHistory', title: 'OutcomePriceHistory' },
);
export type OutcomePriceHistory = Static<typeof OutcomePriceHistory>;

export const OddsHistoryQuery = Type.Object({
  oddType: Type.Optional(
    Type.Array(StringEnum(ODD_TYPES), {
      description: 'only outcomes of markets of these odd types (one, repeated or a comma list)',
    }),
  ),
  outcomeId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'one outcome: its odd id, or its outcomeId (numeric reference id)',
    }),
  ),
  since: Type.Optional(
    Type.String({ maxLength: 40, description: 'changes at or after: a date (YYYY-MM-DD) or an ISO 8601 date-time' }),
  ),
  until: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'changes up to: a date (the whole day) or an ISO 8601 date-time (that instant included)',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'outcomes per page; without it every outcome is returned' }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 200, description: 'opaque position from the previous page (see the Link header)' }),
  ),
});
export type OddsHistoryQuery = Static<typeof OddsHistoryQuery>;

export const ODDS_HISTORY_SCHEMAS = [PricePoint, PriceChange, OutcomePriceHistory];
