import { LRUCache } from 'lru-cache';
import type { Competition } from '../domain/competitions.ts';
import { isMatchScoreMarket } from '../domain/markets/market-shape.ts';
import { removePowerMargin } from '../domain/pricing/margin.ts';
import type { MatchSamples } from '../domain/pricing/match-samples.ts';
import type { ParlayScopeInput } from '../domain/pricing/parlay.ts';
import { fitMatchModelToMarkets } from '../domain/pricing/team-markets.ts';
import { hashSeed } from '../domain/random.ts';
import type { Store } from '../store/database.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import type { EventRow, OddRow } from '../store/schema.ts';
import { noteAsked } from './parlay-asked-lately.ts';
import { drawMatches } from './parlay-draws.ts';
import { type EventModel, type Leg, MATCH_GROUP, publishedOf } from './parlay-event-model.ts';
import { bitsOf, MIB } from './parlay-scopes.ts';
import { SharedSimulations, type SimulationDemand } from './parlay-simulations.ts';
import { eventTeamFacts } from './team-match.ts';

/** Simulated matches per odds version: enough for 0.25 percentage points on joint chances near 50%. */
const MATCH_SAMPLES = 100_000;

interface MatchSimulation {
  samples: MatchSamples;
  /** Regular periods' round ids in play order: a leg's period index. */
  periods: string[];
}

/** Simulated matches, by event and the moneyline's and total's prices; 100,000 matches are 1 to 5 MiB. */
const matchSimulations = new SharedSimulations(
  new LRUCache<string, MatchSimulation>({
    maxSize: 64 * MIB,
    sizeCalculation: (simulation) => simulation.samples.byteLength,
  }),
);

/**
 * Legs on a team match and its periods, over matches simulated from the score model fitted to the
 * match's moneyline and total (margins taken out). Kept while those prices stand.
 */
export async function matchScope(
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
export async function matchSimulation(
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
