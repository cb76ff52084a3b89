/**
 * The push stream (`GET /api/v1/public/stream`) as an async iterator of typed change events, over
 * fetch so that the API key goes in a header (EventSource cannot send one). It reconnects by itself
 * after a disconnect, a server's `close` (shutdown: reconnect to another node) or a silent connection,
 * with Last-Event-ID so that the server replays what was missed from its change log.
 */

import { EventSourceParserStream } from 'eventsource-parser/stream';
import { AltsportsApiError, parseRetryAfter } from './errors.ts';
import type { PublicPaths, Schemas } from './types.ts';

/** The changes route's query parameters and answer (recovery without the stream), from the OpenAPI document. */
export type ChangesQuery = NonNullable<PublicPaths['/changes']['get']>['parameters']['query'];
export type ChangesPage = NonNullable<PublicPaths['/changes']['get']>['responses'][200]['content']['application/json'];

/** The stream's query parameters, from the OpenAPI document. */
export type StreamQuery = NonNullable<NonNullable<PublicPaths['/stream']['get']>['parameters']['query']>;
/** The kinds of change a subscription can ask for (`reset` always comes). */
export type ChangeKind = NonNullable<StreamQuery['kind']>[number];

// The event payloads, from the OpenAPI document's components: the stream itself is text/event-stream,
// which OpenAPI cannot type, so the server publishes each event's data as a component of its own.
export type EventChange = Schemas['EventChange'];
export type HeatScoreChange = Schemas['HeatScoreChange'];
/** The new prices come with it: at most 200, with `truncated` set when there were more (refetch the event's odds). */
export type OddsChange = Schemas['OddsChange'];
/**
 * Settlements of an event may have moved; `outcomes` lists those that did, each with its `previous`
 * and new `settlement` (a changed result: settlementReason RESULT_CHANGED; a provisional result made
 * official: settlementStatus PROVISIONAL to OFFICIAL).
 */
export type SettlementChange = Schemas['SettlementChange'];
/** One outcome of a SettlementChange: its previous and its new settlement. */
export type SettledOutcome = Schemas['SettledOutcome'];
export type FutureChange = Schemas['FutureChange'];
/** `bulk`: too much changed to list; `reference`: shared facts (athletes, teams) changed; `resume`: the log no longer reaches back to Last-Event-ID. */
export type ResetNotice = Schemas['ResetNotice'];

interface Change<K extends string, D> {
  type: K;
  /** The change id: persist the last one to resume from it (`lastEventId`) after a restart. */
  id: number;
  data: D;
}

/** What a subscription yields. `close` and heartbeats are handled inside (reconnect, keep-alive). */
export type StreamEvent =
  /** Sent at every (re)connection; `id` is null when resuming (the position is the one resumed from). */
  | { type: 'ready'; id: number | null; data: Schemas['StreamReady'] }
  | Change<'event', EventChange>
  | Change<'heatScore', HeatScoreChange>
  | Change<'odds', OddsChange>
  | Change<'settlement', SettlementChange>
  | Change<'future', FutureChange>
  /** Refetch what you show: changes were missed or too many to list. */
  | Change<'reset', ResetNotice>;

export interface SubscribeOptions {
  competition?: StreamQuery['competition'];
  eventId?: StreamQuery['eventId'];
  kind?: StreamQuery['kind'];
  /** Adds `price` in this format to each odd an `odds` change reports. */
  oddsFormat?: StreamQuery['oddsFormat'];
  /** Resume after this change id (a `StreamEvent.id` saved earlier). */
  lastEventId?: number;
  /** Ends the iteration (quietly: the loop just stops). */
  signal?: AbortSignal;
  reconnect?: {
    /** Delay before the first reconnection, unless the server's `retry:` says otherwise. Default 2000 ms. */
    initialDelayMs?: number;
    /** Upper bound of the doubling delay between failed attempts. Default 30000 ms. */
    maxDelayMs?: number;
  };
  /** Reconnect when nothing, not even a heartbeat, arrives for this long; keep it above the server's STREAM_HEARTBEAT_SECONDS. 0: never. Default 60000 ms. */
  idleTimeoutMs?: number;
  /** Called before each reconnection, with why and the delay: for logs and metrics. */
  onReconnect?: (info: {
    reason: 'close' | 'ended' | 'error' | 'idle' | 'status';
    delayMs: number;
    lastEventId: number | null;
    error?: unknown;
  }) => void;
}

