import secureJson from 'secure-json-parse';
import { pace } from '../base/event-loop-turns.ts';
import { fail } from '../domain/errors.ts';
import { jsonSyntaxProblem } from '../domain/text.ts';

/**
 * The one reader of large JSON documents (an admin feed of tens of MB, `altsports import` of one
 * document, any large request body): a scan of the bytes as they come that follows strings and
 * nesting and cuts a document that is an object into its members, and a member that is an array into
 * its items, each parsed on its own by secure-json-parse (JSON.parse; a prototype key refused as the
 * whole parse refuses it). Between items the scan checks the document's own grammar; anything else
 * it cannot read (NotCut) is its caller's to parse whole, for JSON.parse's answer. JSON.parse read a
 * 60 MB feed in 0.3 s, this in 0.6 s, @streamparser/json (used until 2026-11-29) in 3.7 s.
 */

/** From this many bytes a body is cut (below, one parse is well under a millisecond a kilobyte). */
export const LARGE_JSON_BYTES = 1024 * 1024;

/** The cutter cannot read the bytes (not the shape it cuts, or not JSON): the caller parses them whole. */
export class NotCut extends Error {}

/** What a cut document holds, in the order it holds it; each callback may throw to stop the reading. */
export interface CutHandlers {
  /** A member whose value is not an array: its name, its value, the byte offset of its value. */
  member?(name: string, value: unknown, offset: number): void;
  /** A member whose value is an array opens: its name, the byte offset of its `[`. */
  array?(name: string, offset: number): void;
  /** The next item of the array `name` (counted from 0). */
  item(name: string, index: number, value: unknown): void;
  /** The array `name` closes: the byte offset of its `]`. */
  close?(name: string, offset: number): void;
}

const SECURE = { protoAction: 'error', constructorAction: 'error' } as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** Where the scan is: between values (what it expects next), or inside one. */
const At = {
  Document: 0,
  KeyOrEnd: 1,
  Key: 2,
  Colon: 3,
  Value: 4,
  ArrayStart: 5,
  ItemOrEnd: 6,
  Item: 7,
  AfterItem: 8,
  AfterMember: 9,
  Done: 10,
  InValue: 11,
} as const;
type At = (typeof At)[keyof typeof At];

/** What the value being read is: a member's name, a member's value, an item. */
const Role = { Key: 0, Member: 1, Item: 2 } as const;
type Role = (typeof Role)[keyof typeof Role];

/** How the value being read ends: at its closing bracket, at its closing quote, before a delimiter. */
const Shape = { Nested: 0, Text: 1, Scalar: 2 } as const;
type Shape = (typeof Shape)[keyof typeof Shape];

/**
 * The cutter: `write` each chunk of the document's bytes in order, then `end`. By default the document
 * is an object; `{ array: name }` reads bytes that are one array, as the items of a member `name`.
 */
export class JsonCutter {
  #at: At;
  #offset = 0;
  #name = '';
  #index = 0;
  readonly #arrayOnly: boolean;
  // The value being read: its role, how it ends, its bytes in earlier chunks, where it began.
  #role: Role = Role.Item;
  #shape: Shape = Shape.Scalar;
  #held: Uint8Array[] = [];
  #start = 0;
  #startOffset = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;

  readonly #handlers: CutHandlers;

  constructor(handlers: CutHandlers, { array }: { array?: string } = {}) {
    this.#handlers = handlers;
    this.#arrayOnly = array !== undefined;
    this.#name = array ?? '';
    this.#at = this.#arrayOnly ? At.ArrayStart : At.Document;
  }

