import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { ResultsFormat } from '../domain/competitions.ts';
import { type CodedError, fail } from '../domain/errors.ts';
import { MatchSamples, type SimulatedScores } from '../domain/pricing/match-samples.ts';
import { ScopeSamples } from '../domain/pricing/parlay.ts';
import type { TeamMatchModel } from '../domain/pricing/team-match-model.ts';

/**
 * The simulations same game parlays are priced over, drawn on a pool of worker threads (piscina). A
 * 30-rider scope is 267,000 orders, about 0.9 s of CPU, and 100,000 team matches 0.12 to 0.19 s:
 * drawn on the event loop, they stopped every other request for that long (measured by `npm run
 * soak`). Draws are seeded, so a thread draws exactly what the event loop would have.
 *
 * The pool is shared fairly between API keys: piscina is handed at most one draw per
 * thread, and the draws waiting are kept here, one queue per key, taken round-robin (a key flooding
 * the pool waits behind its own draws, not in front of another key's). A key has at most
 * `perKeyInFlight` draws queued or running; one more is a 429. A draw already queued or running is
 * shared by whoever asks for it (one simulation per event and prices, not one per request). Warming
 * draws (read/parlay-warming.ts) run only when no client draw waits, and leave one thread to clients.
 */

/** A scope's finishing orders (`ScopeSamples.fitted`). */
export interface ScopeDraw {
  /** Athlete ids, in the order of `win`. */
  runners: string[];
  /** Win probabilities, margin taken out. */
  win: number[];
  shape: number;
  /** The recorded model's strengths (in the order of `runners`): drawn from as they are, not fitted to `win`. */
  strengths?: number[];
  samples: number;
  seed: number;
}

/** A team match's scores (`MatchSamples.simulate`). */
export interface MatchDraw {
  format: ResultsFormat;
  model: TeamMatchModel;
  samples: number;
  seed: number;
}

export type DrawRequest = ({ kind: 'scope' } & ScopeDraw) | ({ kind: 'match' } & MatchDraw);

/** A scope's places (parlay-draw-worker.ts), or a match's scores. */
export type DrawReply = Uint8Array | Uint16Array | SimulatedScores;

/** Client draws go first; warming draws fill threads no client needs. */
export type DrawPriority = 'client' | 'warm';

/** Who asks for a draw: the key it counts against, how urgent it is, and what it is shared by. */
export interface DrawAs {
  /** Identical draws in flight are one: the simulation's cache key. */
  share: string;
  /** The API key id the draw counts against (its in-flight limit). */
  owner: string;
  priority: DrawPriority;
  /** A place under the owner's limit taken beforehand (`reserve`), which this draw uses. */
  reservation?: Reservation;
}

/** A place under an owner's in-flight limit, held while the request pays for its draw. */
export interface Reservation {
  owner: string;
  state: 'held' | 'used' | 'released';
}

export interface ParlayPoolSettings {
  /** Worker threads (SGP_WORKERS). */
  threads: number;
  /** Draws one key may have queued or running (SGP_SIMULATIONS_PER_KEY); Infinity: no limit. */
  perKeyInFlight: number;
}

/** What a client asked to retry after, when it has too many simulations under way or waited past its deadline. */
export const SIMULATION_RETRY_AFTER_SECONDS = 1;

interface Job {
  as: DrawAs;
  request: DrawRequest;
  /** Counted against its owner's in-flight limit (client draws). */
  counted: boolean;
  resolve(reply: DrawReply): void;
  reject(error: Error): void;
}

export class ParlayPool {
  readonly threads: number;
  readonly perKeyInFlight: number;
  readonly #piscina: Piscina;
  /** Client draws waiting, one queue per owner. */
  readonly #queues = new Map<string, Job[]>();
  /** When each owner with draws under way last had one started (a count of starts): the round's order. */
  readonly #lastTurn = new Map<string, number>();
  readonly #warm: Job[] = [];
  /** Every draw queued or running, by share key. */
  readonly #shared = new Map<string, { job: Job; promise: Promise<DrawReply> }>();
  /** Client draws queued or running, by owner. */
  readonly #owned = new Map<string, number>();
  #running = 0;
  #closed = false;
  #started = 0;
  /** A thread starting (warmUp): closed only once it has, since ending a thread mid-load can hang. */
  #booting: Promise<unknown> = Promise.resolve();

