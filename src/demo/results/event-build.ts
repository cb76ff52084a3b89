import type { Competition } from '../../domain/competitions.ts';
import type { ParticipantStatus, ResultStatus } from '../../domain/enumerations.ts';
import type { Random } from '../../domain/random.ts';
import type { FeedHeatEntry, ResultAthlete, ResultEvent, ResultHeat, ResultSink } from '../results.ts';
import { gauss } from './numbers.ts';

/**
 * One event's results under construction: its entrants (entered by form, seeded, knocked out), the
 * heat entries it publishes as far as the schedule has got, and, once its formats have run, its
 * participants, final places and prices.
 */

/** An athlete entered in the event. */
export interface Entrant {
  athlete: ResultAthlete;
  seedNo: number | null;
  /** Sorts by event seed, unseeded entrants after the seeded ones in the order they were added. */
  order: number;
  status: ParticipantStatus;
  /** The heat that knocked the athlete out: ELIMINATED once that heat is completed. */
  outAt: ResultHeat | null;
  /** The ranking mark of the athlete's latest heat (score or time), for cuts across heats. */
  mark: number;
  /** A running total across heats (aggregate ride score, strokes, best elapsed time). */
  total: number;
  /** The athlete's entry in the latest heat entered. */
  entry: FeedHeatEntry | null;
}

export const NONE = 0;
export const LIVE = 1;
export const FINAL = 2;

/** What a heat publishes: nothing but its draw, a part-way result, or the final result. */
export function stageOf(heat: ResultHeat): number {
  return heat.status === 'COMPLETED' ? FINAL : heat.status === 'LIVE' ? LIVE : NONE;
}

export class EventBuild {
  readonly entrants: Entrant[] = [];
  /**
   * Heats whose draw is published: a round's draw is known once every heat of the rounds before it
   * has completed, so that an upcoming heat never gives away who wins a heat still to be run.
   */
  private readonly drawn = new Set<string>();
  /** The athletes of each heat whose draw is published, for the heat markets. */
  private readonly heatFields = new Map<string, string[]>();

  readonly event: ResultEvent;
  readonly sink: ResultSink;
  readonly athletes: readonly ResultAthlete[];
  readonly rng: Random;
  readonly competition: Competition;

  constructor(
    event: ResultEvent,
    sink: ResultSink,
    athletes: readonly ResultAthlete[],
    rng: Random,
    competition: Competition,
  ) {
    this.event = event;
    this.sink = sink;
    this.athletes = athletes;
    this.rng = rng;
    this.competition = competition;
    for (const round of event.rounds) {
      for (const heat of round.heats) this.drawn.add(heat.id);
      if (!round.heats.every((heat) => heat.status === 'COMPLETED')) break;
    }
  }

  add(athlete: ResultAthlete, seedNo: number | null, status: ParticipantStatus): Entrant {
    const entrant: Entrant = {
      athlete,
      seedNo,
      order: seedNo ?? 10_000 + this.entrants.length,
      status,
      outAt: null,
      mark: 0,
      total: 0,
      entry: null,
    };
    this.entrants.push(entrant);
    return entrant;
  }

