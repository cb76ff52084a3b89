import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';

/**
 * Text every store can hold and give back unchanged. PostgreSQL refuses the NUL character in text,
 * and a lone UTF-16 surrogate has no UTF-8 form (each store would silently replace it, differently),
 * so both are refused at the door rather than failing, or changing, on the way in.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` cannot be stored as text, or null when it can. */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must be well-formed Unicode (a lone surrogate was sent)';
  return null;
}

export interface InputProblem {
  /** Where: `field`, `field.inner`, `list[2]`. */
  path: string;
  problem: string;
}

/** JSON bodies are parsed to a bounded depth already; this bounds the walk on its own as well. */
const MAX_DEPTH = 64;

/**
 * Every string of a parsed input (nested ones, and object keys, which are text too) that no store can
 * hold as sent, by path, in order; with `finiteNumbers`, every number that is not finite as well
 * (`1e400` parses or coerces to Infinity).
 */
export function inputProblems(value: unknown, options: { finiteNumbers?: boolean } = {}): InputProblem[] {
  const problems: InputProblem[] = [];
  walkInput(value, '', 0, options.finiteNumbers === true, problems);
  return problems;
}

/** A module-level function rather than a closure: it runs on every request's query and body. */
function walkInput(inner: unknown, path: string, depth: number, finiteNumbers: boolean, problems: InputProblem[]) {
  if (typeof inner === 'string') {
    const problem = textProblem(inner);
    if (problem) problems.push({ path, problem });
  } else if (typeof inner === 'number') {
    if (finiteNumbers && !Number.isFinite(inner)) problems.push({ path, problem: 'must be a finite number' });
  } else if (typeof inner === 'object' && inner !== null && depth < MAX_DEPTH) {
    for (const [key, item] of Object.entries(inner)) {
      const where = Array.isArray(inner) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      const keyProblem = textProblem(key);
      if (keyProblem) problems.push({ path: where, problem: `has a name that ${keyProblem}` });
      walkInput(item, where, depth + 1, finiteNumbers, problems);
    }
  }
}

/** What each of jsonc-parser's error codes says, in words. */
const JSON_ERRORS: Partial<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'malformed number',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: "a ':' was expected",
  CommaExpected: "a ',' was expected",
  CloseBraceExpected: "a '}' was expected",
  CloseBracketExpected: "a ']' was expected",
  EndOfFileExpected: 'nothing may follow the document',
  InvalidCommentToken: 'comments are not JSON',
  UnexpectedEndOfComment: 'comments are not JSON',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'malformed number',
  InvalidUnicode: 'malformed \\u escape',
  InvalidEscapeCharacter: 'malformed escape',
  InvalidCharacter: 'a control character inside a string',
};

/**
 * Why `text`, which JSON.parse refused, is not JSON, with the line and column (1-based) of the first
 * problem: jsonc-parser, strict, locates it (Node 20's messages give no position for most errors).
 */
export function jsonSyntaxProblem(text: string): string {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return 'it is not JSON';
  const code = printParseErrorCode(first.error);
  const before = text.slice(0, first.offset).split('\n');
  return `${JSON_ERRORS[code] ?? code} at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}
