/**
 * Types derived from the generated `paths` and `components` (src/schema.ts): the routes the client
 * can call, their parameters and their bodies. Nothing here names a field by hand, so a change to the
 * server's schemas reaches the client's signatures through `npm run client:generate` alone.
 */
import type { components, paths } from './schema.ts';

/** The prefix of every public route; the client's paths are written under it. */
export const PUBLIC_PREFIX = '/api/v1/public';
type Prefix = typeof PUBLIC_PREFIX;

/** The public routes, keyed by their path under /api/v1/public (`/events/{eventId}`). */
export type PublicPaths = {
  [P in keyof paths as P extends `${Prefix}${infer Rest}` ? Rest : never]: paths[P];
};

type Method = 'get' | 'post';
type OperationOf<P extends keyof PublicPaths, M extends Method> = NonNullable<PublicPaths[P][M]>;
type HasOperation<P extends keyof PublicPaths, M extends Method> = PublicPaths[P][M] extends { responses: unknown }
  ? true
  : false;

/** The stream answers text/event-stream: it is read with `subscribe()`, not `get()`. */
type StreamPath = '/stream';

/** Paths with a JSON GET: every public document route. */
export type GetPath = Exclude<
  { [P in keyof PublicPaths]: HasOperation<P, 'get'> extends true ? P : never }[keyof PublicPaths],
  StreamPath
>;
/** Paths with a POST: the same game parlay. */
export type PostPath = {
  [P in keyof PublicPaths]: HasOperation<P, 'post'> extends true ? P : never;
}[keyof PublicPaths];

type PathParamsOf<Op> = Op extends { parameters: { path: infer X } } ? X : never;
/** A list filter takes one value as well as a list: the server reads both (and a comma list) alike. */
type OneOrMany<Q> = { [K in keyof Q]: NonNullable<Q[K]> extends readonly (infer E)[] ? E | readonly E[] : Q[K] };
type QueryOf<Op> = Op extends { parameters: { query?: infer Q } } ? OneOrMany<NonNullable<Q>> : never;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type SuccessOf<Op> = Op extends { responses: infer R }
  ? 200 extends keyof R
    ? JsonOf<R[200]>
    : 201 extends keyof R
      ? JsonOf<R[201]>
      : never
  : never;
type BodyOf<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

/** Per-call options every method takes. */
export interface CallOptions {
  /** Aborts the call (and any wait for a retry). */
  signal?: AbortSignal;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

type PathPart<Op> = [PathParamsOf<Op>] extends [never] ? { path?: undefined } : { path: PathParamsOf<Op> };
type QueryPart<Op> = [QueryOf<Op>] extends [never] ? { query?: undefined } : { query?: QueryOf<Op> };
type BodyPart<Op> = [BodyOf<Op>] extends [never] ? { body?: undefined } : { body: BodyOf<Op> };

/** What a GET of `P` takes: its path parameters (required when it has any) and its query. */
export type GetParams<P extends GetPath> = PathPart<OperationOf<P, 'get'>> &
  QueryPart<OperationOf<P, 'get'>> &
  CallOptions;
/** What a POST of `P` takes: its path parameters and its JSON body. */
export type PostParams<P extends PostPath> = PathPart<OperationOf<P, 'post'>> &
  QueryPart<OperationOf<P, 'post'>> &
  BodyPart<OperationOf<P, 'post'>> &
  CallOptions;

/** The 200 body of a GET of `P`. */
export type GetResult<P extends GetPath> = SuccessOf<OperationOf<P, 'get'>>;
/** The 201 (or 200) body of a POST of `P`. */
export type PostResult<P extends PostPath> = SuccessOf<OperationOf<P, 'post'>>;
/** The query parameters of a GET of `P`. */
export type GetQuery<P extends GetPath> = QueryOf<OperationOf<P, 'get'>>;

/** The options argument may be left out when nothing in it is required. */
export type OptionalWhenEmpty<O> =
  Record<string, never> extends Omit<O, keyof CallOptions | 'query'> ? [options?: O] : [options: O];

export type Schemas = components['schemas'];
export type ServerErrorResponse = Schemas['ServerErrorResponse'];
export type SportListingItem = Schemas['SportListingItem'];
export type EventListItem = Schemas['EventListItem'];
export type Event = Schemas['Event'];
export type Participant = Schemas['Participant'];
export type HeatScoreRow = Schemas['HeatScoreRow'];
export type EventOdds = Schemas['EventOdds'];
export type SgpResponse = Schemas['SgpResponse'];
export type SgpOptionsResponse = Schemas['SgpOptionsResponse'];
export type SgpOption = Schemas['SgpOption'];
export type CurlingEvent = Schemas['CurlingEvent'];
export type TableTennisEvent = Schemas['TableTennisEvent'];
export type LacrosseEvent = Schemas['LacrosseEvent'];
export type ThreeIceEvent = Schemas['ThreeIceEvent'];
export type CurlingOdds = Schemas['CurlingOdds'];
export type TableTennisOdds = Schemas['TableTennisOdds'];
export type LacrosseOdds = Schemas['LacrosseOdds'];
export type JaiAlaiMatch = Schemas['JaiAlaiMatch'];
export type JaiAlaiOdds = Schemas['JaiAlaiOdds'];
export type KnockoutBracket = Schemas['KnockoutBracket'];
export type FutureListingItem = Schemas['FutureListingItem'];
export type FutureOddsItem = Schemas['FutureOddsItem'];
export type KeyUsage = Schemas['KeyUsage'];
export type SnapshotMarket = Schemas['SnapshotMarket'];
export type OutcomePriceHistory = Schemas['OutcomePriceHistory'];
export type StreamToken = PostResult<'/stream/tokens'>;

export type OddType = EventOdds['oddType'];
export type CompetitionKey = SportListingItem['key'];
export type EventQuery = GetQuery<'/events'>;
export type OddsQuery = GetQuery<'/events/{eventId}/{oddType}'>;
export type OddsSnapshotQuery = GetQuery<'/odds'>;
export type OddsHistoryQuery = GetQuery<'/events/{eventId}/odds-history'>;
/** The formats `price` can be asked in (`oddsFormat` on every priced route and the stream). */
export type OddsFormat = NonNullable<OddsQuery['oddsFormat']>;
export type FutureType = PathParamsOf<
  OperationOf<'/futures/{sportType}/tour/{tourId}/odds/{futureType}', 'get'>
>['futureType'];
export type SgpRequest = PostParams<'/events/{eventId}/sgp'>['body'];
/** Call options of a priced POST (the parlay, the bet builder): `oddsFormat` adds `price` to each priced item. */
export interface PricedCallOptions extends CallOptions {
  oddsFormat?: OddsFormat;
}

/** One odd type's document, with the member named by that odd type present. */
export type OddsOf<T extends OddType> = EventOdds & { oddType: T } & Required<Pick<EventOdds, T & keyof EventOdds>>;
