import { pace } from '../base/event-loop-turns.ts';
import type { OddType } from '../domain/enumerations.ts';
import { type BetStopRules, DEFAULT_BET_STOP_RULES, type EventBetStops } from '../domain/feed-health.ts';
import { findConflict } from '../domain/markets/leg-conflicts.ts';
import { isExclusiveMarket } from '../domain/markets/market-shape.ts';
import { type OptionReason, optionReason } from '../domain/markets/parlay-legs.ts';
import { DEFAULT_PRICE_POLICY, type PricePolicy } from '../domain/pricing/published-price.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type { Store } from '../store/database.ts';
import type { EventRow } from '../store/schema.ts';
import type { AccessScope } from './access-scope.ts';
import {
  groupProbability,
  legDocument,
  parlayEvent,
  parlayOddIds,
  parlayPrice,
  type SgpLegDocument,
} from './parlay.ts';
import { type EventModel, type Leg, legLabel, legOf } from './parlay-event-model.ts';
import { checkedLegs, conflictLeg, fieldSizeOf, statusOf } from './parlay-leg-checks.ts';
import { localDemand, type SimulationDemand } from './parlay-simulations.ts';

export interface SgpOptionDocument {
  oddId: string;
  oddType: OddType;
  marketId: string;
  selection: string;
  combinable: boolean;
  reason?: OptionReason;
  probability?: number;
  odds?: number;
}

export interface SgpOptionsDocument {
  eventId: string;
  legs: SgpLegDocument[];
  probability: number | null;
  odds: number | null;
  options: SgpOptionDocument[];
}

/**
 * The bet builder: the legs' parlay, and every outcome of the event still offered (open or
 * suspended) with whether it can join the legs and, if so, the price of the parlay with it: the price
 * the parlay route gives those legs, from the same functions. The legs' groups (scopes) are priced
 * once and an outcome re-prices only the group it joins; within it, the joints of the legs' own
 * subsets are worked out once for every outcome (and kept: read/parlay-field-joints.ts, fairJoints). An outcome
 * alone in its group multiplies the legs' price by its own.
 */
export async function parlayOptions(
  store: Store,
  eventId: string,
  body: unknown,
  access: AccessScope,
  maxLegs: number,
  rules: BetStopRules = DEFAULT_BET_STOP_RULES,
  demand: SimulationDemand = localDemand(),
  policy: PricePolicy = DEFAULT_PRICE_POLICY,
): Promise<SgpOptionsDocument> {
  const ids = parlayOddIds(body);
  const { event, model, betStops } = await parlayEvent(store, eventId, access, rules);
  const legs = await checkedLegs(store, model, event, ids, maxLegs, betStops, access);
  const groups = new Map<string, Leg[]>();
  for (const leg of legs) groups.set(leg.group, [...(groups.get(leg.group) ?? []), leg]);
  const factors = new Map<string, number>();
  for (const [key, groupLegs] of groups)
    factors.set(key, await groupFactor(store, model, event, key, groupLegs, demand));
  const joint = legs.length === 0 ? null : [...factors.values()].reduce((product, f) => product * f, 1);
  const priced: Priced = { store, model, event, legs, groups, factors, maxLegs, betStops, demand, policy };
  const options: SgpOptionDocument[] = [];
  for (const odd of model.odds.values()) {
    const option = await optionOf(priced, legOf(model, odd));
    if (option) options.push(option);
    // An event's outcomes take hundreds of milliseconds to price the first time (their bitsets, their
    // walks): others' requests are answered in between (another key's GET /sports p99 stays under 50 ms).
    await pace();
  }
  // One leg is its own published price (a fed price as fed); more are priced as the parlay route prices them.
  const single = legs.length === 1 ? legDocument(model, legs[0] as Leg) : null;
  const price = single ?? (joint === null ? null : parlayPrice(joint, policy));
  return {
    eventId: formatPublicId(event.competition, event.id),
    legs: legs.map((leg) => legDocument(model, leg)),
    probability: price?.probability ?? null,
    odds: price?.odds ?? null,
    options,
  };
}

/** What every outcome is priced against: the legs, their groups and each group's price. */
interface Priced {
  store: Store;
  model: EventModel;
  event: EventRow;
  legs: readonly Leg[];
  groups: ReadonlyMap<string, readonly Leg[]>;
  factors: ReadonlyMap<string, number>;
  maxLegs: number;
  /** The event's bet stops, as route 6 publishes its outcomes. */
  betStops: EventBetStops;
  demand: SimulationDemand;
  /** How each quote is published (MIN_DECIMAL_ODDS, MAX_DECIMAL_ODDS, PRICE_LADDER). */
  policy: PricePolicy;
}

/** One outcome as an option: null when it is closed (it will not be offered again). */
async function optionOf(priced: Priced, candidate: Leg): Promise<SgpOptionDocument | null> {
  const { store, model, event, legs, groups, factors } = priced;
  const status = statusOf(model, event, candidate, priced.betStops);
  if (status === 'CLOSED') return null;
  const reason = optionReason(
    {
      isLeg: legs.some((leg) => leg.odd.id === candidate.odd.id),
      open: status === 'OPEN',
      legs: legs.length,
      sameExclusiveMarket:
        isExclusiveMarket(candidate.market.oddType) && legs.some((leg) => leg.market.id === candidate.market.id),
      contradicts: contradicts(model, legs, candidate),
    },
    priced.maxLegs,
  );
  const described = {
    oddId: candidate.odd.id,
    oddType: candidate.market.oddType as OddType,
    marketId: candidate.market.id,
    selection: legLabel(model, candidate),
  };
  if (reason) return { ...described, combinable: false, reason };
  // The groups multiplied in the parlay route's order, the outcome's own group re-priced with it.
  let probability = 1;
  for (const [key, groupLegs] of groups)
    probability *=
      key === candidate.group
        ? await groupProbability(store, model, event, key, [...groupLegs, candidate], priced.demand)
        : (factors.get(key) as number);
  if (!groups.has(candidate.group)) probability *= candidate.published;
  return { ...described, combinable: true, ...parlayPrice(probability, priced.policy) };
}

/** A group's price: a leg alone is its own published price (what the parlay's pricing comes to for it). */
async function groupFactor(
  store: Store,
  model: EventModel,
  event: EventRow,
  key: string,
  legs: readonly Leg[],
  demand: SimulationDemand,
): Promise<number> {
  if (legs.length === 1) return (legs[0] as Leg).published;
  return groupProbability(store, model, event, key, legs, demand);
}

/** Whether the outcome cannot win with the legs of its scope (legs of other scopes never clash with it). */
function contradicts(model: EventModel, legs: readonly Leg[], candidate: Leg): boolean {
  const scopeLegs = legs.filter((leg) => leg.scope === candidate.scope && leg.odd.id !== candidate.odd.id);
  if (scopeLegs.length === 0) return false;
  const together = [...scopeLegs, candidate];
  return findConflict(together.map(conflictLeg), fieldSizeOf(model, candidate.scope, together)) !== null;
}
