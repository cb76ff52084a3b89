import { LRUCache } from 'lru-cache';
import type { Selection } from '../domain/markets/selection.ts';
import type { ExactField } from '../domain/pricing/exact-field.ts';
import { MAX_PRICED } from '../domain/pricing/margin.ts';
import { countAll, exactJoint, type OrderLeg, orderLegOf } from '../domain/pricing/parlay.ts';
import type { EventModel, Leg } from './parlay-event-model.ts';
import { drawOf, exactFieldOf, legBits, scopeSamples } from './parlay-scopes.ts';
import type { SimulationDemand } from './parlay-simulations.ts';

/**
 * One scope's legs as one price (docs/decisions.md, "One price per bet"). Legs implied by the others
 * are dropped (a win implies the podium); what is left, when a market publishes it (one leg, or
 * [A wins, B second] as the exacta A-B), is priced as that market prices it. Otherwise the fair joint
 * probability under the scope's model (exact for place, top-k and order legs; simulated otherwise,
 * scaled to the exact marginals) carries the winner market's overround once.
 */
export async function fieldGroupProbability(
  model: EventModel,
  key: string,
  legs: readonly Leg[],
  demand: SimulationDemand,
): Promise<number | null> {
  const scope = drawOf(model, key);
  if (!scope) return null;
  const field = exactFieldOf(scope);
  const index = new Map(scope.draw.runners.map((id, i) => [id, i]));
  const orderLegs = legs.map((leg) => orderLegOf(leg.selection, index));
  const exact = orderLegs.every((leg) => leg !== null) ? (orderLegs as OrderLeg[]) : null;
  const fairOf = async (subset: readonly number[]): Promise<number | null> => {
    const memoKey = `${scope.cacheKey}|${exact ? 'exact' : 'simulated'}|${subset.map((i) => JSON.stringify((legs[i] as Leg).selection)).join('|')}`;
    const known = fairJoints.get(memoKey);
    if (known !== undefined) return known.p;
    const p = await fairOfSubset(subset);
    fairJoints.set(memoKey, { p });
    return p;
  };
  const fairOfSubset = async (subset: readonly number[]): Promise<number | null> => {
    if (exact) {
      const p = exactJoint(
        field,
        subset.map((i) => exact[i] as OrderLeg),
      );
      if (p !== null) return p;
    }
    return simulatedJoint(
      model,
      key,
      field,
      index,
      subset.map((i) => legs[i] as Leg),
      demand,
    );
  };
  const all = legs.map((_, i) => i);
  const fair = await fairOf(all);
  if (fair === null) return null;
  // Drop legs whose removal leaves the joint as it was: the others imply them.
  let kept = all;
  for (const i of all) {
    const without = kept.filter((k) => k !== i);
    if (without.length === 0) continue;
    const rest = await fairOf(without);
    if (rest !== null && Math.abs(rest - fair) <= 1e-12 + 1e-9 * fair) kept = without;
  }
  const publishedAs = equivalentPublished(model, key, legs, kept, exact);
  if (publishedAs !== undefined) return publishedAs;
  return Math.min(MAX_PRICED, fair * (1 + scope.overround));
}

/**
 * Fair joint probabilities of legs of one scope, by the scope's model (its cache key), how they were
 * computed and what the legs back, in order: a pure function of those, so kept across requests. The
 * bet builder prices every outcome of an event with the same legs, whose subsets are then worked out
 * once, and a repeated parlay is a lookup. Entries are small (a key and a number).
 */
const fairJoints = new LRUCache<string, { p: number | null }>({ max: 100_000 });

/** The published probability of the one bet the kept legs are, if a market publishes it. */
function equivalentPublished(
  model: EventModel,
  key: string,
  legs: readonly Leg[],
  kept: readonly number[],
  exact: readonly OrderLeg[] | null,
): number | undefined {
  if (kept.length === 1) return (legs[kept[0] as number] as Leg).published;
  if (!exact) return undefined;
  // Places 1 to m, each named once: the order of the first m, as an exacta, trifecta or superfecta publishes it.
  const byPlace = new Map<number, string>();
  for (const i of kept) {
    const selection = (legs[i] as Leg).selection;
    if (selection.kind === 'place') byPlace.set(selection.place, selection.athleteId);
    else if (selection.kind === 'order') for (const [k, id] of selection.athleteIds.entries()) byPlace.set(k + 1, id);
    else return undefined;
  }
  const order = Array.from({ length: byPlace.size }, (_, k) => byPlace.get(k + 1));
  if (order.some((id) => id === undefined)) return undefined;
  return model.published.get(`${key}|${JSON.stringify({ kind: 'order', athleteIds: order })}`);
}

/** The joint from the scope's simulated orders, scaled so that each leg keeps its exact marginal where it has one. */
async function simulatedJoint(
  model: EventModel,
  key: string,
  field: ExactField,
  index: ReadonlyMap<string, number>,
  legs: readonly Leg[],
  demand: SimulationDemand,
): Promise<number | null> {
  const simulation = await scopeSamples(model, key, demand);
  if (!simulation) return null;
  const bits = legs.map((leg) => legBits(simulation, leg));
  if (bits.some((b) => b === null)) return null;
  const samples = simulation.samples.samples;
  const share = (hits: number) => Math.max(hits, 0.5) / samples;
  let joint = share(countAll(bits as Uint32Array[]));
  for (const [i, leg] of legs.entries()) {
    const marginal = exactMarginal(field, index, leg.selection);
    if (marginal !== null) joint *= marginal / share(countAll([bits[i] as Uint32Array]));
  }
  return Math.min(joint, ...legs.map((leg) => exactMarginal(field, index, leg.selection) ?? 1));
}

/** Each field's exact marginals, by what the leg backs: a leg's marginal is asked for in every joint it is in. */
const marginals = new WeakMap<ExactField, Map<string, number | null>>();

function exactMarginal(field: ExactField, index: ReadonlyMap<string, number>, selection: Selection): number | null {
  let known = marginals.get(field);
  if (!known) {
    known = new Map();
    marginals.set(field, known);
  }
  const key = JSON.stringify(selection);
  if (known.has(key)) return known.get(key) as number | null;
  const marginal = computedMarginal(field, index, selection);
  known.set(key, marginal);
  return marginal;
}

function computedMarginal(field: ExactField, index: ReadonlyMap<string, number>, selection: Selection): number | null {
  const leg = orderLegOf(selection, index);
  if (leg) return exactJoint(field, [leg]);
  if (selection.kind === 'ahead') {
    const [a, b] = [index.get(selection.athleteId), index.get(selection.otherId)];
    return a === undefined || b === undefined ? null : field.headToHead(a, b);
  }
  if (
    selection.kind === 'overUnder' &&
    selection.measure === 'finishingPosition' &&
    selection.athleteIds.length === 1
  ) {
    const a = index.get(selection.athleteIds[0] as string);
    if (a === undefined) return null;
    const { over, under } = field.finishingPosition(a, selection.line);
    return selection.side === 'OVER' ? over : under;
  }
  return null;
}
