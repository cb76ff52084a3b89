import type { MarketStatus, TeamMarketType } from '../domain/enumerations.ts';
import { type BetStopRules, DEFAULT_BET_STOP_RULES } from '../domain/feed-health.ts';
import { isMatchScoreMarket, scopeKey, scopeOf } from '../domain/markets/market-shape.ts';
import { marketStatus, type StatusReason } from '../domain/markets/market-status.ts';
import { outcomeSelection } from '../domain/markets/outcome-settlement.ts';
import type { Selection } from '../domain/markets/selection.ts';
import { decimalToAmerican, decimalToProbability } from '../domain/odds-format.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type { PricedOutcome } from '../shapes/odds.ts';
import type {
  CurlingOdds,
  JaiAlaiMarket,
  JaiAlaiOdds,
  LacrosseOdds,
  TableTennisOdds,
  TeamMarket as TeamMarketDocument,
  TeamOddsGroup,
} from '../shapes/sport-events.ts';
import type { Store } from '../store/database.ts';
import type { EventWithTour } from '../store/repositories/events-repository.ts';
import { futuresRepository } from '../store/repositories/futures-repository.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import { scopeFactsRepository } from '../store/repositories/scope-facts-repository.ts';
import { settlementsRepository } from '../store/repositories/settlements-repository.ts';
import type { MarketRow, OddRow } from '../store/schema.ts';
import type { AccessScope } from './access-scope.ts';
import { eventBetStops } from './feed-status.ts';
import { type LabelSources, labelOf } from './outcome-labels.ts';
import { pricedOutcome, settledFields } from './priced-outcome.ts';
import { loadTeamMatch, resolveSportEvent, type SportRoute } from './sport-events.ts';
import { type TeamMatch, teamOfSide } from './team-match.ts';

/**
 * Routes 9, 11, 13 and 17: a match's moneyline, spread and total markets, for the whole match and
 * for each period that has them (ends, games, sets). The markets are teamMarkets that name a
 * teamMarketType; they settle from the match score like every other market (settlement.ts).
 */

interface TeamOutcome {
  odd: OddRow;
  priced: PricedOutcome;
  /** What a bet slip shows for it, as route 6 and the parlay route give it. */
  label: string;
  selection: Extract<Selection, { kind: 'matchScore' }>;
}

interface TeamMarket {
  market: MarketRow;
  status: MarketStatus;
  /** Why the market is not ACTIVE (absent when it is). */
  statusReason?: StatusReason;
  outcomes: TeamOutcome[];
}

interface ScopeMarkets {
  roundId: string | null;
  moneyLine: TeamMarket[];
  spread: TeamMarket[];
  total: TeamMarket[];
}

interface TeamOdds {
  event: EventWithTour;
  match: TeamMatch;
  scopes: ScopeMarkets[];
}

const ACTIVE: Record<'OPEN' | 'SUSPENDED' | 'CLOSED', MarketStatus> = {
  OPEN: 'ACTIVE',
  SUSPENDED: 'SUSPENDED',
  CLOSED: 'CLOSED',
};

async function teamOdds(
  store: Store,
  sport: SportRoute,
  id: string,
  access: AccessScope,
  rules: BetStopRules = DEFAULT_BET_STOP_RULES,
): Promise<TeamOdds> {
  const event = await resolveSportEvent(store, id, sport, 'odds', access);
  const match = await loadTeamMatch(store, event);
  const repo = oddsRepository(store.db);
  const markets = (await repo.marketsOfEvent(event.id, { oddType: 'teamMarkets' })).filter(isMatchScoreMarket);
  const odds = await repo.oddsOfMarkets(
    event.id,
    markets.map((m) => m.id),
  );
  const [results, betStops, ledger] = await Promise.all([
    scopeFactsRepository(store.db).resultsOf(event, match.competition.resultsFormat, markets, match.rows),
    eventBetStops(store, event, rules),
    settlementsRepository(store.db).ofEvent(event.id),
  ]);
  const byMarket = new Map<string, OddRow[]>();
  for (const odd of odds) byMarket.set(odd.marketId, [...(byMarket.get(odd.marketId) ?? []), odd]);
  const scopes = new Map<string | null, ScopeMarkets>([
    [null, { roundId: null, moneyLine: [], spread: [], total: [] }],
  ]);
  // Periods in play order, then the match's own markets first.
  for (const period of match.periods)
    scopes.set(period.round.id, { roundId: period.round.id, moneyLine: [], spread: [], total: [] });
  const labels = matchLabels(match);
  for (const market of markets) {
    const siblings = byMarket.get(market.id) ?? [];
    const result = results.get(scopeKey(scopeOf({ ...market, athleteIds: null })));
    const outcomes = siblings.map((odd) => ({
      odd,
      priced: pricedOutcome(market, odd, siblings, {
        results,
        eventStatus: event.eventStatus,
        betStops,
        abandoned: event.abandoned === 1,
        ledger,
      }),
      selection: outcomeSelection(market, odd, siblings).selection as TeamOutcome['selection'],
      label: labelOf(market, odd, siblings, labels),
    }));
    const scope = scopes.get(market.roundId);
    if (!scope) continue;
    const list = { moneyline: scope.moneyLine, spread: scope.spread, total: scope.total }[
      market.teamMarketType as TeamMarketType
    ];
    // The market's own status: the operator's word on it, its result, the event, the feed's silence.
    const own = marketStatus({
      marketStatus: market.status,
      marketStatusReason: market.statusReason ?? null,
      oddStatus: 'OPEN',
      oddStatusReason: null,
      resulted: result !== undefined && result.state !== 'pending',
      eventStatus: event.eventStatus,
      ...betStops,
    });
    list.push({ market, status: ACTIVE[own.status], ...withReason(own.statusReason), outcomes });
  }
  return { event, match, scopes: [...scopes.values()] };
}

