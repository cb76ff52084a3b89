import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isFinalEventStatus } from '../domain/changes.ts';
import { type Competition, getCompetition, supportsParlays } from '../domain/competitions.ts';
import type { OddType } from '../domain/enumerations.ts';
import { fail } from '../domain/errors.ts';
import { type BetStopRules, DEFAULT_BET_STOP_RULES, type EventBetStops } from '../domain/feed-health.ts';
import { type ConflictLeg, findConflict, type LegConflict } from '../domain/markets/leg-conflicts.ts';
import { isExclusiveMarket, isMatchScoreMarket, scopeKey, scopeOf } from '../domain/markets/market-shape.ts';
import { outcomeSelection, parseIds } from '../domain/markets/outcome-settlement.ts';
import { type LegCode, type LegFacts, type LegProblem, legProblems } from '../domain/markets/parlay-legs.ts';
import type { ScopeResult } from '../domain/markets/scope-result.ts';
import type { Selection } from '../domain/markets/selection.ts';
import { decimalToAmerican, exactPrice, roundTo } from '../domain/odds-format.ts';
import { ExactField } from '../domain/pricing/exact-field.ts';
import type { FinishingOrderModel } from '../domain/pricing/finishing-order.ts';
import { MAX_PRICED, maxPriced, removePowerMargin } from '../domain/pricing/margin.ts';
import type { MatchSamples } from '../domain/pricing/match-samples.ts';
import {
  countAll,
  exactJoint,
  type OrderLeg,
  orderLegOf,
  type ParlayScopeInput,
  parlayProbability,
  type ScopeSamples,
} from '../domain/pricing/parlay.ts';
import {
  DEFAULT_PRICE_POLICY,
  type PricePolicy,
  type PublishedPrice,
  publishedPrice,
} from '../domain/pricing/published-price.ts';
import { parseRecordedModel, type RecordedModel, stillPublished } from '../domain/pricing/recorded-model.ts';
import { fitMatchModelToMarkets } from '../domain/pricing/team-markets.ts';
import { formatPublicId } from '../domain/public-id.ts';
import { hashSeed } from '../domain/random.ts';
import type { Store } from '../store/database.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import { resultsRepository } from '../store/repositories/results-repository.ts';
import { scopeFactsRepository } from '../store/repositories/scope-facts-repository.ts';
import type { AthleteRow, EventRow, MarketRow, OddRow } from '../store/schema.ts';
import { type AccessScope, canRead } from './access-scope.ts';
import { resolveEvent } from './events.ts';
import { eventBetStops } from './feed-status.ts';
import { athleteName, eventPlaces, eventSides, labelOf } from './outcome-labels.ts';
import { drawMatches, drawScope, type ScopeDraw } from './parlay-draws.ts';
import { localDemand, SharedSimulations, type SimulationDemand } from './parlay-simulations.ts';
import { pricedOutcome } from './priced-outcome.ts';
import { eventTeamFacts } from './team-match.ts';

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
const MAX_CACHED_EVENTS = 32;

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

export interface Leg {
  odd: OddRow;
  market: MarketRow;
  selection: Selection;
  /** Where the leg is decided: legs that cannot all win together are looked for scope by scope. */
  scope: string;
  /** Legs priced from one simulation: a scope, or every leg on a team match and its periods. */
  group: string;
  published: number;
}

/** The group of legs on a team match and its periods, priced over one set of simulated matches. */
export const MATCH_GROUP = 'match-model';
/** Simulated matches per odds version: enough for 0.25 percentage points on joint chances near 50%. */
const MATCH_SAMPLES = 100_000;

/** Everything one odds version of an event prices parlays from; samples and bitsets fill in lazily. */
export interface EventModel {
  eventId: string;
  version: string;
  markets: Map<string, MarketRow>;
  odds: Map<string, OddRow>;
  byOutcomeId: Map<string, OddRow>;
  oddsByMarket: Map<string, OddRow[]>;
  results: Map<string, ScopeResult>;
  names: Map<string, string>;
  /** Each odd's label, as route 6 publishes it as its selection. */
  labels: Map<string, string>;
  /** What each scope's simulation is drawn from, and its key in `simulated`; null when the scope has nothing to fit. */
  samples: Map<string, ScopeToDraw | null>;
  /** The model the event's markets were generated from, when recorded. */
  recorded: RecordedModel | null;
  /** Published probability (1 / decimal odds) of each outcome, by scope and what it backs. */
  published: Map<string, number>;
}

