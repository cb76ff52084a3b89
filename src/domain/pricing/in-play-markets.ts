import { ExactField } from './exact-field.ts';
import { type FinishingOrderModel, fitFinishingOrder, simulatePlaces } from './finishing-order.ts';
import type { InPlayField } from './in-play.ts';
import {
  EXACTA_COUNT,
  type GeneratedMarket,
  type GeneratedOdd,
  type HeatField,
  keyOf,
  type MarketGeneratorOptions,
  priceMarket,
  type ScopeModel,
  TOP_K,
} from './market-generator.ts';
import type { PublishedPrice } from './published-price.ts';

/**
 * An athlete event's markets priced in play: every market generated before the event
 * (market-generator.ts) priced again from the in-play field (in-play.ts), with the same lines and
 * outcomes, so that a bet struck before the start settles on the market it was struck on. An
 * outcome the results have decided (an athlete knocked out, a place certain) is CLOSED; the rest are
 * priced from one model, so the prices agree with each other as they did before the event. Heat
 * markets are priced for the heats in play, each a sub-race of the field; the hole shot, a heat's
 * first lap, until that heat starts.
 */

export interface InPlayMarketsInput {
  /** The event's markets and odds as generated before it, and those of the heats in play. */
  markets: readonly GeneratedMarket[];
  odds: readonly GeneratedOdd[];
  field: InPlayField;
  /** The heats in play, sub-races of the field: their markets are priced; other heats' are left alone. */
  heats?: readonly HeatField[];
  /** Heats under way or over: a hole shot in one of them is decided. */
  startedHeats: ReadonlySet<string>;
}

export interface InPlayMarkets {
  markets: GeneratedMarket[];
  odds: GeneratedOdd[];
  /** The models priced from (the event's: the field still in) and their winner prices, to record for parlays. */
  models: Record<string, ScopeModel>;
  winnerOdds: Record<string, Record<string, number>>;
}

/** Below this chance (or this close to certain) an outcome is decided: closed rather than priced. */
const DECIDED = 1e-9;

/** What the results have decided is closed, and says why. */
const DECIDED_STATUS = { status: 'CLOSED', statusReason: 'RESULTED' } as const;

type Fair = number | null;

interface Scope {
  field: ExactField;
  index: ReadonlyMap<string, number>;
  win: readonly number[];
  /** Simulated places of some athletes (a row per draw), a place decided as it stands. */
  places: (ids: readonly string[]) => Array<Map<string, number>>;
}

export function inPlayMarkets(input: InPlayMarketsInput, options: MarketGeneratorOptions): InPlayMarkets {
  const out: InPlayMarkets = { markets: [], odds: [], models: {}, winnerOdds: {} };
  const scopeOf = scopeFinder(input, options, out.models);
  const oddsOf = groupBy(input.odds, (o) => o.marketId);
  for (const market of input.markets) {
    const scope = scopeOf(market);
    if (scope === undefined) continue;
    const own = oddsOf.get(market.id) ?? [];
    const fair = scope ? fairOf(market, own, scope, input.startedHeats) : own.map(() => null);
    const relisted = scope && market.exactasType !== undefined ? newSequences(market, own, scope) : [];
    const priced = publish([...own, ...relisted], [...fair, ...relisted.map((o) => o.probability)], options);
    const open = priced.some((o) => o.status === 'OPEN');
    out.markets.push({ ...market, ...(open ? { status: 'OPEN' } : DECIDED_STATUS) });
    out.odds.push(...priced);
    const winners =
      market.oddType === 'eventWinner' ? 'event' : market.oddType === 'heatWinner' ? `heat:${market.heatId}` : null;
    // Closed outcomes too, at their last prices: the winner market as the store holds it.
    if (winners) out.winnerOdds[winners] = Object.fromEntries(priced.map((o) => [o.athleteId as string, o.odds]));
  }
  return out;
}

/**
 * A market's scope, built once: the event's (the field still in; the hole shot is the event's too),
 * a heat in play's (a sub-race of the field: the same strengths, restricted, as race times are
 * independent), null when fewer than two athletes are left to price, undefined for a heat not in play.
 */
