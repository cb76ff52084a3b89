import type { Competition } from '../domain/competitions.ts';
import type { EventStatus, ResultStatus } from '../domain/enumerations.ts';
import type { HeatField } from '../domain/pricing/market-generator.ts';
import type { Random } from '../domain/random.ts';
import type { FeedDocument } from '../ingest/feed-schema.ts';
import { bullRiding } from './results/bull-riding.ts';
import { combat, FightBook } from './results/combat.ts';
import { discGolf } from './results/disc-golf.ts';
import { EventBuild } from './results/event-build.ts';
import { dragRacing, drifting } from './results/head-to-head.ts';
import { jaiAlai } from './results/jai-alai.ts';
import { judgedFormat } from './results/judged.ts';
import { racingFormat } from './results/racing.ts';
import { rotationLeague } from './results/rotation-league.ts';
import { skateboarding } from './results/skateboarding.ts';
import { swimming } from './results/swimming.ts';

export { TEAM_GAME_EVENT_TYPE } from './results/bull-riding.ts';

/**
 * Heat results for the demo data: who is entered in each event and heat (eventParticipants,
 * heatEntries) and what happened in each completed or live heat (heat scores, laps, fight and battle
 * results, team games), shaped by the competition's results format.
 *
 * Each event is simulated whole, so a later round holds the athletes that earlier rounds sent through,
 * and is then published as far as the schedule has got: completed heats in full, the live heat
 * part-way, later heats with their draw and seeds only.
 *
 * The formats are in results/, one file per sport family (judged, skateboarding, racing, swimming,
 * disc-golf, rotation-league, jai-alai, combat, head-to-head for drifting and drag racing,
 * bull-riding), on what they share: event-build (the entrants and what is published) and heats.
 */

type Item<K extends keyof FeedDocument> = NonNullable<FeedDocument[K]> extends ReadonlyArray<infer T> ? T : never;
export type FeedEventParticipant = Item<'eventParticipants'>;
export type FeedHeatEntry = Item<'heatEntries'>;
export type FeedLap = Item<'laps'>;
export type FeedHeatResult = Item<'heatResults'>;
export type FeedTeamGame = Item<'teamGames'>;
export type FeedMarket = Item<'markets'>;
export type FeedOdd = Item<'odds'>;

export interface ResultAthlete {
  id: string;
  lastName: string;
  /** Roughly N(0, 1); the same strength that prices the futures. */
  strength: number;
  gender: string | null;
  weightClass: string | null;
  teamId: string | null;
}

export interface ResultHeat {
  id: string;
  name: string;
  status: EventStatus;
  /** Share of a LIVE heat already run, 0 to 1. */
  progress: number;
  /** A COMPLETED heat's result is PROVISIONAL for a while after it ends (RESULT_PROVISIONAL_MS). */
  resultStatus: ResultStatus;
}

export interface ResultRound {
  name: string;
  heats: readonly ResultHeat[];
}

export interface ResultEvent {
  /** The event's feed id (`<competition>:<uuid>`). */
  id: string;
  uuid: string;
  name: string;
  /** Position of the event in its competition's calendar, from 0. */
  seq: number;
  rounds: readonly ResultRound[];
  /** Prices the event (events still to run, and those just finished); absent for an event without markets. */
  price?: (input: EventMarketInput) => void;
}

/** What an athlete event's markets are made from: its field, the heats drawn so far and, once over, the final places. */
export interface EventMarketInput {
  /** The event's uuid: market and odd ids are made from it. */
  uuid: string;
  eventId: string;
  /** The athletes who compete, best seed first. */
  athletes: readonly ResultAthlete[];
  /** Heats whose draw is published, with their athletes. */
  heats: readonly HeatField[];
  /** Final places once the event is completed (athlete id to place), for the operator-settled props. */
  places: ReadonlyMap<string, number> | null;
  /** Athletes knocked out by a completed heat. */
  eliminated: ReadonlySet<string>;
}

/** Where the results of an event are written: the collections of the document that carries the event. */
export interface ResultSink {
  eventParticipants: FeedEventParticipant[];
  heatEntries: FeedHeatEntry[];
  laps: FeedLap[];
  heatResults: FeedHeatResult[];
  teamGames: FeedTeamGame[];
  markets: FeedMarket[];
  odds: FeedOdd[];
}

export interface EventResultsGenerator {
  /** Publishes one event's participants, heat entries and results into the sink. */
  run(event: ResultEvent, sink: ResultSink): void;
  /** Bouts completed so far, over which the rarer fight outcomes are spread (0 outside combat). */
  fights(): number;
}

/**
 * The results generator of one competition, or null for team competitions (their periods carry round
 * scores, not heat entries). Events must be passed in calendar order: draws continue from one event
 * to the next, and the rarer fight outcomes are spread over the first completed bouts. A generator
 * can start part-way: from `rng` as it stood, with `fights` bouts completed before.
 */
export function eventResultsGenerator(
  competition: Competition,
  athletes: readonly ResultAthlete[],
  riderTeamIds: readonly string[],
  rng: Random,
  fights = 0,
): EventResultsGenerator | null {
  if (competition.participants !== 'athletes' || athletes.length === 0) return null;
  const format = resultsFormat(competition, riderTeamIds, fights);
  if (!format) return null;
  return {
    run(event, sink) {
      const b = new EventBuild(event, sink, athletes, rng, competition);
      format.build(b, event);
      b.finish();
    },
    fights: () => format.book?.completed ?? 0,
  };
}

/** How the competition's events are built; combat keeps a book of outcomes across events. */
function resultsFormat(
  competition: Competition,
  riderTeamIds: readonly string[],
  fights: number,
): { build: (b: EventBuild, event: ResultEvent) => void; book?: FightBook } | null {
  const key = competition.key;
  const run = (build: (b: EventBuild, event: ResultEvent) => void) => ({ build });
  switch (competition.resultsFormat) {
    case 'judged-heat':
      return run(judgedFormat(key));
    case 'skateboarding':
      return run(skateboarding);
    case 'supercross-laps':
    case 'sprint-laps':
    case 'position-race': {
      const race = racingFormat(key);
      return race ? run(race) : null;
    }
    case 'timed-race':
      return run(swimming);
    case 'stroke-play':
      return run(discGolf);
    case 'points-leaderboard':
      return run(rotationLeague);
    case 'combat': {
      const book = new FightBook(key, fights);
      return { build: (b, event) => combat(b, event, book), book };
    }
    case 'drift-battle':
      return run(drifting);
    case 'drag-pairing':
      return run(dragRacing);
    case 'bull-riding':
      return run((b, event) => bullRiding(b, event, riderTeamIds));
    case 'jai-alai':
      return run(jaiAlai);
    default:
      return null;
  }
}
