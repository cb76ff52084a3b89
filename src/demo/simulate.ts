import { setTimeout as sleep } from 'node:timers/promises';
import { COMPETITION_KEYS, getCompetition } from '../domain/competitions.ts';
import type { EventStatus } from '../domain/enumerations.ts';
import { FEED_COLLECTIONS, type FeedCollection, type FeedDocument } from '../ingest/feed-schema.ts';
import { ingestFeed } from '../ingest/ingest-feed.ts';
import type { Store } from '../store/database.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import {
  chunkDocument,
  DEFAULT_SEED,
  type DemoChunk,
  type DemoCompetition,
  type DemoPricer,
  type EventView,
  layOutDemo,
  newChunk,
  PRE_EVENT_PRICES,
  RESULT_PROVISIONAL_MS,
} from './generate.ts';
import { loadDemoData } from './load-demo.ts';
import { demoTeamMarkets, type EventMarkets, inPlayEventMarkets, settleDemoProps } from './markets.ts';
import { demoMatchMarkets, inPlayMatchOdds } from './matches.ts';
import { MAX_SPEED } from './speed.ts';

/**
 * The live simulator: moves the demo data forward in time through the ingest path. The demo's events
 * are laid out around a time (the anchor: when the demo was loaded); the simulator keeps a clock that
 * runs from there, `speed` times real time, and at each tick rebuilds the events in play as they stand
 * at the clock (heats go live, scores and laps arrive, heats and events complete, the next events
 * open), prices the events in play, and ingests what changed, stamped with the real time. Settlement
 * follows from the results, as for any feed. It writes demo ids only.
 */

export interface SimulatorOptions {
  /** The time the demo's events are laid out around: one for every competition, or each competition's. */
  anchor: Date | Readonly<Record<string, Date>>;
  /** The simulated time at `startedAt` (default the latest anchor). */
  clock?: Date;
  /** The real time the simulation starts (default the first tick's). */
  startedAt?: Date;
  /** Simulated seconds per real second (default 1). */
  speed?: number;
  /** Competition keys to simulate (default all). */
  competitions?: readonly string[];
  seed?: number;
  /** The demo's size: as loaded (default the default demo). */
  events?: number;
  /**
   * Deliberate feed silences, to show the bet stop on silence (FEED_STALE): every `everyMs` of real
   * time one competition, in turn, says nothing for `forMs`, then catches up. Default: none.
   */
  silences?: { everyMs: number; forMs: number };
}

/** The silences `altsports simulate` and `serve --simulate` make: 45 s (FEED_STALE is 30) every 5 minutes. */
export const DEMO_SILENCES = { everyMs: 5 * 60_000, forMs: 45_000 };

/**
 * The competition silent `elapsedMs` after the start, if any: the last `forMs` of each `everyMs`
 * window, each window's competition the next in turn.
 */
export function silentCompetition(
  elapsedMs: number,
  competitions: readonly string[],
  silences: { everyMs: number; forMs: number } | undefined,
): string | null {
  if (!silences || competitions.length === 0 || elapsedMs < 0) return null;
  const window = Math.floor(elapsedMs / silences.everyMs);
  if (elapsedMs - window * silences.everyMs < silences.everyMs - silences.forMs) return null;
  return competitions[window % competitions.length] as string;
}

export interface TickSummary {
  tick: number;
  /** Real time of the tick: the updatedAt of what it wrote. */
  at: string;
  /** Simulated time the events were brought to. */
  clock: string;
  /** Events live at the clock. */
  live: number;
  /** Rows inserted or updated, by collection (collections with none left out). */
  written: Partial<Record<FeedCollection, number>>;
  /** Events whose documents changed. */
  changedEvents: number;
  /** Events whose status changed. */
  transitions: Array<{ eventId: string; name: string; from: EventStatus; to: EventStatus }>;
  /** The competition the feed was deliberately silent about in this tick (`silences`), if any. */
  silent: string | null;
  /** Time the tick took, milliseconds. */
  ms: number;
}

export interface RunOptions {
  intervalMs: number;
  /** Stop after this many ticks (default: until aborted). */
  ticks?: number;
  signal?: AbortSignal;
  onTick?: (summary: TickSummary) => void;
}

export interface Simulator {
  /** The simulated time at real time `realNow`; it never goes back. */
  clockAt(realNow: Date): Date;
  /** Brings the events to the clock at `realNow` and writes what changed. */
  tick(realNow?: Date): Promise<TickSummary>;
  /** Ticks every `intervalMs` until `ticks` are done or `signal` aborts; a tick in flight finishes first. */
  run(options: RunOptions): Promise<void>;
}

