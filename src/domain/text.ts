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
