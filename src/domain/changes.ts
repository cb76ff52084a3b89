import { formatPublicId } from './public-id.ts';

/**
 * What a committed feed batch changed, as the records of the change log. One record per
 * kind and event, so that a stream client filtering by event sees only its own, and a cache drops
 * only what the record names. The kinds are the push stream's event names.
 */
export const CHANGE_KINDS = ['event', 'heatScore', 'odds', 'settlement', 'future', 'reset'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * Why a stream sends `reset`: `bulk`, too much changed in one batch to list; `reference`, shared facts
 * (athletes, teams) changed; `resume`, the log no longer reaches back to the client's Last-Event-ID.
 */
export const RESET_REASONS = ['bulk', 'reference', 'resume'] as const;
export type ResetReason = (typeof RESET_REASONS)[number];

/** A change as written to the log: the stream event's name and data, and what it is about. */
export interface ChangeRecord {
  kind: ChangeKind;
  competition: string | null;
  /** The stored (bare) event id; null for futures and resets. */
  eventId: string | null;
  data: Record<string, unknown>;
}

/** A change as read back from the log: its id is the stream's event id (Last-Event-ID). */
export interface StoredChange extends ChangeRecord {
  id: number;
  createdAt: string;
}

export interface ChangedOdd {
  id: string;
  marketId: string;
  decimalOdds: number;
  status: string;
  settlement: string | null;
}

/** An outcome's settlement as published: what a `settlement` change says it was and is. */
export interface SettlementState {
  settlement: string;
  settlementReason?: string;
  deadHeatFactor: number;
  settlementStatus?: string;
  settledAt?: string;
}

/** An outcome whose settlement (or its share, or its status) a batch moved. */
export interface SettlementMove {
  id: string;
  marketId: string;
  previous: SettlementState;
  settlement: SettlementState;
}

/** Everything one batch changed about one event, gathered by the ingest from the rows it wrote. */
export interface EventChanges {
  competition: string;
  /** Set when the event's own row changed. */
  event?: { eventStatus: string; updatedAt: string };
  /** Heats whose facts changed: the heat, its entries, laps, result or team games. */
  heatIds: string[];
  /** Those of them now COMPLETED: their derived settlements may have moved. */
  completedHeatIds: string[];
  /** Rounds whose facts changed: the round or its per-team scores. */
  roundIds: string[];
  participantsChanged: boolean;
  /** The event is over (COMPLETED or CANCELLED) once the batch is written. */
  eventFinal: boolean;
  marketIds: string[];
  odds: ChangedOdd[];
  /** Outcomes whose published settlement moved, as the settlements ledger found. */
  settlements?: SettlementMove[];
  /** The latest updatedAt among the rows changed. */
  updatedAt: string;
}

export interface BatchChanges {
  events: ReadonlyMap<string, EventChanges>;
  /** Future ids changed (the future or its odds), by competition. */
  futures: ReadonlyMap<string, { futureIds: string[]; updatedAt: string }>;
  /** Collections of shared facts changed (tours, tour years, teams, athletes): every document may show them. */
  reference: string[];
}

/** Past this many records a batch is a bulk load, logged as one reset rather than record by record. */
export const MAX_RECORDS_PER_BATCH = 500;
/** The odds listed in one odds record; a larger move says so and clients refetch the event's odds. */
export const MAX_ODDS_PER_RECORD = 200;

const FINAL_EVENT_STATUSES = new Set(['COMPLETED', 'CANCELLED']);

export function isFinalEventStatus(eventStatus: string): boolean {
  return FINAL_EVENT_STATUSES.has(eventStatus);
}

/** The change records of one batch, in a stable order (events by id, then futures by competition). */
export function changeRecords(batch: BatchChanges, maxRecords = MAX_RECORDS_PER_BATCH): ChangeRecord[] {
  if (batch.reference.length > 0)
    return [resetRecord('reference', `shared facts changed: ${batch.reference.join(', ')}`)];
  const records: ChangeRecord[] = [];
  for (const [eventId, changes] of [...batch.events].sort(byKey)) records.push(...eventRecords(eventId, changes));
  for (const [competition, { futureIds, updatedAt }] of [...batch.futures].sort(byKey)) {
    records.push({
      kind: 'future',
      competition,
      eventId: null,
      data: { competition, futureIds: [...futureIds].sort(), updatedAt },
    });
  }
  if (records.length > maxRecords) return [resetRecord('bulk', `${records.length} changes in one batch`)];
  return records;
}

function eventRecords(eventId: string, changes: EventChanges): ChangeRecord[] {
  const { competition, updatedAt } = changes;
  const about = { eventId: formatPublicId(competition, eventId), competition };
  const record = (kind: ChangeKind, data: Record<string, unknown>): ChangeRecord => ({
    kind,
    competition,
    eventId,
    data: { ...about, ...data, updatedAt },
  });
  const records: ChangeRecord[] = [];
  if (changes.event) records.push(record('event', { eventStatus: changes.event.eventStatus }));
  if (changes.heatIds.length > 0 || changes.roundIds.length > 0 || changes.participantsChanged) {
    records.push(record('heatScore', { heatIds: sorted(changes.heatIds), roundIds: sorted(changes.roundIds) }));
  }
  if (changes.marketIds.length > 0 || changes.odds.length > 0) {
    const odds = [...changes.odds].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    records.push(
      record('odds', {
        marketIds: sorted(changes.marketIds),
        odds: odds
          .slice(0, MAX_ODDS_PER_RECORD)
          .map(({ id, marketId, decimalOdds, status }) => ({ id, marketId, decimalOdds, status })),
        ...(odds.length > MAX_ODDS_PER_RECORD ? { truncated: true } : {}),
      }),
    );
  }
  // Settlements follow operator settlements, and any change to a finished heat or to a finished
  // event's own facts or participants (its places).
  const settledOddIds = changes.odds.filter((o) => o.settlement !== null).map((o) => o.id);
  const eventSettles = changes.eventFinal && (changes.event !== undefined || changes.participantsChanged);
  const moved = [...(changes.settlements ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (settledOddIds.length > 0 || changes.completedHeatIds.length > 0 || eventSettles || moved.length > 0) {
    records.push(
      record('settlement', {
        heatIds: sorted(changes.completedHeatIds),
        oddIds: sorted(settledOddIds),
        eventFinal: changes.eventFinal,
        ...(moved.length > 0 ? { outcomes: moved.slice(0, MAX_ODDS_PER_RECORD) } : {}),
        ...(moved.length > MAX_ODDS_PER_RECORD ? { truncated: true } : {}),
      }),
    );
  }
  return records;
}

function resetRecord(reason: Exclude<ResetReason, 'resume'>, message: string): ChangeRecord {
  return { kind: 'reset', competition: null, eventId: null, data: { reason, message } };
}

/**
 * The response-cache tags a change drops. A document names the tags it depends on: one event's
 * documents `event:<id>`, a competition's lists (events, cards, brackets) `competition:<key>`, its
 * futures `futures:<key>`; `*` is every document.
 */
export function cacheTagsOfChange(change: Pick<ChangeRecord, 'kind' | 'competition' | 'eventId'>): string[] {
  if (change.kind === 'reset' || change.competition === null) return [ALL_DOCUMENTS];
  if (change.kind === 'future') return [futuresTag(change.competition)];
  return change.eventId === null
    ? [competitionTag(change.competition)]
    : [eventTag(change.eventId), competitionTag(change.competition)];
}

export const ALL_DOCUMENTS = '*';
export const eventTag = (eventId: string) => `event:${eventId}`;
export const competitionTag = (competition: string) => `competition:${competition}`;
export const futuresTag = (competition: string) => `futures:${competition}`;

function sorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

function byKey<T>(a: [string, T], b: [string, T]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
