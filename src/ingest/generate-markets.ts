import { type Competition, getCompetition } from '../domain/competitions.ts';
import { isOneOf, type OddType } from '../domain/enumerations.ts';
import { fail } from '../domain/errors.ts';
import { MAX_SHAPE } from '../domain/pricing/finishing-order.ts';
import { heatStandings, type InPlayState, inPlayField, knockedOutPlaces } from '../domain/pricing/in-play.ts';
import { inPlayMarkets } from '../domain/pricing/in-play-markets.ts';
import { MARGIN_METHODS, type MarginMethod } from '../domain/pricing/margin.ts';
import {
  competitionMarketInput,
  type GeneratedMarkets,
  generateEventMarkets,
  type HeatField,
  type MarketGeneratorOptions,
  ratingsToWinProbabilities,
} from '../domain/pricing/market-generator.ts';
import { DEFAULT_PRICE_POLICY, type PricePolicy } from '../domain/pricing/published-price.ts';
import { recordModel } from '../domain/pricing/recorded-model.ts';
import { fitMatchModel, generateTeamMarkets, MATCH_PRICING } from '../domain/pricing/team-markets.ts';
import type { TeamMatchModel } from '../domain/pricing/team-match-model.ts';
import { parsePublicId } from '../domain/public-id.ts';
import { hashSeed, Random } from '../domain/random.ts';
import type { Store } from '../store/database.ts';
import { eventsRepository } from '../store/repositories/events-repository.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import { resultsRepository } from '../store/repositories/results-repository.ts';
import { type IngestSummary, ingestFeed } from './ingest-feed.ts';

/**
 * The operator's "price this event for me": from win probabilities or ratings per athlete, the pricing
 * engine generates every market the competition offers (event markets, and heat markets for each heat
 * whose draw is stored), and they go through the ingest path like any feed. Re-running replaces the
 * prices (the same market and odd ids, a later updatedAt). A LIVE event is priced in play:
 * the chances given are those of before the event, and the store's results condition them (athletes
 * eliminated closed, the heat in play's running order), so the operator's markets reopen priced.
 */
export interface GenerateMarketsRequest {
  /** Athlete id to win probability (any positive weights; normalised). */
  winProbabilities?: Record<string, number>;
  /** Athlete id to rating points (400 points is ten times the odds). */
  ratings?: Record<string, number>;
  /** Margin per market (0.05 = 5%); 0.05 when absent. */
  overround?: number;
  marginMethod?: MarginMethod;
  /** Gamma shape of the finishing-order model; 1 (Plackett-Luce) when absent. */
  shape?: number;
  /** Odd types to generate; every type the competition offers when absent. */
  oddTypes?: OddType[];
  /** Team matches: the home side's fair chance to win the match (draws excluded). */
  homeWin?: number;
  /** Team matches scored in goals or points (lacrosse, 3ICE, curling): the expected match total. */
  expectedTotal?: number;
}

/**
 * Simulated orders for the two markets without an exact method (multiOverUnder, dreamTeam): a
 * probability p is known to within sqrt(p (1 - p) / 100,000), at most 0.16 percentage points.
 */
const SAMPLES = 100_000;

/** The largest field priced at once (a Supercross main has 22 riders, a big surf event 36 in round one). */
const MAX_FIELD = 200;

/** The margin asked for: 5% by the power method unless given. */
function marginOptions(request: GenerateMarketsRequest): { overround: number; marginMethod: MarginMethod } {
  const overround = request.overround ?? 0.05;
  if (!(overround >= 0 && overround <= 0.5)) throw fail('MARKETS_OVERROUND_INVALID', { field: 'overround' });
  const marginMethod = request.marginMethod ?? 'power';
  if (!isOneOf(MARGIN_METHODS, marginMethod))
    throw fail('MARKETS_MARGIN_METHOD_INVALID', { methods: MARGIN_METHODS }, { field: 'marginMethod' });
  return { overround, marginMethod };
}

