import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { getCompetition } from '../domain/competitions.ts';
import { scopeKey, scopeOf } from '../domain/markets/market-shape.ts';
import { ExactField } from '../domain/pricing/exact-field.ts';
import type { FinishingOrderModel } from '../domain/pricing/finishing-order.ts';
import type { ScopeSamples } from '../domain/pricing/parlay.ts';
import { stillPublished } from '../domain/pricing/recorded-model.ts';
import { hashSeed } from '../domain/random.ts';
import type { Store } from '../store/database.ts';
import type { EventRow, MarketRow } from '../store/schema.ts';
import { noteAsked } from './parlay-asked-lately.ts';
import { drawScope, type ScopeDraw } from './parlay-draws.ts';
import { type EventModel, eventModel, type Leg, publishedOf } from './parlay-event-model.ts';
import { SharedSimulations, type SimulationDemand } from './parlay-simulations.ts';

/**
 * A field scope's finishing-order model (recorded, or fitted to its winner market), its exact field,
 * its simulated orders and its legs' wins over them (bitsets), each kept by the scope's key.
 */

/**
 * Samples per scope: about 8 million runner draws, from 250,000 orders for big fields to 1,000,000 for
 * small ones, where joint probabilities are large and need the most samples to stay within 0.25
 * percentage points of the closed forms (docs/decisions.md, "Pricing").
 */
export function parlaySamples(runners: number): number {
  return Math.min(1_000_000, Math.max(250_000, Math.round(8_000_000 / runners / 1000) * 1000));
}
/** Plackett-Luce: the parlay's joint law, fitted to each scope's winner market. */
const PARLAY_SHAPE = 1;

export interface ScopeToDraw {
  /** The event, scope and what the model is fitted to, digested: the key of everything made from it. */
  cacheKey: string;
  draw: ScopeDraw;
  /** The scope's finishing-order model (the recorded one, or Plackett-Luce fitted to its winner market). */
  model: FinishingOrderModel;
  /** The margin of a combination no market publishes: the winner market's overround. */
  overround: number;
}

/** A scope's simulated orders, and its key among them (the prefix of its legs' bitsets). */
export interface Simulation {
  key: string;
  samples: ScopeSamples;
}

export const MIB = 1024 * 1024;

/** Exact fields of scopes' models, by the same key as their simulations (a few KiB to 20 KiB each). */
const exactFields = new LRUCache<string, ExactField>({ max: 256 });

/**
 * Simulated scopes, keyed by event, scope and the winner market's prices: a new price elsewhere in
 * the event keeps them (and their legs' bitsets); a new price in the winner market draws anew. Held
 * within a memory budget, least recently used first out: a 30-rider scope is 7.6 MiB (267,000
 * orders), so 128 MiB holds 16 such fields, more of smaller ones. One forgotten and asked for again
 * is drawn again, the same, from its seed. Requests that need a scope while it is drawn wait for that
 * one draw (read/parlay-simulations.ts).
 */
const simulated = new SharedSimulations(
  new LRUCache<string, ScopeSamples>({ maxSize: 128 * MIB, sizeCalculation: (samples) => samples.byteLength }),
);

/** Each leg's wins over its simulation's samples (a few to 35 KiB), by simulation and what the leg backs. */
const legBitsets = new LRUCache<string, { bits: Uint32Array | null }>({
  maxSize: 64 * MIB,
  sizeCalculation: ({ bits }) => Math.max(1, bits?.byteLength ?? 0),
});

export function bitsOf(key: string, make: () => Uint32Array | null): Uint32Array | null {
  let held = legBitsets.get(key);
  if (held === undefined) {
    held = { bits: make() };
    legBitsets.set(key, held);
  }
  return held.bits;
}

/** The winner market that a scope's finishing-order model is fitted to. */
function winnerMarketOf(model: EventModel, key: string): MarketRow | undefined {
  for (const market of model.markets.values()) {
    const winner =
      market.oddType === 'eventWinner' ||
      market.oddType === 'heatWinner' ||
      market.oddType === 'fastestLap' ||
      market.oddType === 'holeShot';
    if (winner && scopeKey(scopeOf({ ...market, athleteIds: null })) === key) return market;
  }
  return undefined;
}

/**
 * The scope's simulated orders, fitted to its winner market's probabilities with the margin taken out
 * (normalised). Without a winner market there is nothing to fit: null, and the scope's legs are
 * priced as independent. Seeded by the event, scope and version, so a repeated request gets the same price.
 */