function scopeFinder(input: InPlayMarketsInput, options: MarketGeneratorOptions, models: Record<string, ScopeModel>) {
  const { field } = input;
  const model = field.athleteIds.length >= 2 ? fitFinishingOrder(field.win, options.shape) : null;
  const index = new Map(field.athleteIds.map((id, i) => [id, i]));
  const scopes = new Map<string, Scope | null>();
  const build = (key: string, runners: readonly string[], decided: InPlayField['decided']) => {
    const strengths = runners.map((id) => model?.strengths[index.get(id) as number] as number);
    const scoped = model && runners.length >= 2 ? { shape: model.shape, strengths } : null;
    if (scoped) models[key] = scopeModel(scoped, runners);
    scopes.set(key, scoped && makeScope(scoped, runners, decided, options));
  };
  return (market: GeneratedMarket): Scope | null | undefined => {
    const heat = market.oddType === 'holeShot' ? undefined : market.heatId;
    const key = heat ? `heat:${heat}` : 'event';
    if (!scopes.has(key)) {
      if (!heat) build(key, field.athleteIds, field.decided);
      else {
        const drawn = input.heats?.find((h) => h.heatId === heat);
        if (!drawn) return undefined;
        build(
          key,
          drawn.athleteIds.filter((id) => index.has(id)),
          new Map(),
        );
      }
    }
    return scopes.get(key);
  };
}

function makeScope(
  model: FinishingOrderModel,
  ids: readonly string[],
  decided: InPlayField['decided'],
  options: MarketGeneratorOptions,
): Scope {
  const field = new ExactField(model);
  const index = new Map(ids.map((id, i) => [id, i]));
  return {
    field,
    index,
    win: ids.map((_, i) => field.win(i)),
    places: (wanted) => {
      const tracked = wanted.filter((id) => index.has(id));
      const drawn = simulatePlaces(
        model,
        options.samples,
        options.uniform,
        tracked.map((id) => index.get(id) as number),
      );
      const rows: Array<Map<string, number>> = [];
      for (let row = 0; row < drawn.length; row += tracked.length) {
        const places = new Map(wanted.map((id) => [id, decided.get(id)?.from ?? 0]));
        tracked.forEach((id, k) => {
          places.set(id, drawn[row + k] as number);
        });
        rows.push(places);
      }
      return rows;
    },
  };
}