/** The names a match's outcomes are labelled with: its teams by side and its periods. */
function matchLabels(match: TeamMatch): LabelSources {
  const teams = [match.home, match.away].flatMap((side) => (side ? [[side.teamId, side.team] as const] : []));
  return {
    athletes: new Map(),
    heats: new Map(),
    rounds: new Map(match.periods.map((p) => [p.round.id, p.round])),
    teams: new Map(teams),
    sides: { home: match.home?.teamId ?? null, away: match.away?.teamId ?? null },
  };
}

/** `{ statusReason }` when there is one, else nothing (the field is left out while open). */
function withReason(reason: StatusReason | undefined): { statusReason?: StatusReason } {
  return reason === undefined ? {} : { statusReason: reason };
}

/** The line an outcome is read against: the side's own handicap on a spread, the total's line. */
function outcomeLine(outcome: TeamOutcome): number | null {
  const { bet, side, line } = outcome.selection;
  if (bet === 'moneyline') return null;
  return bet === 'spread' && side === 'AWAY' ? -line : line;
}

function sideTeam(match: TeamMatch, side: string) {
  return teamOfSide(match, side === 'HOME' ? 'home' : side === 'AWAY' ? 'away' : null);
}

function marketDocument(match: TeamMatch, market: TeamMarket): TeamMarketDocument {
  return {
    marketId: market.market.id,
    referenceId: market.market.referenceId,
    status: market.status,
    ...withReason(market.statusReason),
    line: market.market.line,
    selection: market.outcomes.map((outcome) => {
      const team = sideTeam(match, outcome.selection.side);
      return {
        id: outcome.priced.id,
        outcomeId: outcome.priced.outcomeId,
        side: outcome.selection.side,
        teamId: team?.teamId ?? null,
        name: outcome.odd.name ?? team?.team.name ?? outcome.selection.side,
        selection: outcome.label,
        line: outcomeLine(outcome),
        odds: outcome.priced.odds,
        americanOdds: outcome.priced.americanOdds,
        probability: outcome.priced.probability,
        status: outcome.priced.status,
        ...withReason(outcome.priced.statusReason),
        settlement: outcome.priced.settlement,
        ...settledFields(outcome.priced),
        updatedAt: outcome.priced.updatedAt,
      };
    }),
  };
}

function periodOf(odds: TeamOdds, roundId: string | null) {
  const round = odds.match.periods.find((p) => p.round.id === roundId)?.round;
  return { roundId, name: round?.roundName ?? 'Match', number: round?.roundNo ?? null };
}

const hasMarkets = (scope: ScopeMarkets) => scope.moneyLine.length + scope.spread.length + scope.total.length > 0;

/** The odds document of each sport-specific odds route but Jai Alai's. */
interface SportOddsDocuments {
  gsoc: CurlingOdds;
  mltt: TableTennisOdds;
  nll: LacrosseOdds;
}

/** What every odds document has: the event, its teams and the whole match's markets. */
type MatchOdds = Omit<CurlingOdds, 'ends'>;

/** Each sport's document: the periods' markets under the format's own name. */
const SPORT_ODDS: {
  [S in keyof SportOddsDocuments]: (match: MatchOdds, periods: TeamOddsGroup[]) => SportOddsDocuments[S];
} = {
  gsoc: (match, ends) => ({ ...match, ends }),
  mltt: (match, games) => ({ ...match, games }),
  nll: (match, quarters) => ({ ...match, quarters }),
};

