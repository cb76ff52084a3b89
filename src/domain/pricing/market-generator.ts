import type { Competition } from '../competitions.ts';
import { EXACTAS_TYPES, type ExactasType, type OddType } from '../enumerations.ts';
import type { StatusReason } from '../markets/market-status.ts';
import { hashSeed } from '../random.ts';
import { ExactField } from './exact-field.ts';
import { type FinishingOrderModel, fitFinishingOrder, simulatePlaces } from './finishing-order.ts';
import { applyMargin, type MarginMethod, maxPriced } from './margin.ts';
import { DEFAULT_PRICE_POLICY, type PricePolicy, type PublishedPrice, publishedPrice } from './published-price.ts';

/** A short stable key for several athletes, so that ids stay within the feed's 128 characters. */
export const keyOf = (athleteIds: readonly string[]) => hashSeed(...athleteIds).toString(36);

/**
 * Generates an event's markets from one finishing-order model, so that every price agrees with every
 * other: the demo data's markets, and the operator's "generate this event's markets from win
 * probabilities or ratings". Output is feed items (markets and odds), ready for the ingest path like
 * anything an operator sends.
 */

export interface GeneratedMarket {
  id: string;
  eventId: string;
  oddType: OddType;
  heatId?: string;
  exactasType?: ExactasType;
  overUnderSubMarketType?: 'finishingPosition';
  line?: number;
  athleteIds?: string[];
  proposition?: string;
  status?: 'OPEN' | 'SUSPENDED' | 'CLOSED';
  /** Set in play on a market the results have decided. */
  statusReason?: StatusReason;
  updatedAt?: string;
}

export interface GeneratedOdd {
  id: string;
  marketId: string;
  athleteId?: string;
  athleteIds?: string[];
  side?: 'OVER' | 'UNDER';
  name?: string;
  position: number;
  odds: number;
  /** The model's probability in percent, margin included: what `odds` was published from. */
  probability: number;
  /** Set by an operator who knows the result (propBets). */
  settlement?: 'WIN' | 'LOSE' | 'VOID' | 'PUSH';
  /** Set in play (in-play-markets.ts): CLOSED, RESULTED, once the results have decided the outcome. */
  status?: 'OPEN' | 'SUSPENDED' | 'CLOSED';
  statusReason?: StatusReason;
  updatedAt?: string;
}

export interface GeneratedMarkets {
  markets: GeneratedMarket[];
  odds: GeneratedOdd[];
  /** The finishing-order model of each priced scope (scope key: `event`, `heat:<id>`), by athlete id. */
  models: Record<string, ScopeModel>;
  /** Each scope's winner market as published: athlete id to decimal odds. */
  winnerOdds: Record<string, Record<string, number>>;
}

/** One scope's finishing-order model, as recorded with its prices: the parlay route prices from it. */
export interface ScopeModel {
  shape: number;
  strengths: Record<string, number>;
}

export interface HeatField {
  heatId: string;
  athleteIds: readonly string[];
}

export interface MarketGeneratorInput {
  /** Stored event id (the bare uuid); market and odd ids are made from it, so they are stable. */
  eventId: string;
  /** The field, with one win probability each (normalised) or, from `ratingsToWinProbabilities`, ratings. */
  athleteIds: readonly string[];
  win: readonly number[];
  /** Heats to price (heatWinner, heatExacta, head-to-heads of fights), each a sub-race of the same model. */
  heats?: readonly HeatField[];
  /** Win weights of athletes in the heats who are not in the field above (a fight card has no field); by default the field's. */
  strengths?: ReadonlyMap<string, number>;
  /** The heat whose lap 1 decides holeShot (the main event). */
  mainHeatId?: string;
  /** Odd types to generate; the competition's supported markets. */
  oddTypes: readonly OddType[];
}

export interface MarketGeneratorOptions {
  /** Margin per market, 0 for fair prices (0.05 is a 5% overround). */
  overround: number;
  marginMethod: MarginMethod;
  /** Gamma shape of the finishing-order model: 1 is Plackett-Luce. */
  shape: number;
  /** Simulated orders for the two markets without an exact method (multiOverUnder, dreamTeam). */
  samples: number;
  uniform: () => number;
  /** The range and ladder prices are published on; the default policy when absent. */
  pricePolicy?: PricePolicy;
}

/**
 * Ratings (Elo-like points) to win probabilities: a logit model, P(i) ∝ 10^(rating_i / scale), so
 * that 400 points is ten times the odds, as in chess.
 */
