import { LRUCache } from 'lru-cache';
import type { Competition } from '../domain/competitions.ts';
import { scopeKey } from '../domain/markets/market-shape.ts';
import { outcomeSelection, parseIds } from '../domain/markets/outcome-settlement.ts';
import type { ScopeResult } from '../domain/markets/scope-result.ts';
import type { Selection } from '../domain/markets/selection.ts';
import { parseRecordedModel, type RecordedModel } from '../domain/pricing/recorded-model.ts';
import type { Store } from '../store/database.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import { resultsRepository } from '../store/repositories/results-repository.ts';
import { scopeFactsRepository } from '../store/repositories/scope-facts-repository.ts';
import type { AthleteRow, EventRow, MarketRow, OddRow } from '../store/schema.ts';
import { athleteName, eventPlaces, eventSides, labelOf } from './outcome-labels.ts';
import type { ScopeToDraw } from './parlay-scopes.ts';

/**
 * What a same game parlay reads of its event: the event's markets, odds, labels, results and
 * published probabilities at one odds version (the last few events' kept), and the leg each odd is.
 */

const MAX_CACHED_EVENTS = 32;

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

const models = new LRUCache<string, EventModel>({ max: MAX_CACHED_EVENTS });

export async function eventModel(store: Store, event: EventRow, competition: Competition): Promise<EventModel> {
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

/** The probability an outcome is published at: the model's it was priced from, else its odds' own. */
export function publishedOf(odd: OddRow): number {
  return odd.probability === null ? 1 / odd.decimalOdds : odd.probability / 100;
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

/** What a slip shows for the leg: its outcome's selection on route 6. */
export function legLabel(model: EventModel, leg: Leg): string {
  return model.labels.get(leg.odd.id) ?? leg.odd.id;
}
