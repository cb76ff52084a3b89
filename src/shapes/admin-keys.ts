import { type Static, Type } from 'typebox';
import { CompetitionKey, Nullable, Timestamp } from './common.ts';

/** The admin API's keys, plans and usage: what an operator's portal or billing system reads and sends. */

const Limit = (what: string) =>
  Nullable(
    Type.Integer({
      minimum: 0,
      maximum: 1_000_000_000,
      description: `${what}; null: the default, 0: no limit`,
    }),
  );
const Competitions = Nullable(
  Type.Array(CompetitionKey, { uniqueItems: true, description: 'competition keys; null: every competition' }),
);

export const ApiKeyInfo = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'the start of the key, to recognise it; the key itself is never shown again' }),
    competitions: Competitions,
    ratePerMinute: Limit("the key's own requests per clock minute (null: its plan's, else the server's)"),
    ratePerDay: Limit("the key's own requests per UTC day (null: its plan's, else the server's)"),
    planId: Nullable(Type.String({ description: 'the plan the key belongs to' })),
    createdAt: Timestamp,
    revokedAt: Nullable(Timestamp),
  },
  { $id: 'ApiKeyInfo', title: 'ApiKeyInfo' },
);
export type ApiKeyInfo = Static<typeof ApiKeyInfo>;

export const ApiKeyWithUsage = Type.Object(
  {
    ...ApiKeyInfo.properties,
    usage: Type.Object({
      today: Type.Integer({ description: 'requests today (UTC), as written to the store so far' }),
      month: Type.Integer({ description: 'requests this calendar month (UTC), as written so far' }),
    }),
  },
  { $id: 'ApiKeyWithUsage', title: 'ApiKeyWithUsage' },
);

export const IssuedKey = Type.Object(
  {
    key: Type.String({ description: 'the secret: shown this once, stored only as a hash' }),
    info: ApiKeyInfo,
  },
  { $id: 'IssuedKey', title: 'IssuedKey' },
);

export const KeyCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    competitions: Type.Optional(Competitions),
    ratePerMinute: Type.Optional(Limit('requests per clock minute')),
    ratePerDay: Type.Optional(Limit('requests per UTC day')),
    plan: Type.Optional(Nullable(Type.String({ description: "a plan's id or name" }))),
  },
  { additionalProperties: false },
);

export const KeyChangeBody = Type.Object(
  {
    ratePerMinute: Type.Optional(Limit('requests per clock minute')),
    ratePerDay: Type.Optional(Limit('requests per UTC day')),
    plan: Type.Optional(Nullable(Type.String({ description: "a plan's id or name; null: no plan" }))),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PlanInfo = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    monthlyQuota: Nullable(Type.Integer({ minimum: 1, description: 'requests per calendar month (UTC); null: none' })),
    ratePerMinute: Limit('requests per clock minute'),
    ratePerDay: Limit('requests per UTC day'),
    competitions: Competitions,
    createdAt: Timestamp,
  },
  { $id: 'PlanInfo', title: 'PlanInfo' },
);

const PlanSettings = {
  monthlyQuota: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: 'null or 0: no quota' })),
  ),
  ratePerMinute: Type.Optional(Limit('requests per clock minute')),
  ratePerDay: Type.Optional(Limit('requests per UTC day')),
  competitions: Type.Optional(Competitions),
};

export const PlanCreateBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }), ...PlanSettings },
  { additionalProperties: false },
);

export const PlanChangeBody = Type.Object(PlanSettings, { additionalProperties: false, minProperties: 1 });

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a UTC day, YYYY-MM-DD' });

export const UsageQuery = Type.Object({
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  keyId: Type.Optional(Type.String({ maxLength: 200, description: 'one key only' })),
});

export const UsageRow = Type.Object(
  {
    keyId: Type.String(),
    day: Day,
    route: Type.String({ description: 'the route template, e.g. /events/{eventId}' }),
    requests: Type.Integer(),
  },
  { $id: 'UsageRow', title: 'UsageRow' },
);

export type PlanInfo = Static<typeof PlanInfo>;
export type UsageRow = Static<typeof UsageRow>;

export const ADMIN_KEY_SHARED_SCHEMAS = [ApiKeyInfo, ApiKeyWithUsage, IssuedKey, PlanInfo, UsageRow];
