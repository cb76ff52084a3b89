import { operation, PUBLIC_ERRORS } from './common.ts';

/** GET /feed-status: how current the feed is, per competition. */
export const feedStatusOperation = operation({
  tags: ['stream'],
  summary: 'Feed health per competition',
  description:
    'One item per competition the key may read: the server time of the last feed message about it, its LIVE ' +
    'events, and those the feed has been silent about for FEED_STALE_SECONDS (their open markets are ' +
    'suspended with statusReason FEED_STALE until the next message). Derived from stored times at read ' +
    'time: every node answers the same.',
  errors: PUBLIC_ERRORS,
  codes: [],
});
