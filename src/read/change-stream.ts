import type { ChangeKind, StoredChange } from '../domain/changes.ts';
import { fail } from '../domain/errors.ts';
import { parsePublicId } from '../domain/public-id.ts';
import type { ChangeFeed } from '../store/change-feed.ts';
import type { Store } from '../store/database.ts';
import { changesRepository } from '../store/repositories/changes-repository.ts';
import { type AccessScope, assertCanRead, canRead } from './access-scope.ts';

/** What a push stream client asked for; every filter left out lets everything through. */
export interface StreamRequest {
  competitions?: readonly string[] | undefined;
  /** Event ids, prefixed or bare. */
  eventIds?: readonly string[] | undefined;
  kinds?: readonly ChangeKind[] | undefined;
}

/**
 * The stream's filter: the key's scope, then the client's competitions, events and kinds. Resets
 * concern every document, so every client gets them. Asking for a competition the key cannot read is
 * a 403, as on every other route; a malformed event id is a 400.
 */
export function streamFilter(request: StreamRequest, scope: AccessScope): (change: StoredChange) => boolean {
  for (const competition of request.competitions ?? []) assertCanRead(scope, competition);
  const eventIds = request.eventIds?.map((id) => {
    const parsed = parsePublicId(id);
    if (!parsed) throw fail('EVENT_ID_INVALID', { id }, { parameter: 'eventId', value: id });
    if (parsed.competition !== null && !canRead(scope, parsed.competition)) {
      throw fail(
        'COMPETITION_FORBIDDEN',
        { competition: parsed.competition },
        { competition: parsed.competition, allowedCompetitions: scope },
      );
    }
    return parsed.uuid;
  });
  const competitions = request.competitions ? new Set(request.competitions) : null;
  const events = eventIds ? new Set(eventIds) : null;
  const kinds = request.kinds ? new Set<string>(request.kinds) : null;
  return (change) => {
    if (change.kind === 'reset') return true;
    if (change.competition === null || !canRead(scope, change.competition)) return false;
    if (competitions && !competitions.has(change.competition)) return false;
    if (events && (change.eventId === null || !events.has(change.eventId))) return false;
    return kinds === null || kinds.has(change.kind);
  };
}

/**
 * The changes after `afterId` up to `untilId` from the log, page by page, for a client resuming with
 * Last-Event-ID. Returns false, reading nothing, when the log no longer reaches back to `afterId`: the
 * client missed changes and must refetch what it shows anyway.
 */
async function changesSince(
  store: Store,
  afterId: number,
  untilId: number,
  onPage: (changes: StoredChange[]) => void,
): Promise<boolean> {
  const repository = changesRepository(store.db);
  const { first } = await repository.bounds();
  // An id past the last one (a client of another store) is as unknown as one the log has dropped.
  const complete = afterId === untilId || (afterId < untilId && first > 0 && afterId >= first - 1);
  if (!complete) return false;
  let cursor = afterId;
  while (cursor < untilId) {
    const page = (await repository.since(cursor, 500)).filter((c) => c.id <= untilId);
    if (page.length === 0) break;
    onPage(page);
    cursor = (page.at(-1) as StoredChange).id;
  }
  return true;
}

export interface StreamDelivery {
  change(change: StoredChange): void;
  /**
   * The client missed changes the log no longer holds: it should refetch what it shows, and resume
   * from `position` (the last change before its refetch), not from its old id.
   */
  gap(afterId: number, position: number): void;
}

/**
 * Follows the change feed for one client: first what it missed since `afterId` (from the log), or a
 * gap when the log no longer holds it, then every new change, in order and without a duplicate or a
 * hole between the two. Returns the unsubscribe function.
 */
