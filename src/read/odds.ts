import { type Competition, getCompetition } from '../domain/competitions.ts';
import type { OddType, OverUnderSubMarketType } from '../domain/enumerations.ts';
import { fail } from '../domain/errors.ts';
import { type BetStopRules, DEFAULT_BET_STOP_RULES, type EventBetStops } from '../domain/feed-health.ts';
import { scopeKey, scopeOf } from '../domain/markets/market-shape.ts';
import { publishedStatus } from '../domain/markets/market-status.ts';
import { parseIds } from '../domain/markets/outcome-settlement.ts';
import type { ScopeResult } from '../domain/markets/scope-result.ts';
import type { OverUnderSide } from '../domain/markets/selection.ts';
import { maxPriced } from '../domain/pricing/margin.ts';
import { DEFAULT_PRICE_POLICY, type PricePolicy, publishedPrice } from '../domain/pricing/published-price.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type {
  AthleteOdd,
  DreamTeamOdd,
  EventOdds,
  EventOddsQuery,
  ExactaOdd,
  HeadToHeadOdd,
  HeadToHeadSide,
  HeatOdd,
  OddItem,
  OverUnderOdd,
  PricedOutcome,
  PropBetOdd,
  TeamMarketOdd,
} from '../shapes/odds.ts';
import type { Athlete } from '../shapes/results.ts';
import type { Store } from '../store/database.ts';
import type { EventWithTour } from '../store/repositories/events-repository.ts';
import { type MarketFilter, oddsRepository } from '../store/repositories/odds-repository.ts';
import { resultsRepository } from '../store/repositories/results-repository.ts';
import { scopeFactsRepository } from '../store/repositories/scope-facts-repository.ts';
import { settlementsRepository } from '../store/repositories/settlements-repository.ts';
import type {
  AthleteRow,
  EventRow,
  HeatRow,
  MarketRow,
  OddRow,
  RoundRow,
  SettlementRow,
  TeamRow,
} from '../store/schema.ts';
import type { AccessScope } from './access-scope.ts';
import { athleteDocument, teamDocument } from './athlete-document.ts';
import { resolveEvent } from './events.ts';
import { eventBetStops } from './feed-status.ts';
import { eventPlaces, eventSides, type LabelSources, labelOf } from './outcome-labels.ts';
import { scopePricing } from './parlay-scopes.ts';
import { pricedOutcome, settledFields } from './priced-outcome.ts';

interface Context {
  competition: Competition;
  athletes: Map<string, AthleteRow>;
  teams: Map<string, TeamRow>;
  heats: Map<string, HeatRow & { round: RoundRow }>;
  results: Map<string, ScopeResult>;
  eventStatus: string;
  /** The bet stops of the LIVE event (feed silence, a score just changed, its start): open outcomes are suspended. */
  betStops?: EventBetStops;
  /** The event was abandoned under way: its voids say EVENT_ABANDONED. */
  abandoned?: boolean;
  /** The settlements as last published, by odd id (when and why each settled: settledAt, RESULT_CHANGED). */
  ledger?: ReadonlyMap<string, SettlementRow>;
  /** The names each outcome's `selection` label is written with. */
  labels: LabelSources;
}

/** A priced outcome with its label, as every item carries it. */
type Labelled = PricedOutcome & { selection: string };

/** Route 6: one odd type's markets of an event, every outcome priced in three formats and settled from the results. */
export async function getEventOdds(
  store: Store,
  eventId: string,
  oddType: OddType,
  query: EventOddsQuery,
  scope: AccessScope,
  betStops: BetStopRules = DEFAULT_BET_STOP_RULES,
  // The present that feed silence is measured to: the server's clock, or the clock the feed was
  // stamped with when a caller set it (ingestFeed's `now`: the simulator, tests).
  now = new Date(),
  // How an exacta priced on request is published (MIN_DECIMAL_ODDS, MAX_DECIMAL_ODDS, PRICE_LADDER).
  policy: PricePolicy = DEFAULT_PRICE_POLICY,
): Promise<EventOdds> {
  const event = await resolveEvent(store, eventId, scope);
  const competition = getCompetition(event.competition);
  if (!competition.supportedMarkets.includes(oddType)) {
    throw fail(
      'ODD_TYPE_NOT_OFFERED',
      { competition, oddTypes: [oddType], offered: competition.supportedMarkets },
      {
        eventId,
        oddType,
        supportedMarkets: competition.supportedMarkets,
      },
    );
  }
  const repo = oddsRepository(store.db);
  const filter: MarketFilter = { oddType };
  if (query.exactasType !== undefined && (oddType === 'eventExacta' || oddType === 'heatExacta'))
    filter.exactasType = query.exactasType;
  if (query.overUnderSubMarketType && (oddType === 'overUnder' || oddType === 'multiOverUnder'))
    filter.overUnderSubMarketType = query.overUnderSubMarketType;
  const markets = await repo.marketsOfEvent(event.id, filter);
  const { odds, context } = await marketContext(store, event, competition, markets, betStops, now);
  const publicId = formatPublicId(event.competition, event.id);
  const header = { eventId: publicId, publicId, numericEventId: event.referenceId, oddType };
  // Each item is built as its odd type's shape (oddItem below); the member's name is the odd type.
  const items = oddItems(markets, odds, context);
  if (oddType === 'eventExacta' || oddType === 'heatExacta')
    return {
      ...header,
      [oddType]: await exoticItems(store, event, markets, odds, items, query, context, policy),
    } as EventOdds;
  return { ...header, [oddType]: items } as EventOdds;
}

