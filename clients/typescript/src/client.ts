/**
 * A small fetch client of the altsports public API. Paths, parameters and bodies are typed from the
 * generated OpenAPI types (src/types.ts over src/schema.ts): `get('/events/{eventId}', { path: { eventId } })`
 * cannot name a route, a parameter or a field the server does not have. Named methods cover every
 * route for readability; they are thin calls of `get`/`post`, typed the same way.
 */
import { AltsportsApiError, parseRetryAfter } from './errors.ts';
import {
  type CatchUpOptions,
  type ChangesPage,
  type ChangesQuery,
  catchUp,
  type StreamQuery,
  type StreamSubscription,
  type SubscribeOptions,
  subscribe,
} from './stream.ts';
import {
  type CallOptions,
  type CompetitionKey,
  type CurlingEvent,
  type CurlingOdds,
  type Event,
  type EventListItem,
  type EventQuery,
  type FutureListingItem,
  type FutureOddsItem,
  type FutureType,
  type GetParams,
  type GetPath,
  type GetResult,
  type HeatScoreRow,
  type JaiAlaiMatch,
  type JaiAlaiOdds,
  type KeyUsage,
  type KnockoutBracket,
  type LacrosseEvent,
  type LacrosseOdds,
  type OddsHistoryQuery,
  type OddsOf,
  type OddsQuery,
  type OddsSnapshotQuery,
  type OddType,
  type OptionalWhenEmpty,
  type OutcomePriceHistory,
  type Participant,
  type PostParams,
  type PostPath,
  type PostResult,
  type PricedCallOptions,
  PUBLIC_PREFIX,
  type SgpOptionsResponse,
  type SgpRequest,
  type SgpResponse,
  type SnapshotMarket,
  type SportListingItem,
  type StreamToken,
  type TableTennisEvent,
  type TableTennisOdds,
  type ThreeIceEvent,
} from './types.ts';

export interface RetryOptions {
  /** Further attempts after a 429 or 503. Default 2; 0 turns retrying off. */
  maxRetries?: number;
  /**
   * The longest wait before a retry. A Retry-After longer than this is not waited out: the 429 is
   * thrown at once (AltsportsApiError.retryAfterSeconds says how long), since an earlier retry would
   * only be refused again. Default 60000 ms, which covers a per-minute window.
   */
  maxDelayMs?: number;
}

export interface ClientOptions {
  /** The server's origin (and any path a proxy mounts it under), e.g. `http://127.0.0.1:3000`; `/api/v1/public` is added. */
  baseUrl: string;
  /** Sent as `X-API-KEY` on every request. */
  apiKey: string;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
  /** Per attempt, headers and body included; 0: none. Default 30000 ms. Not applied to the push stream. */
  timeoutMs?: number;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** Called before each retry: for logs and metrics. */
  onRetry?: (info: {
    method: string;
    url: string;
    status: number;
    attempt: number;
    delayMs: number;
    requestId: string | null;
  }) => void;
  /**
   * Waits between retries, polls and stream reconnections. Replace it to schedule those waits
   * yourself (tests use it to advance a mocked clock instead of waiting); it must reject or resolve
   * promptly when `signal` aborts.
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source of the stream's reconnection delays, in [0, 1). Default Math.random. */
  random?: () => number;
}

/** X-RateLimit-* of an answer: the binding window of the key. Absent for keys without limits. */
export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** Seconds until the window starts over. */
  resetSeconds: number;
}

/** X-Quota-* of an answer: the key's plan's monthly quota. Absent for keys without one. */
export interface QuotaInfo {
  /** Requests per calendar month (UTC). */
  limit: number;
  remaining: number;
  /** Seconds until the next month starts. */
  resetSeconds: number;
}

/** A 2xx answer, with what its headers say. */
export interface ApiResponse<T> {
  notModified: false;
  data: T;
  status: number;
  url: string;
  headers: Headers;
  /** The strong validator of the document: send it back as If-None-Match (`getIfChanged`, `poll`). */
  etag: string | null;
  lastModified: string | null;
  requestId: string | null;
  rateLimit: RateLimitInfo | null;
  quota: QuotaInfo | null;
  /** The `cursor` of the next page (from `Link: <...>; rel="next"`), on a list fetched with `limit`; null on the last page. */
  nextCursor: string | null;
}

