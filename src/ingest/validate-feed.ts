import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
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
import { FEED_COLLECTIONS, type FeedCollection, FeedDocument } from './feed-schema.ts';
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

/** The feed document's validator, compiled on the first batch (a few hundred ms a start that ingests nothing need not pay). */
const documentValidator = (() => {
  let compiled: ValidateFunction | undefined;
  return () => {
    if (!compiled) {
      const ajv = new Ajv({ allErrors: true, strict: false, messages: true });
      addFormats.default(ajv);
      compiled = ajv.compile(FeedDocument);
    }
    return compiled;
  };
})();

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
  const validateDocument = documentValidator();
  if (!validateDocument(input)) throw new FeedValidationError(schemaProblems(input, validateDocument.errors ?? []));
  const doc = input as FeedDocument;
  const problems: FeedProblem[] = [];
  const report: ReportProblem = (collection, index, id, field, message) => {
    if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ item: `${collection}[${index}]`, id, field, message });
  };
  checkItems(doc, report);
  const defaultUpdatedAt = toIsoTimestamp(doc.updatedAt ?? now);
  const feed = normalizeFeed(doc, {
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

/** Each item once per collection (by its key), and no text the API would refuse to publish. */
function checkItems(doc: FeedDocument, report: ReportProblem): void {
  for (const collection of FEED_COLLECTIONS) {
    const seen = new Map<string, number>();
    const items: ReadonlyArray<FeedItem<FeedCollection>> = doc[collection] ?? [];
    items.forEach((item, index) => {
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
function itemKey(collection: FeedCollection, item: FeedItem<FeedCollection>): { key: string; field: string } {
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
