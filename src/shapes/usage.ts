import { type Static, Type } from 'typebox';
import { Nullable, Ref } from './common.ts';

/** GET /usage: the calling key's use of its limits this minute and today. */

export const WindowUsage = Type.Object(
  {
    limit: Nullable(Type.Integer({ description: 'requests allowed in the window; null: no limit' })),
    used: Type.Integer({ description: 'requests counted in the window so far' }),
    remaining: Nullable(Type.Integer({ description: 'requests left in the window; null: no limit' })),
    resetSeconds: Type.Integer({ description: 'seconds until the window starts again' }),
  },
  { $id: 'WindowUsage', title: 'WindowUsage' },
);

export const KeyUsageResponse = Type.Object(
  {
    key: Type.Object({ id: Type.String(), name: Type.String() }),
    minute: Ref(WindowUsage),
    day: Ref(WindowUsage),
    today: Type.Object({
      byRoute: Type.Record(Type.String(), Type.Integer(), {
        description: "today's (UTC) counted requests by route template, e.g. /events/{eventId}",
      }),
    }),
  },
  { $id: 'KeyUsage', title: 'KeyUsage' },
);
export type KeyUsageResponse = Static<typeof KeyUsageResponse>;

export const USAGE_SHARED_SCHEMAS = [WindowUsage, KeyUsageResponse];