/** A 304: the copy whose ETag was sent is current. */
export interface NotModified {
  notModified: true;
  status: 304;
  url: string;
  headers: Headers;
  etag: string | null;
  requestId: string | null;
  rateLimit: RateLimitInfo | null;
  quota: QuotaInfo | null;
}

export interface PollOptions {
  /** Time between two requests. Default 5000 ms. */
  intervalMs?: number;
  /** Ends the iteration (quietly). */
  signal?: AbortSignal;
  /** The ETag of a copy already held: the first answer is then a change too. */
  etag?: string;
  /** Called on every 304 (nothing changed); the iteration yields only changes. */
  onNotModified?: (answer: NotModified) => void;
  /**
   * Without it, an error (after the retries of 429/503) ends the iteration by throwing. With it,
   * errors are reported here and polling goes on at the next interval.
   */
  onError?: (error: unknown) => void;
}

export type EventsPageQuery = EventQuery & { limit: number };

export interface AltsportsClient {
  /** GET a public route by its path under /api/v1/public; resolves to the 200 body. */
  get<P extends GetPath>(path: P, ...options: OptionalWhenEmpty<GetParams<P>>): Promise<GetResult<P>>;
  /** As `get`, with the answer's headers: ETag, rate limit, request id, next page. */
  getResponse<P extends GetPath>(
    path: P,
    ...options: OptionalWhenEmpty<GetParams<P>>
  ): Promise<ApiResponse<GetResult<P>>>;
  /** A conditional GET: `NotModified` when `etag` is still current, the new document otherwise. */
  getIfChanged<P extends GetPath>(
    path: P,
    etag: string | null,
    ...options: OptionalWhenEmpty<GetParams<P>>
  ): Promise<ApiResponse<GetResult<P>> | NotModified>;
  /** POST a public route (the same game parlay); resolves to the 201 body. */
  post<P extends PostPath>(path: P, options: PostParams<P>): Promise<PostResult<P>>;
  /**
   * Polls a document with If-None-Match and yields it each time it changes (the first answer
   * included); 304s cost no body and yield nothing.
   */
  poll<P extends GetPath>(
    path: P,
    params: GetParams<P>,
    options?: PollOptions,
  ): AsyncIterableIterator<ApiResponse<GetResult<P>>>;
  /** Subscribes to the push stream: typed change events, reconnecting with Last-Event-ID. */
  subscribe(options?: SubscribeOptions): StreamSubscription;
  /**
   * Catches up from `after` with GET /changes (no stream needed), then follows the push stream from
   * where it ended; a `reset` comes first when the change log no longer reaches back to `after`.
   */
  catchUp(options: CatchUpOptions): StreamSubscription;

