/**
 * A small server-sent events client for tests: `fetch` over real HTTP, the body parsed by
 * eventsource-parser into messages as they arrive.
 */
import { createParser } from 'eventsource-parser';
import { assertStreamData } from './stream-data.ts';

/** One message of the stream: an event (`event`, `id`, `data`), a `retry`, or a comment. */
export interface SseMessage {
  id?: string;
  event?: string;
  /** The data lines joined with \n; undefined when the block had none. */
  data?: string;
  retry?: number;
  comments: string[];
}

export interface SseEvent extends SseMessage {
  event: string;
  /** `data` parsed as JSON. */
  json: unknown;
}

/** Generous: something the server sends at once, or a heartbeat of a 1-second interval. */
export const SSE_WAIT_MS = 5_000;

export class SseStream {
  readonly status: number;
  readonly headers: Headers;
  /** Everything parsed so far, in order. */
  readonly received: SseMessage[] = [];
  /** Settles when the server ends the stream (or the client closes it). */
  readonly ended: Promise<void>;
  private readonly queue: SseMessage[] = [];
  private readonly waiters: Array<(message: SseMessage | null) => void> = [];
  private done = false;

  private readonly response: Response;
  private readonly abort: AbortController;

  private constructor(response: Response, abort: AbortController) {
    this.response = response;
    this.abort = abort;
    this.status = response.status;
    this.headers = response.headers;
    this.ended = response.ok && response.body ? this.read(response.body) : Promise.resolve();
  }

  /** Opens the stream; on a status other than 200, read the error with `text()`. */
  static async open(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
    const abort = new AbortController();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
    return new SseStream(response, abort);
  }

  text(): Promise<string> {
    return this.response.text();
  }

  /** The next message of any kind (retry, comment, event); rejects after `timeoutMs` or when the stream ends first. */
  async next(timeoutMs = SSE_WAIT_MS): Promise<SseMessage> {
    const queued = this.queue.shift();
    if (queued) return queued;
    if (this.done) throw new Error(`the stream ended; received: ${this.describe()}`);
    let timer: NodeJS.Timeout | undefined;
    let waiter: ((message: SseMessage | null) => void) | undefined;
    try {
      const message = await new Promise<SseMessage | null>((resolve, reject) => {
        waiter = resolve;
        this.waiters.push(resolve);
        timer = setTimeout(
          () => reject(new Error(`no message within ${timeoutMs} ms; received: ${this.describe()}`)),
          timeoutMs,
        );
      });
      if (message === null) throw new Error(`the stream ended; received: ${this.describe()}`);
      return message;
    } finally {
      clearTimeout(timer);
      const index = waiter ? this.waiters.indexOf(waiter) : -1;
      if (index >= 0) this.waiters.splice(index, 1);
    }
  }

  /** The next event (a block with an `event` field), skipping comments (heartbeats) and `retry`; its data checked against its schema. */
  async nextEvent(timeoutMs = SSE_WAIT_MS): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = await this.next(Math.max(1, deadline - Date.now()));
      if (message.event === undefined) continue;
      const json = message.data === undefined ? undefined : JSON.parse(message.data);
      // Every event a test reads is also checked against its published schema.
      assertStreamData(message.event, json);
      return { ...message, event: message.event, json };
    }
  }

  /** The next `count` events. */
  async events(count: number, timeoutMs = SSE_WAIT_MS): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    while (events.length < count) events.push(await this.nextEvent(timeoutMs));
    return events;
  }

  /** Events up to and including the first one `last` accepts. */
  async eventsUntil(last: (event: SseEvent) => boolean, timeoutMs = SSE_WAIT_MS): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (;;) {
      const event = await this.nextEvent(timeoutMs);
      events.push(event);
      if (last(event)) return events;
    }
  }

  /** Closes the connection from the client's side. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.ended;
  }

  private describe(): string {
    return JSON.stringify(
      this.received.map((m) =>
        m.event ? `${m.id ?? ''}:${m.event}` : m.comments.length ? `: ${m.comments.join(' ')}` : `retry ${m.retry}`,
      ),
    );
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const parser = createParser({
      onEvent: ({ id, event, data }) => this.push({ id, event, data, comments: [] }),
      onRetry: (retry) => this.push({ retry, comments: [] }),
      onComment: (comment) => this.push({ comments: [comment.trimStart()] }),
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // Aborted by close(), or the connection dropped: the stream has ended either way.
    } finally {
      this.done = true;
      for (const waiter of this.waiters.splice(0)) waiter(null);
    }
  }

  private push(message: SseMessage): void {
    this.received.push(message);
    const waiter = this.waiters.shift();
    if (waiter) waiter(message);
    else this.queue.push(message);
  }
}
