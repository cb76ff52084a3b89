import { COMPETITIONS } from '../domain/competitions.ts';
import type { FeedDocument } from '../ingest/feed-schema.ts';
import { chunkDocument, chunkItems, type DemoChunk, newChunk } from './generate/chunk.ts';
import { buildCompetition, type CompetitionData } from './generate/competition.ts';
import type { EventView } from './generate/event-status.ts';
import { type DemoPricer, LOADED_PRICES, NO_PRICES } from './generate/pricers.ts';
import { layoutTimes } from './generate/schedule.ts';
import { iso } from './generate/time.ts';

export { chunkDocument, type DemoChunk, newChunk } from './generate/chunk.ts';
export { type EventView, RESULT_PROVISIONAL_MS } from './generate/event-status.ts';
export {
  type DemoPricer,
  LOADED_PRICES,
  type MatchToPrice,
  PRE_EVENT_PRICES,
  type PricingContext,
} from './generate/pricers.ts';

/**
 * Deterministic demo data: feed documents (the operator's input format) for every competition of the
 * catalogue, laid out around `now` so that past events are completed, one per competition is live and
 * the rest are upcoming, with heat entries and results as far as each event has got (results.ts).
 * The same seed and `now` always give the same documents. The same events can be taken to any later
 * `clock` (heats go live and complete, the next events open): what the live simulator does.
 *
 * The parts are in generate/: each sport's profile (one file per sport family: judged-sports,
 * racing, combat, team-sports, other-sports), the participants, the calendar (schedule), a
 * competition put together (competition), and its events written as they stand at a time
 * (materialise, with team-game and team-match for the team sports), priced (pricers).
 */