  /** Route 1: the 30 competitions and their markets. */
  sports(options?: CallOptions): Promise<SportListingItem[]>;
  /** Route 2: events by date range, competition and status (the whole list, or one page with `limit`). */
  events(query?: EventQuery, options?: CallOptions): Promise<EventListItem[]>;
  /** Route 2 page by page, following the Link header: yields each page's events. */
  eventPages(query: EventsPageQuery, options?: CallOptions): AsyncIterableIterator<EventListItem[]>;
  /** Route 3: one event with rounds, heats, scores and teams (prefixed id or bare uuid). */
  event(eventId: string, options?: CallOptions): Promise<Event>;
  /** Route 4: the athletes entered, by seed (a 400 for team sports). */
  participants(eventId: string, options?: CallOptions): Promise<Participant[]>;
  /** Route 5: one heat's score rows. */
  heatScores(eventId: string, heatId: string, options?: CallOptions): Promise<HeatScoreRow[]>;
  /** Route 6: one odd type's outcomes; the member named by the odd type is present in the answer's type. */
  odds<T extends OddType>(eventId: string, oddType: T, query?: OddsQuery, options?: CallOptions): Promise<OddsOf<T>>;
  /**
   * An event's price history: per outcome its opening, closing (null while it may open) and every
   * change of price or status (`oddType`, `outcomeId`, `since`, `until`; `limit`/`cursor` to page).
   */
  oddsHistory(eventId: string, query?: OddsHistoryQuery, options?: CallOptions): Promise<OutcomePriceHistory[]>;
  /** Route 7: a same game parlay of odd ids (or outcomeIds) of one event; `oddsFormat` adds `price`. */
  sgp(eventId: string, oddIds: SgpRequest, options?: PricedCallOptions): Promise<SgpResponse>;
  /** The bet builder: the legs' parlay and every outcome still offered, with whether it combines and at what price. */
  sgpOptions(eventId: string, oddIds: SgpRequest, options?: PricedCallOptions): Promise<SgpOptionsResponse>;
  /** Routes 8, 9: curling. */
  curlingEvent(eventId: string, options?: CallOptions): Promise<CurlingEvent>;
  curlingOdds(id: string, options?: CallOptions): Promise<CurlingOdds>;
  /** Routes 10, 11: table tennis. */
  tableTennisEvent(eventId: string, options?: CallOptions): Promise<TableTennisEvent>;
  tableTennisOdds(id: string, options?: CallOptions): Promise<TableTennisOdds>;
  /** Routes 12, 13: box lacrosse. */
  lacrosseEvent(eventId: string, options?: CallOptions): Promise<LacrosseEvent>;
  lacrosseOdds(id: string, options?: CallOptions): Promise<LacrosseOdds>;
  /** Routes 14, 15: 3-on-3 hockey and its season's bracket. */
  threeIceEvent(eventId: string, options?: CallOptions): Promise<ThreeIceEvent>;
  threeIceBracket(tourYearId: string, options?: CallOptions): Promise<KnockoutBracket>;
  /** Routes 16, 17: a Jai Alai card (`<prefix>:<YYYY-MM-DD>_<text>`, the list's cardId) and a match's odds. */
  jaiAlaiCard(cardId: string, options?: CallOptions): Promise<JaiAlaiMatch[]>;
  jaiAlaiOdds(id: string, options?: CallOptions): Promise<JaiAlaiOdds>;
  /** Routes 18, 19: futures, and one tour's odds of one future type. */
  futures(options?: CallOptions): Promise<FutureListingItem[]>;
  futureOdds(
    sportType: CompetitionKey,
    tourId: string,
    futureType: FutureType,
    options?: CallOptions,
  ): Promise<FutureOddsItem[]>;
  /** Every matching market of every event with route 6's items, in one call (`limit`/`cursor` to page). */
  oddsSnapshot(query?: OddsSnapshotQuery, options?: CallOptions): Promise<SnapshotMarket[]>;
  /**
   * A short-lived token for the push stream in a browser: `new EventSource(`${origin}/api/v1/public/stream?token=${token}`)`
   * opens it without the key in the page or the address bar.
   */
  streamToken(options?: CallOptions): Promise<StreamToken>;
  /** The calling key's requests this minute and today against its limits, by route (not counted itself). */
  usage(options?: CallOptions): Promise<KeyUsage>;
}

const RETRY_STATUSES = new Set([429, 503]);

interface RequestParams {
  path?: Record<string, string | number> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  signal?: AbortSignal | undefined;
  headers?: Record<string, string> | undefined;
}

