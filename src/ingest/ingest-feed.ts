import type { Transaction } from 'kysely';
import { forEachPaced, pace } from '../base/event-loop-turns.ts';
import {
  type BatchChanges,
  type ChangeRecord,
  changeRecords,
  type EventChanges,
  type StoredChange,
} from '../domain/changes.ts';
import { preMatchOddIds } from '../domain/feed-health.ts';
import type { Store } from '../store/database.ts';
import { changesRepository } from '../store/repositories/changes-repository.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { feedActivityRepository } from '../store/repositories/feed-activity-repository.ts';
import {
  feedFactsRepository,
  ReferenceIdConflict,
  type WriteCounts,
} from '../store/repositories/feed-facts-repository.ts';
import { oddsHistoryRepository } from '../store/repositories/odds-history-repository.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import { resultsRepository } from '../store/repositories/results-repository.ts';
import type { Database } from '../store/schema.ts';
import { batchChangesCollector } from './batch-changes.ts';
import { betStopRecords } from './bet-stop.ts';
import { FeedValidationError } from './feed-errors.ts';
import { FEED_COLLECTIONS, type FeedCollection } from './feed-schema.ts';
import { keepSettlements } from './settlement-ledger.ts';
import { type NormalizedFeed, validateFeed } from './validate-feed.ts';

export type IngestSummary = Record<FeedCollection, WriteCounts> & {
  changedEventIds: string[];
  /** The change log entries this batch appended (what the push stream delivers). */
  changes: StoredChange[];
};

export interface IngestOptions {
  now?: Date;
  /** Called after each collection is written, for progress output. */
  onCollection?: (collection: FeedCollection, counts: WriteCounts) => void;
  /** false: write no price history (bench/odds-history.ts's baseline only; every writer records it). */
  oddsHistory?: boolean;
}

export { INGEST_LOCK } from '../store/repositories/feed-facts-repository.ts';

/**
 * Validates a feed batch whole, then writes it in one transaction: all of it or none of it.
 * Returns per-collection counts and the ids of events whose documents changed.
 */
export async function ingestFeed(store: Store, input: unknown, options: IngestOptions = {}): Promise<IngestSummary> {
  const feed = await validateAgainst(store.db, input, options.now);
  return commitBatch(store, (writer) => writer.add(feed), options);
}

/** One document of a batch read from a file, and the line it starts on (NDJSON), for its problems. */
export interface NumberedDocument {
  document: unknown;
  line?: number | undefined;
}

/**
 * One batch made of many documents, taken one at a time (`altsports import` of an NDJSON file, in
 * memory bounded by its largest line): each is validated against the store as the documents before it
 * left it, inside the batch's transaction, and written; the batch ends as one document would (the
 * change log, settlements, in-play facts). A bad document rolls back the whole batch; its problems name
 * its line.
 */
export async function ingestDocuments(
  store: Store,
  documents: AsyncIterable<NumberedDocument>,
  options: IngestOptions = {},
): Promise<IngestSummary> {
  return commitBatch(
    store,
    async (writer, trx) => {
      for await (const { document, line } of documents) {
        try {
          await writer.add(await validateAgainst(trx, document, options.now));
        } catch (error) {
          throw error instanceof FeedValidationError && line !== undefined ? onLine(error, line) : error;
        }
      }
    },
    options,
  );
}

/** Validates a document against the store as `db` (the store, or a batch's transaction) sees it. */
function validateAgainst(db: Store['db'], input: unknown, now: Date | undefined): Promise<NormalizedFeed> {
  const facts = feedFactsRepository(db);
  const results = resultsRepository(db);
  return validateFeed(
    input,
    (collection, ids) => facts.findExisting(collection, ids),
    now,
    (collection, ownerIds) => results.entrantsOf(collection, ownerIds),
    (ids) => oddsRepository(db).marketShapes(ids),
    (roundIds) => eventsRepository(db).eventsOfRounds(roundIds),
    (collection, ids) => results.resultsHeld(collection, ids),
  );
}