export interface DemoOptions {
  /** The time the events are laid out around. */
  now: Date;
  /**
   * The time the data stands at (default `now`): statuses, heats, scores, laps and results as they are
   * then, for the events laid out around `now`; documents are stamped with it.
   */
  clock?: Date;
  seed?: number;
  /** Total events across all competitions, shared out as evenly as possible; default 8 per competition. */
  events?: number;
  /** Only these competitions' documents (by key); the events are laid out as in the whole dataset. */
  competitions?: readonly string[];
  /** Upper bound on events per yielded document (default 2000). */
  maxEventsPerChunk?: number;
  /**
   * A document is closed once it holds this many items (rounds, heats, heat entries, laps...), even
   * with fewer events: lap racing makes about a thousand per event (default 250000).
   */
  maxItemsPerChunk?: number;
  /**
   * false leaves the events' markets and odds out (default true): every other item is the same, since
   * pricing draws from streams of its own. For datasets whose shape matters, not their prices.
   */
  markets?: boolean;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_EVENTS_PER_COMPETITION = 8;
export const DEFAULT_MAX_EVENTS_PER_CHUNK = 2000;
export const DEFAULT_MAX_ITEMS_PER_CHUNK = 250_000;

/** How many of `total` events each competition gets: even shares, the remainder to the first ones. */
export function eventsPerCompetition(total: number): number[] {
  const whole = Math.max(0, Math.floor(total));
  const share = Math.floor(whole / COMPETITIONS.length);
  const extra = whole % COMPETITIONS.length;
  return COMPETITIONS.map((_, i) => share + (i < extra ? 1 : 0));
}

/**
 * Yields feed documents competition by competition, each holding at most `maxEventsPerChunk` events
 * with their rounds, heats, scores, participants, heat entries, laps, results and team games (and
 * closed early once it holds `maxItemsPerChunk` items). A competition's tour, tour years, teams,
 * athletes and futures travel in its first document, so ingesting the documents in order never meets
 * a dangling reference.
 */
export function* generateDemoFeeds(options: DemoOptions): Generator<FeedDocument> {
  const now = options.now;
  if (Number.isNaN(now.getTime())) throw new RangeError('now must be a valid date');
  const clock = (options.clock ?? now).getTime();
  if (Number.isNaN(clock)) throw new RangeError('clock must be a valid date');
  const chunkSize = Math.max(1, Math.floor(options.maxEventsPerChunk ?? DEFAULT_MAX_EVENTS_PER_CHUNK));
  const maxItems = Math.max(1, Math.floor(options.maxItemsPerChunk ?? DEFAULT_MAX_ITEMS_PER_CHUNK));
  const updatedAt = new Date(clock).toISOString();
  const pricer = options.markets === false ? NO_PRICES : LOADED_PRICES;

  for (const data of buildCompetitions(options)) {
    let first = true;
    let chunk = newChunk();
    const document = (): FeedDocument => {
      const doc: FeedDocument = { updatedAt, ...(first ? data.head : {}), ...chunkDocument(chunk) };
      if (first) {
        doc.futures = data.futures;
        doc.futureOdds = data.futureOdds;
      }
      first = false;
      chunk = newChunk();
      return doc;
    };
    // At a later clock each event is rebuilt from where its turn left the draws, so that later events stay as laid out.
    const views = clock === now.getTime() ? null : data.viewsAt(clock);
    for (let seq = 0; seq < data.events.length; seq++) {
      if (chunk.events.length >= chunkSize || (chunk.events.length > 0 && chunkItems(chunk) >= maxItems))
        yield document();
      if (views) {
        data.materialise(seq, newChunk(), NO_PRICES);
        data.materialiseAt(seq, views[seq] as EventView, chunk, pricer);
      } else {
        data.materialise(seq, chunk, pricer);
      }
    }
    yield document();
  }
}

/** The competitions' data one at a time (large datasets), laid out as in the whole dataset: each competition's share of `events`. */
function* buildCompetitions(
  options: Pick<DemoOptions, 'now' | 'seed' | 'events' | 'competitions'>,
): Generator<CompetitionData> {
  const seed = options.seed ?? DEFAULT_SEED;
  const counts = eventsPerCompetition(options.events ?? DEFAULT_EVENTS_PER_COMPETITION * COMPETITIONS.length);
  for (const [index, competition] of COMPETITIONS.entries()) {
    if (!options.competitions || options.competitions.includes(competition.key))
      yield buildCompetition(competition, index, counts[index] ?? 0, seed, options.now);
  }
}

/** A competition's demo events laid out around a time, for the simulator to rebuild as they stand at any later time. */
export interface DemoCompetition {
  readonly key: string;
  /** The events in calendar order: feed id, stored id and start. */
  readonly events: ReadonlyArray<{ id: string; uuid: string; startDate: string }>;
  /** Every event as it stands at `clock`. */
  viewsAt(clock: number): EventView[];
  /** Draws every event as laid out (no pricing), once, before materialiseAt. */
  replay(): void;
  /** Event `seq` as it stands in `view`, into the chunk. */
  materialiseAt(seq: number, view: EventView, chunk: DemoChunk, pricer: DemoPricer): void;
  /** The competition's live event when laid out, and the times it could have been laid out around given that event's start: [from, to). */
  readonly live: { id: string; uuid: string; layoutTimes: (start: number) => { from: number; to: number } } | null;
}

/** The demo's competitions (all, or those named) laid out around `now`. */
export function layOutDemo(options: Pick<DemoOptions, 'now' | 'seed' | 'events' | 'competitions'>): DemoCompetition[] {
  return [...buildCompetitions(options)].map((data) => {
    let replayed = false;
    const live = data.events.find((e) => e.plan.category === 'live');
    return {
      key: data.competition.key,
      events: data.events.map(({ plan }) => ({
        id: `${data.competition.key}:${plan.uuid}`,
        uuid: plan.uuid,
        startDate: iso(plan.start),
      })),
      viewsAt: data.viewsAt,
      replay() {
        if (replayed) return;
        for (let seq = 0; seq < data.events.length; seq++) data.materialise(seq, newChunk(), NO_PRICES);
        replayed = true;
      },
      materialiseAt: data.materialiseAt,
      live: live
        ? {
            id: `${data.competition.key}:${live.plan.uuid}`,
            uuid: live.plan.uuid,
            layoutTimes: (start) => layoutTimes(live.plan, start),
          }
        : null,
    };
  });
}
