import { fail } from '../domain/errors.ts';
import type { EventBetStops } from '../domain/feed-health.ts';
import { type ConflictLeg, findConflict, type LegConflict } from '../domain/markets/leg-conflicts.ts';
import { isExclusiveMarket } from '../domain/markets/market-shape.ts';
import { type LegCode, type LegFacts, type LegProblem, legProblems } from '../domain/markets/parlay-legs.ts';
import { formatPublicId } from '../domain/public-id.ts';
import type { Store } from '../store/database.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import type { EventRow } from '../store/schema.ts';
import { type AccessScope, canRead } from './access-scope.ts';
import { type EventModel, type Leg, legLabel, legOf } from './parlay-event-model.ts';
import { drawOf } from './parlay-scopes.ts';
import { pricedOutcome } from './priced-outcome.ts';

/** An odd of the event's status now (OPEN, SUSPENDED or CLOSED), as route 6 publishes it. */
export function statusOf(model: EventModel, event: EventRow, leg: Leg, betStops: EventBetStops): string {
  return pricedOutcome(leg.market, leg.odd, model.oddsByMarket.get(leg.market.id) ?? [], {
    results: model.results,
    eventStatus: event.eventStatus,
    betStops,
  }).status;
}

/**
 * The legs these ids name, when they make a parlay; otherwise a 422 whose `metadata.legs` gives each
 * bad leg its code (domain/markets/parlay-legs.ts), beside the lists of ids by problem that earlier
 * clients read (unknownOddIds, otherEventOddIds, closedOddIds, conflictingOddIds).
 */
export async function checkedLegs(
  store: Store,
  model: EventModel,
  event: EventRow,
  ids: readonly string[],
  maxLegs: number,
  betStops: EventBetStops,
  access: AccessScope,
): Promise<Leg[]> {
  const considered = ids.slice(0, maxLegs);
  const found = considered.map((id) => model.odds.get(id) ?? model.byOutcomeId.get(id));
  const missing = considered.filter((_, i) => found[i] === undefined);
  // An odd the key cannot read is unknown to it, not of another event: no answer tells a key what exists
  // beyond what it may read (docs/decisions.md, "No existence oracle").
  const elsewhere = (missing.length ? await oddsRepository(store.db).findOdds(missing) : []).filter((o) =>
    canRead(access, o.competition),
  );
  const legs = found.map((odd) => (odd ? legOf(model, odd) : null));
  const facts: LegFacts[] = ids.map((oddId, i) => {
    const leg = legs[i] ?? null;
    return {
      oddId,
      odd: leg?.odd.id ?? null,
      otherEvent: !leg && elsewhere.some((o) => o.id === oddId || String(o.referenceId) === oddId),
      open: leg !== null && statusOf(model, event, leg, betStops) === 'OPEN',
      exclusiveMarket: leg && isExclusiveMarket(leg.market.oddType) ? leg.market.id : null,
    };
  });
  const reasons: string[] = [];
  const problems = legProblems(facts, maxLegs, (eligible) => {
    const conflicts = findConflicts(
      model,
      eligible.map((i) => legs[i] as Leg),
    );
    reasons.push(...conflicts.map((c) => `legs ${list(c.ids)} cannot all win together: ${c.reason}`));
    const named = new Set(conflicts.flatMap((c) => c.ids));
    return eligible.filter((i) => named.has((legs[i] as Leg).odd.id));
  });
  const labelled = (index: number) => {
    const leg = legs[index];
    return leg ? legLabel(model, leg) : (ids[index] as string);
  };
  if (problems.length > 0)
    throw legsRefused(event, problems, maxLegs, [...sameMarket(facts, problems, labelled), ...reasons]);
  return legs as Leg[];
}

/** One sentence per single-winner market named by more than one leg, quoting the legs' labels. */
function sameMarket(
  facts: readonly LegFacts[],
  problems: readonly LegProblem[],
  labelOfLeg: (index: number) => string,
): string[] {
  const byMarket = new Map<string, LegProblem[]>();
  for (const problem of problems) {
    const market = facts[problem.index]?.exclusiveMarket;
    if (problem.code === 'SAME_MARKET' && market) byMarket.set(market, [...(byMarket.get(market) ?? []), problem]);
  }
  return [...byMarket.values()].map((named) => {
    const quoted = named.map((p) => `"${labelOfLeg(p.index)}"`).join(', ');
    return `legs ${list(named.map((p) => p.oddId))} are outcomes of one single-winner market (${quoted}): at most one of them can win`;
  });
}