function onLine(error: FeedValidationError, line: number): FeedValidationError {
  return new FeedValidationError(error.problems.map((p) => ({ ...p, item: `${p.item} (line ${line})` })));
}

/** Runs `fill` in the batch's transaction with a batch writer, ends the batch and tells the store's listeners. */
async function commitBatch(
  store: Store,
  fill: (writer: BatchWriter, trx: Transaction<Database>) => Promise<void>,
  options: IngestOptions,
): Promise<IngestSummary> {
  const summary = await store.db.transaction().execute(async (trx) => {
    await feedFactsRepository(trx).takeIngestLock(store.dialect);
    const writer = batchWriter(trx, store, options);
    await fill(writer, trx);
    const finished = await writer.finish();
    // A large batch's COMMIT holds the loop in proportion to its size (BENCHMARKS.md, "Large feeds"):
    // it starts a turn of its own rather than adding to the batch's last steps.
    await pace();
    return finished;
  });
  if (summary.changes.length > 0) store.noteWrite(summary.changes);
  const { changedEventIds: _events, changes: _changes, ...rows } = summary;
  store.noteIngest(rows);
  return summary;
}

type FeedRow = { id: string; updatedAt: string } & Record<string, unknown>;

interface BatchWriter {
  /** Writes one validated document, every collection in order. */
  add(feed: NormalizedFeed): Promise<void>;
  /** Moves the events' contentUpdatedAt and lastChangedAt, keeps settlements and appends the change log. */
  finish(): Promise<IngestSummary>;
}

/** Writes a batch's documents in its transaction, keeping what the batch as a whole must know at its end. */
function batchWriter(trx: Transaction<Database>, store: Store, options: IngestOptions): BatchWriter {
  const counts = Object.fromEntries(FEED_COLLECTIONS.map((c) => [c, noWrites()])) as Record<
    FeedCollection,
    WriteCounts
  >;
  const changes = batchChangesCollector();
  const latestByEvent = new Map<string, string>();
  const spokenOf = new Set<string>();
  // Rows keyed by their heat (entries, laps, fight results, team games): their events are looked up at the end.
  const heatsSpokenOf = new Set<string>();
  const statusBefore = new Map<string, string>();
  // Odds priced by the batch once it had said their event was LIVE: in-play prices, not pre-match ones.
  const pricedLive = new Set<string>();
  return {
    async add(feed) {
      try {
        await writeDocument(feed);
      } catch (error) {
        if (error instanceof ReferenceIdConflict) throw referenceIdProblem(feed, error);
        throw error;
      }
    },
    finish: () =>
      finishBatch(trx, store, options, {
        counts,
        changes,
        latestByEvent,
        spokenOf,
        heatsSpokenOf,
        statusBefore,
        pricedLive,
      }),
  };

  async function writeDocument(feed: NormalizedFeed): Promise<void> {
    for (const [id, status] of await statusesBeforeLive(trx, feed))
      if (!statusBefore.has(id)) statusBefore.set(id, status);
    const withParents = await parentIds(trx, feed);
    for (const collection of FEED_COLLECTIONS) {
      const rows = await withParents(collection, feed[collection] as FeedRow[]);
      await noteEventsSpokenOf(collection, rows, spokenOf, heatsSpokenOf);
      const result = await feedFactsRepository(trx).upsertNewer(collection, rows, {
        contentUpdatedAt: collection === 'events',
        createdAt: collection === 'futures',
        referenceIds: !UNNUMBERED.has(collection),
        dialect: store.dialect,
      });
      addCounts(counts[collection], result.counts);
      if (collection === 'odds') {
        // The price history, in the same transaction: written odds whose price or status moved.
        if (options.oddsHistory !== false) await oddsHistoryRepository(trx).record(result.changed);
        if (statusBefore.size > 0) notePricedLive(rows, statusBefore, pricedLive);
      }
      await changes.written(collection, rows, result.changed);
      noteEventContent(collection, rows, result.changed, latestByEvent);
      options.onCollection?.(collection, result.counts);
    }
  }
}

