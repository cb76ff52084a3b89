export {
  type AltsportsClient,
  type ApiResponse,
  buildUrl,
  type ClientOptions,
  createClient,
  type EventsPageQuery,
  type NotModified,
  type PollOptions,
  type QuotaInfo,
  type RateLimitInfo,
  type RetryOptions,
} from './client.ts';
export { AltsportsApiError, parseRetryAfter } from './errors.ts';
export type { components, paths } from './schema.ts';
export type {
  CatchUpOptions,
  ChangeKind,
  ChangesPage,
  ChangesQuery,
  EventChange,
  FutureChange,
  HeatScoreChange,
  OddsChange,
  ResetNotice,
  SettledOutcome,
  SettlementChange,
  StreamEvent,
  StreamQuery,
  StreamSubscription,
  SubscribeOptions,
} from './stream.ts';
export type * from './types.ts';
export { PUBLIC_PREFIX } from './types.ts';
