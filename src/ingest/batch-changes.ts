import type { Transaction } from 'kysely';
import { forEachPaced } from '../base/event-loop-turns.ts';
import { type BatchChanges, type EventChanges, isFinalEventStatus, MAX_RECORDS_PER_BATCH } from '../domain/changes.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { futuresRepository } from '../store/repositories/futures-repository.ts';
import type { Database } from '../store/schema.ts';
import type { FeedCollection } from './feed-schema.ts';

type WrittenRow = { id: string; updatedAt: string } & Record<string, unknown>;

const REFERENCE = new Set<FeedCollection>(['tours', 'tourYears', 'teams', 'athletes']);
/** Collections keyed by their heat: the row id is the heat id. */
const HEAT_KEYED = new Set<FeedCollection>(['heatResults', 'teamGames']);

/** What the rows written so far are about. */
interface Gathered {
  events: Map<string, Omit<EventChanges, 'competition' | 'eventFinal'>>;
  /** Heats whose facts changed, with the latest updatedAt among them. */
  heats: Map<string, string>;
  futures: Map<string, { competition?: string; updatedAt: string }>;
  reference: Set<string>;
}

/**
 * Gathers, while a batch is written, what each changed row is about (its heat, event or future), so
 * that the change log names events rather than rows. At the end, in the same transaction, it reads
 * the state the batch left: each touched heat's event and status, each touched event's competition
 * and status. A settlement may move whenever a finished heat or event has any of its facts changed
 * (a score correction, a new place), not only when it finishes.
 */
export function batchChangesCollector() {
  const gathered: Gathered = { events: new Map(), heats: new Map(), futures: new Map(), reference: new Set() };
  return {
    /** Records the rows of `collection` that the batch inserted or updated. */
    async written(
      collection: FeedCollection,
      rows: readonly WrittenRow[],
      changedIds: readonly string[],
    ): Promise<void> {
      if (changedIds.length === 0) return;
      if (REFERENCE.has(collection)) {
        gathered.reference.add(collection);
        return;
      }
      const byId = new Map<string, WrittenRow>();
      await forEachPaced(rows, (row) => byId.set(row.id, row));
      await forEachPaced(changedIds, (id) => noteRow(gathered, collection, id, byId.get(id) as WrittenRow));
    },

    /** Reads the state the batch left, and returns what changed. */
    resolve: (trx: Transaction<Database>): Promise<BatchChanges> => resolveChanges(gathered, trx),
  };
}

/**
 * Every event changed makes at least one change record, so a batch that changes more events than a
 * batch may log is logged as a reset (changeRecords): from then on, an event's changed odds and markets
 * only need to say whether there are any and whether one carries a settlement. Keeping one of each
 * holds a batch of any size (an NDJSON import) in memory that grows with its events, not its odds.
 */
function bulk(gathered: Gathered): boolean {
  return gathered.events.size > MAX_RECORDS_PER_BATCH;
}

function thin(entry: Omit<EventChanges, 'competition' | 'eventFinal'>): void {
  const settled = entry.odds.find((o) => o.settlement !== null);
  entry.odds = [...new Set([entry.odds[0], settled])].filter((o) => o !== undefined);
  entry.marketIds = entry.marketIds.slice(0, 1);
}

function noteOdd(gathered: Gathered, eventId: string, at: string, odd: EventChanges['odds'][number]): void {
  const { odds } = touchEvent(gathered, eventId, at);
  if (!bulk(gathered) || odds.length === 0 || (odd.settlement !== null && !odds.some((o) => o.settlement !== null)))
    odds.push(odd);
}

function touchEvent(gathered: Gathered, eventId: string, updatedAt: string) {
  let entry = gathered.events.get(eventId);
  if (!entry) {
    // The batch becomes a bulk one with this event: what the events before it hold is thinned once.
    if (gathered.events.size === MAX_RECORDS_PER_BATCH) for (const e of gathered.events.values()) thin(e);
    entry = {
      heatIds: [],
      completedHeatIds: [],
      roundIds: [],
      participantsChanged: false,
      marketIds: [],
      odds: [],
      updatedAt,
    };
    gathered.events.set(eventId, entry);
  }
  if (entry.updatedAt < updatedAt) entry.updatedAt = updatedAt;
  return entry;
}