/** The odds among `rows` whose event the batch has said is LIVE: priced in play. */
function notePricedLive(rows: readonly FeedRow[], live: ReadonlyMap<string, string>, into: Set<string>): void {
  for (const o of rows) if (live.has(o.eventId as string)) into.add(o.id);
}

interface BatchState {
  counts: Record<FeedCollection, WriteCounts>;
  changes: ReturnType<typeof batchChangesCollector>;
  latestByEvent: Map<string, string>;
  spokenOf: Set<string>;
  heatsSpokenOf: ReadonlySet<string>;
  statusBefore: ReadonlyMap<string, string>;
  pricedLive: ReadonlySet<string>;
}

async function finishBatch(
  trx: Transaction<Database>,
  store: Store,
  options: IngestOptions,
  { counts, changes, latestByEvent, spokenOf, heatsSpokenOf, statusBefore, pricedLive }: BatchState,
): Promise<IngestSummary> {
  const events = eventsRepository(trx);
  await events.touchContent(latestByEvent);
  const committedAt = (options.now ?? new Date()).toISOString();
  const batch = await settleBatch(trx, await changes.resolve(trx), committedAt);
  // Taken inside the transaction, after PostgreSQL's ingest lock: batches are stamped in the order they commit.
  await events.touchLastChanged([...batch.events.keys()], committedAt);
  for (const eventId of batch.events.keys()) spokenOf.add(eventId);
  // A changed row's heat is already among the batch's events: only unchanged ones are looked up.
  const changedHeats = new Set([...batch.events.values()].flatMap((c) => c.heatIds));
  const unchanged = [...heatsSpokenOf].filter((heatId) => !changedHeats.has(heatId));
  // The batch's own heats are written before the rows naming them: the store knows every one's event.
  for (const { eventId } of (await events.heatStates(unchanged)).values()) spokenOf.add(eventId);
  const reopened = await feedActivityRepository(trx).touch(
    [...spokenOf].sort(),
    committedAt,
    store.dialect === 'postgres',
  );
  const records = changeRecords(batch);
  // A bet stop on silence the stream announced ends with this message: announce that too.
  if (reopened.length > 0) await events.touchLastChanged(reopened, committedAt); // its prices reopen now
  const started = await noteInPlay(trx, pricedLive, batch, statusBefore, committedAt);
  if (records[0]?.kind !== 'reset') records.push(...started);
  if (reopened.length > 0 && records[0]?.kind !== 'reset') {
    const competitions = await competitionsOf(trx, reopened);
    records.push(
      ...(await betStopRecords(
        trx,
        reopened.map((eventId) => ({ eventId, competition: competitions.get(eventId) as string })),
        null,
        committedAt,
      )),
    );
  }
  const changed =
    records.length === 0
      ? []
      : await changesRepository(trx).append(records, committedAt, store.changeLogSize, store.changeChannel);
  return { ...counts, changedEventIds: [...latestByEvent.keys()], changes: changed };
}

function noWrites(): WriteCounts {
  return { received: 0, inserted: 0, updated: 0, unchanged: 0, stale: 0 };
}

function addCounts(into: WriteCounts, more: WriteCounts): void {
  into.received += more.received;
  into.inserted += more.inserted;
  into.updated += more.updated;
  into.unchanged += more.unchanged;
  into.stale += more.stale;
}

/** The stored status of each event the batch says is LIVE (absent: an event new to the store). */
async function statusesBeforeLive(trx: Transaction<Database>, feed: NormalizedFeed): Promise<Map<string, string>> {
  const ids = (feed.events as FeedRow[]).filter((e) => e.eventStatus === 'LIVE').map((e) => e.id);
  return eventsRepository(trx).statusesOf(ids);
}

/**
 * The in-play facts of a batch. An event it moves to LIVE has its pre-match prices suspended
 * (EVENT_STARTED, written as the outcome's status until the feed prices it again; returned as the
 * stream's records saying so). A score of a LIVE event changing is noted for SCORE_CHANGE (pushed by
 * the bet stop watcher).
 */
