import { type Static, Type } from 'typebox';
import { CompetitionKey, Nullable } from './common.ts';

/** GET /feed-status's items: how current the feed is, per competition. */
export const FeedStatusItem = Type.Object(
  {
    competition: CompetitionKey,
    lastMessageAt: Nullable(
      Type.String({
        format: 'date-time',
        description: 'server time of the last feed message about any event of the competition; null: none yet',
      }),
    ),
    liveEvents: Type.Integer({ minimum: 0, description: 'events of the competition now LIVE' }),
    staleEventIds: Type.Array(Type.String(), {
      description:
        'prefixed ids of the LIVE events the feed has been silent about for FEED_STALE_SECONDS: their open markets are suspended (FEED_STALE)',
    }),
  },
  { $id: 'FeedStatusItem', title: 'FeedStatusItem' },
);
export type FeedStatusItem = Static<typeof FeedStatusItem>;