/**
 * The published items of `markets` (of one event, of any odd types), in the order given: one item
 * per outcome, one per head-to-head matchup, each as its odd type's shape.
 */
export async function marketItems(
  store: Store,
  event: EventWithTour,
  competition: Competition,
  markets: MarketRow[],
  betStops: BetStopRules = DEFAULT_BET_STOP_RULES,
): Promise<OddItem<OddType>[]> {
  const { odds, context } = await marketContext(store, event, competition, markets, betStops);
  const items = oddItems(markets, odds, context);
  // Exotic orders carry how many combinations exist and how many are shown, as route 6 gives them.
  const exotic = markets.filter((m) => m.oddType === 'eventExacta' || m.oddType === 'heatExacta');
  if (exotic.length === 0) return items;
  const counted = await exoticItems(store, event, exotic, odds, items, {}, context);
  const byId = new Map(counted.map((item) => [item.id, item]));
  return items.map((item) => byId.get((item as { id?: string }).id ?? '') ?? item);
}

/** The odds of `markets` and what their items are built from: athletes, teams, heats, results. */
async function marketContext(
  store: Store,
  event: EventWithTour,
  competition: Competition,
  markets: MarketRow[],
  rules: BetStopRules,
  now = new Date(),
): Promise<{ odds: OddRow[]; context: Context }> {
  const repo = oddsRepository(store.db);
  const odds = await repo.oddsOfMarkets(
    event.id,
    markets.map((m) => m.id),
  );
  const [places, results, betStops, ledger] = await Promise.all([
    eventPlaces(store, event.id),
    scopeFactsRepository(store.db).resultsOf(event, competition.resultsFormat, markets),
    eventBetStops(store, event, rules, now),
    settlementsRepository(store.db).ofEvent(event.id),
  ]);
  const athleteIds = new Set<string>();
  for (const o of odds) {
    if (o.athleteId) athleteIds.add(o.athleteId);
    for (const id of parseIds(o.athleteIds)) athleteIds.add(id);
  }
  for (const m of markets) for (const id of parseIds(m.athleteIds)) athleteIds.add(id);
  const people = resultsRepository(store.db);
  const athletes = await people.athletesByIds(athleteIds);
  const sides = eventSides(event.teams);
  const teams = await people.teamsByIds([
    ...odds.map((o) => o.teamId),
    ...[...athletes.values()].map((a) => a.teamId),
    sides.home,
    sides.away,
  ]);
  const context: Context = {
    competition,
    athletes,
    teams,
    heats: places.heats,
    results,
    eventStatus: event.eventStatus,
    betStops,
    abandoned: event.abandoned === 1,
    ledger,
    labels: { athletes, teams, ...places, sides },
  };
  return { odds, context };
}

function oddItems(markets: MarketRow[], odds: OddRow[], context: Context): OddItem<OddType>[] {
  const byMarket = new Map<string, OddRow[]>();
  for (const o of odds) {
    const list = byMarket.get(o.marketId) ?? [];
    list.push(o);
    byMarket.set(o.marketId, list);
  }
  const items: OddItem<OddType>[] = [];
  for (const market of markets) {
    const outcomes = byMarket.get(market.id) ?? [];
    if (market.oddType === 'headToHead') {
      if (outcomes.length === 2) items.push(headToHeadItem(market, outcomes as [OddRow, OddRow], context));
      continue;
    }
    for (const odd of outcomes) items.push(oddItem(market, odd, labelled(market, odd, outcomes, context), context));
  }
  return items;
}

/** The outcome priced and settled, with its label. */
function labelled(market: MarketRow, odd: OddRow, siblings: readonly OddRow[], context: Context): Labelled {
  return {
    ...pricedOutcome(market, odd, siblings, context),
    selection: labelOf(market, odd, siblings, context.labels),
  };
}

function athleteOf(id: string | null, context: Context): Athlete | null {
  const athlete = id ? context.athletes.get(id) : undefined;
  return athlete
    ? athleteDocument(athlete, teamDocument(context.teams.get(athlete.teamId ?? '')), context.competition)
    : null;
}