async function noteInPlay(
  trx: Transaction<Database>,
  pricedNow: ReadonlySet<string>,
  batch: BatchChanges,
  statusBefore: ReadonlyMap<string, string>,
  committedAt: string,
): Promise<ChangeRecord[]> {
  const scored = [...batch.events].filter(([, c]) => c.heatIds.length > 0 || c.roundIds.length > 0).map(([id]) => id);
  if (scored.length > 0) await feedActivityRepository(trx).markScoreChanged(scored, committedAt);
  const records: ChangeRecord[] = [];
  for (const [eventId, previous] of statusBefore) {
    const changed = batch.events.get(eventId);
    if (previous === 'LIVE' || changed?.event?.eventStatus !== 'LIVE') continue;
    const odds = oddsRepository(trx);
    const preMatch = new Set(preMatchOddIds(await odds.oddsOfEvent(eventId), changed.event.updatedAt, pricedNow));
    if (preMatch.size === 0) continue;
    const event = { eventId, competition: changed.competition };
    records.push(...(await betStopRecords(trx, [event], 'EVENT_STARTED', committedAt, (o) => preMatch.has(o.id))));
    await odds.suspend([...preMatch], 'EVENT_STARTED');
    await pace();
  }
  return records;
}

/**
 * The batch with the outcomes whose settlements it moved, written to the settlements ledger in its
 * transaction. Only pure price ticks of an event not over are passed by: nothing else they change
 * decides an outcome.
 */
async function settleBatch(
  trx: Transaction<Database>,
  batch: BatchChanges,
  committedAt: string,
): Promise<BatchChanges> {
  const candidates = [...batch.events].filter(([, e]) => mayMoveSettlements(e)).map(([id]) => id);
  if (candidates.length === 0) return batch;
  const moved = await keepSettlements(trx, candidates.sort(), committedAt);
  if (moved.size === 0) return batch;
  const events = new Map(
    [...batch.events].map(([id, e]) => [id, moved.has(id) ? { ...e, settlements: moved.get(id) } : e]),
  );
  return { ...batch, events };
}

function mayMoveSettlements(e: EventChanges): boolean {
  return (
    e.eventFinal ||
    e.event !== undefined ||
    e.heatIds.length > 0 ||
    e.roundIds.length > 0 ||
    e.participantsChanged ||
    e.marketIds.length > 0 ||
    e.odds.some((o) => o.settlement !== null)
  );
}

function competitionsOf(trx: Transaction<Database>, eventIds: readonly string[]): Promise<Map<string, string>> {
  return eventsRepository(trx).competitionsOf(eventIds);
}

/**
 * The events a batch speaks of, changed or not (a feed repeating its prices, or its latest scores, is
 * alive): the bet stop on silence (FEED_STALE) reopens on any message about the event. A row that names
 * only its heat (a heat entry, a lap, a fight result, a team game) is noted by its heat.
 */
function noteEventsSpokenOf(
  collection: FeedCollection,
  rows: readonly FeedRow[],
  spokenOf: Set<string>,
  heatsSpokenOf: Set<string>,
) {
  const keyedByHeat = HEAT_KEYED.has(collection);
  return forEachPaced(rows, (row) => {
    const eventId = collection === 'events' ? row.id : row.eventId;
    const heatId = keyedByHeat ? row.id : row.heatId;
    if (typeof eventId === 'string') spokenOf.add(eventId);
    else if (typeof heatId === 'string') heatsSpokenOf.add(heatId);
  });
}

/** Collections whose rows are keyed by their heat's id (one fight result, one team game per heat). */
const HEAT_KEYED = new Set<FeedCollection>(['heatResults', 'teamGames']);

/**
 * Rows with the parent ids the store keeps beside the feed's (a heat's and a round score's event, a
 * lap's heat, an odd's event), found in the batch or the store. Set in place: the rows are the batch's
 * own (validateFeed made them), and a copy of each was a third of a large feed's garbage.
 */
