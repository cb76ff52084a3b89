/**
 * An incremental parser of text/event-stream, as the HTML standard's "event stream interpretation"
 * describes it (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 * fed chunks as they arrive, split anywhere, it returns the events they complete. Written here rather
 * than taken from EventSource because EventSource cannot send the API key header.
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event` field; `message` when the block had none. */
  event: string;
  /** The data lines joined with \n. */
  data: string;
  /** The block's own `id` field, when it had one. */
  id: string | undefined;
  /** The stream's last event id once this event is dispatched (the block's id, or the one before). */
  lastEventId: string;
}

export class SseParser {
  /** What a reconnection should send as Last-Event-ID. */
  lastEventId = '';
  /** The reconnection delay the server asked for (`retry:`), ms. */
  retry: number | undefined;
  /** Comment lines seen (`: heartbeat ...`): they only keep the connection alive. */
  comments = 0;

  private buffer = '';
  private started = false;
  private data: string[] = [];
  private eventType = '';
  private blockId: string | undefined;

  /** Feeds decoded text; returns the events that it completes, in order. */
  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    if (!this.started && this.buffer.length > 0) {
      this.started = true;
      if (this.buffer.charCodeAt(0) === 0xfeff) this.buffer = this.buffer.slice(1);
    }
    const events: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const match = /\r\n|\r|\n/g;
      match.lastIndex = start;
      const found = match.exec(this.buffer);
      if (!found) break;
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for the next one.
      if (found[0] === '\r' && found.index === this.buffer.length - 1) break;
      const event = this.line(this.buffer.slice(start, found.index));
      if (event) events.push(event);
      start = found.index + found[0].length;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.comments += 1;
      return null;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        // The standard ignores ids with NUL; an id applies even to a block without data.
        if (!value.includes('\0')) {
          this.lastEventId = value;
          this.blockId = value;
        }
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
    return null;
  }

  private dispatch(): SseEvent | null {
    const { data, eventType, blockId } = this;
    this.data = [];
    this.eventType = '';
    this.blockId = undefined;
    if (data.length === 0) return null;
    return { event: eventType || 'message', data: data.join('\n'), id: blockId, lastEventId: this.lastEventId };
  }
}
