import { getCompetition } from '../domain/competitions.ts';
import type { OddType } from '../domain/enumerations.ts';
import { fail } from '../domain/errors.ts';
import { type BetStopRules, DEFAULT_BET_STOP_RULES } from '../domain/feed-health.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type { OddItem } from '../shapes/odds.ts';
import type { OddsSnapshotQuery, SnapshotMarket } from '../shapes/odds-snapshot.ts';
import type { Store } from '../store/database.ts';
import { type EventWithTour, eventsRepository } from '../store/repositories/events-repository.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import { type AccessScope, assertCanRead } from './access-scope.ts';
import { resolveEvent } from './events.ts';
import { marketItems } from './odds.ts';

export interface SnapshotPage {
  items: SnapshotMarket[];
  /** Present when `limit` cut the list: pass it as `cursor` for the next page. */
  nextCursor: string | null;
}

/** Where a page ends: the event (by start date and numeric id) and the market's numeric id in it. */
interface Position {
  startDate: string;
  eventReferenceId: number;
  marketReferenceId: number;
}

/**
 * GET /odds: every market of the matching events (by start date, then numeric id; markets by numeric
 * id), each with route 6's items for its odd type, the outcomes filtered by status. Events are read
 * one at a time until the page is full.
 */
export async function getOddsSnapshot(
  store: Store,
  query: OddsSnapshotQuery,
  scope: AccessScope,
  rules: BetStopRules = DEFAULT_BET_STOP_RULES,
): Promise<SnapshotPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const events = await matchingEvents(store, query, scope);
  const want = query.limit === undefined ? Number.POSITIVE_INFINITY : query.limit + 1;
  const found: Array<{ market: SnapshotMarket; at: Position }> = [];
  for (const event of events) {
    if (after && beforeCursor(event, after)) continue;
    const from = after && sameEvent(event, after) ? after.marketReferenceId : -1;
    found.push(...(await eventMarkets(store, event, query, from, rules)));
    if (found.length >= want) break;
  }
  const more = found.length > (query.limit ?? Number.POSITIVE_INFINITY);
  const page = more ? found.slice(0, query.limit) : found;
  return {
    items: page.map((f) => f.market),
    nextCursor: more ? encodeCursor((page.at(-1) as (typeof page)[0]).at) : null,
  };
}

async function matchingEvents(store: Store, query: OddsSnapshotQuery, scope: AccessScope): Promise<EventWithTour[]> {
  const { competition, eventId } = query;
  if (eventId) {
    const events: EventWithTour[] = [];
    for (const id of new Set(eventId)) events.push(await resolveEvent(store, id, scope));
    // In the order every page follows: start date, then numeric id.
    return events
      .filter((event) => !competition || competition.includes(event.competition))
      .sort((a, b) =>
        a.startDate === b.startDate ? a.referenceId - b.referenceId : a.startDate < b.startDate ? -1 : 1,
      );
  }
  for (const key of competition ?? []) assertCanRead(scope, key);
  return eventsRepository(store.db).list({ competitions: competition ?? scope ?? undefined, sortOrder: 'ASC' });
}

/** The event's markets after the market numbered `from`, with their items. */
async function eventMarkets(
  store: Store,
  event: EventWithTour,
  query: OddsSnapshotQuery,
  from: number,
  rules: BetStopRules,
) {
  const markets = (
    await oddsRepository(store.db).marketsOfEvent(event.id, query.oddType ? { oddType: query.oddType } : {})
  ).filter((m) => m.referenceId > from);
  if (markets.length === 0) return [];
  const items = await marketItems(store, event, getCompetition(event.competition), markets, rules);
  const byMarket = new Map<string, OddItem<OddType>[]>();
  for (const item of items) {
    const marketId = 'eventParticipant1' in item ? item.id : item.marketId;
    if (query.status && !query.status.includes(statusOf(item) as (typeof query.status)[number])) continue;
    byMarket.set(marketId, [...(byMarket.get(marketId) ?? []), item]);
  }
  const eventId = formatPublicId(event.competition, event.id);
  return markets.flatMap((market) => {
    const outcomes = byMarket.get(market.id);
    if (!outcomes) return [];
    const at = {
      startDate: event.startDate,
      eventReferenceId: event.referenceId,
      marketReferenceId: market.referenceId,
    };
    return [{ market: { eventId, oddType: market.oddType, marketId: market.id, outcomes }, at }];
  });
}

function statusOf(item: OddItem<OddType>): string {
  return 'betStatus' in item && 'eventParticipant1' in item ? item.betStatus : (item as { status: string }).status;
}

const sameEvent = (event: EventWithTour, at: Position) =>
  event.startDate === at.startDate && event.referenceId === at.eventReferenceId;

function beforeCursor(event: EventWithTour, at: Position): boolean {
  if (event.startDate !== at.startDate) return event.startDate < at.startDate;
  return event.referenceId < at.eventReferenceId;
}

function encodeCursor(at: Position): string {
  return Buffer.from(JSON.stringify([at.startDate, at.eventReferenceId, at.marketReferenceId])).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  try {
    const [startDate, eventReferenceId, marketReferenceId] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    ) as unknown[];
    if (typeof startDate === 'string' && Number.isInteger(eventReferenceId) && Number.isInteger(marketReferenceId))
      return {
        startDate,
        eventReferenceId: eventReferenceId as number,
        marketReferenceId: marketReferenceId as number,
      };
  } catch {
    // fall through to the error below
  }
  throw fail('INVALID_CURSOR', { parameter: 'cursor' });
}
