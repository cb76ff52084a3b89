import type { ErrorObject } from 'ajv';
import type { FeedProblem } from './feed-errors.ts';

/** At most this many problems are named: a batch wrong throughout need not list every item. */
export const MAX_REPORTED_PROBLEMS = 50;

/** The id of item `index` of `collection`, when the input has one. */
function itemId(input: Record<string, unknown>, collection: string, index: number): unknown {
  const items = input[collection];
  const item = Array.isArray(items) ? (items[index] as unknown) : undefined;
  return item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
}

/** Turns Ajv's errors into problems that name the item (collection, index, id) and the field. */
export function schemaProblems(input: unknown, errors: ErrorObject[]): FeedProblem[] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return [{ item: 'document', field: '', message: 'must be a JSON object of feed collections' }];
  }
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const segments = error.instancePath.split('/').slice(1);
    let item = 'document';
    let fieldSegments = segments;
    let id: string | undefined;
    if (segments.length >= 2 && /^\d+$/.test(segments[1] ?? '')) {
      item = `${segments[0]}[${segments[1]}]`;
      fieldSegments = segments.slice(2);
      const candidate = itemId(input as Record<string, unknown>, segments[0] as string, Number(segments[1]));
      if (typeof candidate === 'string') id = candidate;
    }
    let field = fieldSegments
      .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`))
      .join('')
      .replace(/^\./, '');
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'additionalProperties') {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      field = field ? `${field}.${extra}` : extra;
      message = 'is not a field of this item';
    } else if (error.keyword === 'required') {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      field = field ? `${field}.${missing}` : missing;
      message = 'is required';
    } else if (error.keyword === 'enum') {
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    } else if (error.keyword === 'anyOf') {
      continue;
    }
    if (item === 'document' && field === '') field = segments.join('.');
    const key = `${item}|${field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ item, id, field, message });
    if (problems.length >= MAX_REPORTED_PROBLEMS) break;
  }
  if (problems.length === 0) problems.push({ item: 'document', field: '', message: 'does not match the feed schema' });
  return problems;
}