export function createSimulator(store: Store, options: SimulatorOptions): Simulator {
  const speed = options.speed ?? 1;
  if (!(speed > 0 && speed <= MAX_SPEED)) throw new RangeError(`speed must be above 0 and at most ${MAX_SPEED}`);
  const competitions = checkCompetitions(options.competitions) ?? COMPETITION_KEYS;
  const anchorOf = anchorsOf(options.anchor);
  const layout = layOutAround(competitions, anchorOf, options);
  let startedAt = options.startedAt?.getTime();
  const startClock = options.clock?.getTime() ?? Math.max(...competitions.map(anchorOf));
  let lastClock = startClock;
  let ticks = 0;
  const views = new Map<string, EventView[]>();
  const sent: Sent = { items: new Map(), heard: new Map(), prices: new Map() };
  const preEvent = preEventMarkets(anchorOf);
  const pricer = inPlayPricer(preEvent.markets);

  const clockAt = (realNow: Date): Date => {
    const since = realNow.getTime() - (startedAt ?? realNow.getTime());
    return new Date(Math.max(lastClock, startClock + since * speed));
  };

  const tick = async (realNow = new Date()): Promise<TickSummary> => {
    const began = performance.now();
    startedAt ??= realNow.getTime();
    const clock = clockAt(realNow).getTime();
    const silent = silentCompetition(realNow.getTime() - startedAt, competitions, options.silences);
    const moved = advance(layout, { views, from: lastClock, to: clock, silent }, pricer, preEvent.remember);
    const { document, remember } = changes(moved.chunk, sent, realNow.getTime(), moved.started);
    const summary = document
      ? await ingestFeed(store, { updatedAt: realNow.toISOString(), ...document }, { now: realNow })
      : null;
    remember();
    for (const [key, value] of moved.next) views.set(key, value);
    lastClock = clock;
    ticks++;
    return {
      tick: ticks,
      at: realNow.toISOString(),
      clock: new Date(clock).toISOString(),
      live: moved.live,
      written: writtenBy(summary),
      changedEvents: summary?.changedEventIds.length ?? 0,
      transitions: moved.transitions,
      silent,
      ms: Math.round(performance.now() - began),
    };
  };

  return { clockAt, tick, run: (runOptions) => runTicks(tick, runOptions) };
}

/** The time each competition's events are laid out around, in epoch ms. */
function anchorsOf(anchor: SimulatorOptions['anchor']): (key: string) => number {
  return (key) => {
    const at = anchor instanceof Date ? anchor : anchor[key];
    if (!at) throw new RangeError(`no anchor for ${key}`);
    return at.getTime();
  };
}

/** The demo's competitions, each laid out around its anchor: those around the same time together. */
function layOutAround(
  competitions: readonly string[],
  anchorOf: (key: string) => number,
  options: SimulatorOptions,
): DemoCompetition[] {
  const groups = new Map<number, string[]>();
  for (const key of competitions) groups.set(anchorOf(key), [...(groups.get(anchorOf(key)) ?? []), key]);
  return [...groups].flatMap(([at, keys]) =>
    layOutDemo({ now: new Date(at), seed: options.seed, events: options.events, competitions: keys }),
  );
}

/**
 * Athlete events' markets as the demo was loaded with them, by event uuid: what their odds in play
 * start from. `remember` notes an event's the first time it is in play.
 */
function preEventMarkets(anchorOf: (key: string) => number) {
  const markets = new Map<string, EventMarkets>();
  const laidOut = new Map<string, EventView[]>();
  const remember = (competition: DemoCompetition, seq: number): void => {
    const uuid = competition.events[seq]?.uuid as string;
    if (markets.has(uuid) || getCompetition(competition.key).participants !== 'athletes') return;
    let atLoad = laidOut.get(competition.key);
    if (!atLoad) {
      atLoad = competition.viewsAt(anchorOf(competition.key));
      laidOut.set(competition.key, atLoad);
    }
    const loaded = newChunk();
    competition.materialiseAt(seq, atLoad[seq] as EventView, loaded, PRE_EVENT_PRICES);
    markets.set(uuid, { markets: loaded.markets, odds: loaded.odds });
  };
  return { markets: markets as ReadonlyMap<string, EventMarkets>, remember };
}

/** What one tick moved: the events rebuilt at the new clock, and what happened to them. */
interface Moved {
  /** The rebuilt events' items, priced. */
  chunk: DemoChunk;
  /** Each competition's events as they stand at the new clock (a silent one's left out). */
  next: Map<string, EventView[]>;
  transitions: TickSummary['transitions'];
  /** Events (ids and uuids) that went LIVE. */
  started: Set<string>;
  live: number;
}