export async function scopeSamples(
  model: EventModel,
  key: string,
  demand: SimulationDemand,
): Promise<Simulation | null> {
  const scope = drawOf(model, key);
  if (scope === null) return null;
  noteAsked(demand, model.eventId, key);
  const samples = await simulated.get(scope.cacheKey, demand, (as) => drawScope(scope.draw, demand.pool, as));
  return { key: scope.cacheKey, samples };
}

/**
 * What a scope's simulation is drawn from, or null when it has nothing to fit: the model recorded with
 * the event's generated markets while its winner market carries the prices it published, otherwise
 * Plackett-Luce fitted to the winner market's prices (normalised).
 */
function scopeToDraw(model: EventModel, key: string): ScopeToDraw | null {
  if (key.startsWith('measure:') || key.startsWith('operator:')) return null;
  const market = winnerMarketOf(model, key);
  const outcomes = (market ? (model.oddsByMarket.get(market.id) ?? []) : []).filter((o) => o.athleteId);
  const current = new Map(outcomes.map((o) => [o.athleteId as string, o.decimalOdds]));
  const overround = Math.max(0, outcomes.reduce((sum, o) => sum + publishedOf(o), 0) - 1);
  const recorded = model.recorded?.scopes[key];
  if (model.recorded && recorded && stillPublished(recorded, current)) {
    const runners = Object.keys(recorded.strengths);
    const strengths = runners.map((id) => recorded.strengths[id] as number);
    const shape = model.recorded.shape;
    return {
      cacheKey: digest(`${model.eventId}|${key}|recorded:${shape}:${strengths.join(',')}`),
      draw: {
        runners,
        win: strengths,
        strengths,
        shape,
        samples: parlaySamples(runners.length),
        seed: hashSeed(model.eventId, key, 'recorded', strengths.join(',')),
      },
      model: { shape, strengths },
      overround: model.recorded.overround,
    };
  }
  if (outcomes.length < 2) return null;
  const prices = outcomes.map((o) => `${o.athleteId}=${o.decimalOdds}`).join(',');
  const win = outcomes.map(publishedOf);
  const total = win.reduce((a, b) => a + b, 0);
  return {
    cacheKey: digest(`${model.eventId}|${key}|${prices}`),
    draw: {
      runners: outcomes.map((o) => o.athleteId as string),
      win,
      shape: PARLAY_SHAPE,
      samples: parlaySamples(outcomes.length),
      seed: hashSeed(model.eventId, key, prices),
    },
    model: { shape: PARLAY_SHAPE, strengths: win.map((p) => p / total) },
    overround,
  };
}

/**
 * A scope's key, digested: it names every runner with its price or strength (1 to 2 KB on a 30-rider
 * field), and it prefixes up to 100,000 fair joints and every leg's bitset, whose keys the caches'
 * budgets do not count (docs/decisions.md, "Memory after the floods").
 */
function digest(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** What a scope is priced and drawn from, worked out once per event model. */
export function drawOf(model: EventModel, key: string): ScopeToDraw | null {
  let scope = model.samples.get(key);
  if (scope === undefined) {
    scope = scopeToDraw(model, key);
    model.samples.set(key, scope);
  }
  return scope;
}

/** The exact field of a scope's model. */
export function exactFieldOf(scope: ScopeToDraw): ExactField {
  let field = exactFields.get(scope.cacheKey);
  if (!field) {
    field = new ExactField(scope.model);
    exactFields.set(scope.cacheKey, field);
  }
  return field;
}

/**
 * A field scope's exact model, as the parlay route prices it (the recorded model, or Plackett-Luce
 * fitted to the winner market): route 6 prices an exotic combination on request from it.
 */
export async function scopePricing(
  store: Store,
  event: EventRow,
  key: string,
): Promise<{ field: ExactField; runners: readonly string[]; overround: number } | null> {
  const model = await eventModel(store, event, getCompetition(event.competition));
  const scope = drawOf(model, key);
  return scope ? { field: exactFieldOf(scope), runners: scope.draw.runners, overround: scope.overround } : null;
}

/** A leg's wins over its scope's samples. */
export function legBits(simulation: Simulation, leg: Leg): Uint32Array | null {
  return bitsOf(`${simulation.key}|${JSON.stringify(leg.selection)}`, () => simulation.samples.legBits(leg.selection));
}
