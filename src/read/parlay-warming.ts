import { isFinalEventStatus } from '../domain/changes.ts';
import { getCompetition } from '../domain/competitions.ts';
import type { Store } from '../store/database.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { askedLatelyOf, parlaysAskedLately } from './parlay-asked-lately.ts';
import type { ParlayPool } from './parlay-draws.ts';
import { eventModel, MATCH_GROUP } from './parlay-event-model.ts';
import { scopeSamples } from './parlay-scopes.ts';
import type { SimulationDemand } from './parlay-simulations.ts';
import { matchSimulation } from './parlay-team-match.ts';

export interface ParlayWarmingOptions {
  /** Events warmed at most per clock minute; past it, changed events wait for a parlay to draw them. */
  perMinute: number;
  onError?: (error: Error, eventId: string) => void;
}

/**
 * Warm simulations: when a committed batch moves an event's prices, the simulations its
 * parlays are priced over are drawn at once, at the pool's warming priority (after every client
 * draw, never on the last free thread), so that the next parlay finds them drawn. Bounded: only events
 * whose parlays were asked for in the last ten minutes, one event at a time, `perMinute` a minute.
 */
export class ParlayWarming {
  readonly #store: Store;
  readonly #demand: SimulationDemand;
  readonly #options: ParlayWarmingOptions;
  /** Events waiting to be warmed, oldest first (a Set: one changed twice waits once). */
  readonly #waiting = new Set<string>();
  #working: Promise<void> | null = null;
  #minute = 0;
  #warmedThisMinute = 0;
  #warmed = 0;
  #closed = false;

  constructor(store: Store, pool: ParlayPool, options: ParlayWarmingOptions) {
    this.#store = store;
    this.#options = options;
    this.#demand = {
      pool,
      owner: 'warm',
      priority: 'warm',
      pay: async () => {},
      deadline: Number.POSITIVE_INFINITY,
    };
  }

  /** Events warmed so far (tests). */
  get warmed(): number {
    return this.#warmed;
  }

  /** Events whose prices moved: those asked about lately wait to be warmed. */
  changed(eventIds: Iterable<string>): void {
    if (this.#closed) return;
    for (const eventId of eventIds) if (parlaysAskedLately(eventId)) this.#waiting.add(eventId);
    if (this.#waiting.size > 0) this.#working ??= this.#work();
  }

  /** Settles once nothing waits to be warmed. */
  async idle(): Promise<void> {
    while (this.#working) await this.#working;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#waiting.clear();
    await this.idle();
  }

  async #work(): Promise<void> {
    try {
      for (const eventId of this.#waiting) {
        this.#waiting.delete(eventId);
        if (this.#closed || !this.#withinRate()) continue;
        try {
          await warmSimulations(this.#store, eventId, this.#demand);
          this.#warmed += 1;
        } catch (error) {
          this.#options.onError?.(error instanceof Error ? error : new Error(String(error)), eventId);
        }
      }
    } finally {
      this.#working = null;
    }
  }

  /** Whether one more event may be warmed this clock minute (counting it). */
  #withinRate(): boolean {
    const minute = Math.floor(Date.now() / 60_000);
    if (minute !== this.#minute) {
      this.#minute = minute;
      this.#warmedThisMinute = 0;
    }
    if (this.#warmedThisMinute >= this.#options.perMinute) return false;
    this.#warmedThisMinute += 1;
    return true;
  }
}

/**
 * Draws, at the demand's priority, the simulations clients' parlays on the event needed lately, at
 * the event's prices now: those already held or under way are left as they are. Nothing for an event
 * that is over.
 */
async function warmSimulations(store: Store, eventId: string, demand: SimulationDemand): Promise<void> {
  const groups = askedLatelyOf(eventId);
  const event = groups && (await eventsRepository(store.db).findById(eventId));
  if (!groups || !event || isFinalEventStatus(event.eventStatus)) return;
  const competition = getCompetition(event.competition);
  const model = await eventModel(store, event, competition);
  for (const group of groups) {
    if (group === MATCH_GROUP) await matchSimulation(store, model, event, competition, demand);
    else await scopeSamples(model, group, demand);
  }
}