export async function followChanges(
  store: Store,
  feed: ChangeFeed,
  afterId: number | null,
  filter: (change: StoredChange) => boolean,
  deliver: StreamDelivery,
): Promise<() => void> {
  // Subscribe first and hold live changes back while the log is replayed, so none falls in between.
  let held: StoredChange[] | null = afterId === null ? null : [];
  let last = afterId === null ? feed.lastId : Math.min(afterId, feed.lastId);
  const forward = (change: StoredChange) => {
    if (change.id <= last) return;
    last = change.id;
    if (filter(change)) deliver.change(change);
  };
  const unsubscribe = feed.subscribe((changes) => {
    if (held) held.push(...changes);
    else changes.forEach(forward);
  });
  if (afterId !== null) {
    try {
      const untilId = feed.lastId;
      if (!(await changesSince(store, afterId, untilId, (page) => page.forEach(forward)))) {
        last = untilId;
        deliver.gap(afterId, untilId);
      }
    } catch (error) {
      unsubscribe();
      throw error;
    }
    const pending = held ?? [];
    held = null;
    pending.forEach(forward);
  }
  return unsubscribe;
}

/** A change as the stream and the changes route publish it: `publishedAt` is the server time of its commit. */
export interface PublishedChange {
  id: number;
  kind: ChangeKind;
  publishedAt: string;
  data: Record<string, unknown>;
}

/** The `data` the stream sends for a change: its log record's, with the commit time. */
export function publishedData(change: StoredChange): Record<string, unknown> {
  return { ...change.data, publishedAt: change.createdAt };
}

export function publishedChange(change: StoredChange): PublishedChange {
  return { id: change.id, kind: change.kind, publishedAt: change.createdAt, data: publishedData(change) };
}

export interface ChangesPage {
  changes: PublishedChange[];
  /** Resume after this id: the last change read, whether or not the filters let it through. */
  lastEventId: number;
  /** The oldest change id the log holds (0 when it is empty): `after` may be no older than one before it. */
  oldestAvailable: number;
  /** The log was read to its end: the client has caught up and may switch to the stream. */
  complete: boolean;
}

/** Rows one request reads at most, so that a narrow filter over a long log answers in bounded time. */
const MAX_SCANNED = 5_000;
const SCAN_PAGE = 500;

/**
 * The changes after `after` that pass `filter`, at most `limit`, for a client catching up without the
 * stream (GET /changes). An `after` the log no longer reaches back to is a 410: what was missed is
 * gone, and the client rereads the documents. One past its end (a client of another store, a typo) is a
 * 400: nothing was missed that a reread would bring back, the id itself is wrong.
 */
export async function readChanges(
  store: Store,
  after: number,
  limit: number,
  filter: (change: StoredChange) => boolean,
): Promise<ChangesPage> {
  const repository = changesRepository(store.db);
  const { first, last } = await repository.bounds();
  if (after > last) {
    throw fail('CHANGE_ID_AHEAD', { after, last }, { parameter: 'after', value: after, lastEventId: last });
  }
  const reachable = after === last || after >= first - 1;
  if (!reachable) {
    throw fail(
      'CHANGES_GONE',
      { after, last },
      { parameter: 'after', value: after, oldestAvailable: first, lastEventId: last },
    );
  }
  const changes: PublishedChange[] = [];
  let cursor = after;
  let scanned = 0;
  while (cursor < last && changes.length < limit && scanned < MAX_SCANNED) {
    const page = (await repository.since(cursor, SCAN_PAGE)).filter((c) => c.id <= last);
    if (page.length === 0) break;
    for (const change of page) {
      cursor = change.id;
      scanned += 1;
      if (filter(change)) changes.push(publishedChange(change));
      if (changes.length === limit) break;
    }
  }
  if (cursor < last && changes.length < limit && scanned < MAX_SCANNED) cursor = last;
  return { changes, lastEventId: cursor, oldestAvailable: first, complete: cursor >= last };
}

/**
 * A change id a client may read on from: a few changes before the end of the log (the docs page's
 * example); undefined while the log is empty.
 */
export async function recentChangeId(store: Store, back = 10): Promise<number | undefined> {
  const { first, last } = await changesRepository(store.db).bounds();
  return last === 0 ? undefined : Math.max(first - 1, last - back);
}