  /**
   * Enters up to `size` athletes by current form (strength plus a little luck), seeded 1..n in that
   * order, and returns those who compete, best seed first. The form is the athlete's strength for this
   * event, its results and its prices alike: two events with the same field are priced apart as their
   * form differs. Now and then one withdraws or is injured before the start; the next athlete in form
   * takes the place as an unseeded alternate, or nobody does when the field stays at least `minSize`
   * without one.
   */
  field(size: number, minSize: number): Entrant[] {
    const rng = this.rng;
    const inForm = this.athletes.map((athlete) => ({ ...athlete, strength: athlete.strength + 0.35 * gauss(rng) }));
    inForm.sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1));
    const n = Math.min(size, inForm.length);
    const entered = inForm.slice(0, n).map((athlete, i) => this.add(athlete, i + 1, 'ACTIVE'));
    if (n > 4 && rng.chance(0.2)) {
      const spare = inForm[n];
      if (spare || n - 1 >= minSize) {
        (entered[rng.int(3, n - 1)] as Entrant).status = rng.chance(0.35) ? 'INJURED' : 'WITHDRAWN';
        if (spare) entered.push(this.add(spare, null, 'ALTERNATE'));
      }
    }
    return entered.filter(competes);
  }

  /** Adds the heat's entries, seeded 1..n in the order given. */
  enter(heat: ResultHeat, entrants: readonly Entrant[]): FeedHeatEntry[] {
    const entries: FeedHeatEntry[] = new Array(entrants.length);
    for (let i = 0; i < entrants.length; i++) {
      const entrant = entrants[i] as Entrant;
      const entry: FeedHeatEntry = {
        id: `${heat.id}-e${i + 1}`,
        heatId: heat.id,
        athleteId: entrant.athlete.id,
        seed: i + 1,
      };
      entrant.entry = entry;
      entries[i] = entry;
      if (this.drawn.has(heat.id))
        this.heatFields.set(heat.id, [...(this.heatFields.get(heat.id) ?? []), entrant.athlete.id]);
      if (this.drawn.has(heat.id)) this.sink.heatEntries.push(entry);
    }
    return entries;
  }

  out(entrant: Entrant, heat: ResultHeat | undefined): void {
    if (heat && !entrant.outAt) entrant.outAt = heat;
  }

  finish(): void {
    const eventId = this.event.id;
    const prefix = `${this.event.uuid}-p`;
    const places = this.finalPlaces();
    this.entrants.forEach((entrant, i) => {
      const status = entrant.outAt?.status === 'COMPLETED' && competes(entrant) ? 'ELIMINATED' : entrant.status;
      const place = places?.get(entrant.athlete.id);
      this.sink.eventParticipants.push({
        id: `${prefix}${i + 1}`,
        eventId,
        athleteId: entrant.athlete.id,
        seedNo: entrant.seedNo,
        status,
        ...(place ? { place } : {}),
      });
    });
    if (this.event.price) {
      const field = this.entrants.filter(competes);
      this.event.price({
        uuid: this.event.uuid,
        eventId,
        athletes: field.map((e) => e.athlete),
        heats: [...this.heatFields].map(([heatId, athleteIds]) => ({ heatId, athleteIds })),
        places,
        eliminated: new Set(field.filter((e) => e.outAt?.status === 'COMPLETED').map((e) => e.athlete.id)),
      });
    }
  }

  /**
   * The final standing once every heat is completed: athletes who went furthest rank first; those
   * still in at the end by their place in the last heat they rode; those knocked out in one round
   * share a place (equal 5th). Null while the event is running, and for fight cards (no standing).
   */
  private finalPlaces(): Map<string, number> | null {
    const heats = this.event.rounds.flatMap((r) => r.heats);
    if (
      heats.length === 0 ||
      heats.some((h) => h.status !== 'COMPLETED') ||
      this.competition.resultsFormat === 'combat'
    )
      return null;
    const roundOf = new Map(this.event.rounds.flatMap((r, i) => r.heats.map((h) => [h.id, i] as const)));
    const reach = (e: Entrant) => (e.outAt ? (roundOf.get(e.outAt.id) ?? 0) : Number.POSITIVE_INFINITY);
    const position = (e: Entrant) =>
      reach(e) === Number.POSITIVE_INFINITY ? (e.entry?.position ?? 10_000) || 10_000 : 0;
    const ranked = this.entrants.filter(competes).sort((a, b) => reach(b) - reach(a) || position(a) - position(b));
    const places = new Map<string, number>();
    ranked.forEach((e, i) => {
      const before = ranked[i - 1];
      const tied = before !== undefined && reach(before) === reach(e) && position(before) === position(e);
      places.set(e.athlete.id, tied ? (places.get(before.athlete.id) as number) : i + 1);
    });
    return places;
  }
}

const competes = (entrant: Entrant) => entrant.status === 'ACTIVE' || entrant.status === 'ALTERNATE';
export const byOrder = (a: Entrant, b: Entrant) => a.order - b.order;

/** The heat result's `resultStatus`, left out when OFFICIAL (the feed's default). */
export function resultStatusOf(heat: ResultHeat): { resultStatus?: ResultStatus } {
  return heat.resultStatus === 'PROVISIONAL' ? { resultStatus: 'PROVISIONAL' } : {};
}
