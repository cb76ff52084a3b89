import type { ChangeKind, StoredChange } from '../domain/changes.ts';
import { badRequest, forbidden } from '../domain/errors.ts';
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
    if (!parsed)
      throw badRequest(`eventId "${id}" is not an event id (<sport_key>:<uuid> or a bare uuid)`, {
        parameter: 'eventId',
        value: id,
      });
    if (parsed.competition !== null && !canRead(scope, parsed.competition)) {
      throw forbidden(`This API key does not give access to the competition "${parsed.competition}"`, {
        competition: parsed.competition,
        allowedCompetitions: scope,
      });
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
