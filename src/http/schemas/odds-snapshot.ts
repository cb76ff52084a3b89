import { operation, PUBLIC_ERRORS } from './common.ts';

/** GET /odds: every matching market at once. */
export const oddsSnapshotOperation = operation({
  tags: ['odds'],
  summary: 'Fetch every market in one call',
  description:
    "Every market of the matching events (by competition, one event, odd type), each with route 6's items for its odd type and eventId, oddType and marketId; outcomes filtered by status, markets left empty left out. " +
    'Ordered by event start, then market. With `limit`, a `Link: <...>; rel="next"` header gives the next page while more remain.',
  errors: { ...PUBLIC_ERRORS, 404: 'event not found' },
  codes: ['INVALID_CURSOR', 'EVENT_NOT_FOUND'],
});
