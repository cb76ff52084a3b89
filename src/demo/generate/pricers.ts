import type { Competition } from '../../domain/competitions.ts';
import type { EventStatus } from '../../domain/enumerations.ts';
import type { TeamMatchModel } from '../../domain/pricing/team-match-model.ts';
import { type DemoTeamGame, demoMarkets, demoTeamMarkets, inPlayEventMarkets, type TeamGameState } from '../markets.ts';
import { demoMatchMarkets, inPlayMatchOdds, type MatchState } from '../matches.ts';
import type { EventMarketInput, ResultRound, ResultSink } from '../results.ts';

/**
 * How the demo's events are priced: as before their start (the dataset's prices, kept once they are
 * over), or in play from where they stand (the dataset as loaded, and the simulator).
 */

/** Where an event stands when it is priced. */
export interface PricingContext {
  competition: Competition;
  uuid: string;
  eventId: string;
  status: EventStatus;
}

/** A team match to price: its model, its periods' round ids, and the state of play. */
export interface MatchToPrice {
  model: TeamMatchModel;
  roundIds: readonly string[];
  state: MatchState;
}

/**
 * How events are priced. The dataset prices every event as before its start (and keeps those prices
 * once it is over, settled from its results); the simulator prices events in play.
 */
export interface DemoPricer {
  athleteEvent(ctx: PricingContext, input: EventMarketInput, rounds: readonly ResultRound[], sink: ResultSink): void;
  match(ctx: PricingContext, match: MatchToPrice, sink: ResultSink): void;
  teamGame(ctx: PricingContext, game: DemoTeamGame, state: TeamGameState, sink: ResultSink): void;
}

export const PRE_EVENT_PRICES: DemoPricer = {
  athleteEvent(ctx, input, _rounds, sink) {
    const generated = demoMarkets(ctx.competition, input);
    for (const m of generated.markets) sink.markets.push({ ...m, eventId: ctx.eventId });
    for (const o of generated.odds) sink.odds.push(o);
  },
  match(ctx, match, sink) {
    const markets = demoMatchMarkets(ctx.competition, ctx.uuid, match.model, match.roundIds);
    sink.markets.push(...markets.markets);
    sink.odds.push(...markets.odds);
  },
  teamGame(ctx, game, _state, sink) {
    const markets = demoTeamMarkets(ctx.competition, game);
    sink.markets.push(...markets.markets);
    sink.odds.push(...markets.odds);
  },
};

/** Prices of `base` with those of `update` in their place (by id), and what `update` adds. */
function overlay<T extends { id: string }, U extends { id: string }>(
  base: readonly T[],
  update: readonly U[],
): Array<T | U> {
  const byId = new Map(update.map((item) => [item.id, item]));
  const known = new Set(base.map((item) => item.id));
  return [...base.map((item) => byId.get(item.id) ?? item), ...update.filter((item) => !known.has(item.id))];
}

/**
 * The dataset's prices as loaded: events priced before their start as PRE_EVENT_PRICES does, and an
 * event in play from where it stands, as the simulator prices it (a trailing side is not priced as the
 * favourite, a total counts the goals already scored, a race's prices follow its running order).
 */
export const LOADED_PRICES: DemoPricer = {
  athleteEvent(ctx, input, rounds, sink) {
    if (ctx.status !== 'LIVE') return PRE_EVENT_PRICES.athleteEvent(ctx, input, rounds, sink);
    const generated = demoMarkets(ctx.competition, input);
    const before = { markets: generated.markets.map((m) => ({ ...m, eventId: ctx.eventId })), odds: generated.odds };
    const own = new Set(input.heats.map((h) => h.heatId));
    const entries = sink.heatEntries.filter((e) => own.has(e.heatId));
    const live = inPlayEventMarkets(ctx.competition, input, rounds, entries, before);
    sink.markets.push(...overlay(before.markets, live.markets));
    sink.odds.push(...overlay(before.odds, live.odds));
  },
  match(ctx, match, sink) {
    if (ctx.status !== 'LIVE') return PRE_EVENT_PRICES.match(ctx, match, sink);
    const markets = demoMatchMarkets(ctx.competition, ctx.uuid, match.model, match.roundIds);
    sink.markets.push(...markets.markets);
    sink.odds.push(...overlay(markets.odds, inPlayMatchOdds(markets, match.model, match.state)));
  },
  teamGame(ctx, game, state, sink) {
    if (ctx.status !== 'LIVE') return PRE_EVENT_PRICES.teamGame(ctx, game, state, sink);
    const markets = demoTeamMarkets(ctx.competition, game, state);
    sink.markets.push(...markets.markets);
    sink.odds.push(...markets.odds);
  },
};

/** For replaying the draws only: pricing draws from streams of its own, so it can be left out. */
export const NO_PRICES: DemoPricer = { athleteEvent() {}, match() {}, teamGame() {} };
