import type { ServerErrorResponse } from './types.ts';

/**
 * A non-2xx answer of the API. Carries the specification's error body (section 7: `message`,
 * `statusCode`, `timestamp`, `metadata`, `stack`) and the `X-Request-ID` the server logged it under,
 * which is what an operator needs to find the request.
 */
export class AltsportsApiError extends Error {
  override readonly name = 'AltsportsApiError';
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The body's `statusCode` (the HTTP status, unless something in between rewrote the answer). */
  readonly statusCode: number;
  readonly timestamp: string | null;
  /** Details: the offending parameter, item or field, conflicting odd ids, the rate-limit window... */
  readonly metadata: Record<string, unknown>;
  /** The body's `stack`: empty unless the server runs with DEBUG_ERRORS=on. (`Error.stack` stays the client's own.) */
  readonly serverStack: string;
  /** The whole error body; null when the answer was not a JSON error body (a proxy's HTML page, say). */
  readonly body: ServerErrorResponse | null;
  readonly requestId: string | null;
  /** Retry-After in seconds, on 429 and 503 answers. */
  readonly retryAfterSeconds: number | null;
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;

  constructor(init: {
    method: string;
    url: string;
    status: number;
    headers: Headers;
    body: ServerErrorResponse | null;
    text: string;
  }) {
    const message = init.body?.message ?? (init.text.trim().slice(0, 200) || `HTTP ${init.status}`);
    super(`${init.method} ${init.url}: ${init.status} ${message}`);
    this.status = init.status;
    this.statusCode = typeof init.body?.statusCode === 'number' ? init.body.statusCode : init.status;
    this.timestamp = init.body?.timestamp ?? null;
    this.metadata = init.body?.metadata ?? {};
    this.serverStack = init.body?.stack ?? '';
    this.body = init.body;
    this.requestId = init.headers.get('x-request-id');
    this.retryAfterSeconds = parseRetryAfter(init.headers.get('retry-after'));
    this.method = init.method;
    this.url = init.url;
    this.headers = init.headers;
  }

  /** The body's message, without the method and URL that `message` starts with. */
  get serverMessage(): string {
    return this.body?.message ?? '';
  }

  /** Reads an error answer's body (consuming it) into an AltsportsApiError. */
  static async from(method: string, url: string, response: Response): Promise<AltsportsApiError> {
    const text = await response.text().catch(() => '');
    return new AltsportsApiError({
      method,
      url,
      status: response.status,
      headers: response.headers,
      body: parseErrorBody(text),
      text,
    });
  }
}

function parseErrorBody(text: string): ServerErrorResponse | null {
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
      const raw = body as Partial<ServerErrorResponse>;
      return {
        message: raw.message as string,
        statusCode: raw.statusCode as number,
        // An older server's body has no code: empty, as its stack is.
        code: typeof raw.code === 'string' ? raw.code : '',
        timestamp: raw.timestamp as string,
        metadata: typeof raw.metadata === 'object' && raw.metadata !== null ? raw.metadata : {},
        stack: typeof raw.stack === 'string' ? raw.stack : '',
      };
    }
  } catch {
    // Not JSON: the text is kept in the message.
  }
  return null;
}

/** Retry-After as seconds: delta-seconds, or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