function athletesOf(ids: readonly string[], context: Context): Athlete[] {
  return ids.flatMap((id) => athleteOf(id, context) ?? []);
}

function heatFields(heatId: string | null, context: Context) {
  const heat = heatId ? context.heats.get(heatId) : undefined;
  if (!heat) return { roundId: null, roundName: null, roundNo: null, heatId, heatName: null, heatNo: null };
  return {
    roundId: heat.round.id,
    roundName: heat.round.roundName,
    roundNo: heat.round.roundNo,
    heatId: heat.id,
    heatName: heat.heatName,
    heatNo: heat.heatNo,
  };
}

/** marketStatus of heat markets: VOID when the heat's bets are void, CLOSE once closed, else OPEN. */
function heatMarketStatus(market: MarketRow, context: Context): 'OPEN' | 'CLOSE' | 'VOID' {
  const result = context.results.get(scopeKey({ kind: 'heat', heatId: market.heatId ?? '' }));
  if (result?.state === 'void') return 'VOID';
  return publishedStatus(market.status, 'OPEN', result, context.eventStatus) === 'CLOSED' ? 'CLOSE' : 'OPEN';
}

/** An outcome of a market other than headToHead, as its odd type's item. */
function oddItem(market: MarketRow, odd: OddRow, priced: Labelled, context: Context): OddItem<OddType> {
  switch (market.oddType) {
    case 'heatWinner':
    case 'heatExacta':
      return heatOdd(market, odd, priced, context);
    case 'eventExacta':
      return exactaOdd(market, odd, priced, context);
    case 'overUnder':
    case 'multiOverUnder':
      return overUnderOdd(market, odd, priced, context);
    case 'propBets':
      return propBetOdd(market, odd, priced, context);
    case 'dreamTeam':
      return dreamTeamOdd(odd, priced, context);
    case 'teamMarkets':
      return teamMarketOdd(market, odd, priced, context);
    default:
      return athleteOdd(market, odd, priced, context);
  }
}

function heatOdd(market: MarketRow, odd: OddRow, priced: Labelled, context: Context): HeatOdd {
  const fields = { ...heatFields(market.heatId, context), marketStatus: heatMarketStatus(market, context) };
  if (market.oddType === 'heatWinner')
    return { ...priced, position: odd.position, ...fields, athlete: athleteOf(odd.athleteId, context) };
  return {
    ...priced,
    position: odd.position,
    // The ingest gives exactas a type (2 when the feed leaves it out).
    exactasType: market.exactasType as number,
    ...fields,
    participants: athletesOf(parseIds(odd.athleteIds), context),
  };
}

function exactaOdd(market: MarketRow, odd: OddRow, priced: Labelled, context: Context): ExactaOdd {
  return {
    ...priced,
    position: odd.position,
    // The ingest gives exactas a type (2 when the feed leaves it out).
    exactasType: market.exactasType as number,
    participants: athletesOf(parseIds(odd.athleteIds), context),
  };
}

function overUnderOdd(market: MarketRow, odd: OddRow, priced: Labelled, context: Context): OverUnderOdd {
  const subjects = athletesOf(parseIds(market.athleteIds), context);
  return {
    ...priced,
    // The ingest gives over/under markets a sub-market (finishingPosition when the feed leaves it out)
    // and refuses one without a line, or an outcome with a side other than OVER or UNDER.
    overUnderSubMarketType: market.overUnderSubMarketType as OverUnderSubMarketType,
    line: market.line as number,
    side: odd.side as OverUnderSide,
    heatId: market.heatId,
    ...(market.oddType === 'overUnder' ? { athlete: subjects[0] ?? null } : { athletes: subjects }),
  };
}

function propBetOdd(market: MarketRow, odd: OddRow, priced: Labelled, context: Context): PropBetOdd {
  return {
    ...priced,
    proposition: market.proposition,
    name: odd.name,
    betStatus: market.status,
    athlete: athleteOf(odd.athleteId, context),
  };
}

function dreamTeamOdd(odd: OddRow, priced: Labelled, context: Context): DreamTeamOdd {
  return {
    ...priced,
    position: odd.position,
    name: odd.name,
    participants: athletesOf(parseIds(odd.athleteIds), context),
  };
}

function teamMarketOdd(market: MarketRow, odd: OddRow, priced: Labelled, context: Context): TeamMarketOdd {
  const team = teamDocument(context.teams.get(odd.teamId ?? ''));
  return { ...priced, name: odd.name ?? team?.name ?? null, team, heatId: market.heatId };
}

function athleteOdd(market: MarketRow, odd: OddRow, priced: Labelled, context: Context): AthleteOdd {
  return { ...priced, position: odd.position, heatId: market.heatId, athlete: athleteOf(odd.athleteId, context) };
}