export async function generateMarketsForEvent(
  store: Store,
  eventId: string,
  request: GenerateMarketsRequest,
  now = new Date(),
  // MIN_DECIMAL_ODDS, MAX_DECIMAL_ODDS and PRICE_LADDER: how the generated prices are published.
  pricePolicy: PricePolicy = DEFAULT_PRICE_POLICY,
): Promise<{ summary: IngestSummary; marketsGenerated: number; oddsGenerated: number }> {
  const uuid = parsePublicId(eventId)?.uuid;
  const event = uuid ? await eventsRepository(store.db).findPricingFacts(uuid) : undefined;
  if (!event) throw fail('EVENT_NOT_FOUND', { eventId }, { eventId });
  const competition = getCompetition(event.competition);
  if (MATCH_PRICING[competition.resultsFormat]) return generateMatchMarkets(store, event, request, now, pricePolicy);
  const field = fieldRequest(competition, request);
  // Before the pricing work, which takes a while for a large field: every athlete must exist.
  await checkAthletesKnown(store, field.athleteIds, field.name);
  const win = request.winProbabilities ? field.values : ratingsToWinProbabilities(field.values);
  // Ratings hundreds of thousands of points apart leave the weakest with no chance a double can hold.
  if (win.some((p) => !(p > 0 && Number.isFinite(p))))
    throw fail('MARKETS_RATINGS_TOO_FAR_APART', { field: 'ratings' });
  const heats = await openHeats(store, event.id);
  const rng = new Random(hashSeed('generate', event.id, now.toISOString()));
  const options = { ...field.pricing, samples: SAMPLES, uniform: () => rng.next(), pricePolicy };
  const opening = generateEventMarkets(
    competitionMarketInput(competition, {
      eventId: event.id,
      athleteIds: field.athleteIds,
      win,
      heats: [...heats].map(([heatId, ids]) => ({ heatId, athleteIds: ids })),
      oddTypes: request.oddTypes,
    }),
    options,
  );
  // A live event: the chances given are those of before it, conditioned on what the store says has happened.
  const generated =
    event.eventStatus === 'LIVE'
      ? inPlay(
          opening,
          field.athleteIds,
          win,
          await liveState(store, event.id, competition, field.athleteIds, now),
          options,
        )
      : opening;
  const updatedAt = now.toISOString();
  const stale = event.eventStatus === 'LIVE' ? await staleOutcomesOfOut(store, event.id, generated) : [];
  const summary = await ingestFeed(store, {
    markets: generated.markets.map((m) => ({ ...m, updatedAt })),
    odds: [...generated.odds, ...stale].map((o) => ({ ...o, updatedAt })),
  });
  // The model is recorded with its prices: the parlay route prices this event's scopes from it.
  const model = JSON.stringify(recordModel(generated.models, generated.winnerOdds, field.pricing));
  await oddsRepository(store.db).recordModel(event.id, model, updatedAt);
  return { summary, marketsGenerated: generated.markets.length, oddsGenerated: generated.odds.length };
}

/** The event's markets as generated before it, those of the event and of the heat in play priced in play instead. */
function inPlay(
  opening: GeneratedMarkets,
  athleteIds: readonly string[],
  win: readonly number[],
  live: LiveState,
  options: MarketGeneratorOptions,
): GeneratedMarkets {
  const field = inPlayField(athleteIds, win, live.state);
  const priced = inPlayMarkets(
    {
      markets: opening.markets,
      odds: opening.odds,
      field,
      heats: live.running ? [live.running] : [],
      startedHeats: live.startedHeats,
    },
    options,
  );
  const byId = <T extends { id: string }>(items: readonly T[]) => new Map(items.map((item) => [item.id, item]));
  const markets = byId(priced.markets);
  const odds = byId(priced.odds);
  const known = new Set(opening.odds.map((o) => o.id));
  return {
    markets: opening.markets.map((m) => markets.get(m.id) ?? m),
    odds: [...opening.odds.map((o) => odds.get(o.id) ?? o), ...priced.odds.filter((o) => !known.has(o.id))],
    models: { ...opening.models, ...priced.models },
    winnerOdds: { ...opening.winnerOdds, ...priced.winnerOdds },
  };
}

/**
 * Outcomes the store holds for the event that the pricing no longer lists (a heat's field drawn anew)
 * and that name an athlete eliminated: closed, at their last price, as the priced ones are.
 */
async function staleOutcomesOfOut(store: Store, eventId: string, generated: GeneratedMarkets) {
  const listed = new Set(generated.odds.map((o) => o.id));
  const out = new Set(await resultsRepository(store.db).eliminatedAthletes(eventId));
  const rows = await oddsRepository(store.db).oddsOfEvent(eventId);
  return rows
    .filter((row) => !listed.has(row.id) && row.status !== 'CLOSED')
    .map((row) => ({ row, athleteIds: row.athleteIds ? (JSON.parse(row.athleteIds) as string[]) : undefined }))
    .filter(({ row, athleteIds }) => [row.athleteId, ...(athleteIds ?? [])].some((id) => id && out.has(id)))
    .map(({ row, athleteIds }) => ({
      id: row.id,
      marketId: row.marketId,
      ...(row.athleteId ? { athleteId: row.athleteId } : {}),
      ...(athleteIds ? { athleteIds } : {}),
      ...(row.side ? { side: row.side } : {}),
      ...(row.name ? { name: row.name } : {}),
      position: row.position ?? 0,
      odds: row.decimalOdds,
      ...(row.probability ? { probability: row.probability } : {}),
      status: 'CLOSED' as const,
      statusReason: 'RESULTED' as const,
    }));
}