  write(chunk: Uint8Array): void {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      if (this.#at === At.InValue) {
        i = this.#scan(bytes, i);
        continue;
      }
      const byte = bytes[i] as number;
      if (!isSpace(byte)) this.#at = this.#next(i, byte);
      i++;
    }
    if (this.#at === At.InValue) {
      this.#held.push(bytes.subarray(this.#start));
      this.#start = 0;
    }
    this.#offset += n;
  }

  end(): void {
    if (this.#at !== At.Done) throw new NotCut(`the document ends early (byte ${this.#offset})`);
  }

  /** The byte at `i` (not white space) between values: what the scan expects after it. */
  #next(i: number, byte: number): At {
    switch (this.#at) {
      case At.Document:
        return this.#expect(byte === OPEN_BRACE, At.KeyOrEnd, i);
      case At.KeyOrEnd:
        return byte === CLOSE_BRACE ? At.Done : this.#key(i, byte);
      case At.Key:
        return this.#key(i, byte);
      case At.Colon:
        return this.#expect(byte === COLON, At.Value, i);
      case At.Value:
        return byte === OPEN_BRACKET ? this.#open(i) : this.#begin(i, byte, Role.Member);
      case At.ArrayStart:
        return this.#open(this.#expect(byte === OPEN_BRACKET, i, i));
      case At.ItemOrEnd:
        return byte === CLOSE_BRACKET ? this.#close(i) : this.#begin(i, byte, Role.Item);
      case At.Item:
        return this.#begin(i, byte, Role.Item);
      case At.AfterItem:
        return byte === CLOSE_BRACKET ? this.#close(i) : this.#expect(byte === COMMA, At.Item, i);
      case At.AfterMember:
        return byte === CLOSE_BRACE ? At.Done : this.#expect(byte === COMMA, At.Key, i);
      default:
        throw this.#notCut(i);
    }
  }

  /** `then` when the byte at `i` is what was expected (`found`). */
  #expect<T>(found: boolean, then: T, i: number): T {
    if (!found) throw this.#notCut(i);
    return then;
  }

  #notCut(i: number): NotCut {
    return new NotCut(`not a document of members as read (byte ${this.#offset + i})`);
  }

  #key(i: number, byte: number): At {
    return this.#begin(this.#expect(byte === QUOTE, i, i), byte, Role.Key);
  }

  #open(i: number): At {
    this.#handlers.array?.(this.#name, this.#offset + i);
    this.#index = 0;
    return At.ItemOrEnd;
  }

  #close(i: number): At {
    this.#handlers.close?.(this.#name, this.#offset + i);
    return this.#arrayOnly ? At.Done : At.AfterMember;
  }

  /** A value (or a key) begins at `i`. */
  #begin(i: number, byte: number, role: Role): At {
    this.#role = role;
    this.#start = i;
    this.#startOffset = this.#offset + i;
    this.#held = [];
    this.#escaped = false;
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      this.#shape = Shape.Nested;
      this.#depth = 1;
      this.#inString = false;
    } else if (byte === QUOTE) this.#shape = Shape.Text;
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET || byte === COMMA || byte === COLON) throw this.#notCut(i);
    else this.#shape = Shape.Scalar;
    return At.InValue;
  }

  /**
   * Reads the value on from `from` (its first byte was read by #begin, and cannot end it); the index
   * after its end, or the chunk's end.
   */
  #scan(bytes: Buffer, from: number): number {
    const end =
      this.#shape === Shape.Nested
        ? this.#nestedEnd(bytes, from)
        : this.#shape === Shape.Text
          ? this.#textEnd(bytes, from)
          : scalarEnd(bytes, from);
    if (end < 0) return bytes.length;
    this.#finish(bytes, end);
    return end;
  }

  /** The index just past the nested value's closing bracket, or -1 when it goes on past the chunk. */
  #nestedEnd(bytes: Buffer, from: number): number {
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    const n = bytes.length;
    for (let j = from; j < n; j++) {
      const byte = bytes[j] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && --depth === 0) return j + 1;
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    return -1;
  }

  /** The index just past the string's closing quote, or -1 when it goes on past the chunk. */
  #textEnd(bytes: Buffer, from: number): number {
    let escaped = this.#escaped;
    const n = bytes.length;
    for (let j = from; j < n; j++) {
      const byte = bytes[j] as number;
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) return j + 1;
    }
    this.#escaped = escaped;
    return -1;
  }

  /** The value, read whole (it ends before `end`): parsed, and given to its handler. */
  #finish(bytes: Buffer, end: number): void {
    const text =
      this.#held.length === 0
        ? bytes.toString('utf8', this.#start, end)
        : Buffer.concat([...this.#held, bytes.subarray(0, end)]).toString('utf8');
    this.#held = [];
    const value = this.#parse(text);
    if (this.#role === Role.Key) {
      this.#name = value as string;
      // What secure-json-parse refuses of an object's own keys: the whole parse says so in its words.
      if (this.#name === '__proto__' || this.#name === 'constructor') throw new NotCut(`a ${this.#name} member`);
      this.#at = At.Colon;
    } else if (this.#role === Role.Member) {
      this.#at = At.AfterMember;
      this.#handlers.member?.(this.#name, value, this.#startOffset);
    } else {
      this.#at = At.AfterItem;
      this.#handlers.item(this.#name, this.#index++, value);
    }
  }

  #parse(text: string): unknown {
    try {
      return secureJson.parse(text, SECURE);
    } catch (error) {
      throw new NotCut(`not JSON as read at byte ${this.#startOffset}: ${(error as Error).message}`);
    }
  }
}

/** The index of the byte that ends a scalar (a comma, a bracket, white space), or -1 past the chunk. */
function scalarEnd(bytes: Buffer, from: number): number {
  const n = bytes.length;
  for (let j = from; j < n; j++) {
    const byte = bytes[j] as number;
    if (byte === COMMA || byte === CLOSE_BRACKET || byte === CLOSE_BRACE || isSpace(byte)) return j;
  }
  return -1;
}

/** Bytes cut between two looks at the clock (`pace()`): a millisecond or two of work. */
const CUT_SLICE = 64 * 1024;

/**
 * A JSON body's value, as every route reads it: a large one cut, the event loop answering others
 * between its slices; a small one, and any the cutter cannot read, parsed whole (so that every answer,
 * the value or the refusal and its message, is the whole parse's). `largeFrom`: the size cut from.
 */
export async function parseJsonBody(body: Buffer, largeFrom = LARGE_JSON_BYTES): Promise<unknown> {
  if (body.length === 0) throw fail('BODY_EMPTY');
  if (body.length >= largeFrom)
    try {
      return await parseCut(body);
    } catch (error) {
      if (!(error instanceof NotCut)) throw error;
    }
  return parseWhole(body.toString('utf8'));
}

/** The document's value, cut a slice at a time. */
async function parseCut(body: Buffer): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const cutter = new JsonCutter({
    member: (name, value) => {
      out[name] = value;
    },
    array: (name) => {
      out[name] = [];
    },
    item: (name, _index, value) => {
      (out[name] as unknown[]).push(value);
    },
  });
  for (let at = 0; at < body.length; at += CUT_SLICE) {
    cutter.write(body.subarray(at, at + CUT_SLICE));
    await pace();
  }
  cutter.end();
  return out;
}

/** The body parsed in one step, its refusals told apart. */
function parseWhole(text: string): unknown {
  try {
    return secureJson.parse(text, SECURE);
  } catch (error) {
    throw /forbidden (prototype|constructor) property/.test((error as Error).message)
      ? fail('BODY_PROTOTYPE_KEY')
      : fail('BODY_NOT_JSON', { problem: jsonSyntaxProblem(text) });
  }
}
