import { fail } from './errors.ts';

/**
 * A JSON body checked byte by byte as it arrives, before any of it is parsed: nesting
 * deeper than `maxDepth` (a 10 MB run of `[` cost 11 s and 1.5 GB inside the parser) and bytes that
 * are not UTF-8 (which decoding would replace with U+FFFD, silently storing other text than was
 * sent) are refused with the offset of the byte at fault. Brackets inside strings are text; every
 * other syntax error is the parser's to find.
 */

/** Far deeper than any feed document or request body the API defines nests. */
export const JSON_MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

export interface JsonBytesChecker {
  /** Checks the next bytes; throws BODY_NOT_UTF8 or BODY_TOO_DEEP at the first problem. */
  push(chunk: Uint8Array): void;
  /** Checks that the bytes did not stop inside a character. */
  end(): void;
}

export function jsonBytesChecker(maxDepth = JSON_MAX_DEPTH): JsonBytesChecker {
  let offset = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  // UTF-8 (RFC 3629, as WHATWG decodes it): continuation bytes still due, and the range of the next.
  let due = 0;
  let lower = 0x80;
  let upper = 0xbf;
  let sequenceAt = 0;

  const notUtf8 = (at: number) => fail('BODY_NOT_UTF8', { at }, { in: 'body', byteOffset: at });

  /** A lead byte: how many continuation bytes follow it, and the range of the first. */
  function lead(byte: number): void {
    sequenceAt = offset;
    lower = 0x80;
    upper = 0xbf;
    if (byte >= 0xc2 && byte <= 0xdf) due = 1;
    else if (byte >= 0xe0 && byte <= 0xef) {
      due = 2;
      if (byte === 0xe0) lower = 0xa0; // overlong
      if (byte === 0xed) upper = 0x9f; // a UTF-16 surrogate
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      due = 3;
      if (byte === 0xf0) lower = 0x90; // overlong
      if (byte === 0xf4) upper = 0x8f; // past U+10FFFF
    } else throw notUtf8(offset);
  }

  function ascii(byte: number): void {
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth++;
      if (depth > maxDepth)
        throw fail(
          'BODY_TOO_DEEP',
          { maxDepth, at: offset },
          {
            in: 'body',
            byteOffset: offset,
            maxDepth,
          },
        );
    } else if ((byte === CLOSE_BRACKET || byte === CLOSE_BRACE) && depth > 0) depth--;
  }

  return {
    push(chunk) {
      for (let i = 0; i < chunk.length; i++, offset++) {
        const byte = chunk[i] as number;
        if (due > 0) {
          if (byte < lower || byte > upper) throw notUtf8(sequenceAt);
          lower = 0x80;
          upper = 0xbf;
          due--;
        } else if (byte < 0x80) ascii(byte);
        else lead(byte);
      }
    },
    end() {
      if (due > 0) throw notUtf8(sequenceAt);
    },
  };
}
