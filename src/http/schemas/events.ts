import { Type } from 'typebox';
import { operation, PUBLIC_ERRORS } from './common.ts';

export const EventIdParams = Type.Object({
  eventId: Type.String({ maxLength: 200, description: '<sport_key>:<uuid> (a bare uuid is accepted too)' }),
});

/** Route 2: the events of a date range. */
export const eventListOperation = operation({
  tags: ['events'],
  summary: 'Fetch events',
  description:
    'Events that overlap the date range, filtered by competition and status, ordered by start date. ' +
    'With `limit`, a `Link: <...>; rel="next"` header gives the next page while more remain.',
  errors: PUBLIC_ERRORS,
  codes: ['INVALID_CURSOR', 'INVALID_DATE_RANGE', 'COMPETITION_CONFLICT'],
});

/** Route 3: one event. */
export const eventOperation = operation({
  tags: ['events'],
  summary: 'Fetch event',
  description: 'One event with its rounds, heats, round scores and teams.',
  errors: { ...PUBLIC_ERRORS, 404: 'event not found' },
  codes: ['EVENT_NOT_FOUND'],
});
