/**
 * A small server-sent events client for tests: `fetch` over real HTTP, the body parsed into messages
 * as they arrive (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 */
import { assertStreamData } from './stream-data.ts';

/** One block of the stream: an event (`event`, `id`, `data`), a `retry`, or only comments. */
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

  private constructor(
    private readonly response: Response,
    private readonly abort: AbortController,
  ) {
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
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message = parseBlock(block);
          if (message) this.push(message);
        }
      }
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

function parseBlock(block: string): SseMessage | null {
  const message: SseMessage = { comments: [] };
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '') continue;
    if (line.startsWith(':')) {
      message.comments.push(line.slice(1).trimStart());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') message.event = value;
    else if (field === 'id') message.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) message.retry = Number(value);
  }
  if (data.length > 0) message.data = data.join('\n');
  const empty =
    message.event === undefined &&
    message.id === undefined &&
    message.data === undefined &&
    message.retry === undefined &&
    message.comments.length === 0;
  return empty ? null : message;
}
