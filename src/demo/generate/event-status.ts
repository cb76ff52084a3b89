import type { EventStatus } from '../../domain/enumerations.ts';
import type { PeriodScore } from '../../domain/results/match-score.ts';
import type { FeedEvent } from './feed-items.ts';
import type { TeamPlan } from './participants.ts';
import type { EventPlan, Unit } from './schedule.ts';
import { MINUTE } from './time.ts';

/**
 * Where an event stands at a time (`clock`): its status and its heats' or periods', when its action
 * ends, and whether its results are still provisional.
 */

/** An event's feed item but for its id, dates and status, which depend on the clock. */
export type EventBase = Omit<FeedEvent, 'id' | 'startDate' | 'endDate' | 'eventStatus'>;

/** An event as it stands at `clock`: its status then, and its teams (a knockout game has them once its feeders are over). */
export interface EventView {
  readonly clock: number;
  readonly status: EventStatus;
  /** When its action ends (overtime included): its results are provisional for RESULT_PROVISIONAL_MS after. */
  readonly finish: number;
  readonly home: TeamPlan | undefined;
  readonly away: TeamPlan | undefined;
  readonly base: EventBase;
}

/** Overtime and extra ends follow the schedule, ten minutes each. */
export const EXTRA_PERIOD_MS = 10 * MINUTE;

/**
 * How long a result stays provisional after its heat or event ends: long enough for the simulator to
 * show a PROVISIONAL settlement, and a corrected one, before it is OFFICIAL.
 */
export const RESULT_PROVISIONAL_MS = 20 * MINUTE;

/** `resultStatus: PROVISIONAL` for a result that ended less than RESULT_PROVISIONAL_MS before `clock`. */
export function provisional(completed: boolean, clock: number, end: number): { resultStatus?: 'PROVISIONAL' } {
  return completed && clock - end < RESULT_PROVISIONAL_MS ? { resultStatus: 'PROVISIONAL' } : {};
}

/** A heat's or period's status in an event of status `status` at `clock`: by the schedule while the event is live. */
export function unitStatus(status: EventStatus, plan: EventPlan, unit: Unit, clock: number): EventStatus {
  switch (status) {
    case 'COMPLETED':
    case 'CANCELLED':
    case 'POSTPONED':
      return status;
    case 'LIVE': {
      const start = plan.actionStart + unit.start;
      const end = plan.actionStart + unit.end;
      return end <= clock ? 'COMPLETED' : start <= clock ? 'LIVE' : 'UPCOMING';
    }
    default:
      return 'UPCOMING';
  }
}

/** A round's status from its heats': theirs when they all agree, LIVE otherwise. */
export function combine(statuses: readonly EventStatus[]): EventStatus {
  if (statuses.every((s) => s === statuses[0])) return statuses[0] ?? 'UPCOMING';
  return 'LIVE';
}

/**
 * The event's status at `clock`. Completed, cancelled and postponed events stay so; the others open
 * their waiting period at their start, go live with their first heat or period and complete with the
 * last (`finish`). At the time the events were laid out, it is the planned status, except that NEXT
 * is given per competition (viewsAt).
 */
export function statusAt(plan: EventPlan, clock: number, finish: number): EventStatus {
  if (plan.status === 'COMPLETED' || plan.status === 'CANCELLED' || plan.status === 'POSTPONED') return plan.status;
  // A knockout game is never called off: the bracket goes on from it.
  if (plan.callOff !== undefined && !plan.bracket && clock > plan.callOff) return 'CANCELLED';
  if (clock >= finish) return 'COMPLETED';
  if (clock >= plan.actionStart) return 'LIVE';
  return clock >= plan.start ? 'IN_WINDOW' : 'UPCOMING';
}

/** When the action ends: the last heat or period, or the period that decides a match (overtime included). */
export function finishOf(plan: EventPlan, path: readonly PeriodScore[] | null): number {
  const regularEnd = plan.actionStart + (plan.rounds.at(-1)?.units.at(-1)?.end ?? 0);
  if (!path || path.length === plan.rounds.length) return regularEnd;
  if (path.length > plan.rounds.length) return regularEnd + (path.length - plan.rounds.length) * EXTRA_PERIOD_MS;
  return plan.actionStart + (plan.rounds[Math.max(0, path.length - 1)]?.units[0]?.end ?? 0);
}
