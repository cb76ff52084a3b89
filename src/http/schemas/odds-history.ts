import { operation, PUBLIC_ERRORS } from './common.ts';

/** GET /events/:eventId/odds-history: each outcome's prices over time, kept ODDS_HISTORY_DAYS days. */
export const oddsHistoryOperation = (oddsHistoryDays: number) =>
  operation({
    tags: ['odds'],
    summary: 'Fetch price history',
    description:
      "Each priced outcome of the event (of one odd type with oddType, one outcome with outcomeId: its odd id or outcomeId) with its opening price, its closing price (the last price it was open at, once its market has left OPEN for good: closed by the operator, its result or its event's end; null while it may still open) and every change of its price or status as fed, in time order, within since and until. " +
      `Changes are kept ODDS_HISTORY_DAYS days (${oddsHistoryDays} here), except each outcome's latest and its last while OPEN (its closing): past that, opening is the oldest price retained and openingRetained is false (as it is for prices held before the history began). ` +
      "Derived statuses (FEED_STALE, RESULTED, an event's start) are not changes of the outcome's own: route 6 shows them. " +
      'Outcomes are in reference-id order; with `limit`, a `Link: <...>; rel="next"` header gives the next page while more remain. An unknown event or outcome is a 404.',
    errors: {
      ...PUBLIC_ERRORS,
      404: 'event or outcome not found, or odds of this type not offered for its competition',
    },
    codes: ['INVALID_CURSOR', 'INVALID_DATE_RANGE', 'EVENT_NOT_FOUND', 'ODD_TYPE_NOT_OFFERED', 'OUTCOME_NOT_FOUND'],
  });