/**
 * Brings every competition but the silent one from `from` to `to` (simulated ms): the events in play
 * are rebuilt into a chunk and priced, and their changes of status noted.
 */
function advance(
  layout: readonly DemoCompetition[],
  at: { views: ReadonlyMap<string, EventView[]>; from: number; to: number; silent: string | null },
  pricer: DemoPricer,
  rememberPreEvent: (competition: DemoCompetition, seq: number) => void,
): Moved {
  const moved: Moved = { chunk: newChunk(), next: new Map(), transitions: [], started: new Set(), live: 0 };
  for (const competition of layout) {
    // A silent competition's events stand where they were: the next tick after the silence catches up.
    if (competition.key === at.silent) continue;
    competition.replay();
    const now = competition.viewsAt(at.to);
    const before = at.views.get(competition.key) ?? competition.viewsAt(at.from);
    now.forEach((view, seq) => {
      const was = before[seq] as EventView;
      if (view.status === 'LIVE') moved.live++;
      if (view.status === 'LIVE' && was.status !== 'LIVE') {
        const { id, uuid } = competition.events[seq] as { id: string; uuid: string };
        moved.started.add(id).add(uuid);
      }
      if (view.status !== was.status)
        moved.transitions.push({
          eventId: competition.events[seq]?.id as string,
          name: view.base.name,
          from: was.status,
          to: view.status,
        });
      if (!inPlay(view, was)) return;
      if (view.status === 'LIVE' || view.status === 'COMPLETED') rememberPreEvent(competition, seq);
      competition.materialiseAt(seq, view, moved.chunk, pricer);
    });
    moved.next.set(competition.key, now);
  }
  return moved;
}

/** Rows inserted or updated by an ingest, by collection (collections with none left out). */
function writtenBy(summary: Awaited<ReturnType<typeof ingestFeed>> | null): TickSummary['written'] {
  const written: TickSummary['written'] = {};
  for (const collection of FEED_COLLECTIONS) {
    const n = summary ? summary[collection].inserted + summary[collection].updated : 0;
    if (n > 0) written[collection] = n;
  }
  return written;
}

/** Ticks every `intervalMs` until `ticks` are done or `signal` aborts; a tick in flight finishes first. */
async function runTicks(
  tick: (realNow: Date) => Promise<TickSummary>,
  { intervalMs, ticks: limit, signal, onTick }: RunOptions,
): Promise<void> {
  for (let n = 0; !signal?.aborted && (limit === undefined || n < limit); n++) {
    const began = Date.now();
    onTick?.(await tick(new Date()));
    if (limit !== undefined && n + 1 >= limit) break;
    try {
      await sleep(Math.max(0, intervalMs - (Date.now() - began)), undefined, { signal });
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
      throw error;
    }
  }
}

/**
 * An event to rebuild: live now or at the last tick, its result provisional at the last tick, or its
 * status or teams have changed since.
 */
function inPlay(view: EventView, was: EventView): boolean {
  return (
    view.status === 'LIVE' ||
    was.status === 'LIVE' ||
    (was.status === 'COMPLETED' && was.clock - was.finish < RESULT_PROVISIONAL_MS) ||
    view.status !== was.status ||
    view.home !== was.home ||
    view.away !== was.away
  );
}

function checkCompetitions(keys: readonly string[] | undefined): readonly string[] | undefined {
  const unknown = keys?.filter((key) => !COMPETITION_KEYS.includes(key as never)) ?? [];
  if (unknown.length > 0)
    throw new RangeError(
      `unknown competition ${unknown.join(', ')}; the competitions are ${COMPETITION_KEYS.join(', ')}`,
    );
  return keys && keys.length > 0 ? keys : undefined;
}

/** Items are told apart by id; laps by heat entry and lap, heat results and team games by heat. */
function keyOf(collection: string, item: Record<string, unknown>): string {
  if (collection === 'laps') return `laps:${item.heatEntryId}#${item.lapNo}`;
  if (collection === 'heatResults' || collection === 'teamGames') return `${collection}:${item.heatId}`;
  return `${collection}:${item.id}`;
}

/**
 * Real milliseconds after which a LIVE event's unchanged row is sent again: a feed that is alive says
 * so, and an event it has been silent about for FEED_STALE_SECONDS (30 by default) is under a bet stop.
 * A third of the default, so that a tick or two late still keeps the demo's live markets open.
 */
const KEEP_ALIVE_MS = 10_000;