function touchHeat(gathered: Gathered, heatId: string, updatedAt: string): void {
  const before = gathered.heats.get(heatId);
  if (!before || before < updatedAt) gathered.heats.set(heatId, updatedAt);
}

/** What a changed row of `collection` is about. */
function noteRow(gathered: Gathered, collection: FeedCollection, id: string, row: WrittenRow): void {
  const at = row.updatedAt;
  switch (collection) {
    case 'events':
      touchEvent(gathered, id, at).event = { eventStatus: row.eventStatus as string, updatedAt: at };
      break;
    case 'heats':
      touchHeat(gathered, id, at);
      break;
    case 'rounds':
      touchEvent(gathered, row.eventId as string, at).roundIds.push(id);
      break;
    case 'roundScores':
      touchEvent(gathered, row.eventId as string, at).roundIds.push(row.roundId as string);
      break;
    case 'eventParticipants':
      touchEvent(gathered, row.eventId as string, at).participantsChanged = true;
      break;
    case 'heatEntries':
    case 'laps':
      touchHeat(gathered, row.heatId as string, at);
      break;
    case 'futures':
      gathered.futures.set(id, { competition: row.competition as string, updatedAt: at });
      break;
    case 'futureOdds': {
      const futureId = row.futureId as string;
      const known = gathered.futures.get(futureId);
      gathered.futures.set(futureId, { ...known, updatedAt: known && known.updatedAt > at ? known.updatedAt : at });
      break;
    }
    case 'markets': {
      const { marketIds } = touchEvent(gathered, row.eventId as string, at);
      if (!bulk(gathered) || marketIds.length === 0) marketIds.push(id);
      break;
    }
    case 'odds':
      noteOdd(gathered, row.eventId as string, at, {
        id,
        marketId: row.marketId as string,
        decimalOdds: row.decimalOdds as number,
        status: row.status as string,
        settlement: (row.settlement as string | null | undefined) ?? null,
      });
      break;
    default:
      if (HEAT_KEYED.has(collection)) touchHeat(gathered, id, at);
  }
}

async function resolveChanges(gathered: Gathered, trx: Transaction<Database>): Promise<BatchChanges> {
  const { events, heats, futures, reference } = gathered;
  const stored = eventsRepository(trx);
  for (const [heatId, heat] of await stored.heatStates([...heats.keys()])) {
    const entry = touchEvent(gathered, heat.eventId, heats.get(heatId) as string);
    entry.heatIds.push(heatId);
    if (heat.heatStatus === 'COMPLETED') entry.completedHeatIds.push(heatId);
  }
  const states = await stored.statesOf([...events.keys()]);
  const competitions = await futuresRepository(trx).competitionsOf(
    [...futures].filter(([, f]) => f.competition === undefined).map(([id]) => id),
  );
  return {
    events: new Map(
      [...events].map(([id, e]) => {
        const state = states.get(id) as { competition: string; eventStatus: string };
        return [id, { ...e, competition: state.competition, eventFinal: isFinalEventStatus(state.eventStatus) }];
      }),
    ),
    futures: futuresByCompetition(futures, competitions),
    reference: [...reference],
  };
}

/** The futures changed, by competition (from the batch, else the store), each with its latest updatedAt. */
function futuresByCompetition(futures: Gathered['futures'], competitions: Map<string, string>) {
  const byCompetition = new Map<string, { futureIds: string[]; updatedAt: string }>();
  for (const [id, future] of futures) {
    const competition = future.competition ?? (competitions.get(id) as string);
    const entry = byCompetition.get(competition) ?? { futureIds: [], updatedAt: future.updatedAt };
    entry.futureIds.push(id);
    if (entry.updatedAt < future.updatedAt) entry.updatedAt = future.updatedAt;
    byCompetition.set(competition, entry);
  }
  return byCompetition;
}
