import secureJson from 'secure-json-parse';
import { pace } from '../base/event-loop-turns.ts';

/**
 * A large JSON body (an admin feed of tens of MB) parsed without holding the event loop: JSON.parse of
 * a 56 MB feed is one step of about a second. A body that is an object whose values are arrays (a feed
 * document) is cut into its arrays' items by a scan that follows strings and nesting, and each item is
 * parsed on its own, letting the loop answer others between items (`pace()`). Anything else, and any
 * body the scan or an item's parse finds wrong, is parsed whole by `parseWhole`, so that every answer
 * (the value, or the error and its message) is exactly what one JSON.parse would have given.
 */

/** Below this many characters a body is parsed in one step (well under a millisecond a kilobyte). */
export const LARGE_JSON_CHARS = 1024 * 1024;

const SECURE = { protoAction: 'error', constructorAction: 'error' } as const;

/** Raised by the scan when the text is not the shape it cuts: the caller parses it whole. */
class NotCut extends Error {}

/** Bytes decoded at a time: a 56 MB body's toString was one step of a quarter of a second. */
const DECODE_SLICE = 1024 * 1024;

/**
 * The body's text, as Buffer#toString('utf8') gives it (invalid sequences replaced, a byte order mark
 * kept), decoded a slice at a time when large.
 */
export async function decodeUtf8Paced(body: Buffer): Promise<string> {
  if (body.length < LARGE_JSON_CHARS) return body.toString('utf8');
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const parts: string[] = [];
  for (let at = 0; at < body.length; at += DECODE_SLICE) {
    parts.push(decoder.decode(body.subarray(at, at + DECODE_SLICE), { stream: true }));
    await pace();
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** The body's value; `parseWhole` for bodies that are small, not cut, or wrong. */
export async function parseJsonPaced(text: string, parseWhole: (text: string) => unknown): Promise<unknown> {
  if (text.length < LARGE_JSON_CHARS) return parseWhole(text);
  try {
    return await parseCut(text);
  } catch (error) {
    if (error instanceof NotCut || error instanceof SyntaxError) return parseWhole(text);
    throw error;
  }
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index just past the string that opens at `at`. */
function skipString(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === QUOTE) return i + 1;
  }
  throw new NotCut();
}

/** The index just past the value that starts at `at` (its syntax is JSON.parse's to check). */
function skipValue(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return skipString(text, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = at;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) i = skipString(text, i) - 1;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new NotCut();
}

function expect(text: string, at: number, code: number): number {
  if (text.charCodeAt(at) !== code) throw new NotCut();
  return at + 1;
}

/** An object of arrays (and other values), parsed an array item at a time. */
async function parseCut(text: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let i = expect(text, skipSpace(text, 0), OPEN_BRACE);
  i = skipSpace(text, i);
  if (text.charCodeAt(i) === CLOSE_BRACE) i++;
  else
    for (;;) {
      const keyEnd = skipString(text, expect(text, i, QUOTE) - 1);
      const key = JSON.parse(text.slice(i, keyEnd)) as string;
      // What secure-json-parse refuses: the whole parse says so in its own words.
      if (key === '__proto__' || key === 'constructor') throw new NotCut();
      i = skipSpace(text, expect(text, skipSpace(text, keyEnd), COLON));
      if (text.charCodeAt(i) === OPEN_BRACKET) {
        const items: unknown[] = [];
        i = await parseItems(text, i, items);
        out[key] = items;
      } else {
        const end = skipValue(text, i);
        out[key] = secureJson.parse(text.slice(i, end), SECURE);
        i = end;
      }
      i = skipSpace(text, i);
      if (text.charCodeAt(i) === CLOSE_BRACE) {
        i++;
        break;
      }
      i = skipSpace(text, expect(text, i, COMMA));
    }
  if (skipSpace(text, i) !== text.length) throw new NotCut();
  return out;
}

/** Parses the items of the array that opens at `at` into `items`; the index just past it. */
async function parseItems(text: string, at: number, items: unknown[]): Promise<number> {
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
  for (;;) {
    const end = skipValue(text, i);
    items.push(secureJson.parse(text.slice(i, end), SECURE));
    await pace();
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
    i = skipSpace(text, expect(text, i, COMMA));
  }
}
