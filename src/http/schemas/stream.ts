import { type Static, Type } from 'typebox';
import { CHANGE_KINDS, RESET_REASONS } from '../../domain/changes.ts';
import { EVENT_STATUSES, OUTCOME_STATUSES, RESULT_STATUSES, SETTLEMENTS } from '../../domain/enumerations.ts';
import { STATUS_REASONS } from '../../domain/markets/market-status.ts';
import { SETTLEMENT_REASONS } from '../../domain/markets/settlement-reason.ts';
import { CompetitionKey, OddsFormatParam, Price, StringEnum, Timestamp } from '../../shapes/common.ts';
import { operation, PUBLIC_ERRORS } from './common.ts';

export const StreamQuery = Type.Object({
  competition: Type.Optional(
    Type.Array(CompetitionKey, { description: 'only changes of these competitions (repeated or a comma list)' }),
  ),
  eventId: Type.Optional(
    Type.Array(Type.String({ maxLength: 100 }), {
      maxItems: 100,
      description: 'only changes of these events, prefixed or bare ids (repeated or a comma list)',
    }),
  ),
  kind: Type.Optional(
    Type.Array(StringEnum(CHANGE_KINDS), {
      description: 'only these kinds of change (repeated or a comma list); reset is always sent',
    }),
  ),
  oddsFormat: Type.Optional(OddsFormatParam),
  token: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        'a stream token (POST /stream/tokens) in place of the key, for EventSource in a browser; expired, forged or of a revoked key: 401',
    }),
  ),
  lastEventId: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'resume after this change id, as the Last-Event-ID header does (for clients that cannot set headers)',
    }),
  ),
});

export const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      pattern: '^\\d{1,15}$',
      description: 'resume after this change id: the id of the last event received',
    }),
  ),
});

// The `data` of each stream event. The stream itself is text/event-stream, which OpenAPI 3.1 cannot
// type, so these are published as components of their own (plugins/openapi.ts), named in the
// route's description, and generated into the TypeScript client like every other schema. The change
// log's records (domain/changes.ts) are checked against them by test/domain/changes.test.ts, and the
// live stream's by test/http/stream.test.ts.
const eventOf = { eventId: Type.String({ description: 'prefixed event id' }), competition: CompetitionKey };
const changedAt = {
  updatedAt: Timestamp,
  publishedAt: Type.String({
    format: 'date-time',
    description: 'server time of the commit that made the change: compare it with your clock to measure your lag',
  }),
};
const ids = (description: string) => Type.Array(Type.String(), { description });

export const StreamReady = Type.Object(
  { lastEventId: Type.Integer({ minimum: 0, description: 'the change id the stream starts after' }) },
  { $id: 'StreamReady', title: 'StreamReady' },
);
export const EventChange = Type.Object(
  { ...eventOf, eventStatus: StringEnum(EVENT_STATUSES), ...changedAt },
  { $id: 'EventChange', title: 'EventChange', additionalProperties: false },
);
export const HeatScoreChange = Type.Object(
  { ...eventOf, heatIds: ids('heats whose facts changed'), roundIds: ids('rounds whose facts changed'), ...changedAt },
  { $id: 'HeatScoreChange', title: 'HeatScoreChange', additionalProperties: false },
);
export const ChangedOdd = Type.Object(
  {
    id: Type.String(),
    marketId: Type.String(),
    decimalOdds: Type.Number(),
    price: Price,
    status: StringEnum(OUTCOME_STATUSES),
  },
  { $id: 'ChangedOdd', title: 'ChangedOdd', additionalProperties: false },
);
export const OddsChange = Type.Object(
  {
    ...eventOf,
    marketIds: ids('markets that changed'),
    odds: Type.Array(ChangedOdd, {
      description: 'the new prices; at most 200, with truncated set when there were more (refetch the event odds)',
    }),
    truncated: Type.Optional(Type.Literal(true)),
    statusReason: Type.Optional(
      StringEnum(STATUS_REASONS, {
        description:
          'FEED_STALE: a bet stop, the feed is silent about the LIVE event (the odds listed are SUSPENDED until its next message)',
      }),
    ),
    ...changedAt,
  },
  { $id: 'OddsChange', title: 'OddsChange', additionalProperties: false },
);
const settlementState = (description: string) =>
  Type.Object(
    {
      settlement: StringEnum(SETTLEMENTS),
      settlementReason: Type.Optional(StringEnum(SETTLEMENT_REASONS)),
      deadHeatFactor: Type.Number(),
      settlementStatus: Type.Optional(StringEnum(RESULT_STATUSES)),
      settledAt: Type.Optional(Type.String({ format: 'date-time' })),
    },
    { additionalProperties: false, description },
  );
