import type { ErrorObject } from 'ajv';
import { forEachPaced, pace } from '../base/event-loop-turns.ts';
import { toIsoTimestamp } from '../domain/dates.ts';
import { parsePublicId } from '../domain/public-id.ts';
import { inputProblems } from '../domain/text.ts';
import { type FeedProblem, FeedValidationError, type ReportProblem } from './feed-errors.ts';
import {
  checkCorrections,
  checkEntryRepeats,
  checkMarketRounds,
  checkOddsAgainstMarkets,
  checkReferences,
  type EntrantsLookup,
  type ExistingLookup,
  type MarketLookup,
  type ResultsLookup,
  type RoundEventsLookup,
} from './feed-references.ts';
import { FEED_COLLECTION_LIMIT, FEED_COLLECTIONS, type FeedCollection, type FeedDocument } from './feed-schema.ts';
// Ajv's standalone code for FeedDocument, generated ahead (scripts/feed-validator.ts): no schema compiled at run time.
import validateDocument from './feed-validator.cjs';
import { type FeedItem, lapId, type NormalizedFeed, normalizeFeed } from './normalize-feed.ts';
import { MAX_REPORTED_PROBLEMS, schemaProblems } from './schema-problems.ts';

export type {
  EntrantsLookup,
  ExistingLookup,
  MarketLookup,
  ResultsLookup,
  RoundEventsLookup,
} from './feed-references.ts';
export type { NormalizedFeed } from './normalize-feed.ts';

/**
 * Checks a whole batch before anything is written: its shape, then ids, dates, prices and every
 * reference (to the batch itself or to the store). Throws FeedValidationError naming each problem.
 */
export async function validateFeed(
  input: unknown,
  existing: ExistingLookup,
  now: Date = new Date(),
  storedEntrants?: EntrantsLookup,
  storedMarkets?: MarketLookup,
  storedRoundEvents?: RoundEventsLookup,
  storedResults?: ResultsLookup,
): Promise<NormalizedFeed> {
  await checkSchema(input);
  const doc = input as FeedDocument;
  const problems: FeedProblem[] = [];
  const report: ReportProblem = (collection, index, id, field, message) => {
    if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ item: `${collection}[${index}]`, id, field, message });
  };
  await checkItems(doc, report);
  const defaultUpdatedAt = toIsoTimestamp(doc.updatedAt ?? now);
  const feed = await normalizeFeed(doc, {
    report,
    stamp: (value) => (value ? toIsoTimestamp(value) : defaultUpdatedAt),
    time: (value) => (value ? toIsoTimestamp(value) : null),
  });
  await checkOddsAgainstMarkets(doc, report, storedMarkets);
  await checkMarketRounds(feed, report, storedRoundEvents);
  await checkEntryRepeats(feed, report, storedEntrants);
  await checkReferences(feed, existing, report);
  await checkCorrections(feed, doc, report, storedResults);
  if (problems.length > 0) throw new FeedValidationError(problems);
  return feed;
}

/** Items validated against the schema at a time, between which the event loop may answer others. */
const SCHEMA_SLICE = 256;

/**
 * The document against the feed schema, a slice of a collection at a time (a 60 MB batch took 1.3 s in
 * one call, holding every other request): first the document with its collections emptied, then each
 * slice as a document of its own, its errors' paths moved back to the items' places.
 */
async function checkSchema(input: unknown): Promise<void> {
  const validate = validateDocument;
  const slices = schemaSlices(input);
  if (slices === null) {
    if (!validate(input)) throw new FeedValidationError(schemaProblems(input, validate.errors ?? []));
    return;
  }
  const errors: ErrorObject[] = [];
  for (const { collection, offset, document } of slices) {
    if (!validate(document))
      for (const error of validate.errors ?? [])
        errors.push({ ...error, instancePath: movedPath(error.instancePath, collection, offset) });
    if (errors.length >= MAX_REPORTED_PROBLEMS * 4) break;
    await pace();
  }
  if (errors.length > 0) throw new FeedValidationError(schemaProblems(input, errors));
}

interface SchemaSlice {
  collection: string | null;
  offset: number;
  document: Record<string, unknown>;
}

/** The documents to validate in turn; null when the input is validated whole (not an object, or too long a collection). */
function schemaSlices(input: unknown): SchemaSlice[] | null {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return null;
  const entries = Object.entries(input as Record<string, unknown>);
  const long = entries.filter(([, value]) => Array.isArray(value));
  if (long.some(([, value]) => (value as unknown[]).length > FEED_COLLECTION_LIMIT)) return null;
  const skeleton = Object.fromEntries(entries.map(([key, value]) => [key, Array.isArray(value) ? [] : value]));
  const slices: SchemaSlice[] = [{ collection: null, offset: 0, document: skeleton }];
  for (const [collection, value] of long) {
    const items = value as unknown[];
    for (let offset = 0; offset < items.length; offset += SCHEMA_SLICE)
      slices.push({ collection, offset, document: { [collection]: items.slice(offset, offset + SCHEMA_SLICE) } });
  }
  return slices;
}

/** `/odds/3/price` of a slice starting at item 512 is `/odds/515/price` of the document. */
function movedPath(path: string, collection: string | null, offset: number): string {
  if (collection === null || offset === 0) return path;
  const prefix = `/${collection}/`;
  if (!path.startsWith(prefix)) return path;
  const rest = path.slice(prefix.length);
  const slash = rest.indexOf('/');
  const index = Number(slash === -1 ? rest : rest.slice(0, slash));
  return `${prefix}${index + offset}${slash === -1 ? '' : rest.slice(slash)}`;
}

/** Each item once per collection (by its key), and no text the API would refuse to publish. */
async function checkItems(doc: FeedDocument, report: ReportProblem): Promise<void> {
  for (const collection of FEED_COLLECTIONS) {
    const seen = new Map<string, number>();
    const items: ReadonlyArray<FeedItem<FeedCollection>> = doc[collection] ?? [];
    await forEachPaced(items, (item, index) => {
      const { key, field } = itemKey(collection, item);
      const first = seen.get(key);
      if (first !== undefined)
        report(
          collection,
          index,
          key,
          field,
          `repeats the ${field === 'id' ? 'id' : 'key'} of ${collection}[${first}]`,
        );
      else seen.set(key, index);
      for (const { path, problem } of inputProblems(item))
        report(collection, index, (item as { id?: string }).id, path, problem);
    });
  }
}

/** The key that identifies an item of a collection, and the field that carries it. */
export function itemKey(collection: FeedCollection, item: FeedItem<FeedCollection>): { key: string; field: string } {
  switch (collection) {
    case 'events':
    case 'futures': {
      const { id } = item as FeedItem<typeof collection>;
      return { key: parsePublicId(id)?.uuid ?? id, field: 'id' };
    }
    case 'laps':
      return { key: lapId(item as FeedItem<'laps'>), field: 'lapNo' };
    case 'heatResults':
    case 'teamGames':
      return { key: (item as FeedItem<typeof collection>).heatId, field: 'heatId' };
    default:
      return { key: (item as { id: string }).id, field: 'id' };
  }
}