/**
 * The items of a chunk that differ from what was last sent, as a document (null when none), and how
 * to remember them once written. A settled outcome keeps the last price it was offered at. A LIVE
 * event's row goes again, unchanged, when it has not been sent for KEEP_ALIVE_MS (it writes nothing).
 * The odds of an event that `started` (went LIVE) this tick all go again: priced in play, even where
 * the price did not move, they are no longer pre-match prices (EVENT_STARTED).
 */
function changes(
  chunk: DemoChunk,
  sent: Sent,
  at: number,
  started: ReadonlySet<string>,
): { document: FeedDocument | null; remember: () => void } {
  const { items: sentItems, heard, prices } = sent;
  const keepAlive = { heard, at };
  const startedMarkets = new Set(chunk.markets.filter((m) => started.has(m.eventId)).map((m) => m.id));
  const fresh = newChunk();
  const seen: Array<[string, string]> = [];
  let count = 0;
  for (const [collection, items] of Object.entries(chunk) as Array<[keyof DemoChunk, Array<Record<string, unknown>>]>) {
    for (let item of items) {
      if (collection === 'odds' && item.settlement && prices.has(item.id as string))
        item = { ...item, ...prices.get(item.id as string) };
      const key = keyOf(collection, item);
      const json = JSON.stringify(item);
      const again =
        dueForKeepAlive(collection, item, keepAlive) ||
        (collection === 'odds' && startedMarkets.has(item.marketId as string));
      if (sentItems.get(key) === json && !again) continue;
      (fresh[collection] as unknown[]).push(item);
      seen.push([key, json]);
      count++;
    }
  }
  return {
    document: count > 0 ? chunkDocument(fresh) : null,
    remember: () => {
      for (const [key, json] of seen) sentItems.set(key, json);
      for (const event of fresh.events) heard.set(event.id, at);
      for (const { id, odds, probability } of fresh.odds)
        if (typeof odds === 'number') prices.set(id, probability === undefined ? { odds } : { odds, probability });
    },
  };
}

/**
 * The price an outcome was last offered at, with the probability it was published from (odds carry
 * the probability they were priced from: docs/decisions.md, "Published prices").
 */
interface OfferedPrice {
  odds: number;
  probability?: number;
}

/** What the simulator has sent so far. */
interface Sent {
  /** Each item's JSON as last sent, by keyOf. */
  items: Map<string, string>;
  /** When each LIVE event's row was last sent (real ms): the keep-alive that holds off the bet stop. */
  heard: Map<string, number>;
  /** The price each outcome was last offered at: a settled outcome keeps it. */
  prices: Map<string, OfferedPrice>;
}

function dueForKeepAlive(
  collection: string,
  item: Record<string, unknown>,
  { heard, at }: { heard: Map<string, number>; at: number },
): boolean {
  if (collection !== 'events' || item.eventStatus !== 'LIVE') return false;
  return at - (heard.get(item.id as string) ?? Number.NEGATIVE_INFINITY) >= KEEP_ALIVE_MS;
}

/**
 * Prices events in play (the dataset priced them before their start): an athlete event's odds move
 * with its heats (inPlayEventMarkets, from its markets as loaded, `preEvent`), a match's and a team
 * game's with the score, and the props an operator settles are settled once the event is over. A
 * match's markets are kept per event: generating them takes a while.
 */
function inPlayPricer(preEvent: ReadonlyMap<string, EventMarkets>): DemoPricer {
  const matches = new Map<string, ReturnType<typeof demoMatchMarkets>>();
  const inPlay = new Map<string, { key: string; priced: EventMarkets }>();
  return {
    athleteEvent(ctx, input, rounds, sink) {
      const before = preEvent.get(ctx.uuid);
      if (!before) return;
      if (ctx.status === 'LIVE') {
        const own = new Set(input.heats.map((h) => h.heatId));
        const priced = inPlayEventMarkets(
          ctx.competition,
          input,
          rounds,
          sink.heatEntries.filter((e) => own.has(e.heatId)),
          before,
          inPlay,
        );
        sink.markets.push(...priced.markets);
        sink.odds.push(...priced.odds);
      } else if (ctx.status === 'COMPLETED' && input.places) {
        const settled = { markets: before.markets, odds: before.odds.map((o) => ({ ...o })) };
        settleDemoProps(settled, input.places);
        sink.odds.push(...settled.odds.filter((o) => o.settlement));
      }
    },
    match(ctx, match, sink) {
      if (ctx.status === 'COMPLETED') return;
      let markets = matches.get(ctx.uuid);
      if (!markets) {
        markets = demoMatchMarkets(ctx.competition, ctx.uuid, match.model, match.roundIds);
        matches.set(ctx.uuid, markets);
      }
      sink.markets.push(...markets.markets);
      if (ctx.status !== 'LIVE') {
        sink.odds.push(...markets.odds);
        return;
      }
      const live = new Map(inPlayMatchOdds(markets, match.model, match.state).map((o) => [o.id, o]));
      sink.odds.push(...markets.odds.map((o) => live.get(o.id) ?? o));
    },
    teamGame(ctx, game, state, sink) {
      if (ctx.status === 'LIVE') sink.odds.push(...demoTeamMarkets(ctx.competition, game, state).odds);
      else if (ctx.status === 'COMPLETED') sink.odds.push(...demoTeamMarkets(ctx.competition, game).odds);
    },
  };
}

