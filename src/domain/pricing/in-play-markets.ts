import { ExactField } from './exact-field.ts';
import { fitFinishingOrder, simulatePlaces } from './finishing-order.ts';
import type { InPlayField } from './in-play.ts';
import {
  EXACTA_COUNT,
  type GeneratedMarket,
  type GeneratedOdd,
  keyOf,
  type MarketGeneratorOptions,
  priceMarket,
  TOP_K,
} from './market-generator.ts';
import type { PublishedPrice } from './published-price.ts';

/**
 * An athlete event's markets priced in play (issue 41): every market generated before the event
 * (market-generator.ts) priced again from the in-play field (in-play.ts), with the same lines and
 * outcomes, so that a bet struck before the start settles on the market it was struck on. An
 * outcome the results have decided (an athlete knocked out, a place certain) is CLOSED; the rest are
 * priced from one model, so the prices agree with each other as they did before the event. Heat
 * markets are the caller's (each heat is a sub-race priced by `generateEventMarkets`); the hole shot,
 * a heat's first lap, is priced here until that heat starts.
 */

export interface InPlayMarketsInput {
  /** The event's markets and odds as generated before it (event scope; heat markets are left alone). */
  markets: readonly GeneratedMarket[];
  odds: readonly GeneratedOdd[];
  field: InPlayField;
  /** Heats under way or over: a hole shot in one of them is decided. */
  startedHeats: ReadonlySet<string>;
}

export interface InPlayMarkets {
  markets: GeneratedMarket[];
  odds: GeneratedOdd[];
}

/** Below this chance (or this close to certain) an outcome is decided: closed rather than priced. */
const DECIDED = 1e-9;

type Fair = number | null;

interface Scope {
  field: ExactField;
  index: ReadonlyMap<string, number>;
  win: readonly number[];
  decided: InPlayField['decided'];
  /** Simulated places of some athletes (row per draw), drawn once per call when a market needs them. */
  places: (ids: readonly string[]) => Array<Map<string, number>>;
}

export function inPlayMarkets(input: InPlayMarketsInput, options: MarketGeneratorOptions): InPlayMarkets {
  const scope = makeScope(input.field, options);
  const out: InPlayMarkets = { markets: [], odds: [] };
  for (const market of input.markets) {
    if (market.heatId && market.oddType !== 'holeShot') continue;
    const own = input.odds.filter((o) => o.marketId === market.id);
    const fair = scope ? fairOf(market, own, scope, input.startedHeats) : own.map(() => null);
    const added = scope && market.oddType === 'eventExacta' ? newSequences(market, own, scope) : [];
    const priced = publish([...own, ...added], [...fair, ...added.map((o) => o.probability)], options);
    const open = priced.some((o) => o.status !== 'CLOSED');
    out.markets.push({ ...market, status: open ? 'OPEN' : 'CLOSED' });
    out.odds.push(...priced);
  }
  return out;
}

function makeScope(field: InPlayField, options: MarketGeneratorOptions): Scope | null {
  if (field.athleteIds.length < 2) return null;
  const model = fitFinishingOrder(field.win, options.shape);
  const index = new Map(field.athleteIds.map((id, i) => [id, i]));
  let drawn: Int32Array | null = null;
  const ids = field.athleteIds;
  return {
    field: new ExactField(model),
    index,
    win: field.win,
    decided: field.decided,
    places: (wanted) => {
      // Every athlete still in is tracked, so that one set of draws serves every market.
      drawn ??= simulatePlaces(
        model,
        options.samples,
        options.uniform,
        ids.map((_, i) => i),
      );
      const rows: Array<Map<string, number>> = [];
      for (let row = 0; row < drawn.length; row += ids.length)
        rows.push(
          new Map(
            wanted.map((id) => {
              const i = index.get(id);
              return [id, i === undefined ? (field.decided.get(id)?.from ?? 0) : (drawn?.[row + i] as number)];
            }),
          ),
        );
      return rows;
    },
  };
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
    if (!live[i]) return { ...o, status: 'CLOSED' as const };
    return { ...o, ...(prices[next++] as PublishedPrice), status: 'OPEN' as const };
  });
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