async function parentIds(trx: Transaction<Database>, feed: NormalizedFeed) {
  const eventOfRound = await roundEvents(trx, feed);
  const heatOfEntry = await entryHeats(trx, feed);
  const eventOfMarket = await marketEvents(trx, feed);
  const setParent = (rows: FeedRow[], field: string, of: ReadonlyMap<string, string>, key: string) =>
    forEachPaced(rows, (row) => {
      row[field] = of.get(row[key] as string);
    });
  return async (collection: FeedCollection, rows: FeedRow[]): Promise<FeedRow[]> => {
    if (collection === 'heats' || collection === 'roundScores')
      await setParent(rows, 'eventId', eventOfRound, 'roundId');
    else if (collection === 'laps') await setParent(rows, 'heatId', heatOfEntry, 'heatEntryId');
    else if (collection === 'odds') await setParent(rows, 'eventId', eventOfMarket, 'marketId');
    return rows;
  };
}

/** Collections published inside the event document, whose changes move its contentUpdatedAt. */
const EVENT_CONTENT = new Set<FeedCollection>(['events', 'rounds', 'heats', 'roundScores']);

/** Keeps, per event, the latest updatedAt among the rows of its document that changed. */
function noteEventContent(
  collection: FeedCollection,
  rows: FeedRow[],
  changed: string[],
  latestByEvent: Map<string, string>,
): void {
  if (!EVENT_CONTENT.has(collection)) return;
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const id of changed) {
    const row = byId.get(id) as { eventId?: string; updatedAt: string };
    const eventId = collection === 'events' ? id : (row.eventId as string);
    const before = latestByEvent.get(eventId);
    if (!before || before < row.updatedAt) latestByEvent.set(eventId, row.updatedAt);
  }
}

/** A reference id already held, as the feed problem it is (found inside the transaction, which rolled back). */
function referenceIdProblem(feed: NormalizedFeed, error: ReferenceIdConflict): FeedValidationError {
  const index = (feed[error.collection] as Array<{ id: string }>).findIndex((r) => r.id === error.id);
  return new FeedValidationError([
    {
      item: `${error.collection}[${index}]`,
      id: error.id,
      field: 'referenceId',
      message: `${error.referenceId} is already used by "${error.heldBy}"`,
    },
  ]);
}

/** Collections without numeric reference ids: keyed by their heat (or heat entry and lap number). */
const UNNUMBERED = new Set<FeedCollection>(['laps', 'heatResults', 'teamGames']);

/** Heat id of every heat entry a batch's laps name, from the batch or the store. */
async function entryHeats(trx: Transaction<Database>, feed: NormalizedFeed): Promise<Map<string, string>> {
  const map = new Map(feed.heatEntries.map((e) => [e.id, e.heatId]));
  const missing = [...new Set(feed.laps.map((l) => l.heatEntryId).filter((id) => !map.has(id)))];
  if (missing.length > 0)
    for (const [id, heatId] of await resultsRepository(trx).heatsOfEntries(missing)) map.set(id, heatId);
  return map;
}

/** Event id of every round a batch's heats and round scores name, from the batch or the store. */
async function roundEvents(trx: Transaction<Database>, feed: NormalizedFeed): Promise<Map<string, string>> {
  const map = new Map(feed.rounds.map((r) => [r.id, r.eventId]));
  const missing = [...new Set([...feed.heats, ...feed.roundScores].map((r) => r.roundId).filter((id) => !map.has(id)))];
  if (missing.length > 0)
    for (const [id, eventId] of await eventsRepository(trx).eventsOfRounds(missing)) map.set(id, eventId);
  return map;
}

/** Event id of every market a batch's odds name, from the batch or the store. */
async function marketEvents(trx: Transaction<Database>, feed: NormalizedFeed): Promise<Map<string, string>> {
  const map = new Map(feed.markets.map((m) => [m.id, m.eventId]));
  const missing = [...new Set(feed.odds.map((o) => o.marketId).filter((id) => !map.has(id)))];
  if (missing.length > 0)
    for (const [id, market] of await oddsRepository(trx).marketShapes(missing)) map.set(id, market.eventId);
  return map;
}