export interface PrepareOptions {
  seed?: number;
  events?: number;
  competitions?: readonly string[];
  /** The present (default now). */
  now?: Date;
  /** Lay the demo out afresh around the present even where the store holds it. */
  reset?: boolean;
}

export interface Prepared {
  /** The time each competition's demo events are laid out around, by competition key. */
  anchors: Record<string, Date>;
  /** Where the simulation starts: the present, or where an earlier, faster run left the store. */
  clock: Date;
  /** Competitions whose demo was loaded now, laid out around the present; the others are carried on. */
  loaded: string[];
}

/**
 * Finds the demo the simulator carries on: each competition's as the store holds it (laid out as this
 * seed and size lay it out), from the present or from where an earlier run with a higher speed left
 * it, whichever is later. A competition the store does not hold (or every one, with `reset`) is loaded
 * now, laid out around the present.
 */
export async function prepareSimulation(store: Store, options: PrepareOptions = {}): Promise<Prepared> {
  const now = options.now ?? new Date();
  const keys = checkCompetitions(options.competitions) ?? COMPETITION_KEYS;
  const found = options.reset
    ? new Map<string, Date>()
    : await findStoredDemo(store, { ...options, competitions: keys });
  const loaded = keys.filter((key) => !found.has(key));
  if (loaded.length > 0)
    await loadDemoData(store, { now, seed: options.seed, events: options.events, competitions: loaded });
  const anchors = Object.fromEntries(keys.map((key) => [key, found.get(key) ?? now]));
  const reached =
    found.size > 0
      ? await storedClock(
          store,
          layOutDemo({ now, seed: options.seed, events: options.events, competitions: [...found.keys()] }),
        )
      : null;
  return {
    anchors,
    clock: new Date(Math.max(now.getTime(), reached ?? 0, ...Object.values(anchors).map((a) => a.getTime()))),
    loaded,
  };
}

/**
 * The time each competition's stored demo was laid out around: where its live event starts narrows
 * it down to a minute (the layout puts that time in the middle of the event's middle heat), and the
 * time in that minute that lays every stored event of the competition out where it is, is the one.
 */
async function findStoredDemo(store: Store, options: PrepareOptions): Promise<Map<string, Date>> {
  const lay = (at: number, competitions: readonly string[] | undefined) =>
    layOutDemo({ now: new Date(at), seed: options.seed ?? DEFAULT_SEED, events: options.events, competitions });
  // Event ids do not depend on the time the events are laid out around.
  const probe = lay(Date.now(), options.competitions);
  const ids = probe.flatMap((c) => c.events.map((e) => e.uuid));
  const stored = await eventsRepository(store.db).startDatesOf(ids);
  const found = new Map<string, Date>();
  for (const c of probe) {
    const start = c.live ? stored.get(c.live.uuid) : undefined;
    if (!c.live || start === undefined || c.events.some((e) => !stored.has(e.uuid))) continue;
    const { from, to } = c.live.layoutTimes(Date.parse(start));
    // A day boundary can fall inside the minute; a second at a time finds the side the store is on.
    for (let at = from; at < to; at += 1000) {
      const [laid] = lay(at, [c.key]);
      if (laid?.events.every((e) => stored.get(e.uuid) === e.startDate)) {
        found.set(c.key, new Date(at));
        break;
      }
    }
  }
  return found;
}

/**
 * How far the store's demo has got, at least: the latest end of a heat or period that is over, or
 * start of one under way.
 */
async function storedClock(store: Store, layout: readonly DemoCompetition[]): Promise<number | null> {
  const latest = await eventsRepository(store.db).progressOf(layout.flatMap((c) => c.events.map((e) => e.uuid)));
  return latest === null ? null : Date.parse(latest);
}