/** The 422 of a parlay's bad legs: one sentence per kind of problem, each naming its legs. */
function legsRefused(event: EventRow, problems: readonly LegProblem[], maxLegs: number, conflicts: string[]) {
  const ids = (code: LegCode) => problems.filter((p) => p.code === code).map((p) => p.oddId);
  const [tooMany, repeated, unknown, foreign, closed] = (
    ['TOO_MANY_LEGS', 'DUPLICATE', 'UNKNOWN_ODD', 'OTHER_EVENT', 'NOT_OPEN'] as const
  ).map(ids) as [string[], string[], string[], string[], string[]];
  // Listed together for clients that read conflictingOddIds, from before SAME_MARKET had its own code.
  const conflicting = problems.filter((p) => p.code === 'SAME_MARKET' || p.code === 'CONTRADICTS').map((p) => p.oddId);
  const verb = (items: readonly string[], one: string, many: string) => (items.length === 1 ? one : many);
  const notOfEvent = [
    ...(unknown.length ? [`the ${oddsNamed(unknown)} ${verb(unknown, 'does', 'do')} not exist`] : []),
    ...(foreign.length ? [`the ${oddsNamed(foreign)} ${verb(foreign, 'belongs', 'belong')} to another event`] : []),
  ];
  const sentences = [
    ...(tooMany.length
      ? [
          `A parlay takes at most ${maxLegs} legs (SGP_MAX_LEGS): the ${oddsNamed(tooMany)} ${verb(tooMany, 'is', 'are')} one too many`,
        ]
      : []),
    ...(repeated.length
      ? [
          `${verb(repeated, 'Odd', 'Odds')} ${list(repeated)} ${verb(repeated, 'is', 'are')} repeated: each leg must be a different odd`,
        ]
      : []),
    ...(notOfEvent.length
      ? [`Every leg must be an odd of event "${formatPublicId(event.competition, event.id)}": ${notOfEvent.join('; ')}`]
      : []),
    ...(closed.length
      ? [`The ${oddsNamed(closed)} ${verb(closed, 'is', 'are')} not open for betting (suspended, closed or settled)`]
      : []),
    ...conflicts.map((reason) => reason.charAt(0).toUpperCase() + reason.slice(1)),
  ];
  const named = (key: string, items: readonly string[]) => (items.length ? { [key]: items } : {});
  return fail(
    'PARLAY_LEGS_REFUSED',
    { sentences },
    {
      legs: problems.map(({ oddId, code }) => ({ oddId, code })),
      ...named('unknownOddIds', unknown),
      ...named('otherEventOddIds', foreign),
      ...named('closedOddIds', closed),
      ...named('conflictingOddIds', conflicting),
      ...named('oddIds', repeated),
    },
  );
}

/**
 * Legs that cannot all win together, scope by scope (legs of different scopes never clash: scopes are
 * independent); within a scope, the smallest set found.
 */
export function findConflicts(model: EventModel, legs: readonly Leg[]): LegConflict[] {
  const byScope = new Map<string, Leg[]>();
  for (const leg of legs) byScope.set(leg.scope, [...(byScope.get(leg.scope) ?? []), leg]);
  const found: LegConflict[] = [];
  for (const [key, scopeLegs] of byScope) {
    if (scopeLegs.length < 2) continue;
    const conflict = findConflict(
      scopeLegs.map((leg) => ({ ...conflictLeg(leg), label: legLabel(model, leg) })),
      fieldSizeOf(model, key, scopeLegs),
      (id) => model.names.get(id) ?? id,
    );
    if (conflict) found.push(conflict);
  }
  return found;
}

export function conflictLeg(leg: Leg): ConflictLeg {
  return {
    id: leg.odd.id,
    selection: leg.selection,
    marketId: leg.market.id,
    exclusive: isExclusiveMarket(leg.market.oddType),
  };
}

/** The field's size, from what its simulation would be drawn from: nothing is drawn for it. */
export function fieldSizeOf(model: EventModel, key: string, legs: readonly Leg[]): number {
  return (
    drawOf(model, key)?.draw.runners.length ??
    Math.max(2, ...legs.map((leg) => (model.oddsByMarket.get(leg.market.id) ?? []).length))
  );
}

function list(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(', ');
}

/** `odd "a"` or `odds "a", "b"`: one outcome is an odd, as the specification's `odds` arrays hold odds. */
function oddsNamed(ids: readonly string[]): string {
  return `${ids.length === 1 ? 'odd' : 'odds'} ${list(ids)}`;
}