interface ScopeToDraw {
  /** The event, scope and what the model is fitted to, digested: the key of everything made from it. */
  cacheKey: string;
  draw: ScopeDraw;
  /** The scope's finishing-order model (the recorded one, or Plackett-Luce fitted to its winner market). */
  model: FinishingOrderModel;
  /** The margin of a combination no market publishes: the winner market's overround. */
  overround: number;
}

/** A scope's simulated orders, and its key among them (the prefix of its legs' bitsets). */
interface Simulation {
  key: string;
  samples: ScopeSamples;
}

const MIB = 1024 * 1024;

const models = new LRUCache<string, EventModel>({ max: MAX_CACHED_EVENTS });

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

/** Simulated matches, by event and the moneyline's and total's prices; 100,000 matches are 1 to 5 MiB. */
const matchSimulations = new SharedSimulations(
  new LRUCache<string, MatchSimulation>({
    maxSize: 64 * MIB,
    sizeCalculation: (simulation) => simulation.samples.byteLength,
  }),
);

/** Each leg's wins over its simulation's samples (a few to 35 KiB), by simulation and what the leg backs. */
const legBitsets = new LRUCache<string, { bits: Uint32Array | null }>({
  maxSize: 64 * MIB,
  sizeCalculation: ({ bits }) => Math.max(1, bits?.byteLength ?? 0),
});

function bitsOf(key: string, make: () => Uint32Array | null): Uint32Array | null {
  let held = legBitsets.get(key);
  if (held === undefined) {
    held = { bits: make() };
    legBitsets.set(key, held);
  }
  return held.bits;
}

/**
 * The simulations clients' parlays needed in the last ten minutes, by event (stored id): a scope key,
 * or MATCH_GROUP. Only these are warmed when the event's prices move (read/parlay-warming.ts): a
 * bound on warming's work.
 */
const askedLately = new LRUCache<string, Set<string>>({ max: 1_000, ttl: 10 * 60_000 });

function noteAsked(demand: SimulationDemand, eventId: string, group: string): void {
  if (demand.priority !== 'client') return;
  const groups = askedLately.get(eventId) ?? new Set<string>();
  groups.add(group);
  askedLately.set(eventId, groups);
}

export function parlaysAskedLately(eventId: string): boolean {
  return askedLately.has(eventId);
}

/**
 * Draws, at the demand's priority, the simulations clients' parlays on the event needed lately, at
 * the event's prices now: those already held or under way are left as they are. Nothing for an event
 * that is over.
 */
