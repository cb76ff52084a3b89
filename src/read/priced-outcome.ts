import type { EventBetStops } from '../domain/feed-health.ts';
import { NO_BET_STOPS } from '../domain/feed-health.ts';
import { marketStatus } from '../domain/markets/market-status.ts';
import { outcomeSettlement } from '../domain/markets/outcome-settlement.ts';
import type { ScopeResult } from '../domain/markets/scope-result.ts';
import { decimalToAmerican, decimalToProbability, exactPrice } from '../domain/odds-format.ts';
import type { PricedOutcome } from '../shapes/odds.ts';
import type { MarketRow, OddRow, SettlementRow } from '../store/schema.ts';

/** What an outcome is priced and settled with, besides its market. */
export interface PricingContext {
  results: ReadonlyMap<string, ScopeResult>;
  eventStatus: string;
  /** The bet stops of the LIVE event (feed silence, a score just changed, its start): open outcomes are suspended. */
  betStops?: EventBetStops;
  /** The event was abandoned under way: its voids say EVENT_ABANDONED. */
  abandoned?: boolean;
  /** The settlements as last published, by odd id (when and why each settled: settledAt, RESULT_CHANGED). */
  ledger?: ReadonlyMap<string, SettlementRow>;
}

/** `{ [name]: value }`, or nothing when the value is undefined (an optional field left out). */
function optional<K extends string, V>(name: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [name]: value }) as { [P in K]?: V };
}

/** The priced and settled part of an outcome. */
export function pricedOutcome(
  market: MarketRow,
  odd: OddRow,
  siblings: readonly OddRow[],
  context: PricingContext,
): PricedOutcome {
  const settled = outcomeSettlement(market, odd, siblings, context);
  const { settlement, deadHeatFactor, result } = settled;
  // The ledger says when it settled, and whether a changed result did, while it holds this very settlement.
  const kept = context.ledger?.get(odd.id);
  const current = kept && kept.settlement === settlement && kept.deadHeatFactor === deadHeatFactor ? kept : undefined;
  return {
    id: odd.id,
    outcomeId: String(odd.referenceId),
    referenceId: odd.referenceId,
    marketId: market.id,
    odds: odd.decimalOdds,
    americanOdds: decimalToAmerican(exactPrice(odd.decimalOdds, odd.probability)),
    // An engine-priced outcome keeps the probability it was published from; a fed price implies its own.
    probability: odd.probability ?? decimalToProbability(odd.decimalOdds),
    ...marketStatus({
      marketStatus: market.status,
      marketStatusReason: market.statusReason ?? null,
      oddStatus: odd.status,
      oddStatusReason: odd.statusReason ?? null,
      resulted: result !== undefined && result.state !== 'pending',
      eventStatus: context.eventStatus,
      ...(context.betStops ?? NO_BET_STOPS),
    }),
    settlement,
    ...optional(
      'settlementReason',
      current?.settlementReason === 'RESULT_CHANGED' ? 'RESULT_CHANGED' : settled.settlementReason,
    ),
    ...optional('settlementStatus', settled.settlementStatus),
    ...optional('settledAt', settlement === 'NOT_SET' ? undefined : (current?.settledAt ?? undefined)),
    deadHeatFactor,
    // biome-ignore lint/complexity/useMathMinMax: ISO date-time strings, which compare in time order
    updatedAt: odd.updatedAt > market.updatedAt ? odd.updatedAt : market.updatedAt,
  };
}

/** The settlement fields besides `settlement`, as routes that build their own outcomes publish them. */
export function settledFields(
  priced: PricedOutcome,
): Pick<PricedOutcome, 'settlementReason' | 'deadHeatFactor' | 'settlementStatus' | 'settledAt'> {
  return {
    ...optional('settlementReason', priced.settlementReason),
    deadHeatFactor: priced.deadHeatFactor,
    ...optional('settlementStatus', priced.settlementStatus),
    ...optional('settledAt', priced.settledAt),
  };
}
