import { type Static, Type } from 'typebox';
import { Nullable, Ref } from './common.ts';

/** GET /usage: the calling key's use of its limits this minute, today and this month. */

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
    month: Ref(WindowUsage, {
      description: "this calendar month (UTC) against the key's plan's monthly quota (limit null: no quota)",
    }),
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
