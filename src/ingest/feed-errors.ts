import { CodedError, ERRORS } from '../domain/errors.ts';

/** One problem in a feed batch: which item (collection, index, id) and which field. */
export interface FeedProblem {
  item: string;
  id?: string | undefined;
  field: string;
  message: string;
}

/** Notes a problem of item `index` of `collection` (whose id is `id`, when it has one) in `field`. */
export type ReportProblem = (
  collection: string,
  index: number,
  id: string | undefined,
  field: string,
  message: string,
) => void;

/** A rejected batch. Nothing of it was written; `problems` names every offending item and field. */
export class FeedValidationError extends CodedError {
  readonly problems: FeedProblem[];

  constructor(problems: FeedProblem[]) {
    const first = problems[0];
    const where = first
      ? `${first.item}${first.id ? ` (id "${first.id}")` : ''}${first.field ? `.${first.field}` : ''}`
      : 'document';
    const message = ERRORS.FEED_ITEM_INVALID.message({
      where,
      problem: first?.message ?? 'is invalid',
      more: Math.max(0, problems.length - 1),
    });
    super('FEED_ITEM_INVALID', message, { problems });
    this.problems = problems;
    this.name = 'FeedValidationError';
  }
}