export function createClient(options: ClientOptions): AltsportsClient {
  if (!options.baseUrl) throw new TypeError('createClient: baseUrl is required');
  if (!options.apiKey) throw new TypeError('createClient: apiKey is required');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const root = `${options.baseUrl.replace(/\/+$/, '')}${PUBLIC_PREFIX}`;
  const maxRetries = options.retry?.maxRetries ?? 2;
  const maxDelayMs = options.retry?.maxDelayMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;

  const baseHeaders = (extra?: Record<string, string>): Record<string, string> => ({
    accept: 'application/json',
    ...options.headers,
    ...extra,
    'x-api-key': options.apiKey,
  });

  /** Sends one request, retrying 429 and 503 as Retry-After says; returns the last answer, whatever its status. */
  async function send(
    method: string,
    url: string,
    init: { headers: Record<string, string>; body?: string; signal?: AbortSignal | undefined },
  ): Promise<Response> {
    for (let attempt = 0; ; attempt += 1) {
      const signals = [init.signal, timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined].filter(
        (s): s is AbortSignal => s !== undefined,
      );
      const response = await fetchImpl(url, {
        method,
        headers: init.headers,
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(signals.length > 0 ? { signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals) } : {}),
      });
      if (!RETRY_STATUSES.has(response.status) || attempt >= maxRetries) return response;
      const seconds = parseRetryAfter(response.headers.get('retry-after'));
      // Without Retry-After (a proxy's 503, say), back off 1 s, 2 s, 4 s...
      const delayMs = seconds === null ? Math.min(maxDelayMs, 1000 * 2 ** attempt) : seconds * 1000;
      if (delayMs > maxDelayMs) return response;
      await response.body?.cancel().catch(() => {});
      options.onRetry?.({
        method,
        url,
        status: response.status,
        attempt: attempt + 1,
        delayMs,
        requestId: response.headers.get('x-request-id'),
      });
      await sleep(delayMs, init.signal);
    }
  }

  async function call(
    method: 'GET' | 'POST',
    path: string,
    params: RequestParams = {},
    ifNoneMatch?: string | null,
  ): Promise<ApiResponse<unknown> | NotModified> {
    const url = buildUrl(root, path, params.path, params.query);
    const headers = baseHeaders(params.headers);
    if (ifNoneMatch) headers['if-none-match'] = ifNoneMatch;
    let body: string | undefined;
    if (params.body !== undefined) {
      body = JSON.stringify(params.body);
      headers['content-type'] = 'application/json';
    }
    const response = await send(method, url, { headers, body, signal: params.signal });
    const common = {
      url,
      headers: response.headers,
      etag: response.headers.get('etag'),
      requestId: response.headers.get('x-request-id'),
      rateLimit: rateLimitOf(response.headers),
      quota: quotaOf(response.headers),
    };
    if (response.status === 304) return { notModified: true, status: 304, ...common };
    if (!response.ok) throw await AltsportsApiError.from(method, url, response);
    const text = await response.text();
    return {
      notModified: false,
      data: unwrapEnvelope(text.length === 0 ? undefined : JSON.parse(text), response.status),
      status: response.status,
      lastModified: response.headers.get('last-modified'),
      nextCursor: nextCursorOf(response.headers.get('link')),
      ...common,
    };
  }

  const getResponse = async (path: string, params?: RequestParams): Promise<ApiResponse<unknown>> => {
    const answer = await call('GET', path, params);
    // Only a request with If-None-Match can be answered 304; none was sent.
    if (answer.notModified) throw new Error(`GET ${answer.url}: unexpected 304 without If-None-Match`);
    return answer;
  };
  const get = async (path: string, params?: RequestParams): Promise<unknown> => (await getResponse(path, params)).data;

  async function* poll(
    path: string,
    params: RequestParams,
    pollOptions: PollOptions = {},
  ): AsyncGenerator<ApiResponse<unknown>, void, undefined> {
    const intervalMs = pollOptions.intervalMs ?? 5_000;
    const signal = pollOptions.signal ?? params.signal;
    let etag: string | null = pollOptions.etag ?? null;
    while (!signal?.aborted) {
      try {
        const answer = await call('GET', path, { ...params, signal }, etag);
        if (answer.notModified) pollOptions.onNotModified?.(answer);
        // A server (or proxy) that ignores If-None-Match answers 200 with the same ETag: not a change.
        else if (answer.etag === null || answer.etag !== etag) {
          etag = answer.etag;
          yield answer;
        }
      } catch (error) {
        if (signal?.aborted) return;
        if (!pollOptions.onError) throw error;
        pollOptions.onError(error);
      }
      try {
        await sleep(intervalMs, signal);
      } catch {
        return;
      }
    }
  }

  async function* eventPages(
    query: EventsPageQuery,
    callOptions: CallOptions = {},
  ): AsyncGenerator<EventListItem[], void, undefined> {
    let cursor: string | undefined = query.cursor;
    for (;;) {
      const page = await getResponse('/events', {
        ...callOptions,
        query: { ...query, ...(cursor === undefined ? {} : { cursor }) },
      });
      yield page.data as EventListItem[];
      if (page.nextCursor === null) return;
      cursor = page.nextCursor;
    }
  }

  const openStream = async (query: StreamQuery, lastEventId: number | null, signal: AbortSignal) => {
    const url = buildUrl(root, '/stream', undefined, query as Record<string, unknown>);
    const headers = baseHeaders({
      accept: 'text/event-stream',
      ...(lastEventId === null ? {} : { 'last-event-id': String(lastEventId) }),
    });
    return { response: await fetchImpl(url, { headers, signal }), url };
  };

  // The generic methods are typed by the interface; inside, one untyped implementation serves every path.
  const client = {
    get: (path: string, params?: RequestParams) => get(path, params),
    getResponse: (path: string, params?: RequestParams) => getResponse(path, params),
    getIfChanged: (path: string, etag: string | null, params?: RequestParams) => call('GET', path, params, etag),
    post: async (path: string, params: RequestParams) => {
      const answer = await call('POST', path, params);
      return (answer as ApiResponse<unknown>).data;
    },
    poll: (path: string, params: RequestParams, pollOptions?: PollOptions) => poll(path, params, pollOptions),
    subscribe: (subscribeOptions?: SubscribeOptions) =>
      subscribe({ open: openStream, sleep: (ms, signal) => sleep(ms, signal), random }, subscribeOptions),
    catchUp: (catchUpOptions: CatchUpOptions) =>
      catchUp(
        async (query: ChangesQuery, signal: AbortSignal) =>
          (await get('/changes', { query: query as Record<string, unknown>, signal })) as ChangesPage,
        { open: openStream, sleep: (ms, signal) => sleep(ms, signal), random },
        catchUpOptions,
      ),
  } as unknown as Pick<
    AltsportsClient,
    'get' | 'getResponse' | 'getIfChanged' | 'post' | 'poll' | 'subscribe' | 'catchUp'
  >;

  const typed: AltsportsClient = {
    ...client,
    sports: (o) => client.get('/sports', { ...o }),
    events: (query, o) => client.get('/events', { ...o, ...(query ? { query } : {}) }),
    eventPages: (query, o) => eventPages(query, o),
    event: (eventId, o) => client.get('/events/{eventId}', { ...o, path: { eventId } }),
    participants: (eventId, o) => client.get('/events/{eventId}/participants', { ...o, path: { eventId } }),
    heatScores: (eventId, heatId, o) =>
      client.get('/events/{eventId}/heats/{heatId}', { ...o, path: { eventId, heatId } }),
    odds: async <T extends OddType>(eventId: string, oddType: T, query?: OddsQuery, o?: CallOptions) =>
      (await client.get('/events/{eventId}/{oddType}', {
        ...o,
        path: { eventId, oddType },
        ...(query ? { query } : {}),
      })) as OddsOf<T>,
    sgp: (eventId, oddIds, { oddsFormat, ...o } = {}) =>
      client.post('/events/{eventId}/sgp', {
        ...o,
        path: { eventId },
        body: oddIds,
        ...(oddsFormat ? { query: { oddsFormat } } : {}),
      }),
    sgpOptions: (eventId, oddIds, { oddsFormat, ...o } = {}) =>
      client.post('/events/{eventId}/sgp/options', {
        ...o,
        path: { eventId },
        body: oddIds,
        ...(oddsFormat ? { query: { oddsFormat } } : {}),
      }),
    curlingEvent: (eventId, o) => client.get('/events/gsoc/{eventId}', { ...o, path: { eventId } }),
    curlingOdds: (id, o) => client.get('/events/gsoc/{id}/odds', { ...o, path: { id } }),
    tableTennisEvent: (eventId, o) => client.get('/events/mltt/{eventId}', { ...o, path: { eventId } }),
    tableTennisOdds: (id, o) => client.get('/events/mltt/{id}/odds', { ...o, path: { id } }),
    lacrosseEvent: (eventId, o) => client.get('/events/nll/{eventId}', { ...o, path: { eventId } }),
    lacrosseOdds: (id, o) => client.get('/events/nll/{id}/odds', { ...o, path: { id } }),
    threeIceEvent: (eventId, o) => client.get('/events/3ice/{eventId}', { ...o, path: { eventId } }),
    threeIceBracket: (tourYearId, o) => client.get('/events/3ice/bracket/{tourYearId}', { ...o, path: { tourYearId } }),
    jaiAlaiCard: (cardId, o) => client.get('/events/jaialai/{id}', { ...o, path: { id: cardId } }),
    jaiAlaiOdds: (id, o) => client.get('/events/jaialai/{id}/odds', { ...o, path: { id } }),
    futures: (o) => client.get('/futures', { ...o }),
    futureOdds: (sportType, tourId, futureType, o) =>
      client.get('/futures/{sportType}/tour/{tourId}/odds/{futureType}', {
        ...o,
        path: { sportType, tourId, futureType },
      }),
    usage: (o) => client.get('/usage', { ...o }),
    streamToken: (o) => client.post('/stream/tokens', { ...o }),
    oddsSnapshot: (query, o) => client.get('/odds', { ...o, ...(query ? { query } : {}) }),
    oddsHistory: (eventId, query, o) =>
      client.get('/events/{eventId}/odds-history', { ...o, path: { eventId }, ...(query ? { query } : {}) }),
  };
  return typed;
}

