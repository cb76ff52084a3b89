/**
 * Why a same game parlay's leg is refused, and why an outcome cannot be added to the bet builder's
 * legs: one code per leg, so that a client can mark the legs to take out.
 */

export const LEG_CODES = [
  'UNKNOWN_ODD',
  'NOT_OPEN',
  'OTHER_EVENT',
  'SAME_MARKET',
  'CONTRADICTS',
  'DUPLICATE',
  'TOO_MANY_LEGS',
] as const;
export type LegCode = (typeof LEG_CODES)[number];

/** What is known of one requested leg before the legs are checked against one another. */
export interface LegFacts {
  /** The id as requested (an odd id or an outcomeId). */
  oddId: string;
  /** The odd of the event it names (an id and an outcomeId of one odd name the same); null when none. */
  odd: string | null;
  /** Not an odd of the event but one of another event. */
  otherEvent: boolean;
  /** Open for betting (not suspended, closed or settled). */
  open: boolean;
  /** Its market when that market has one winner (at most one of its outcomes wins), else null. */
  exclusiveMarket: string | null;
}

export interface LegProblem {
  oddId: string;
  code: LegCode;
  /** The leg's place in the request (0 first): an id named twice is two legs. */
  index: number;
}

/**
 * Each bad leg's code, in the request's order; empty when every leg can be priced together. The first
 * that applies: TOO_MANY_LEGS for each leg past `maxLegs`, DUPLICATE for a second mention of one odd,
 * UNKNOWN_ODD, OTHER_EVENT, NOT_OPEN; then SAME_MARKET for legs that share a single-winner market (the
 * bet builder's word for that pair: one vocabulary on both routes); then CONTRADICTS for the legs
 * `contradicting` names among the others (given the indices of the legs that exist, are open and are
 * mentioned once, it answers the indices of those that cannot all win together): only such legs can be
 * checked against one another. One leg of each shared market stays in that check, so that a third leg
 * contradicting it is named in the same answer.
 */
export function legProblems(
  legs: readonly LegFacts[],
  maxLegs: number,
  contradicting: (eligible: readonly number[]) => readonly number[],
): LegProblem[] {
  const codes: Array<LegCode | null> = legs.map(() => null);
  const seen = new Set<string>();
  legs.forEach((leg, i) => {
    const key = leg.odd ?? `id:${leg.oddId}`;
    const repeated = seen.has(key);
    seen.add(key);
    if (i >= maxLegs) codes[i] = 'TOO_MANY_LEGS';
    else if (repeated) codes[i] = 'DUPLICATE';
    else if (leg.odd === null) codes[i] = leg.otherEvent ? 'OTHER_EVENT' : 'UNKNOWN_ODD';
    else if (!leg.open) codes[i] = 'NOT_OPEN';
  });
  const eligible = codes.flatMap((code, i) => (code === null ? [i] : []));
  const firstOfMarket = new Map<string, number>();
  for (const i of eligible) {
    const market = legs[i]?.exclusiveMarket;
    if (!market) continue;
    const first = firstOfMarket.get(market);
    if (first === undefined) firstOfMarket.set(market, i);
    else {
      codes[first] = 'SAME_MARKET';
      codes[i] = 'SAME_MARKET';
    }
  }
  const checked = eligible.filter((i) => codes[i] === null || firstOfMarket.get(legs[i]?.exclusiveMarket ?? '') === i);
  for (const i of checked.length > 1 ? contradicting(checked) : []) if (codes[i] === null) codes[i] = 'CONTRADICTS';
  return legs.flatMap((leg, i) => {
    const code = codes[i];
    return code ? [{ oddId: leg.oddId, code, index: i }] : [];
  });
}

export const OPTION_REASONS = ['DUPLICATE', 'NOT_OPEN', 'TOO_MANY_LEGS', 'SAME_MARKET', 'CONTRADICTS'] as const;
export type OptionReason = (typeof OPTION_REASONS)[number];

/** What is known of one outcome the bet builder offers beside the legs. */
export interface OptionFacts {
  /** It is one of the legs already. */
  isLeg: boolean;
  open: boolean;
  /** The legs there are. */
  legs: number;
  /** Another outcome of its market is a leg, and the market has one winner. */
  sameExclusiveMarket: boolean;
  /** It cannot win together with the legs (found as the parlay route finds contradicting legs). */
  contradicts: boolean;
}

/**
 * Why the outcome cannot join the legs, or null when legs + outcome is a parlay the parlay route
 * prices. The first that applies: DUPLICATE, NOT_OPEN, TOO_MANY_LEGS (the legs are at the maximum
 * already), SAME_MARKET (a more telling name for the contradiction of two outcomes of one single-winner
 * market), CONTRADICTS.
 */
export function optionReason(option: OptionFacts, maxLegs: number): OptionReason | null {
  if (option.isLeg) return 'DUPLICATE';
  if (!option.open) return 'NOT_OPEN';
  if (option.legs >= maxLegs) return 'TOO_MANY_LEGS';
  if (option.sameExclusiveMarket) return 'SAME_MARKET';
  if (option.contradicts) return 'CONTRADICTS';
  return null;
}