/** Routes 9, 11 and 13. */
export async function getSportOdds<S extends keyof SportOddsDocuments>(
  store: Store,
  sport: S,
  id: string,
  access: AccessScope,
  rules: BetStopRules = DEFAULT_BET_STOP_RULES,
): Promise<SportOddsDocuments[S]> {
  const odds = await teamOdds(store, sport, id, access, rules);
  const group = (scope: ScopeMarkets): TeamOddsGroup => ({
    ...periodOf(odds, scope.roundId),
    moneyLine: scope.moneyLine[0] ? marketDocument(odds.match, scope.moneyLine[0]) : null,
    spread: scope.spread.map((m) => marketDocument(odds.match, m)),
    total: scope.total.map((m) => marketDocument(odds.match, m)),
  });
  const [whole, ...periods] = odds.scopes;
  const publicId = formatPublicId(odds.event.competition, odds.event.id);
  const team = (side: 'home' | 'away') => {
    const found = teamOfSide(odds.match, side);
    return found ? { teamId: found.teamId, name: found.team.name } : null;
  };
  const match: MatchOdds = {
    eventId: publicId,
    publicId,
    numericEventId: odds.event.referenceId,
    eventStatus: odds.event.eventStatus,
    homeTeam: team('home'),
    awayTeam: team('away'),
    event: group(whole as ScopeMarkets),
  };
  return SPORT_ODDS[sport](match, periods.filter(hasMarkets).map(group));
}

/** Route 17, section 2.8's shape. `sets` on an outcome is its line (sets on the match spread and total, points in a set). */
export async function getJaiAlaiOdds(
  store: Store,
  id: string,
  access: AccessScope,
  rules: BetStopRules = DEFAULT_BET_STOP_RULES,
): Promise<JaiAlaiOdds> {
  const odds = await teamOdds(store, 'jaialai', id, access, rules);
  const { match, event } = odds;
  const publicId = formatPublicId(event.competition, event.id);
  const lineup = { homeLineup: match.home?.team.name ?? null, awayLineup: match.away?.team.name ?? null };
  const market = (m: TeamMarket): JaiAlaiMarket => ({
    marketId: m.market.referenceId,
    id: m.market.id,
    status: m.status,
    ...withReason(m.statusReason),
    selection: m.outcomes.map((outcome) => ({
      id: outcome.priced.id,
      outcomeId: outcome.priced.outcomeId,
      probability: outcome.priced.probability,
      settlement: outcome.priced.settlement,
      odds: outcome.priced.odds,
      americanOdds: outcome.priced.americanOdds,
      sets: outcomeLine(outcome) ?? 0,
      ...lineup,
      type: outcome.selection.side,
      selection: outcome.label,
      status: outcome.priced.status,
      ...withReason(outcome.priced.statusReason),
      ...settledFields(outcome.priced),
    })),
  });
  const [whole, ...periods] = odds.scopes as [ScopeMarkets, ...ScopeMarkets[]];
  const moneyLine = whole.moneyLine[0] ? market(whole.moneyLine[0]) : null;
  return {
    eventId: publicId,
    publicId,
    numericEventId: event.referenceId,
    eventWinner: { groupId: event.referenceId, publicId, moneyLine },
    matchWinner: {
      groupId: event.referenceId,
      publicId,
      moneyLine,
      spread: whole.spread.map(market),
      total: whole.total.map(market),
    },
    sets: periods.filter(hasMarkets).map((scope) => {
      const round = match.periods.find((p) => p.round.id === scope.roundId)?.round;
      return {
        id: scope.roundId,
        groupId: round?.referenceId ?? null,
        publicId: `${publicId}/${scope.roundId}`,
        name: round?.roundName ?? null,
        moneyLine: scope.moneyLine[0] ? market(scope.moneyLine[0]) : null,
        spread: scope.spread.map(market),
        total: scope.total.map(market),
      };
    }),
    futures: await jaiAlaiFutures(store, event),
  };
}

/** The season's outright (winner) market for the match's tour, when the operator has priced one. */
async function jaiAlaiFutures(store: Store, event: EventWithTour): Promise<JaiAlaiOdds['futures']> {
  const found = (await futuresRepository(store.db).findWithOdds(event.competition, event.tourId, 'winner')).find(
    (f) => f.future.tourYearId === event.tourYearId,
  );
  if (!found) return null;
  const { future, odds } = found;
  return {
    groupId: future.referenceId,
    type: future.type,
    moneyLine: [
      {
        marketId: future.referenceId,
        id: formatPublicId(future.competition, future.id),
        ...(future.isMarketOpen
          ? { status: 'ACTIVE' as const }
          : { status: 'CLOSED' as const, statusReason: 'OPERATOR' as const }),
        selection: odds.map((odd) => {
          const decimal = (JSON.parse(odd.prices) as Array<{ decimalOdds: number }>)[0]?.decimalOdds ?? 0;
          return {
            id: odd.id,
            outcomeId: String(odd.referenceId),
            probability: decimal > 1 ? decimalToProbability(decimal) : 0,
            settlement: 'NOT_SET',
            odds: decimal,
            americanOdds: decimal > 1 ? decimalToAmerican(decimal) : 0,
            sets: 0,
            homeLineup: odd.name,
            awayLineup: null,
            type: 'WINNER',
            selection: `${odd.name} to win`,
            status: future.isMarketOpen ? 'OPEN' : 'CLOSED',
            deadHeatFactor: 1,
          };
        }),
      },
    ],
  };
}
