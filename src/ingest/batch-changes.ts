import type { Transaction } from 'kysely';
import { type BatchChanges, type EventChanges, isFinalEventStatus } from '../domain/changes.ts';
import { eventStates, futureCompetitions, heatStates } from '../store/feed-writer.ts';
import type { Database } from '../store/schema.ts';
import type { FeedCollection } from './feed-schema.ts';

type WrittenRow = { id: string; updatedAt: string } & Record<string, unknown>;

const REFERENCE = new Set<FeedCollection>(['tours', 'tourYears', 'teams', 'athletes']);
/** Collections keyed by their heat: the row id is the heat id. */
const HEAT_KEYED = new Set<FeedCollection>(['heatResults', 'teamGames']);

/**
 * Gathers, while a batch is written, what each changed row is about (its heat, event or future), so
 * that the change log names events rather than rows. At the end, in the same transaction, it reads
 * the state the batch left: each touched heat's event and status, each touched event's competition
 * and status. A settlement may move whenever a finished heat or event has any of its facts changed
 * (a score correction, a new place), not only when it finishes.
 */
export function batchChangesCollector() {
  const events = new Map<string, Omit<EventChanges, 'competition' | 'eventFinal'>>();
  const heats = new Map<string, string>();
  const futures = new Map<string, { competition?: string; updatedAt: string }>();
  const reference = new Set<string>();

  const touch = (eventId: string, updatedAt: string) => {
    let entry = events.get(eventId);
    if (!entry) {
      entry = {
        heatIds: [],
        completedHeatIds: [],
        roundIds: [],
        participantsChanged: false,
        marketIds: [],
        odds: [],
        updatedAt,
      };
      events.set(eventId, entry);
    }
    if (entry.updatedAt < updatedAt) entry.updatedAt = updatedAt;
    return entry;
  };
  const heatTouched = (heatId: string, updatedAt: string) => {
    const before = heats.get(heatId);
    if (!before || before < updatedAt) heats.set(heatId, updatedAt);
  };

  return {
    /** Records the rows of `collection` that the batch inserted or updated. */
    written(collection: FeedCollection, rows: readonly WrittenRow[], changedIds: readonly string[]): void {
      if (changedIds.length === 0) return;
      if (REFERENCE.has(collection)) {
        reference.add(collection);
        return;
      }
      const byId = new Map(rows.map((row) => [row.id, row]));
      for (const id of changedIds) {
        const row = byId.get(id) as WrittenRow;
        const at = row.updatedAt;
        switch (collection) {
          case 'events':
            touch(id, at).event = { eventStatus: row.eventStatus as string, updatedAt: at };
            break;
          case 'heats':
            heatTouched(id, at);
            break;
          case 'rounds':
            touch(row.eventId as string, at).roundIds.push(id);
            break;
          case 'roundScores':
            touch(row.eventId as string, at).roundIds.push(row.roundId as string);
            break;
          case 'eventParticipants':
            touch(row.eventId as string, at).participantsChanged = true;
            break;
          case 'heatEntries':
          case 'laps':
            heatTouched(row.heatId as string, at);
            break;
          case 'futures':
            futures.set(id, { competition: row.competition as string, updatedAt: at });
            break;
          case 'futureOdds': {
            const futureId = row.futureId as string;
            const known = futures.get(futureId);
            futures.set(futureId, { ...known, updatedAt: known && known.updatedAt > at ? known.updatedAt : at });
            break;
          }
          case 'markets':
            touch(row.eventId as string, at).marketIds.push(id);
            break;
          case 'odds':
            touch(row.eventId as string, at).odds.push({
              id,
              marketId: row.marketId as string,
              decimalOdds: row.decimalOdds as number,
              status: row.status as string,
              settlement: (row.settlement as string | null | undefined) ?? null,
            });
            break;
          default:
            if (HEAT_KEYED.has(collection)) heatTouched(id, at);
        }
      }
    },

    /** Reads the state the batch left, and returns what changed. */
    async resolve(trx: Transaction<Database>): Promise<BatchChanges> {
      for (const [heatId, heat] of await heatStates(trx, [...heats.keys()])) {
        const entry = touch(heat.eventId, heats.get(heatId) as string);
        entry.heatIds.push(heatId);
        if (heat.heatStatus === 'COMPLETED') entry.completedHeatIds.push(heatId);
      }
      const states = await eventStates(trx, [...events.keys()]);
      const competitions = await futureCompetitions(
        trx,
        [...futures].filter(([, f]) => f.competition === undefined).map(([id]) => id),
      );

      const byCompetition = new Map<string, { futureIds: string[]; updatedAt: string }>();
      for (const [id, future] of futures) {
        const competition = future.competition ?? (competitions.get(id) as string);
        const entry = byCompetition.get(competition) ?? { futureIds: [], updatedAt: future.updatedAt };
        entry.futureIds.push(id);
        if (entry.updatedAt < future.updatedAt) entry.updatedAt = future.updatedAt;
        byCompetition.set(competition, entry);
      }
      return {
        events: new Map(
          [...events].map(([id, e]) => {
            const state = states.get(id) as { competition: string; eventStatus: string };
            return [id, { ...e, competition: state.competition, eventFinal: isFinalEventStatus(state.eventStatus) }];
          }),
        ),
        futures: byCompetition,
        reference: [...reference],
      };
    },
  };
}
