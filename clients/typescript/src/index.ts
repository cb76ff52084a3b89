export { type AltsportsClient, type ApiResponse, type ClientOptions, type EventsPageQuery, type NotModified, type PollOptions, type RateLimitInfo, type RetryOptions, buildUrl, createClient } from './client.ts';
export { AltsportsApiError, parseRetryAfter } from './errors.ts';
export { type SseEvent, SseParser } from './sse.ts';
export type {
  ChangeKind,
  EventChange,
  FutureChange,
  HeatScoreChange,
  OddsChange,
  ResetNotice,
  SettlementChange,
  StreamEvent,
  StreamQuery,
  StreamSubscription,
  SubscribeOptions,
} from './stream.ts';
export { PUBLIC_PREFIX } from './types.ts';
export type * from './types.ts';
export type { components, paths } from './schema.ts';