export function ratingsToWinProbabilities(ratings: readonly number[], scale = 400): number[] {
  const top = Math.max(...ratings);
  const weights = ratings.map((r) => 10 ** ((r - top) / scale));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

/**
 * The published prices of a market's outcomes from their fair probabilities, with the margin applied
 * (held at most at the range's shortest odds, so that no price falls under the margin), each as the
 * policy publishes it: a long shot beyond the range at its longest odds.
 */
export function priceMarket(
  fair: readonly number[],
  overround: number,
  marginMethod: MarginMethod,
  policy: PricePolicy = DEFAULT_PRICE_POLICY,
): PublishedPrice[] {
  return applyMargin(fair.map(clamp), overround, marginMethod, maxPriced(policy.minDecimalOdds)).map((p) =>
    publishedPrice(p, policy),
  );
}

/**
 * The generator's input for an event of a competition: its field with win probabilities, and the
 * heats whose draw is known, the last taken as the main event. A fight card has no event-wide
 * standing: only its fights are priced, each from the two fighters' win weights.
 */
export function competitionMarketInput(
  competition: Competition,
  event: {
    eventId: string;
    athleteIds: readonly string[];
    win: readonly number[];
    heats: readonly HeatField[];
    oddTypes?: readonly OddType[];
  },
): MarketGeneratorInput {
  const fights = competition.resultsFormat === 'combat';
  return {
    eventId: event.eventId,
    athleteIds: fights ? [] : event.athleteIds,
    win: fights ? [] : event.win,
    strengths: new Map(event.athleteIds.map((id, i) => [id, event.win[i] as number])),
    heats: event.heats,
    mainHeatId: event.heats.at(-1)?.heatId,
    oddTypes: event.oddTypes ?? competition.supportedMarkets,
  };
}

/** Top-k markets and their k. */
export const TOP_K: Partial<Record<OddType, number>> = {
  podiums: 3,
  shows: 3,
  raceTop3: 3,
  raceTop5: 5,
  raceTop10: 10,
};
/** How many of the likeliest combinations each exotic market lists; any other is priced on request. */
export const EXACTA_COUNT: Record<number, number> = { 2: 12, 3: 12, 4: 8 };

/**
 * Every market of the event the competition offers, from one model: the field's (when it has two
 * athletes or more), then each heat's. Markets and odds come out in that order.
 */
export function generateEventMarkets(input: MarketGeneratorInput, options: MarketGeneratorOptions): GeneratedMarkets {
  const out: GeneratedMarkets = { markets: [], odds: [], models: {}, winnerOdds: {} };
  const writer = marketWriter(input, options, out);
  if (input.athleteIds.length >= 2) fieldMarkets(writer, fieldOf(input, options, out));
  heatMarkets(writer, input, options, out);
  return out;
}

type OutcomeFields = Array<Partial<GeneratedOdd> & { key: string }>;

/** Adds markets and their priced outcomes to `out`, with ids made from the event's. */
interface MarketWriter {
  offers(oddType: OddType): boolean;
  market(suffix: string, oddType: OddType, extra?: Partial<GeneratedMarket>): GeneratedMarket;
  /** The market's outcomes, priced from their fair probabilities in the order given. */
  outcomes(m: GeneratedMarket, fair: number[], fields: OutcomeFields): void;
}

function marketWriter(
  input: MarketGeneratorInput,
  options: MarketGeneratorOptions,
  out: GeneratedMarkets,
): MarketWriter {
  const { eventId, oddTypes } = input;
  const price = (fair: number[]) => priceMarket(fair, options.overround, options.marginMethod, options.pricePolicy);
  return {
    offers: (t) => oddTypes.includes(t),
    market(suffix, oddType, extra = {}) {
      const m: GeneratedMarket = { id: `${eventId}:${suffix}`, eventId, oddType, ...extra };
      out.markets.push(m);
      return m;
    },
    outcomes(m, fair, fields) {
      const prices = price(fair);
      const scope = m.oddType === 'eventWinner' ? 'event' : m.oddType === 'heatWinner' ? `heat:${m.heatId}` : null;
      if (scope)
        out.winnerOdds[scope] = Object.fromEntries(
          fields.map((f, i) => [f.athleteId as string, (prices[i] as PublishedPrice).odds]),
        );
      fields.forEach(({ key, ...rest }, i) => {
        out.odds.push({
          id: `${m.id}:${key}`,
          marketId: m.id,
          position: i + 1,
          ...(prices[i] as PublishedPrice),
          ...rest,
        });
      });
    },
  };
}

/** The event's field as the markets price it: its model, favourites first, and simulated places when needed. */
interface Field {
  input: MarketGeneratorInput;
  athleteIds: readonly string[];
  n: number;
  race: ExactField;
  /** Runner indices, favourites first: markets list the field in order of win probability. */
  byWin: number[];
  /** The runners whose simulated places are drawn: the six favourites at most. */
  tracked: number[];
  /** Simulated places of the tracked runners, drawn on first use. */
  simulated: () => Int32Array;
  athleteOutcomes: (indices: number[]) => OutcomeFields;
}

function fieldOf(input: MarketGeneratorInput, options: MarketGeneratorOptions, out: GeneratedMarkets): Field {
  const { athleteIds } = input;
  const model = fitFinishingOrder(input.win, options.shape);
  out.models.event = scopeModel(model, athleteIds);
  const byWin = athleteIds.map((_, i) => i).sort((a, b) => (input.win[b] as number) - (input.win[a] as number));
  // Only the two markets without an exact method read simulated places, of the six favourites at most (docs/decisions.md).
  const tracked = byWin.slice(0, 6);
  let places: Int32Array | null = null;
  return {
    input,
    athleteIds,
    n: athleteIds.length,
    race: new ExactField(model),
    byWin,
    tracked,
    simulated: () => {
      places ??= simulatePlaces(model, options.samples, options.uniform, tracked);
      return places;
    },
    athleteOutcomes: (indices) =>
      indices.map((i) => ({ key: athleteIds[i] as string, athleteId: athleteIds[i] as string })),
  };
}

/** The field's markets, in the order they are published. */
function fieldMarkets(w: MarketWriter, f: Field): void {
  placeMarkets(w, f);
  if (w.offers('headToHead')) headToHeads(w, f);
  if (w.offers('eventExacta')) eventExactas(w, f);
  if (w.offers('overUnder')) overUnders(w, f);
  if (w.offers('multiOverUnder') && f.n >= 4) multiOverUnder(w, f);
  if (w.offers('dreamTeam') && f.n >= 6) dreamTeam(w, f);
  if (w.offers('fastestLap')) {
    // The quickest single lap is less certain than the race: the same order, flattened.
    const flat = normalise(f.input.win.map((p) => p ** 0.6));
    w.outcomes(
      w.market('fastestLap', 'fastestLap'),
      f.byWin.map((i) => flat[i] as number),
      f.athleteOutcomes(f.byWin),
    );
  }
  if (w.offers('holeShot') && f.input.mainHeatId) {
    const flat = normalise(f.input.win.map((p) => p ** 0.4));
    w.outcomes(
      w.market('holeShot', 'holeShot', { heatId: f.input.mainHeatId }),
      f.byWin.map((i) => flat[i] as number),
      f.athleteOutcomes(f.byWin),
    );
  }
  if (w.offers('propBets')) favouritePodium(w, f);
}

/** The winner, second place and the top-k markets. */
function placeMarkets(w: MarketWriter, { race, byWin, n, athleteOutcomes }: Field): void {
  if (w.offers('eventWinner'))
    w.outcomes(
      w.market('eventWinner', 'eventWinner'),
      byWin.map((i) => race.win(i)),
      athleteOutcomes(byWin),
    );
  if (w.offers('secondPlace'))
    w.outcomes(
      w.market('secondPlace', 'secondPlace'),
      byWin.map((i) => race.place(i, 2)),
      athleteOutcomes(byWin),
    );
  for (const [oddType, k] of Object.entries(TOP_K) as Array<[OddType, number]>) {
    if (w.offers(oddType) && n > k)
      w.outcomes(
        w.market(oddType, oddType),
        byWin.map((i) => race.top(i, k)),
        athleteOutcomes(byWin),
      );
  }
}

/** Neighbours in the market make the closest matchups: the 1st favourite against the 2nd, the 3rd against the 4th... */
function headToHeads(w: MarketWriter, { race, byWin, n, athleteIds, athleteOutcomes }: Field): void {
  for (let p = 0; p + 1 < Math.min(n, 12); p += 2) {
    const [a, b] = [byWin[p] as number, byWin[p + 1] as number];
    const ahead = race.headToHead(a, b);
    w.outcomes(
      w.market(`headToHead:${keyOf([athleteIds[a] as string, athleteIds[b] as string])}`, 'headToHead'),
      [ahead, 1 - ahead],
      athleteOutcomes([a, b]),
    );
  }
}

/** Exacta, trifecta and superfecta: the likeliest combinations of each (EXACTA_COUNT). */
function eventExactas(w: MarketWriter, { race, n, athleteIds }: Field): void {
  for (const k of EXACTAS_TYPES) {
    if (n < k + 1) continue;
    const top = race.topSequences(k, EXACTA_COUNT[k] as number);
    const m = w.market(`eventExacta:${k}`, 'eventExacta', { exactasType: k });
    w.outcomes(
      m,
      top.map((s) => s.probability),
      top.map((s) => ({
        key: keyOf(s.sequence.map((i) => athleteIds[i] as string)),
        athleteIds: s.sequence.map((i) => athleteIds[i] as string),
      })),
    );
  }
}

const OVER_UNDER: OutcomeFields = [
  { key: 'over', side: 'OVER' },
  { key: 'under', side: 'UNDER' },
];

/** Each of the six favourites' finishing position, on the line nearest an even chance. */
function overUnders(w: MarketWriter, { race, byWin, n, athleteIds }: Field): void {
  for (const i of byWin.slice(0, Math.min(6, n))) {
    let line = 1.5;
    while (line < n - 1 && race.finishingPosition(i, line).under < 0.5) line += 1;
    const { over, under } = race.finishingPosition(i, line);
    if (over <= 0 || under <= 0) continue;
    const m = w.market(`overUnder:${athleteIds[i]}`, 'overUnder', {
      overUnderSubMarketType: 'finishingPosition',
      line,
      athleteIds: [athleteIds[i] as string],
    });
    w.outcomes(m, [over, under], OVER_UNDER);
  }
}

/** The two favourites' summed finishing positions, from simulated places, on the line at their median. */
function multiOverUnder(w: MarketWriter, { byWin, tracked, simulated, athleteIds }: Field): void {
  const pair = [byWin[0] as number, byWin[1] as number];
  const sums = positionSums(simulated(), tracked.length, [0, 1]);
  const line = Math.floor(median(sums)) + 0.5;
  const under = sums.filter((s) => s < line).length / sums.length;
  if (!(under > 0 && under < 1)) return;
  const m = w.market('multiOverUnder', 'multiOverUnder', {
    overUnderSubMarketType: 'finishingPosition',
    line,
    athleteIds: pair.map((i) => athleteIds[i] as string),
  });
  w.outcomes(m, [1 - under, under], OVER_UNDER);
}

/** Three balanced teams of two: the 1st with the 6th favourite, the 2nd with the 5th, the 3rd with the 4th. */
function dreamTeam(w: MarketWriter, { input, byWin, tracked, simulated, athleteIds }: Field): void {
  const teams = [0, 1, 2].map((t) => [byWin[t] as number, byWin[5 - t] as number]);
  const wins = groupWins(
    simulated(),
    tracked.length,
    [0, 1, 2].map((t) => [t, 5 - t]),
  );
  w.outcomes(
    w.market('dreamTeam', 'dreamTeam'),
    poolEqualTeams(wins, teams, input.win),
    teams.map((team, t) => ({
      key: `team${t + 1}`,
      name: `Team ${t + 1}`,
      athleteIds: team.map((i) => athleteIds[i] as string),
    })),
  );
}

/** A proposition the operator settles: will the favourite finish on the podium? */
function favouritePodium(w: MarketWriter, { race, byWin, n, athleteIds }: Field): void {
  const favourite = byWin[0] as number;
  const p = race.top(favourite, Math.min(3, n - 1));
  const m = w.market('propBets:favouritePodium', 'propBets', {
    proposition: `Will the favourite finish in the top ${Math.min(3, n - 1)}?`,
  });
  w.outcomes(
    m,
    [p, 1 - p],
    [
      { key: 'yes', name: 'Yes', athleteId: athleteIds[favourite] as string },
      { key: 'no', name: 'No', athleteId: athleteIds[favourite] as string },
    ],
  );
}

/**
 * Heats: each a sub-race of the event's model (the same strengths, restricted: the times are
 * independent); a heat of athletes outside the field (a fight card) gets a model fitted to their weights.
 */
function heatMarkets(
  w: MarketWriter,
  input: MarketGeneratorInput,
  options: MarketGeneratorOptions,
  out: GeneratedMarkets,
): void {
  const eventModel = out.models.event;
  const weight = input.strengths ?? new Map(input.athleteIds.map((id, i) => [id, input.win[i] as number]));
  for (const heat of input.heats ?? []) {
    const runners = heat.athleteIds.filter((id) => weight.has(id));
    if (runners.length < 2) continue;
    const fromEvent = eventModel && runners.every((id) => eventModel.strengths[id] !== undefined);
    const heatModel: FinishingOrderModel = fromEvent
      ? { shape: eventModel.shape, strengths: runners.map((id) => eventModel.strengths[id] as number) }
      : fitFinishingOrder(
          runners.map((id) => weight.get(id) as number),
          options.shape,
        );
    out.models[`heat:${heat.heatId}`] = scopeModel(heatModel, runners);
    heatRaceMarkets(w, heat.heatId, runners, new ExactField(heatModel));
  }
}

/** A heat's winner, its head-to-head when it has two runners, and its exacta when it has three or more. */
function heatRaceMarkets(w: MarketWriter, heatId: string, runners: readonly string[], race: ExactField): void {
  const byWin = runners.map((_, i) => i).sort((a, b) => race.win(b) - race.win(a) || a - b);
  const heatOutcomes = (indices: number[]) =>
    indices.map((i) => ({ key: runners[i] as string, athleteId: runners[i] as string }));
  if (w.offers('heatWinner')) {
    w.outcomes(
      w.market(`heatWinner:${heatId}`, 'heatWinner', { heatId }),
      byWin.map((i) => race.win(i)),
      heatOutcomes(byWin),
    );
  }
  if (w.offers('headToHead') && runners.length === 2) {
    w.outcomes(
      w.market(`headToHead:${heatId}`, 'headToHead', { heatId }),
      byWin.map((i) => race.win(i)),
      heatOutcomes(byWin),
    );
  }
  if (w.offers('heatExacta') && runners.length >= 3) {
    const sequences = race.topSequences(2, EXACTA_COUNT[2] as number);
    w.outcomes(
      w.market(`heatExacta:${heatId}`, 'heatExacta', { heatId, exactasType: 2 }),
      sequences.map((s) => s.probability),
      sequences.map((s) => ({
        key: keyOf(s.sequence.map((i) => runners[i] as string)),
        athleteIds: s.sequence.map((i) => runners[i] as string),
      })),
    );
  }
}

function scopeModel(model: FinishingOrderModel, athleteIds: readonly string[]): ScopeModel {
  return {
    shape: model.shape,
    strengths: Object.fromEntries(athleteIds.map((id, i) => [id, model.strengths[i] as number])),
  };
}

function clamp(p: number): number {
  return Math.min(1 - 1e-6, Math.max(1e-6, p));
}

function normalise(values: readonly number[]): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  return values.map((v) => v / total);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Per draw, the summed places of some tracked runners (`columns` of each row of `places`). */
function positionSums(places: Int32Array, tracked: number, columns: readonly number[]): number[] {
  const sums: number[] = [];
  for (let row = 0; row < places.length; row += tracked) {
    let total = 0;
    for (const c of columns) total += places[row + c] as number;
    sums.push(total);
  }
  return sums;
}

/** Share of draws each team's summed places is lowest (a tie goes to the team listed first, as the parlay reads it). */
function groupWins(places: Int32Array, tracked: number, teams: readonly (readonly number[])[]): number[] {
  const wins = teams.map(() => 0);
  for (let row = 0; row < places.length; row += tracked) {
    let best = 0;
    let bestSum = Number.POSITIVE_INFINITY;
    teams.forEach((team, t) => {
      const sum = team.reduce((total, c) => total + (places[row + c] as number), 0);
      if (sum < bestSum) {
        bestSum = sum;
        best = t;
      }
    });
    wins[best] = (wins[best] as number) + 1;
  }
  return wins.map((w) => (w * tracked) / places.length);
}

/**
 * Teams made of equally strong athletes share one price: the mean of their simulated chances, which
 * the draws' noise would otherwise set apart (two equal inputs, two prices).
 */
function poolEqualTeams(fair: readonly number[], teams: readonly number[][], win: readonly number[]): number[] {
  const keyOf = (team: readonly number[]) =>
    team
      .map((i) => (win[i] as number).toPrecision(12))
      .sort()
      .join();
  const pooled = new Map<string, number[]>();
  for (const [t, team] of teams.entries())
    pooled.set(keyOf(team), [...(pooled.get(keyOf(team)) ?? []), fair[t] as number]);
  return teams.map((team) => {
    const chances = pooled.get(keyOf(team)) as number[];
    return chances.reduce((a, b) => a + b, 0) / chances.length;
  });
}
