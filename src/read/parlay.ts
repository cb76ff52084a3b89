import { type Competition, getCompetition, supportsParlays } from '../domain/competitions.ts';
import type { OddType } from '../domain/enumerations.ts';
import { fail } from '../domain/errors.ts';
import { type BetStopRules, DEFAULT_BET_STOP_RULES, type EventBetStops } from '../domain/feed-health.ts';
import { decimalToAmerican, exactPrice, roundTo } from '../domain/odds-format.ts';
import { maxPriced } from '../domain/pricing/margin.ts';
import { parlayProbability } from '../domain/pricing/parlay.ts';
import {
  DEFAULT_PRICE_POLICY,
  type PricePolicy,
  type PublishedPrice,
  publishedPrice,
} from '../domain/pricing/published-price.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type { Store } from '../store/database.ts';
import type { EventRow } from '../store/schema.ts';
import type { AccessScope } from './access-scope.ts';
import { resolveEvent } from './events.ts';
import { eventBetStops } from './feed-status.ts';
import { type EventModel, eventModel, type Leg, legLabel, MATCH_GROUP } from './parlay-event-model.ts';
import { fieldGroupProbability } from './parlay-field-joints.ts';
import { checkedLegs } from './parlay-leg-checks.ts';
import { localDemand, type SimulationDemand } from './parlay-simulations.ts';
import { matchScope } from './parlay-team-match.ts';

/**
 * Route 7, the same game parlay, and the pieces the bet builder (parlay-options.ts) prices with. The
 * event as the parlay reads it is parlay-event-model.ts; the legs' checks and their 422
 * parlay-leg-checks.ts; legs of a field scope are priced in parlay-field-joints.ts from the scope's
 * model and simulation (parlay-scopes.ts), legs of a team match in parlay-team-match.ts. Simulations
 * are drawn on a pool of threads (parlay-draws.ts), shared by whoever waits for them
 * (parlay-simulations.ts) and drawn ahead when prices move (parlay-warming.ts).
 */

export interface SgpLegDocument {
  oddId: string;
  oddType: OddType;
  selection: string;
  probability: number;
  odds: number;
}

export interface SgpDocument {
  eventId: string;
  legs: SgpLegDocument[];
  probability: number;
  odds: number;
  americanOdds: number;
  combinedOdds: number;
  independentProbability: number;
  correlationFactor: number;
}

/** The odd ids of a request body: an array, or `{ "oddIds": [...] }`. */
export function parlayOddIds(body: unknown): string[] {
  const ids = Array.isArray(body) ? body : (body as { oddIds?: unknown } | null)?.oddIds;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))
    throw fail('PARLAY_BODY_INVALID', { field: 'oddIds' });
  return ids as string[];
}

/** Route 7: the same game parlay of these odds of one event, of at most `maxLegs` legs. */
export async function priceParlay(
  store: Store,
  eventId: string,
  body: unknown,
  access: AccessScope,
  maxLegs: number,
  rules: BetStopRules = DEFAULT_BET_STOP_RULES,
  demand: SimulationDemand = localDemand(),
  policy: PricePolicy = DEFAULT_PRICE_POLICY,
): Promise<SgpDocument> {
  const ids = parlayOddIds(body);
  const { event, model, betStops } = await parlayEvent(store, eventId, access, rules);
  if (ids.length < 2) throw fail('PARLAY_TOO_FEW_LEGS', { oddIds: ids, legs: [] });
  const legs = await checkedLegs(store, model, event, ids, maxLegs, betStops, access);
  return parlayDocument(event, model, legs, await jointOf(store, model, event, legs, demand), policy);
}

/**
 * The event of a parlay, when its competition offers them, its odds' model, and whether it is under a
 * bet stop (the feed silent about the LIVE event: no leg is open, as route 6 publishes them).
 */
export async function parlayEvent(
  store: Store,
  eventId: string,
  access: AccessScope,
  rules: BetStopRules,
): Promise<{ event: EventRow; competition: Competition; model: EventModel; betStops: EventBetStops }> {
  const event = await resolveEvent(store, eventId, access);
  const competition = getCompetition(event.competition);
  if (!supportsParlays(competition)) {
    throw fail('PARLAY_NOT_OFFERED', { competition }, { eventId, competition: competition.key });
  }
  const model = await eventModel(store, event, competition);
  return { event, competition, model, betStops: await eventBetStops(store, event, rules) };
}

function parlayDocument(
  event: EventRow,
  model: EventModel,
  legs: readonly Leg[],
  joint: number,
  policy: PricePolicy,
): SgpDocument {
  const independentProbability = legs.reduce((product, leg) => product * leg.published, 1);
  const { odds, probability } = parlayPrice(joint, policy);
  return {
    eventId: formatPublicId(event.competition, event.id),
    legs: legs.map((leg) => legDocument(model, leg)),
    probability,
    odds,
    americanOdds: decimalToAmerican(exactPrice(odds, probability)),
    combinedOdds: odds,
    independentProbability: roundTo(independentProbability * 100, 4),
    correlationFactor: roundTo(joint / independentProbability, 4),
  };
}

/**
 * A joint probability (margin included) as the parlay and the bet builder publish it: within the
 * price range, a long shot at the longest odds with their probability, never 0 (docs/decisions.md,
 * "Published prices").
 */
export function parlayPrice(joint: number, policy: PricePolicy): PublishedPrice {
  return publishedPrice(Math.min(maxPriced(policy.minDecimalOdds), Math.max(Number.MIN_VALUE, joint)), policy);
}

export function legDocument(model: EventModel, leg: Leg): SgpLegDocument {
  return {
    oddId: leg.odd.id,
    oddType: leg.market.oddType as OddType,
    selection: legLabel(model, leg),
    probability: roundTo(leg.published * 100, 4),
    odds: leg.odd.decimalOdds,
  };
}

/** The probability that every leg wins: the legs' groups priced one by one (scopes are independent). */
async function jointOf(
  store: Store,
  model: EventModel,
  event: EventRow,
  legs: readonly Leg[],
  demand: SimulationDemand,
): Promise<number> {
  const byGroup = new Map<string, Leg[]>();
  for (const leg of legs) byGroup.set(leg.group, [...(byGroup.get(leg.group) ?? []), leg]);
  let joint = 1;
  for (const [key, groupLegs] of byGroup) joint *= await groupProbability(store, model, event, key, groupLegs, demand);
  return joint;
}

/** One group's legs as one probability, margin included. */
export async function groupProbability(
  store: Store,
  model: EventModel,
  event: EventRow,
  key: string,
  legs: readonly Leg[],
  demand: SimulationDemand,
): Promise<number> {
  if (key === MATCH_GROUP) {
    const scope = await matchScope(store, model, event, getCompetition(event.competition), legs, demand);
    return parlayProbability([scope]).probability;
  }
  const priced = await fieldGroupProbability(model, key, legs, demand);
  if (priced !== null) return priced;
  return legs.reduce((product, leg) => product * leg.published, 1);
}