function scopeModel(model: FinishingOrderModel, ids: readonly string[]): ScopeModel {
  return { shape: model.shape, strengths: Object.fromEntries(ids.map((id, i) => [id, model.strengths[i] as number])) };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Each outcome's chance now, or null when the results have decided it. */
function fairOf(market: GeneratedMarket, odds: readonly GeneratedOdd[], scope: Scope, started: ReadonlySet<string>) {
  const at = (id: string | undefined) => (id === undefined ? undefined : scope.index.get(id));
  const perAthlete = (chance: (i: number) => number): Fair[] =>
    odds.map((o) => {
      const i = at(o.athleteId);
      return i === undefined ? null : chance(i);
    });
  const { field } = scope;
  const k = TOP_K[market.oddType];
  if (k !== undefined) return perAthlete((i) => field.top(i, k));
  switch (market.oddType) {
    case 'eventWinner':
    case 'heatWinner':
      return perAthlete((i) => field.win(i));
    case 'secondPlace':
      return perAthlete((i) => field.place(i, 2));
    case 'fastestLap':
      return perAthlete(flattened(scope.win, 0.6));
    case 'holeShot':
      return market.heatId && started.has(market.heatId) ? odds.map(() => null) : perAthlete(flattened(scope.win, 0.4));
    case 'headToHead':
      return headToHead(odds, scope);
    case 'eventExacta':
    case 'heatExacta':
      return odds.map((o) => sequenceChance(o.athleteIds ?? [], scope));
    case 'overUnder':
      return overUnder(market, odds, scope);
    case 'propBets':
      return favouritePodium(market, odds, scope);
    case 'multiOverUnder':
      return summedPlaces(market, odds, scope);
    case 'dreamTeam':
      return dreamTeam(odds, scope);
    default:
      return odds.map(() => null);
  }
}

/** Fastest lap and hole shot: the order of the race, flattened (market-generator.ts), among those still in. */
function flattened(win: readonly number[], power: number): (i: number) => number {
  const flat = win.map((p) => p ** power);
  const total = flat.reduce((a, b) => a + b, 0);
  return (i) => (flat[i] as number) / total;
}

function headToHead(odds: readonly GeneratedOdd[], scope: Scope): Fair[] {
  const [a, b] = odds.map((o) => scope.index.get(o.athleteId ?? ''));
  if (a === undefined || b === undefined) return odds.map(() => null);
  const ahead = scope.field.headToHead(a, b);
  return [ahead, 1 - ahead];
}

function sequenceChance(ids: readonly string[], scope: Scope): Fair {
  const sequence = ids.map((id) => scope.index.get(id));
  if (sequence.some((i) => i === undefined)) return null;
  return scope.field.sequence(sequence as number[]);
}

/** The likeliest sequences now that the exacta did not list before the event: its listing follows the race. */
function newSequences(market: GeneratedMarket, odds: readonly GeneratedOdd[], scope: Scope): GeneratedOdd[] {
  const k = market.exactasType ?? 2;
  if (k > scope.index.size) return [];
  const listed = new Set(odds.map((o) => (o.athleteIds ?? []).join()));
  const ids = [...scope.index.keys()];
  return scope.field
    .topSequences(k, EXACTA_COUNT[k] ?? 12)
    .map((s) => s.sequence.map((i) => ids[i] as string))
    .filter((sequence) => !listed.has(sequence.join()) && (sequenceChance(sequence, scope) as number) > DECIDED)
    .map((sequence, n) => ({
      id: `${market.id}:${keyOf(sequence)}`,
      marketId: market.id,
      position: odds.length + n + 1,
      athleteIds: sequence,
      odds: 0,
      probability: sequenceChance(sequence, scope) as number,
    }));
}

function overUnder(market: GeneratedMarket, odds: readonly GeneratedOdd[], scope: Scope): Fair[] {
  const i = scope.index.get(market.athleteIds?.[0] ?? '');
  if (i === undefined || market.line === undefined) return odds.map(() => null);
  const { over, under } = scope.field.finishingPosition(i, market.line);
  return odds.map((o) => (o.side === 'OVER' ? over : under));
}

/** "Will the favourite finish in the top N?": N as the proposition states it. */
function favouritePodium(market: GeneratedMarket, odds: readonly GeneratedOdd[], scope: Scope): Fair[] {
  const top = Number(/top (\d+)/.exec(market.proposition ?? '')?.[1]);
  const i = scope.index.get(odds[0]?.athleteId ?? '');
  if (i === undefined || !Number.isInteger(top)) return odds.map(() => null);
  const yes = scope.field.top(i, top);
  return odds.map((o) => (o.name === 'Yes' ? yes : 1 - yes));
}

/** Two athletes' summed places over or under a line: a place decided counts as it stands, the others are drawn. */
function summedPlaces(market: GeneratedMarket, odds: readonly GeneratedOdd[], scope: Scope): Fair[] {
  const ids = market.athleteIds ?? [];
  if (market.line === undefined || ids.every((id) => !scope.index.has(id))) return odds.map(() => null);
  const line = market.line;
  const rows = scope.places(ids);
  const under = rows.filter((row) => ids.reduce((sum, id) => sum + (row.get(id) ?? 0), 0) < line).length / rows.length;
  return odds.map((o) => (o.side === 'OVER' ? 1 - under : under));
}

/** Teams by their summed places, lowest first (a tie to the team listed first, as the parlay reads it). */
function dreamTeam(odds: readonly GeneratedOdd[], scope: Scope): Fair[] {
  const teams = odds.map((o) => o.athleteIds ?? []);
  if (teams.flat().every((id) => !scope.index.has(id))) return odds.map(() => null);
  const rows = scope.places(teams.flat());
  const wins = teams.map(() => 0);
  for (const row of rows) {
    const sums = teams.map((team) => team.reduce((sum, id) => sum + (row.get(id) ?? 0), 0));
    const best = sums.indexOf(Math.min(...sums));
    wins[best] = (wins[best] as number) + 1;
  }
  return wins.map((w) => w / rows.length);
}

/**
 * The outcomes published: those still open priced together (the market's margin over them), those
 * decided closed at their last price.
 */
function publish(
  odds: readonly GeneratedOdd[],
  fair: readonly Fair[],
  options: MarketGeneratorOptions,
): GeneratedOdd[] {
  const live = fair.map((p) => p !== null && p > DECIDED && p < 1 - DECIDED);
  const open = fair.filter((_, i) => live[i]) as number[];
  // The power method cannot lift a market whose open outcomes are all but certain (one left of a
  // top 10 in a field of eleven): those take the margin in proportion.
  const method = open.length > sum(open) * (1 + options.overround) ? options.marginMethod : 'multiplicative';
  const prices = open.length > 0 ? priceMarket(open, options.overround, method, options.pricePolicy) : [];
  let next = 0;
  return odds.map((o, i) => {
    if (!live[i]) return { ...o, ...DECIDED_STATUS };
    return { ...o, ...(prices[next++] as PublishedPrice), status: 'OPEN' as const };
  });
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
