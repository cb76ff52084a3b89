import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DEFAULT_PRICE_POLICY, publishedPrice } from '../../src/domain/pricing/published-price.ts';
import type { FeedDocument } from '../../src/ingest/feed-schema.ts';
import { fieldFeed } from './parlay-fixture.ts';

/**
 * Helpers for the SDK compatibility tests of odds, settlement and parlays (test/compat/sdk.test.ts).
 */

/**
 * The SDK's `MARKET_ALIASES` table (alias -> API odd type), read from its published code: the table is
 * private to the module, and reading it means that every alias the installed SDK knows gets tested.
 */
export function sdkMarketAliases(): Record<string, string> {
  const file = createRequire(import.meta.url).resolve('altsportsdata');
  const code = readFileSync(file, 'utf8');
  const body = /\bvar MARKET_ALIASES = \{([\s\S]*?)\n\};/.exec(code)?.[1];
  if (!body) throw new Error(`MARKET_ALIASES not found in ${file}`);
  return Object.fromEntries([...body.matchAll(/^\s*(\w+): "(\w+)",?$/gm)].map((m) => [m[1] as string, m[2] as string]));
}

/**
 * A live supercross event of twelve riders whose markets the pricing engine generated fair (no margin)
 * from these win probabilities, under Plackett-Luce. Rider i is athlete `rx-i`, named "Rider RX i".
 */
export const FIELD_UUID = '22222222-0000-4000-8000-00000000bbbb';
export const FIELD = `spr:${FIELD_UUID}`;
export const FIELD_WIN: readonly number[] = [0.3, 0.2, 0.12, 0.1, 0.08, 0.06, 0.05, 0.035, 0.025, 0.015, 0.01, 0.005];

export function fieldOddsFeed(): FeedDocument {
  return fieldFeed('rx', FIELD_UUID, FIELD_WIN);
}

/** The name the SDK makes of rider i (`firstName lastName`). */
export const rider = (i: number) => `Rider RX ${i}`;

/** Plackett-Luce: the probability that rider i finishes second. */
export function secondPlaceProbability(win: readonly number[], i: number): number {
  return win.reduce((sum, pa, a) => (a === i ? sum : sum + (pa * (win[i] as number)) / (1 - pa)), 0);
}

/** Decimal odds as the server publishes a generated price: two decimals, towards the house. */
export const fairOdds = (p: number) => publishedPrice(p, DEFAULT_PRICE_POLICY).odds;

/**
 * A heat exacta on the live wsl event's completed Heat 1 (Ferreira 15.5 beat Florence 12.1), so that
 * the SDK's heat_exacta alias reads settled outcomes: supercross offers no heat exactas.
 */
export function wslHeatExactaFeed(bellsEventId: string): FeedDocument {
  const T = '2026-04-02T04:00:00.000Z';
  return {
    markets: [
      { id: 'm-wsl-hx', eventId: bellsEventId, oddType: 'heatExacta', heatId: 'h-1', exactasType: 2, updatedAt: T },
    ],
    odds: [
      { id: 'o-wsl-hx-fer-flo', marketId: 'm-wsl-hx', athleteIds: ['ath-1', 'ath-2'], odds: 2.2, updatedAt: T },
      { id: 'o-wsl-hx-flo-fer', marketId: 'm-wsl-hx', athleteIds: ['ath-2', 'ath-1'], odds: 1.7, updatedAt: T },
    ],
  };
}