export const SettledOutcome = Type.Object(
  {
    id: Type.String({ description: 'odd id' }),
    marketId: Type.String(),
    previous: settlementState('as published before this change (NOT_SET when it was not settled)'),
    settlement: settlementState('as published now'),
  },
  { $id: 'SettledOutcome', title: 'SettledOutcome', additionalProperties: false },
);
export const SettlementChange = Type.Object(
  {
    ...eventOf,
    heatIds: ids('heats now completed'),
    oddIds: ids('odds the operator settled'),
    eventFinal: Type.Boolean({ description: 'the event is over' }),
    outcomes: Type.Optional(
      Type.Array(SettledOutcome, {
        description:
          'the outcomes whose settlement (or its dead-heat share, or its PROVISIONAL/OFFICIAL status) moved, each with the previous and the new one; a changed result settles them again with settlementReason RESULT_CHANGED. At most 200, with truncated set when there were more',
      }),
    ),
    truncated: Type.Optional(Type.Literal(true)),
    ...changedAt,
  },
  { $id: 'SettlementChange', title: 'SettlementChange', additionalProperties: false },
);
export const FutureChange = Type.Object(
  { competition: CompetitionKey, futureIds: ids('futures whose facts or odds changed'), ...changedAt },
  { $id: 'FutureChange', title: 'FutureChange', additionalProperties: false },
);
export const ResetNotice = Type.Object(
  {
    reason: StringEnum(RESET_REASONS, {
      description:
        'bulk: too much changed to list; reference: shared facts changed; resume: the log no longer reaches back to Last-Event-ID',
    }),
    message: Type.String(),
    publishedAt: changedAt.publishedAt,
  },
  { $id: 'ResetNotice', title: 'ResetNotice', additionalProperties: false },
);
export const StreamClose = Type.Object(
  {
    reason: Type.Union([Type.Literal('shutdown'), Type.Literal('keyRevoked'), Type.Literal('keyChanged')], {
      description:
        "why the server ended the stream: it is shutting down (reconnect), the key was revoked (do not), or the key's competitions changed (reconnect)",
    }),
    message: Type.String(),
  },
  { $id: 'StreamClose', title: 'StreamClose', additionalProperties: false },
);

/** Each stream event's name and the schema of its `data`. */
export const STREAM_EVENT_DATA = {
  ready: StreamReady,
  event: EventChange,
  heatScore: HeatScoreChange,
  odds: OddsChange,
  settlement: SettlementChange,
  future: FutureChange,
  reset: ResetNotice,
  close: StreamClose,
} as const;
/** The same schemas (and the odds' items) as OpenAPI components, by name. */
export const STREAM_DATA_COMPONENTS = {
  StreamReady,
  EventChange,
  HeatScoreChange,
  ChangedOdd,
  OddsChange,
  SettledOutcome,
  SettlementChange,
  FutureChange,
  ResetNotice,
  StreamClose,
};
export type StreamEventName = keyof typeof STREAM_EVENT_DATA;
export type StreamEventData<E extends StreamEventName> = Static<(typeof STREAM_EVENT_DATA)[E]>;

/** GET /stream's answer: text/event-stream, which OpenAPI can only call a string. */
export const EventStream = {
  description: 'the event stream',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};

/** GET /stream: the changes as server-sent events. */
export const streamOperation = operation({
  tags: ['stream'],
  summary: 'Stream changes (server-sent events)',
  description: [
    'A server-sent events stream (text/event-stream) of the changes ingested, on every node, as they commit. Each event has',
    'an `id` (the change id; send it back as Last-Event-ID, which browsers do by themselves, to resume without a gap from',
    'the bounded change log), an `event` name and JSON `data`:',
    '',
    '- `ready`: sent first; `data.lastEventId` is where the stream starts (StreamReady).',
    "- `event`: an event's own facts changed (EventChange).",
    '- `heatScore`: heats, rounds, entries, laps or results of an event changed (HeatScoreChange).',
    '- `odds`: markets or prices of an event changed; the new prices come with it, at most 200 (OddsChange).',
    '- `settlement`: settlements of an event may have moved: heats completed, operator settlements, the event over;',
    '  `outcomes` lists those that did, each with its previous and new settlement (SettlementChange).',
    '- `future`: futures of a competition changed (FutureChange).',
    '- `reset`: too much changed to list (a bulk load, shared facts such as athletes), or the log no longer reaches back to',
    '  Last-Event-ID: refetch what you show (ResetNotice). Sent whatever the filters.',
    '- `close`: the server ended the stream, `data.reason` says why (StreamClose): `shutdown` (reconnect, to another node,',
    "  with Last-Event-ID), `keyRevoked` (within a few seconds of the key's revocation; do not reconnect) or `keyChanged`",
    "  (the key's competitions changed; reconnect with Last-Event-ID to read under them).",
    '',
    'Each `data` is the JSON of the component schema named in parentheses (components.schemas).',
    '',
    'Every change carries `publishedAt`, the server time of its commit. A comment line (`: heartbeat <server time>`)',
    'comes every STREAM_HEARTBEAT_SECONDS, so a client can measure its lag even when nothing changes. Missed changes can',
    'also be read without the stream from GET /changes. The documents themselves are fetched from the',
    'other routes, cheaply with If-None-Match.',
  ].join('\n'),
  errors: PUBLIC_ERRORS,
  codes: ['STREAM_TOKEN_INVALID', 'EVENT_ID_INVALID', 'LAST_EVENT_ID_CONFLICT', 'TOO_MANY_STREAMS'],
});

export const StreamTokenResponse = Type.Object(
  {
    token: Type.String({ description: 'pass it as GET /stream?token=' }),
    expiresAt: Timestamp,
  },
  { $id: 'StreamToken', title: 'StreamToken' },
);

/** POST /stream/tokens: a token for EventSource, which cannot send the key. */
export const streamTokenOperation = operation({
  tags: ['stream'],
  summary: 'Issue a stream token',
  description:
    'A short-lived signed token for GET /stream?token=, so that EventSource works in a browser without the key in the page or the address bar. ' +
    "It is bound to the key and the key's competitions, lasts STREAM_TOKEN_SECONDS (600 by default), and stops working within 5 s of the key's revocation.",
  errors: { 400: 'a body was sent: the route takes none', 401: 'missing or invalid API key' },
  codes: ['INVALID_BODY'],
});
