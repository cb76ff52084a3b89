import { getCompetition } from '../domain/competitions.ts';
import type { OddType } from '../domain/enumerations.ts';
import { fail } from '../domain/errors.ts';
import { groupBy } from '../domain/group-by.ts';
import { scopeKey, scopeOf } from '../domain/markets/market-shape.ts';
import { marketStatus } from '../domain/markets/market-status.ts';
import { outcomeHistory, type RecordedPrice } from '../domain/markets/price-history.ts';
import type { OddsHistoryQuery, OutcomePriceHistory } from '../shapes/odds-history.ts';
import type { Store } from '../store/database.ts';
import { type OddsHistoryEntry, oddsHistoryRepository } from '../store/repositories/odds-history-repository.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import { scopeFactsRepository } from '../store/repositories/scope-facts-repository.ts';
import type { MarketRow, OddRow } from '../store/schema.ts';
import type { AccessScope } from './access-scope.ts';
import { dateBound, resolveEvent } from './events.ts';

export interface OddsHistoryPage {
  items: OutcomePriceHistory[];
  /** Present when `limit` cut the list: pass it as `cursor` for the next page. */
  nextCursor: string | null;
}

/**
 * The price history of an event's outcomes, a page of outcomes in reference-id order:
 * each one's opening, closing and the changes recorded within [since, until].
 */
export async function getOddsHistory(
  store: Store,
  eventId: string,
  query: OddsHistoryQuery,
  scope: AccessScope,
): Promise<OddsHistoryPage> {
  const event = await resolveEvent(store, eventId, scope);
  const competition = getCompetition(event.competition);
  const offered = competition.supportedMarkets;
  const notOffered = query.oddType?.filter((oddType) => !offered.includes(oddType)) ?? [];
  if (notOffered.length > 0)
    throw fail(
      'ODD_TYPE_NOT_OFFERED',
      { competition, oddTypes: notOffered, offered },
      { eventId, oddType: notOffered, supportedMarkets: offered },
    );
  const window = timeWindow(query);
  const repo = oddsRepository(store.db);
  const [markets, rows] = await Promise.all([
    repo.marketsOfEvent(event.id, query.oddType ? { oddType: query.oddType } : {}),
    repo.outcomesPage(event.id, {
      ...(query.oddType ? { oddType: query.oddType } : {}),
      ...(query.outcomeId !== undefined ? { outcome: query.outcomeId } : {}),
      ...(query.cursor ? { afterReferenceId: decodeCursor(query.cursor) } : {}),
      ...(query.limit !== undefined ? { limit: query.limit + 1 } : {}),
    }),
  ]);
  if (query.outcomeId !== undefined && rows.length === 0 && !query.cursor)
    throw fail('OUTCOME_NOT_FOUND', { outcomeId: query.outcomeId, eventId }, { eventId, outcomeId: query.outcomeId });
  const more = query.limit !== undefined && rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const items = await histories(store, event, markets, page, window);
  return { items, nextCursor: more ? encodeCursor(page[page.length - 1] as OddRow) : null };
}

type Event = Awaited<ReturnType<typeof resolveEvent>>;

/** Each outcome's history: its opening, last open price and window of changes, read for the page at once. */
async function histories(
  store: Store,
  event: Event,
  markets: readonly MarketRow[],
  odds: readonly OddRow[],
  window: { since?: string; until?: string },
): Promise<OutcomePriceHistory[]> {
  if (odds.length === 0) return [];
  const ids = odds.map((o) => o.id);
  const history = oddsHistoryRepository(store.db);
  const [oldest, lastOpen, changes, closed] = await Promise.all([
    history.firstOf(ids).then(byOdd),
    history.lastOpenOf(ids).then(byOdd),
    history.changesOf(ids, window.since, window.until).then((rows) => groupBy(rows, (row) => row.oddId)),
    closedForGood(store, event, markets, odds),
  ]);
  const marketById = new Map(markets.map((m) => [m.id, m]));
  return odds.map((odd) => {
    const market = marketById.get(odd.marketId) as MarketRow;
    return {
      outcomeId: odd.id,
      oddType: market.oddType as OddType,
      marketId: odd.marketId,
      ...outcomeHistory({
        // Every written odd has a row; an odd from before the history without one opens at its price.
        oldest: oldest.get(odd.id) ?? asRecorded(odd),
        lastOpen: lastOpen.get(odd.id),
        changes: changes.get(odd.id) ?? [],
        closedForGood: closed.has(odd.id),
      }),
    } as OutcomePriceHistory;
  });
}

function asRecorded(odd: OddRow): RecordedPrice {
  return {
    decimalOdds: odd.decimalOdds,
    probability: odd.probability,
    status: odd.status,
    statusReason: odd.statusReason,
    changedAt: odd.updatedAt,
    isFirst: 0,
  };
}

function byOdd(rows: OddsHistoryEntry[]): Map<string, OddsHistoryEntry> {
  return new Map(rows.map((r) => [r.oddId, r]));
}

/**
 * The outcomes whose market has left OPEN for good: CLOSED as route 6 publishes it (by the operator,
 * its result, or its event's end). A suspension, the feed's silence included, may lift: not closed.
 */
async function closedForGood(
  store: Store,
  event: Event,
  markets: readonly MarketRow[],
  odds: readonly OddRow[],
): Promise<Set<string>> {
  const marketById = new Map(markets.map((m) => [m.id, m]));
  const used = [...new Set(odds.map((o) => o.marketId))].map((id) => marketById.get(id) as MarketRow);
  const results = await scopeFactsRepository(store.db).resultsOf(
    event,
    getCompetition(event.competition).resultsFormat,
    used,
  );
  const closed = new Set<string>();
  for (const odd of odds) {
    const market = marketById.get(odd.marketId) as MarketRow;
    const result = results.get(scopeKey(scopeOf({ ...market, athleteIds: null })));
    const { status } = marketStatus({
      marketStatus: market.status,
      marketStatusReason: market.statusReason,
      oddStatus: odd.status,
      oddStatusReason: odd.statusReason,
      resulted: result !== undefined && result.state !== 'pending',
      eventStatus: event.eventStatus,
      feedStale: false,
      scoreChange: false,
    });
    if (status === 'CLOSED') closed.add(odd.id);
  }
  return closed;
}

/** since and until as stored-time bounds: since inclusive, until through the day or instant it names. */
function timeWindow(query: OddsHistoryQuery): { since?: string; until?: string } {
  const since = query.since === undefined ? undefined : dateBound('since', query.since).start.toISOString();
  const until = query.until === undefined ? undefined : dateBound('until', query.until).endExclusive.toISOString();
  if (since && until && until <= since)
    throw fail('INVALID_DATE_RANGE', { later: 'until', earlier: 'since' }, { parameter: 'until' });
  return { ...(since ? { since } : {}), ...(until ? { until } : {}) };
}

function encodeCursor(odd: OddRow): string {
  return Buffer.from(JSON.stringify([odd.referenceId])).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const [referenceId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown];
    if (Number.isInteger(referenceId)) return referenceId as number;
  } catch {
    // fall through to the error below
  }
  throw fail('INVALID_CURSOR', { parameter: 'cursor' });
}