  constructor({ threads, perKeyInFlight }: ParlayPoolSettings) {
    this.threads = Math.max(1, threads);
    this.perKeyInFlight = perKeyInFlight;
    this.#piscina = new Piscina({
      filename: new URL('./parlay-draw-worker.ts', import.meta.url).href,
      // Threads start on first use and stop after a minute idle; idle threads do not hold the process open.
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: 60_000,
    });
  }

  /**
   * Starts every thread ahead of the first parlays: loading one takes about a second, several on a
   * busy machine, which a parlay's deadline would otherwise pay for (a second key's first parlay
   * beside a flood waited for the second thread to load: 0.9-1.3 s in `npm run bench:parlay-flood`).
   */
  async warmUp(): Promise<void> {
    const booting = Promise.all(Array.from({ length: this.threads }, () => this.#piscina.run(null)));
    this.#booting = booting.catch(() => undefined);
    await booting;
  }

  /** Threads loaded (piscina's, each able to draw at once). */
  get threadsLoaded(): number {
    return this.#piscina.threads.length;
  }

  /** Whether a draw of this share key is queued or running. */
  has(share: string): boolean {
    return this.#shared.has(share);
  }

  /** Draws started since the pool was made (shared ones once): what tests and metrics count. */
  get started(): number {
    return this.#started;
  }

  /** Client draws of `owner` queued or running (what its limit counts). */
  inFlight(owner: string): number {
    return this.#owned.get(owner) ?? 0;
  }

  /** Draws running on the threads. */
  get running(): number {
    return this.#running;
  }

  /** Draws queued, not yet running. */
  get queued(): number {
    let queued = this.#warm.length;
    for (const jobs of this.#queues.values()) queued += jobs.length;
    return queued;
  }

  /**
   * Throws the 429 a client gets when its key has `perKeyInFlight` draws under way, before it pays for
   * one more (read/parlay-simulations.ts).
   */
  assertRoomFor(owner: string): void {
    if ((this.#owned.get(owner) ?? 0) >= this.perKeyInFlight) throw tooManySimulations(this.perKeyInFlight);
  }

  /** Takes a place under the owner's limit (a 429 when there is none), for a draw to come. */
  reserve(owner: string): Reservation {
    this.assertRoomFor(owner);
    this.#owned.set(owner, (this.#owned.get(owner) ?? 0) + 1);
    return { owner, state: 'held' };
  }

  /** Gives back a place no draw used (the draw was not made, or joined one under way). */
  release(reservation: Reservation): void {
    if (reservation.state !== 'held') return;
    reservation.state = 'released';
    this.#uncount(reservation.owner);
  }

  /**
   * The draw of `request`: the one already queued or running under the same share key (a warming
   * draw a client joins is moved up to the client's queue), else a new one queued for its owner.
   */
  draw(request: DrawRequest, as: DrawAs): Promise<DrawReply> {
    if (this.#closed) return Promise.reject(new Error('The parlay draw pool is closed'));
    const held = this.#shared.get(as.share);
    if (held) {
      if (as.reservation) this.release(as.reservation);
      if (as.priority === 'client') this.#promote(held.job, as.owner);
      return held.promise;
    }
    const counted = as.priority === 'client';
    const reserved = as.reservation?.state === 'held';
    if (as.reservation && reserved) as.reservation.state = 'used';
    else if (counted) this.assertRoomFor(as.owner);
    let job!: Job;
    const promise = new Promise<DrawReply>((resolve, reject) => {
      job = { as, request, counted, resolve, reject };
    });
    this.#shared.set(as.share, { job, promise });
    if (counted && !reserved) this.#owned.set(as.owner, (this.#owned.get(as.owner) ?? 0) + 1);
    if (counted) this.#enqueue(as.owner, job);
    else this.#warm.push(job);
    this.#dispatch();
    return promise;
  }

  /** Draws still queued are refused; those running end with the threads. */
  async close(): Promise<void> {
    this.#closed = true;
    const closed = new Error('The parlay draw pool is closed');
    for (const jobs of [...this.#queues.values(), this.#warm])
      for (const job of jobs.splice(0)) {
        this.#settle(job);
        job.reject(closed);
      }
    this.#queues.clear();
    await this.#booting;
    await this.#piscina.destroy();
  }

  #enqueue(owner: string, job: Job): void {
    const queue = this.#queues.get(owner);
    if (queue) queue.push(job);
    else this.#queues.set(owner, [job]);
  }

  /** A client now waits for the draw of `share`: if it is a queued warming draw, it moves up. */
  promote(share: string, owner: string): void {
    const held = this.#shared.get(share);
    if (held) this.#promote(held.job, owner);
  }

  /** A queued warming draw a client now waits for joins that client's queue (not counted against it). */
  #promote(job: Job, owner: string): void {
    const at = this.#warm.indexOf(job);
    if (at < 0) return;
    this.#warm.splice(at, 1);
    job.as = { ...job.as, priority: 'client' };
    this.#enqueue(owner, job);
    this.#dispatch();
  }

  /** Starts queued draws while threads are free. */
  #dispatch(): void {
    while (!this.#closed && this.#running < this.threads) {
      const job = this.#next();
      if (!job) return;
      this.#run(job);
    }
  }

  /**
   * The next draw: round-robin between owners, the oldest draw of the owner whose turn came longest
   * ago (an owner new to the pool first); a warming draw only when no client draw waits and it leaves
   * a thread free (on one thread, only when nothing runs), so that a client's draw starts at once.
   */
  #next(): Job | undefined {
    let chosen: string | undefined;
    for (const owner of this.#queues.keys())
      if (chosen === undefined || (this.#lastTurn.get(owner) ?? -1) < (this.#lastTurn.get(chosen) ?? -1))
        chosen = owner;
    if (chosen !== undefined) {
      const jobs = this.#queues.get(chosen) as Job[];
      const job = jobs.shift() as Job;
      if (jobs.length === 0) this.#queues.delete(chosen);
      this.#lastTurn.set(chosen, this.#started);
      return job;
    }
    if (this.#running >= Math.max(1, this.threads - 1)) return undefined;
    return this.#warm.shift();
  }

  #run(job: Job): void {
    this.#running += 1;
    this.#started += 1;
    const finish = (settle: () => void) => {
      this.#settle(job);
      this.#running -= 1;
      settle();
      this.#dispatch();
    };
    this.#piscina.run(job.request).then(
      (reply: DrawReply) => finish(() => job.resolve(reply)),
      (error: Error) => finish(() => job.reject(new Error(`Drawing a parlay simulation failed: ${error.message}`))),
    );
  }

  /** The draw no longer in flight: later requests draw it anew (or find it cached). */
  #settle(job: Job): void {
    if (this.#shared.get(job.as.share)?.job === job) this.#shared.delete(job.as.share);
    if (!job.counted) return;
    job.counted = false;
    this.#uncount(job.as.owner);
  }

  #uncount(owner: string): void {
    const owned = (this.#owned.get(owner) ?? 1) - 1;
    if (owned > 0) this.#owned.set(owner, owned);
    else {
      this.#owned.delete(owner);
      this.#lastTurn.delete(owner);
    }
  }
}

function tooManySimulations(limit: number): CodedError {
  const retryAfter = SIMULATION_RETRY_AFTER_SECONDS;
  return fail('TOO_MANY_SIMULATIONS', { limit, retryAfter }, { limit, retryAfter });
}

/** The machine's parallelism: SGP_WORKERS's default. */
export function defaultDrawThreads(): number {
  return Math.max(1, availableParallelism());
}

let localPool: ParlayPool | null = null;

/** The pool of callers outside a server (tests, scripts, benchmarks): sized to the machine, no per-key limit. */
export function localParlayPool(): ParlayPool {
  localPool ??= new ParlayPool({ threads: defaultDrawThreads(), perKeyInFlight: Number.POSITIVE_INFINITY });
  return localPool;
}

let anonymous = 0;
const ownDraw = (): DrawAs => ({ share: `draw:${anonymous++}`, owner: 'local', priority: 'client' });

export async function drawScope(
  scope: ScopeDraw,
  pool = localParlayPool(),
  as: DrawAs = ownDraw(),
): Promise<ScopeSamples> {
  const reply = await pool.draw({ kind: 'scope', ...scope }, as);
  if (!ArrayBuffer.isView(reply)) throw new Error('the parlay draw pool answered a scope draw with something else');
  return ScopeSamples.fromPlaces(scope.runners, scope.samples, reply);
}

export async function drawMatches(
  match: MatchDraw,
  pool = localParlayPool(),
  as: DrawAs = ownDraw(),
): Promise<MatchSamples> {
  const reply = await pool.draw({ kind: 'match', ...match }, as);
  if (ArrayBuffer.isView(reply)) throw new Error('the parlay draw pool answered a match draw with something else');
  return MatchSamples.fromScores(match.samples, reply);
}
