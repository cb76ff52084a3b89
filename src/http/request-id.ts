import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The id a request is logged and answered under: the client's `X-Request-ID` when it is sane, else a new UUID. */
export function requestId(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : newUuid();
}

// Random bytes are drawn for many ids at once, as crypto.randomUUID does.
const IDS_PER_DRAW = 128;
const random = Buffer.alloc(16 * IDS_PER_DRAW);
let drawn = IDS_PER_DRAW;
const HEX = Buffer.from('0123456789abcdef', 'latin1');
const text = Buffer.alloc(36);

/**
 * A random (version 4) UUID, as one flat string. crypto.randomUUID joins 16 pieces with `+`, which in
 * V8 is a rope of them, and Node checks each response header value with a regular expression, which
 * on a rope first flattens it in V8's runtime: about 2,000 instructions a request (BENCHMARKS.md
 * "Results after session 12"). Decoding the text from bytes gives a flat string at once.
 */
export function newUuid(): string {
  if (drawn === IDS_PER_DRAW) {
    randomFillSync(random);
    drawn = 0;
  }
  const start = 16 * drawn++;
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = 0x2d;
    let byte = random[start + i] as number;
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    text[at++] = HEX[byte >> 4] as number;
    text[at++] = HEX[byte & 0x0f] as number;
  }
  return text.toString('latin1');
}