export interface StreamSubscription extends AsyncIterableIterator<StreamEvent> {
  /** The id to resume from: the last change received (or the position `ready` announced). */
  readonly lastEventId: number | null;
  /** Stops the subscription and closes its connection. */
  close(): void;
}

/** What the client gives the stream: how to open a connection, and how to wait. */
export interface StreamTransport {
  open(
    query: StreamQuery,
    lastEventId: number | null,
    signal: AbortSignal,
  ): Promise<{ response: Response; url: string }>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  random(): number;
}

const KNOWN = new Set<StreamEvent['type']>(['ready', 'event', 'heatScore', 'odds', 'settlement', 'future', 'reset']);

/** Non-2xx answers worth another attempt; anything else (a bad key, a bad filter) ends the subscription. */
const RETRIABLE = (status: number) => status === 408 || status === 429 || status >= 500;

export function subscribe(transport: StreamTransport, options: SubscribeOptions = {}): StreamSubscription {
  const controller = new AbortController();
  const outer = options.signal;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });

  const initialDelayMs = options.reconnect?.initialDelayMs ?? 2_000;
  const maxDelayMs = options.reconnect?.maxDelayMs ?? 30_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const query: StreamQuery = {
    ...(options.competition ? { competition: options.competition } : {}),
    ...(options.eventId ? { eventId: options.eventId } : {}),
    ...(options.kind ? { kind: options.kind } : {}),
    ...(options.oddsFormat ? { oddsFormat: options.oddsFormat } : {}),
  };
  let lastEventId: number | null = options.lastEventId ?? null;

  async function* run(): AsyncGenerator<StreamEvent, void, undefined> {
    let baseDelayMs = initialDelayMs;
    // Consecutive attempts that got no stream: the delay doubles with each.
    let failures = 0;
    try {
      while (!controller.signal.aborted) {
        let reason: 'close' | 'ended' | 'error' | 'idle' | 'status' = 'ended';
        let retryAfterMs: number | null = null;
        let error: unknown;
        // One connection's own signal: aborted by the caller, or by the idle timer.
        const connection = new AbortController();
        const abortConnection = () => connection.abort();
        controller.signal.addEventListener('abort', abortConnection, { once: true });
        let idle: ReturnType<typeof setTimeout> | undefined;
        let idled = false;
        const touch = () => {
          if (idleTimeoutMs <= 0) return;
          clearTimeout(idle);
          idle = setTimeout(() => {
            idled = true;
            connection.abort();
          }, idleTimeoutMs);
          // A silent stream must not keep the process alive on its own.
          idle.unref?.();
        };
        try {
          touch();
          const { response, url } = await transport.open(query, lastEventId, connection.signal);
          if (!response.ok || !response.body) {
            if (!RETRIABLE(response.status)) throw await AltsportsApiError.from('GET', url, response);
            const seconds = parseRetryAfter(response.headers.get('retry-after'));
            retryAfterMs = seconds === null ? null : seconds * 1000;
            await response.body?.cancel().catch(() => {});
            reason = 'status';
            failures += 1;
          } else {
            failures = 0;
            const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(
              new EventSourceParserStream({
                onRetry: (retry) => {
                  baseDelayMs = retry;
                },
                // Heartbeats are comments: they show the connection is alive.
                onComment: touch,
              }),
            );
            const reader = messages.getReader();
            try {
              for (;;) {
                const { value: message, done } = await reader.read();
                if (done) break;
                touch();
                if (message.id !== undefined && /^\d+$/.test(message.id)) lastEventId = Number(message.id);
                if (message.event === 'close') {
                  reason = 'close';
                  break;
                }
                const event = toStreamEvent(message.event ?? 'message', message.id, message.data);
                if (event) {
                  // A ready without an id announces where a fresh stream starts.
                  if (event.type === 'ready' && lastEventId === null) lastEventId = event.data.lastEventId;
                  yield event;
                }
              }
            } finally {
              await reader.cancel().catch(() => {});
            }
          }
        } catch (caught) {
          if (controller.signal.aborted) return;
          if (caught instanceof AltsportsApiError) throw caught;
          reason = idled ? 'idle' : 'error';
          error = caught;
          failures += 1;
        } finally {
          clearTimeout(idle);
          controller.signal.removeEventListener('abort', abortConnection);
          connection.abort();
        }
        if (controller.signal.aborted) return;
        const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, failures - 1));
        // Jitter spreads the reconnections of many clients after one node's shutdown.
        const jittered = Math.round(backoff * (0.5 + transport.random() / 2));
        const delayMs = Math.max(retryAfterMs ?? 0, jittered);
        options.onReconnect?.({ reason, delayMs, lastEventId, ...(error === undefined ? {} : { error }) });
        await transport.sleep(delayMs, controller.signal).catch(() => {});
      }
    } finally {
      controller.abort();
      outer?.removeEventListener('abort', onAbort);
    }
  }

  return subscription(run(), controller, () => lastEventId);
}