interface LiveState {
  state: InPlayState;
  running: HeatField | null;
  startedHeats: Set<string>;
}

/** Without a scheduled end, a heat in play counts as half run. */
const UNKNOWN_PROGRESS = 0.5;

/**
 * What the store says of a live event: the athletes of the field eliminated (out in the round of the
 * last heat they rode, sharing its places), the heat in play with its standings and how far it has
 * run (by its start and end dates), and the heats under way or over.
 */
async function liveState(
  store: Store,
  eventId: string,
  competition: Competition,
  athleteIds: readonly string[],
  now: Date,
): Promise<LiveState> {
  const results = resultsRepository(store.db);
  const [{ heats: placed }, entries] = await Promise.all([
    oddsRepository(store.db).placesOfEvent(eventId),
    results.entriesOfEvent(eventId),
  ]);
  const heats = placed.sort((a, b) => a.referenceId - b.referenceId);
  const field = new Set(athleteIds);
  const eliminated = (await results.eliminatedAthletes(eventId)).filter((id) => field.has(id));
  const roundOf = new Map(heats.map((h) => [h.id, h.round.roundNo]));
  const outIn = new Map<string, number>();
  for (const e of entries)
    if (eliminated.includes(e.athleteId))
      outIn.set(e.athleteId, Math.max(outIn.get(e.athleteId) ?? 0, roundOf.get(e.heatId) ?? 0));
  const rounds = [...new Set([0, ...outIn.values()])].sort((a, b) => a - b);
  const knockedOut = knockedOutPlaces(
    rounds.map((round) => eliminated.filter((id) => (outIn.get(id) ?? 0) === round)),
    athleteIds.length,
  );
  const live = heats.find((h) => h.heatStatus === 'LIVE');
  const startedHeats = new Set(heats.filter((h) => h.heatStatus !== 'UPCOMING').map((h) => h.id));
  if (!live) return { state: { knockedOut }, running: null, startedHeats };
  const own = entries.filter((e) => e.heatId === live.id && field.has(e.athleteId));
  const running = { heatId: live.id, athleteIds: own.map((e) => e.athleteId) };
  const standings = heatStandings(competition.resultsFormat, running.athleteIds, own);
  return { state: { knockedOut, heat: { standings, progress: heatProgress(live, now) } }, running, startedHeats };
}

/** The share of a heat run by `now`, from its start and end dates. */
function heatProgress(heat: { startDate: string | null; endDate: string | null }, now: Date): number {
  const start = heat.startDate ? Date.parse(heat.startDate) : Number.NaN;
  const end = heat.endDate ? Date.parse(heat.endDate) : Number.NaN;
  if (!(end > start)) return UNKNOWN_PROGRESS;
  return Math.min(1, Math.max(0, (now.getTime() - start) / (end - start)));
}

/** An athlete field's request, checked: who is priced, from what, with which margin and law. */
function fieldRequest(competition: Competition, request: GenerateMarketsRequest) {
  if (request.homeWin !== undefined || request.expectedTotal !== undefined) {
    throw fail('MARKETS_MATCH_INPUT_FOR_FIELD', { competition }, { field: 'homeWin' });
  }
  const given = request.winProbabilities ?? request.ratings;
  if ((request.winProbabilities === undefined) === (request.ratings === undefined) || !given) {
    throw fail('MARKETS_FIELD_INPUT_REQUIRED', { field: 'winProbabilities' });
  }
  const name = request.winProbabilities ? 'winProbabilities' : 'ratings';
  const athleteIds = Object.keys(given);
  const values = Object.values(given);
  if (athleteIds.length < 2 || values.some((v) => !Number.isFinite(v) || (request.winProbabilities && !(v > 0)))) {
    throw fail('MARKETS_WIN_PROBABILITIES_INVALID', { field: name });
  }
  const { overround, marginMethod } = marginOptions(request);
  const shape = request.shape ?? 1;
  if (!Number.isInteger(shape) || shape < 1 || shape > MAX_SHAPE)
    throw fail('MARKETS_SHAPE_INVALID', { max: MAX_SHAPE }, { field: 'shape' });
  const unsupported = (request.oddTypes ?? []).filter((t) => !competition.supportedMarkets.includes(t));
  if (unsupported.length > 0)
    throw fail(
      'MARKETS_ODD_TYPES_NOT_OFFERED',
      { competition, oddTypes: unsupported },
      { field: 'oddTypes', unsupported },
    );
  if (athleteIds.length > MAX_FIELD)
    throw fail('MARKETS_FIELD_TOO_LARGE', { max: MAX_FIELD, count: athleteIds.length }, { field: name });
  return { name, athleteIds, values, pricing: { overround, marginMethod, shape } };
}

