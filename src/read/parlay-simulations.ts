import type { LRUCache } from 'lru-cache';
import { type CodedError, fail } from '../domain/errors.ts';
import {
  type DrawAs,
  type DrawPriority,
  localParlayPool,
  type ParlayPool,
  type Reservation,
  SIMULATION_RETRY_AFTER_SECONDS,
} from './parlay-draws.ts';

/**
 * Who needs a parlay's simulations, and on what terms: the API key the draws count against,
 * what a new draw costs it, and how long it waits.
 */
export interface SimulationDemand {
  pool: ParlayPool;
  /** The API key id (each key's draws are limited and queued apart), or `warm`. */
  owner: string;
  priority: DrawPriority;
  /**
   * Called before the demand starts a simulation nobody has started (not for one held or already
   * under way): charges the key's rate budget, or throws its 429.
   */
  pay(): Promise<void>;
  /** Epoch ms past which waiting for a simulation is a 503 (SGP_DEADLINE_MS); Infinity: no deadline. */
  deadline: number;
}

/** Callers outside a server (tests, scripts, benchmarks): the local pool, free, no deadline. */
export function localDemand(): SimulationDemand {
  return {
    pool: localParlayPool(),
    owner: 'local',
    priority: 'client',
    pay: async () => {},
    deadline: Number.POSITIVE_INFINITY,
  };
}

/**
 * Simulations held (an LRU cache) and under way, by cache key: a request finds one held, joins the
 * one under way, or pays for and starts a new one. A simulation is cached when it is drawn, whether
 * or not the request that started it still waits (one past its deadline retries into the cache).
 */
export class SharedSimulations<T extends {}> {
  readonly #cache: LRUCache<string, T>;
  readonly #underWay = new Map<string, Promise<T>>();
  /** Simulations a request is paying for (a rate-limit charge) before it starts them. */
  readonly #paying = new Map<string, Promise<void>>();

  constructor(cache: LRUCache<string, T>) {
    this.#cache = cache;
  }

  /** The simulation held under `key` (no draw, no charge), if any. */
  held(key: string): T | undefined {
    return this.#cache.get(key);
  }

  async get(key: string, demand: SimulationDemand, start: (as: DrawAs) => Promise<T>): Promise<T> {
    for (;;) {
      const held = this.#cache.get(key);
      if (held !== undefined) return held;
      const drawing = this.#underWay.get(key);
      if (drawing !== undefined) {
        if (demand.priority === 'client') demand.pool.promote(key, demand.owner);
        return within(drawing, demand.deadline);
      }
      // Another request is paying for this very simulation: it starts it, unless refused; then look again.
      const paying = this.#paying.get(key);
      if (paying === undefined) break;
      await paying.catch(() => {});
    }
    // The place under the key's limit is taken before paying, so that a key's requests paying at once cannot pass it.
    const reservation = demand.priority === 'client' ? demand.pool.reserve(demand.owner) : undefined;
    if (reservation) {
      const paying = demand.pay();
      this.#paying.set(key, paying);
      try {
        await paying;
      } catch (error) {
        demand.pool.release(reservation);
        throw error;
      } finally {
        this.#paying.delete(key);
      }
    }
    return within(this.#start(key, demand, start, reservation), demand.deadline);
  }

  #start(
    key: string,
    demand: SimulationDemand,
    start: (as: DrawAs) => Promise<T>,
    reservation: Reservation | undefined,
  ): Promise<T> {
    const as: DrawAs = {
      share: key,
      owner: demand.owner,
      priority: demand.priority,
      ...(reservation && { reservation }),
    };
    // A start that fails before it draws leaves the reservation unused: given back.
    const done = () => {
      this.#underWay.delete(key);
      if (reservation) demand.pool.release(reservation);
    };
    const drawing = start(as).then(
      (value) => {
        this.#cache.set(key, value);
        done();
        return value;
      },
      (error: unknown) => {
        done();
        throw error;
      },
    );
    // Every waiter may have stopped waiting (past its deadline): the failure is theirs to see, not the process's.
    drawing.catch(() => {});
    this.#underWay.set(key, drawing);
    return drawing;
  }
}

/** The simulation, or a 503 once the deadline passes (the draw goes on, and is cached for the retry). */
function within<T>(drawing: Promise<T>, deadline: number): Promise<T> {
  if (deadline === Number.POSITIVE_INFINITY) return drawing;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(pastDeadline()), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([drawing, late]).finally(() => clearTimeout(timer));
}

function pastDeadline(): CodedError {
  const retryAfter = SIMULATION_RETRY_AFTER_SECONDS;
  return fail('SIMULATION_DEADLINE', { retryAfter }, { retryAfter });
}