/** A subscription over `iterator`: closing it, or ending the iteration early, aborts `controller`. */
function subscription(
  iterator: AsyncGenerator<StreamEvent, void, undefined>,
  controller: AbortController,
  lastEventId: () => number | null,
): StreamSubscription {
  return {
    get lastEventId() {
      return lastEventId();
    },
    close() {
      controller.abort();
    },
    next: () => iterator.next(),
    return: (value?: unknown) => {
      controller.abort();
      return iterator.return(value as undefined);
    },
    throw: (error?: unknown) => {
      controller.abort();
      return iterator.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

function toStreamEvent(type: string, id: string | undefined, data: string): StreamEvent | null {
  if (!KNOWN.has(type as StreamEvent['type'])) return null; // a kind newer than this client: skipped
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  const numericId = id !== undefined && /^\d+$/.test(id) ? Number(id) : null;
  if (type === 'ready') return { type, id: numericId, data: parsed } as StreamEvent;
  if (numericId === null) return null;
  return { type, id: numericId, data: parsed } as StreamEvent;
}

export interface CatchUpOptions extends SubscribeOptions {
  /** The last change id the client has: it reads the changes after it, then follows the stream. */
  after: number;
  /** Changes per page of GET /changes (1 to 1000). Default 500. */
  limit?: number;
}

/** GET /changes cannot read on from `after`: the log dropped it (410), or it is ahead of the log (400). */
function isLostPosition(error: unknown): error is AltsportsApiError {
  if (!(error instanceof AltsportsApiError)) return false;
  const ahead =
    error.status === 400 && error.metadata.parameter === 'after' && typeof error.metadata.lastEventId === 'number';
  return error.status === 410 || ahead;
}

/**
 * Catches up without the stream, then follows it: reads GET /changes page after page from `after`
 * until it is complete, yielding each change as the stream would, then subscribes from where the last
 * page ended. When the change log no longer reaches back to `after` (a 410), or `after` is ahead of
 * it (a 400 on `after` giving the log's lastEventId: another server's id), it yields a `reset` (reason
 * `resume`: refetch what you show) and follows the stream from the log's end, as the stream does.
 */
export function catchUp(
  read: (query: ChangesQuery, signal: AbortSignal) => Promise<ChangesPage>,
  transport: StreamTransport,
  options: CatchUpOptions,
): StreamSubscription {
  const { after, limit, ...streamOptions } = options;
  const controller = new AbortController();
  const outer = options.signal;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  let position = after;
  let stream: StreamSubscription | null = null;

  async function* recover(): AsyncGenerator<StreamEvent, void, undefined> {
    const filters = {
      ...(options.competition ? { competition: options.competition } : {}),
      ...(options.eventId ? { eventId: options.eventId } : {}),
      ...(options.kind ? { kind: options.kind } : {}),
    };
    try {
      for (;;) {
        const page = await read({ ...filters, after: position, ...(limit ? { limit } : {}) }, controller.signal);
        for (const change of page.changes) {
          const event = toStreamEvent(change.kind, String(change.id), JSON.stringify(change.data));
          position = change.id;
          if (event) yield event;
        }
        position = page.lastEventId;
        if (page.complete) return;
      }
    } catch (error) {
      if (!isLostPosition(error)) throw error;
      const last = error.metadata.lastEventId;
      position = typeof last === 'number' ? last : position;
      yield {
        type: 'reset',
        id: position,
        data: { reason: 'resume', message: error.serverMessage, publishedAt: new Date().toISOString() },
      };
    }
  }

  async function* run(): AsyncGenerator<StreamEvent, void, undefined> {
    try {
      yield* recover();
      if (controller.signal.aborted) return;
      stream = subscribe(transport, { ...streamOptions, lastEventId: position, signal: controller.signal });
      yield* stream;
    } catch (error) {
      if (controller.signal.aborted) return;
      throw error;
    } finally {
      controller.abort();
      outer?.removeEventListener('abort', onAbort);
    }
  }

  return subscription(run(), controller, () => (stream ? stream.lastEventId : position));
}