async function checkAthletesKnown(store: Store, athleteIds: string[], field: string): Promise<void> {
  const known = await resultsRepository(store.db).knownAthletes(athleteIds);
  const unknown = athleteIds.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw fail('MARKETS_UNKNOWN_ATHLETES', { athleteIds: unknown }, { field, unknown: unknown.slice(0, 100) });
}

/** The event's heats still to be decided, with their drawn athletes; the last is taken as the main event (the hole shot's race). */
async function openHeats(store: Store, eventId: string): Promise<Map<string, string[]>> {
  const entries = await resultsRepository(store.db).entriesWithHeatStatus(eventId);
  const heats = new Map<string, string[]>();
  for (const entry of entries)
    if (entry.heatStatus !== 'COMPLETED')
      heats.set(entry.heatId, [...(heats.get(entry.heatId) ?? []), entry.athleteId]);
  return heats;
}

/**
 * A team match (curling, table tennis, lacrosse, 3ICE, Jai Alai): its score model fitted to the home
 * side's win chance and, where scores are goals or points, the expected total; then the moneyline,
 * spread and total of the match and of its periods, as the demo prices them.
 */
async function generateMatchMarkets(
  store: Store,
  event: { id: string; competition: string; teams: string },
  request: GenerateMarketsRequest,
  now: Date,
  pricePolicy: PricePolicy,
) {
  const competition = getCompetition(event.competition);
  const pricing = MATCH_PRICING[competition.resultsFormat];
  const { homeWin, expectedTotal } = request;
  if (request.winProbabilities !== undefined || request.ratings !== undefined) {
    throw fail('MARKETS_FIELD_INPUT_FOR_MATCH', { competition }, { field: 'homeWin' });
  }
  if (homeWin === undefined || !(homeWin > 0 && homeWin < 1))
    throw fail('MARKETS_HOME_WIN_INVALID', { field: 'homeWin' });
  const needsTotal = pricing?.kind === 'goals' || pricing?.kind === 'curling';
  if (needsTotal && (expectedTotal === undefined || !(expectedTotal > 1 && expectedTotal <= 200))) {
    throw fail('MARKETS_EXPECTED_TOTAL_REQUIRED', { competition }, { field: 'expectedTotal' });
  }
  const { overround, marginMethod } = marginOptions(request);
  const firstHammer =
    (JSON.parse(event.teams) as Array<{ isHomeTeam: boolean; firstHammer?: boolean }>).find((t) => t.firstHammer)
      ?.isHomeTeam === false
      ? 'away'
      : 'home';
  let model: TeamMatchModel;
  try {
    model = fitMatchModel(
      competition.resultsFormat,
      { homeWin, ...(needsTotal ? { expectedTotal } : {}) },
      firstHammer,
    );
  } catch (error) {
    throw fail('MARKETS_TARGETS_UNREACHABLE', { reason: (error as Error).message }, { field: 'expectedTotal' });
  }
  const rounds = await eventsRepository(store.db).roundStatuses(event.id);
  const generated = generateTeamMarkets({
    eventId: event.id,
    model,
    periods: rounds
      .slice(0, pricing?.periods ?? 0)
      .flatMap((round, index) => (round.roundStatus === 'COMPLETED' ? [] : [{ roundId: round.id, index }])),
    periodMarkets: pricing?.periodMarkets ?? [],
    overround,
    marginMethod,
    pricePolicy,
  });
  const updatedAt = now.toISOString();
  const summary = await ingestFeed(store, {
    markets: generated.markets.map((m) => ({ ...m, updatedAt })),
    odds: generated.odds.map((o) => ({ ...o, updatedAt })),
  });
  return { summary, marketsGenerated: generated.markets.length, oddsGenerated: generated.odds.length };
}