/** Fills `{name}` segments (encoded, `:` kept as ids use it) and appends the query; arrays repeat the parameter. */
export function buildUrl(
  root: string,
  path: string,
  pathParams: Record<string, string | number> | undefined,
  query: Record<string, unknown> | undefined,
): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = pathParams?.[name];
    if (value === undefined || value === '') throw new TypeError(`${path}: the path parameter "${name}" is missing`);
    return encodeURIComponent(String(value)).replace(/%3A/gi, ':');
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const qs = search.toString();
  return `${root}${filled}${qs ? `?${qs}` : ''}`;
}

/** A window's three headers (`x-ratelimit` or `x-quota`) as numbers; null unless all three are there. */
function windowOf(headers: Headers, prefix: string): { limit: number; remaining: number; resetSeconds: number } | null {
  const limit = headers.get(`${prefix}-limit`);
  const remaining = headers.get(`${prefix}-remaining`);
  const reset = headers.get(`${prefix}-reset`);
  if (limit === null || remaining === null || reset === null) return null;
  return { limit: Number(limit), remaining: Number(remaining), resetSeconds: Number(reset) };
}

const rateLimitOf = (headers: Headers): RateLimitInfo | null => windowOf(headers, 'x-ratelimit');
const quotaOf = (headers: Headers): QuotaInfo | null => windowOf(headers, 'x-quota');

/** The cursor of `Link: <...?cursor=...>; rel="next"`. Kept as a cursor, not a URL: the link is relative to the server, which a proxy may rewrite. */
function nextCursorOf(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (!match || !/\brel="?next"?/.test(match[2] ?? '')) continue;
    return new URL(match[1] ?? '', 'http://link.invalid').searchParams.get('cursor');
  }
  return null;
}

/** A server started with RESPONSE_ENVELOPE=data wraps every success as `{ status, message, data }`: the client returns `data` either way. */
function unwrapEnvelope(body: unknown, status: number): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const keys = Object.keys(body);
  const wrapped = body as { status?: unknown; message?: unknown; data?: unknown };
  const isEnvelope =
    keys.length === 3 && 'data' in wrapped && wrapped.status === status && typeof wrapped.message === 'string';
  return isEnvelope ? wrapped.data : body;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