export async function warmSimulations(store: Store, eventId: string, demand: SimulationDemand): Promise<void> {
  const groups = askedLately.get(eventId);
  const event = groups && (await eventsRepository(store.db).findById(eventId));
  if (!groups || !event || isFinalEventStatus(event.eventStatus)) return;
  const competition = getCompetition(event.competition);
  const model = await eventModel(store, event, competition);
  for (const group of groups) {
    if (group === MATCH_GROUP) await matchSimulation(store, model, event, competition, demand);
    else await scopeSamples(model, group, demand);
  }
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
 * A joint probability (margin included) as the parlay and the bet builder publish it (issue 40):
 * within the price range, a long shot at the longest odds with their probability, never 0.
 */
export function parlayPrice(joint: number, policy: PricePolicy): PublishedPrice {
  return publishedPrice(Math.min(maxPriced(policy.minDecimalOdds), Math.max(Number.MIN_VALUE, joint)), policy);
}

/** The probability an outcome is published at: the model's it was priced from, else its odds' own. */
function publishedOf(odd: OddRow): number {
  return odd.probability === null ? 1 / odd.decimalOdds : odd.probability / 100;
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

/** What a slip shows for the leg: its outcome's selection on route 6. */
export function legLabel(model: EventModel, leg: Leg): string {
  return model.labels.get(leg.odd.id) ?? leg.odd.id;
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

async function eventModel(store: Store, event: EventRow, competition: Competition): Promise<EventModel> {
  const repo = oddsRepository(store.db);
  const version = `${await repo.oddsVersion(event.id)}|${event.contentUpdatedAt}`;
  const cached = models.get(event.id);
  if (cached?.version === version) return cached;
  const markets = await repo.marketsOfEvent(event.id);
  const odds = await repo.oddsOfEvent(event.id);
  const oddsByMarket = new Map<string, OddRow[]>();
  for (const odd of odds) oddsByMarket.set(odd.marketId, [...(oddsByMarket.get(odd.marketId) ?? []), odd]);
  const athleteIds = new Set<string>();
  for (const odd of odds) for (const id of [odd.athleteId, ...parseIds(odd.athleteIds)]) if (id) athleteIds.add(id);
  for (const market of markets) for (const id of parseIds(market.athleteIds)) athleteIds.add(id);
  const athletes = await resultsRepository(store.db).athletesByIds(athleteIds);
  const labels = await oddLabels(store, event, markets, oddsByMarket, athletes);
  const recorded = await repo.recordedModel(event.id);
  const published = new Map<string, number>();
  for (const market of markets) {
    const siblings = oddsByMarket.get(market.id) ?? [];
    for (const odd of siblings) {
      const { selection, scope } = outcomeSelection(market, odd, siblings);
      published.set(`${scopeKey(scope)}|${JSON.stringify(selection)}`, publishedOf(odd));
    }
  }
  const model: EventModel = {
    eventId: event.id,
    version,
    markets: new Map(markets.map((m) => [m.id, m])),
    odds: new Map(odds.map((o) => [o.id, o])),
    byOutcomeId: new Map(odds.map((o) => [String(o.referenceId), o])),
    oddsByMarket,
    results: await scopeFactsRepository(store.db).resultsOf(event, competition.resultsFormat, markets),
    names: new Map([...athletes.values()].map((a) => [a.id, athleteName(a)])),
    labels,
    samples: new Map(),
    recorded: recorded === undefined ? null : parseRecordedModel(recorded),
    published,
  };
  models.set(event.id, model);
  return model;
}

/** The label of every odd of the event, written as route 6 writes its selection. */
async function oddLabels(
  store: Store,
  event: EventRow,
  markets: readonly MarketRow[],
  oddsByMarket: ReadonlyMap<string, OddRow[]>,
  athletes: Map<string, AthleteRow>,
): Promise<Map<string, string>> {
  const sides = eventSides(event.teams);
  const teamIds = [sides.home, sides.away, ...[...oddsByMarket.values()].flat().map((o) => o.teamId)];
  const sources = {
    athletes,
    teams: await resultsRepository(store.db).teamsByIds(teamIds),
    ...(await eventPlaces(store, event.id)),
    sides,
  };
  const labels = new Map<string, string>();
  for (const market of markets) {
    const siblings = oddsByMarket.get(market.id) ?? [];
    for (const odd of siblings) labels.set(odd.id, labelOf(market, odd, siblings, sources));
  }
  return labels;
}

/** The leg an odd of the event is, as the parlay prices it. */
export function legOf(model: EventModel, odd: OddRow): Leg {
  const market = model.markets.get(odd.marketId) as MarketRow;
  const { selection, scope: decidedIn } = outcomeSelection(market, odd, model.oddsByMarket.get(market.id) ?? []);
  // Points and gaps are not read from finishing orders: such a leg stands alone.
  const scope =
    selection.kind === 'overUnder' && selection.measure !== 'finishingPosition'
      ? `measure:${market.id}`
      : scopeKey(decidedIn);
  return {
    odd,
    market,
    selection,
    scope,
    group: selection.kind === 'matchScore' ? MATCH_GROUP : scope,
    published: publishedOf(odd),
  };
}

/** An odd of the event's status now (OPEN, SUSPENDED or CLOSED), as route 6 publishes it. */
export function statusOf(model: EventModel, event: EventRow, leg: Leg, betStops: EventBetStops): string {
  return pricedOutcome(leg.market, leg.odd, model.oddsByMarket.get(leg.market.id) ?? [], {
    results: model.results,
    eventStatus: event.eventStatus,
    betStops,
  }).status;
}

/**
 * The legs these ids name, when they make a parlay; otherwise a 422 whose `metadata.legs` gives each
 * bad leg its code (domain/markets/parlay-legs.ts), beside the lists of ids by problem that earlier
 * clients read (unknownOddIds, otherEventOddIds, closedOddIds, conflictingOddIds).
 */
export async function checkedLegs(
  store: Store,
  model: EventModel,
  event: EventRow,
  ids: readonly string[],
  maxLegs: number,
  betStops: EventBetStops,
  access: AccessScope,
): Promise<Leg[]> {
  const considered = ids.slice(0, maxLegs);
  const found = considered.map((id) => model.odds.get(id) ?? model.byOutcomeId.get(id));
  const missing = considered.filter((_, i) => found[i] === undefined);
  // An odd the key cannot read is unknown to it, not of another event (issue 42: no existence oracle).
  const elsewhere = (missing.length ? await oddsRepository(store.db).findOdds(missing) : []).filter((o) =>
    canRead(access, o.competition),
  );
  const legs = found.map((odd) => (odd ? legOf(model, odd) : null));
  const facts: LegFacts[] = ids.map((oddId, i) => {
    const leg = legs[i] ?? null;
    return {
      oddId,
      odd: leg?.odd.id ?? null,
      otherEvent: !leg && elsewhere.some((o) => o.id === oddId || String(o.referenceId) === oddId),
      open: leg !== null && statusOf(model, event, leg, betStops) === 'OPEN',
      exclusiveMarket: leg && isExclusiveMarket(leg.market.oddType) ? leg.market.id : null,
    };
  });
  const reasons: string[] = [];
  const problems = legProblems(facts, maxLegs, (eligible) => {
    const conflicts = findConflicts(
      model,
      eligible.map((i) => legs[i] as Leg),
    );
    reasons.push(...conflicts.map((c) => `legs ${list(c.ids)} cannot all win together: ${c.reason}`));
    const named = new Set(conflicts.flatMap((c) => c.ids));
    return eligible.filter((i) => named.has((legs[i] as Leg).odd.id));
  });
  const labelled = (index: number) => {
    const leg = legs[index];
    return leg ? legLabel(model, leg) : (ids[index] as string);
  };
  if (problems.length > 0)
    throw legsRefused(event, problems, maxLegs, [...sameMarket(facts, problems, labelled), ...reasons]);
  return legs as Leg[];
}

/** One sentence per single-winner market named by more than one leg, quoting the legs' labels. */
function sameMarket(
  facts: readonly LegFacts[],
  problems: readonly LegProblem[],
  labelOfLeg: (index: number) => string,
): string[] {
  const byMarket = new Map<string, LegProblem[]>();
  for (const problem of problems) {
    const market = facts[problem.index]?.exclusiveMarket;
    if (problem.code === 'SAME_MARKET' && market) byMarket.set(market, [...(byMarket.get(market) ?? []), problem]);
  }
  return [...byMarket.values()].map((named) => {
    const quoted = named.map((p) => `"${labelOfLeg(p.index)}"`).join(', ');
    return `legs ${list(named.map((p) => p.oddId))} are outcomes of one single-winner market (${quoted}): at most one of them can win`;
  });
}

/** The 422 of a parlay's bad legs: one sentence per kind of problem, each naming its legs. */
function legsRefused(event: EventRow, problems: readonly LegProblem[], maxLegs: number, conflicts: string[]) {
  const ids = (code: LegCode) => problems.filter((p) => p.code === code).map((p) => p.oddId);
  const [tooMany, repeated, unknown, foreign, closed] = (
    ['TOO_MANY_LEGS', 'DUPLICATE', 'UNKNOWN_ODD', 'OTHER_EVENT', 'NOT_OPEN'] as const
  ).map(ids) as [string[], string[], string[], string[], string[]];
  // Listed together for clients that read conflictingOddIds, from before SAME_MARKET had its own code.
  const conflicting = problems.filter((p) => p.code === 'SAME_MARKET' || p.code === 'CONTRADICTS').map((p) => p.oddId);
  const verb = (items: readonly string[], one: string, many: string) => (items.length === 1 ? one : many);
  const notOfEvent = [
    ...(unknown.length ? [`the ${oddsNamed(unknown)} ${verb(unknown, 'does', 'do')} not exist`] : []),
    ...(foreign.length ? [`the ${oddsNamed(foreign)} ${verb(foreign, 'belongs', 'belong')} to another event`] : []),
  ];
  const sentences = [
    ...(tooMany.length
      ? [
          `A parlay takes at most ${maxLegs} legs (SGP_MAX_LEGS): the ${oddsNamed(tooMany)} ${verb(tooMany, 'is', 'are')} one too many`,
        ]
      : []),
    ...(repeated.length
      ? [
          `${verb(repeated, 'Odd', 'Odds')} ${list(repeated)} ${verb(repeated, 'is', 'are')} repeated: each leg must be a different odd`,
        ]
      : []),
    ...(notOfEvent.length
      ? [`Every leg must be an odd of event "${formatPublicId(event.competition, event.id)}": ${notOfEvent.join('; ')}`]
      : []),
    ...(closed.length
      ? [`The ${oddsNamed(closed)} ${verb(closed, 'is', 'are')} not open for betting (suspended, closed or settled)`]
      : []),
    ...conflicts.map((reason) => reason.charAt(0).toUpperCase() + reason.slice(1)),
  ];
  const named = (key: string, items: readonly string[]) => (items.length ? { [key]: items } : {});
  return fail(
    'PARLAY_LEGS_REFUSED',
    { sentences },
    {
      legs: problems.map(({ oddId, code }) => ({ oddId, code })),
      ...named('unknownOddIds', unknown),
      ...named('otherEventOddIds', foreign),
      ...named('closedOddIds', closed),
      ...named('conflictingOddIds', conflicting),
      ...named('oddIds', repeated),
    },
  );
}

/**
 * Legs that cannot all win together, scope by scope (legs of different scopes never clash: scopes are
 * independent); within a scope, the smallest set found.
 */
export function findConflicts(model: EventModel, legs: readonly Leg[]): LegConflict[] {
  const byScope = new Map<string, Leg[]>();
  for (const leg of legs) byScope.set(leg.scope, [...(byScope.get(leg.scope) ?? []), leg]);
  const found: LegConflict[] = [];
  for (const [key, scopeLegs] of byScope) {
    if (scopeLegs.length < 2) continue;
    const conflict = findConflict(
      scopeLegs.map((leg) => ({ ...conflictLeg(leg), label: legLabel(model, leg) })),
      fieldSizeOf(model, key, scopeLegs),
      (id) => model.names.get(id) ?? id,
    );
    if (conflict) found.push(conflict);
  }
  return found;
}

export function conflictLeg(leg: Leg): ConflictLeg {
  return {
    id: leg.odd.id,
    selection: leg.selection,
    marketId: leg.market.id,
    exclusive: isExclusiveMarket(leg.market.oddType),
  };
}

/** The field's size, from what its simulation would be drawn from: nothing is drawn for it. */
export function fieldSizeOf(model: EventModel, key: string, legs: readonly Leg[]): number {
  return (
    drawOf(model, key)?.draw.runners.length ??
    Math.max(2, ...legs.map((leg) => (model.oddsByMarket.get(leg.market.id) ?? []).length))
  );
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
async function scopeSamples(model: EventModel, key: string, demand: SimulationDemand): Promise<Simulation | null> {
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
 * field), and it prefixes up to 100,000 fair joints and every leg's bitset (issue 42, item 8).
 */
function digest(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** What a scope is priced and drawn from, worked out once per event model. */
function drawOf(model: EventModel, key: string): ScopeToDraw | null {
  let scope = model.samples.get(key);
  if (scope === undefined) {
    scope = scopeToDraw(model, key);
    model.samples.set(key, scope);
  }
  return scope;
}

/** The exact field of a scope's model. */
function exactFieldOf(scope: ScopeToDraw): ExactField {
  let field = exactFields.get(scope.cacheKey);
  if (!field) {
    field = new ExactField(scope.model);
    exactFields.set(scope.cacheKey, field);
  }
  return field;
}

/**
 * One scope's legs as one price (docs/decisions.md, "One price per bet"). Legs implied by the others
 * are dropped (a win implies the podium); what is left, when a market publishes it (one leg, or
 * [A wins, B second] as the exacta A-B), is priced as that market prices it. Otherwise the fair joint
 * probability under the scope's model (exact for place, top-k and order legs; simulated otherwise,
 * scaled to the exact marginals) carries the winner market's overround once.
 */
async function fieldGroupProbability(
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

/** A leg's wins over its scope's samples. */
function legBits(simulation: Simulation, leg: Leg): Uint32Array | null {
  return bitsOf(`${simulation.key}|${JSON.stringify(leg.selection)}`, () => simulation.samples.legBits(leg.selection));
}

interface MatchSimulation {
  samples: MatchSamples;
  /** Regular periods' round ids in play order: a leg's period index. */
  periods: string[];
}

/**
 * Legs on a team match and its periods, over matches simulated from the score model fitted to the
 * match's moneyline and total (margins taken out). Kept while those prices stand.
 */
async function matchScope(
  store: Store,
  model: EventModel,
  event: EventRow,
  competition: Competition,
  legs: readonly Leg[],
  demand: SimulationDemand,
): Promise<ParlayScopeInput> {
  const { key, found } = await matchSimulation(store, model, event, competition, demand);
  return {
    samples: found?.samples.samples ?? 1,
    legs: legs.map((leg) => {
      const { selection } = leg;
      if (!found || selection.kind !== 'matchScore') return { published: leg.published, bits: null };
      const period = leg.market.roundId === null ? null : found.periods.indexOf(leg.market.roundId);
      const bits = bitsOf(`${key}|${period}|${JSON.stringify(selection)}`, () =>
        period === -1 ? null : found.samples.legBits(period, selection),
      );
      return { published: leg.published, bits };
    }),
  };
}

/**
 * The event's simulated matches, from the score model fitted to the match's moneyline and total
 * (margins taken out), and their cache key; none without a moneyline. Requests that need the same
 * match while it is drawn wait for that one draw.
 */
async function matchSimulation(
  store: Store,
  model: EventModel,
  event: EventRow,
  competition: Competition,
  demand: SimulationDemand,
): Promise<{ key: string; found: MatchSimulation | undefined }> {
  const wholeMatch = [...model.markets.values()].filter((m) => isMatchScoreMarket(m) && m.roundId === null);
  const sideOdds = (type: string) => {
    const market = wholeMatch.find((m) => m.teamMarketType === type);
    return { market, odds: market ? (model.oddsByMarket.get(market.id) ?? []) : [] };
  };
  // The demo and the generate route apply margins by the power method: taken out the same way.
  const fair = (odds: readonly OddRow[], side: string) => {
    const at = odds.findIndex((o) => o.side === side);
    return at < 0 ? undefined : removePowerMargin(odds.map(publishedOf))[at];
  };
  const moneyline = sideOdds('moneyline');
  const totals = sideOdds('total');
  const [home, away] = [fair(moneyline.odds, 'HOME'), fair(moneyline.odds, 'AWAY')];
  const over = fair(totals.odds, 'OVER');
  const prices = [...moneyline.odds, ...totals.odds].map((o) => `${o.id}=${o.decimalOdds}`).join(',');
  const key = `${model.eventId}|${prices}`;
  if (home === undefined || away === undefined) return { key, found: matchSimulations.held(key) };
  noteAsked(demand, model.eventId, MATCH_GROUP);
  const found = await matchSimulations.get(key, demand, async (as): Promise<MatchSimulation> => {
    const facts = eventTeamFacts(event.teams);
    const firstHammer = facts.find((t) => t.firstHammer)?.isHomeTeam === false ? 'away' : 'home';
    const fitted = fitMatchModelToMarkets(
      competition.resultsFormat,
      {
        homeWin: home / (home + away),
        ...(over !== undefined && totals.market?.line != null ? { total: { line: totals.market.line, over } } : {}),
      },
      firstHammer,
    );
    const [rounds, samples] = await Promise.all([
      eventsRepository(store.db).roundStatuses(event.id),
      drawMatches(
        {
          format: competition.resultsFormat,
          model: fitted,
          samples: MATCH_SAMPLES,
          seed: hashSeed(model.eventId, MATCH_GROUP, prices),
        },
        demand.pool,
        as,
      ),
    ]);
    return { samples, periods: rounds.map((r) => r.id) };
  });
  return { key, found };
}

function list(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(', ');
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

/** `odd "a"` or `odds "a", "b"`: one outcome is an odd, as the specification's `odds` arrays hold odds. */
function oddsNamed(ids: readonly string[]): string {
  return `${ids.length === 1 ? 'odd' : 'odds'} ${list(ids)}`;
}