function headToHeadItem(market: MarketRow, sides: [OddRow, OddRow], context: Context): HeadToHeadOdd {
  const side = (odd: OddRow): HeadToHeadSide => {
    const priced = labelled(market, odd, sides, context);
    return {
      id: priced.id,
      outcomeId: priced.outcomeId,
      selection: priced.selection,
      position: odd.position,
      odds: priced.odds,
      americanOdds: priced.americanOdds,
      probability: priced.probability,
      status: priced.status,
      ...(priced.statusReason ? { statusReason: priced.statusReason } : {}),
      settlement: priced.settlement,
      ...settledFields(priced),
      athlete: athleteOf(odd.athleteId, context),
    };
  };
  const [one, two] = [side(sides[0]), side(sides[1])];
  const winner = one.settlement === 'WIN' ? sides[0] : two.settlement === 'WIN' ? sides[1] : null;
  const latest = [market.updatedAt, ...sides.map((s) => s.updatedAt)].sort().at(-1) as string;
  return {
    id: market.id,
    // Not a number, so that it never names an odd's outcomeId: a matchup is not itself a parlay leg.
    outcomeId: `m${market.referenceId}`,
    referenceId: market.referenceId,
    heatId: market.heatId,
    eventParticipant1: one,
    eventParticipant2: two,
    winnerParticipantId: winner?.athleteId ?? null,
    betStatus: one.status === two.status ? one.status : market.status,
    updatedAt: latest,
  };
}

type ExoticItem = (ExactaOdd | HeatOdd) & { combinations?: number; combinationsShown?: number; onRequest?: boolean };

/**
 * Exacta markets: each item says how many combinations of its type the field has and how
 * many the market lists; with `athleteIds`, only that combination, priced from the scope's model with
 * its winner market's overround when the market does not list it.
 */
async function exoticItems(
  store: Store,
  event: EventRow,
  markets: MarketRow[],
  odds: OddRow[],
  items: OddItem<OddType>[],
  query: EventOddsQuery,
  context: Context,
  policy: PricePolicy = DEFAULT_PRICE_POLICY,
): Promise<ExoticItem[]> {
  const wanted = query.athleteIds?.split(',');
  if (wanted && (new Set(wanted).size !== wanted.length || (query.exactasType ?? wanted.length) !== wanted.length))
    throw fail('EXACTA_ATHLETES_INVALID', { field: 'athleteIds' });
  const out: ExoticItem[] = [];
  for (const market of markets) {
    const outcomes = odds.filter((o) => o.marketId === market.id);
    const size = market.exactasType ?? 2;
    const pricing = await scopePricing(store, event, scopeKey(scopeOf({ ...market, athleteIds: [] })));
    const n = pricing?.runners.length;
    const counts = {
      ...(n === undefined
        ? {}
        : { combinations: Array.from({ length: size }, (_, k) => n - k).reduce((a, b) => a * b, 1) }),
      combinationsShown: outcomes.length,
    };
    const own = (items as ExoticItem[]).filter((item) => item.marketId === market.id);
    if (!wanted) {
      out.push(...own.map((item) => ({ ...item, ...counts })));
      continue;
    }
    if (size !== wanted.length) continue;
    const listed = own.filter((item) => (item.participants ?? []).map((a) => a.id).join(',') === wanted.join(','));
    if (listed.length > 0) {
      out.push(...listed.map((item) => ({ ...item, ...counts })));
      continue;
    }
    const indices = wanted.map((id) => pricing?.runners.indexOf(id) ?? -1);
    if (!pricing || indices.some((i) => i < 0)) continue;
    const fair = pricing.field.sequence(indices);
    const price = publishedPrice(
      Math.max(Number.MIN_VALUE, Math.min(maxPriced(policy.minDecimalOdds), fair * (1 + pricing.overround))),
      policy,
    );
    const row: OddRow = {
      id: `${market.id}:${wanted.join(',')}`,
      referenceId: 0,
      marketId: market.id,
      eventId: event.id,
      athleteId: null,
      athleteIds: JSON.stringify(wanted),
      teamId: null,
      side: null,
      name: null,
      position: null,
      decimalOdds: price.odds,
      probability: price.probability,
      status: 'OPEN',
      statusReason: null,
      settlement: null,
      deadHeatFactor: null,
      updatedAt: market.updatedAt,
    };
    const item = oddItem(market, row, labelled(market, row, outcomes, context), context) as ExoticItem;
    out.push({ ...item, outcomeId: row.id, ...counts, onRequest: true });
  }
  if (wanted && out.length === 0 && markets.length > 0)
    throw fail(
      'EXACTA_ATHLETES_NOT_IN_FIELD',
      { athleteIds: wanted, oddType: markets[0]?.oddType },
      { field: 'athleteIds' },
    );
  return out;
}
