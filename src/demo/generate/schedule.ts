import type { EventStatus } from '../../domain/enumerations.ts';
import { hashSeed, type Random } from '../../domain/random.ts';
import type { TeamPlan } from './participants.ts';
import type { Profile, RoundSpec } from './profile.ts';
import { DAY, dayFloor, HOUR, MINUTE } from './time.ts';

/**
 * A competition's calendar: its events laid out around `now` (half of them past, one live, the rest
 * to come), each with its rounds and heats placed on the competition's days.
 */

/** Past events reach back at most this far, upcoming ones forward, however many events are asked for. */
const MAX_PAST_DAYS = 400;
const MAX_FUTURE_DAYS = 300;

export interface Unit {
  name: string;
  /** Milliseconds from the event's action start. */
  start: number;
  end: number;
}

export interface LaidRound {
  spec: RoundSpec;
  units: Unit[];
}

/** Places heats one after another, moving to the next competition day when one does not fit. */
function layOut(specs: readonly RoundSpec[], dayHours: number): { rounds: LaidRound[]; length: number } {
  let dayStart = 0;
  let t = 0;
  const rounds: LaidRound[] = [];
  specs.forEach((round, r) => {
    if (r > 0 && round.newDay) {
      dayStart += DAY;
      t = dayStart;
    } else if (r > 0) {
      t += (round.gapBefore ?? 10) * MINUTE;
    }
    const length = round.minutes * MINUTE;
    const units = (round.heats ?? [round.name]).map((name, h) => {
      if (h > 0) t += (round.gap ?? 5) * MINUTE;
      if (t > dayStart && t + length > dayStart + dayHours * HOUR) {
        dayStart += DAY;
        t = dayStart;
      }
      const unit = { name, start: t, end: t + length };
      t += length;
      return unit;
    });
    rounds.push({ spec: round, units });
  });
  return { rounds, length: t };
}

type Category = 'past' | 'live' | 'window' | 'future';

export interface EventPlan {
  uuid: string;
  category: Category;
  status: EventStatus;
  start: number;
  end: number;
  actionStart: number;
  rounds: LaidRound[];
  home: TeamPlan | undefined;
  away: TeamPlan | undefined;
  /** 3-on-3 hockey: the game's place in its season's knockout bracket. */
  bracket?: { round: number; slot: number };
  /** When an event still to come is called off (CALL_OFF_ONE_IN), if it is. */
  callOff?: number;
}

/**
 * One event in this many still to come is called off an hour before it starts (weather, venue): the
 * simulator shows a cancellation voiding the event's open markets. Chosen by the event's id rather
 * than the shared draws, so that the rest of the demo stays as it was.
 */
const CALL_OFF_ONE_IN = 10;

/** How many events of each category a competition gets, over which spans around `now`. */
interface Calendar {
  now: number;
  pastCount: number;
  windowCount: number;
  upcomingCount: number;
  pastSpan: number;
  futureSpan: number;
}

/** A competition's `count` events around `now`, in calendar order, with their planned statuses. */
export function planEvents(
  count: number,
  compIndex: number,
  profile: Profile,
  teams: readonly TeamPlan[],
  rng: Random,
  now: number,
): EventPlan[] {
  if (count === 0) return [];
  const pastCount = Math.floor(count / 2);
  const futureSlots = count - pastCount - 1;
  const windowCount = profile.window && futureSlots >= 2 ? 1 : 0;
  const upcomingCount = futureSlots - windowCount;
  const calendar: Calendar = {
    now,
    pastCount,
    windowCount,
    upcomingCount,
    pastSpan: Math.min(MAX_PAST_DAYS, Math.max(1, pastCount) * profile.spacingDays) * DAY,
    futureSpan: Math.min(MAX_FUTURE_DAYS, Math.max(1, upcomingCount) * profile.spacingDays) * DAY,
  };
  const plans: EventPlan[] = [];
  const plan = (category: Category) => plans.push(planEvent(category, plans.length, profile, teams, rng, calendar));
  for (let i = 0; i < pastCount; i++) plan('past');
  plan('live');
  for (let i = 0; i < windowCount; i++) plan('window');
  for (let i = 0; i < upcomingCount; i++) plan('future');
  return assignStatuses(plans, compIndex, rng);
}

/** The `index`-th event planned: its rounds laid out, its teams drawn, and its place on the calendar. */
function planEvent(
  category: Category,
  index: number,
  profile: Profile,
  teams: readonly TeamPlan[],
  rng: Random,
  calendar: Calendar,
): EventPlan {
  const { rounds, length } = layOut(profile.rounds(rng), profile.dayHours);
  const windowDays = profile.window ? rng.int(profile.window.minDays, profile.window.maxDays) : 0;
  const lead = profile.window ? rng.int(0, profile.window.maxLeadDays) * DAY : 0;
  const [home, away] = teams.length >= 2 ? rng.sample(teams, 2) : [undefined, undefined];
  const at = placeEvent(category, index, { rounds, length, windowDays, lead }, profile, rng, calendar);
  return { uuid: rng.uuid(), category, status: 'UPCOMING', ...at, rounds, home, away };
}

/** When an event starts and ends: `start` opens its waiting period (if any), `actionStart` its first heat. */
interface Placement {
  actionStart: number;
  start: number;
  end: number;
}

function placeEvent(
  category: Category,
  index: number,
  event: { rounds: readonly LaidRound[]; length: number; windowDays: number; lead: number },
  profile: Profile,
  rng: Random,
  { now, pastCount, windowCount, upcomingCount, pastSpan, futureSpan }: Calendar,
): Placement {
  const { rounds, length, windowDays, lead } = event;
  const clock = (day: number) => dayFloor(day) + rng.pick(profile.startHours) * HOUR + rng.pick([0, 0, 30]) * MINUTE;
  const place = (actionStart: number): Placement => {
    const start = actionStart - lead;
    return { actionStart, start, end: Math.max(actionStart + length, start + windowDays * DAY) };
  };
  if (category === 'past') {
    let at = place(clock(now - pastSpan + ((index + rng.float(0.2, 0.8)) * pastSpan) / pastCount));
    while (at.end > now - HOUR) at = place(at.actionStart - DAY);
    return at;
  }
  if (category === 'future') {
    const j = index - pastCount - 1 - windowCount;
    let at = place(clock(now + ((j + rng.float(0.1, 0.9)) * futureSpan) / upcomingCount));
    while (at.start < now + HOUR) at = place(at.actionStart + DAY);
    return at;
  }
  if (category === 'window') {
    // The waiting period has opened but competition has not been called on yet.
    const start = clock(now - rng.int(1, 3) * DAY);
    let actionStart = start + DAY;
    while (actionStart < now + HOUR) actionStart += DAY;
    return { actionStart, start, end: Math.max(actionStart + length, start + windowDays * DAY) };
  }
  // Put `now` in the middle of the middle heat, so some heats are done and the rest to come.
  const units = rounds.flatMap((r) => r.units);
  const anchor = units[Math.floor(units.length / 2)] ?? { start: 0, end: HOUR };
  // Whole minutes, like a real schedule; heats are at least 4 minutes long, so `now` stays inside.
  return place(Math.floor((now - anchor.start - (anchor.end - anchor.start) / 2) / MINUTE) * MINUTE);
}

/**
 * Statuses by category, then cancellations, postponements and call-offs: every status somewhere in
 * the default dataset, more sprinkled in large ones. Returns the plans in calendar order.
 */
function assignStatuses(plans: EventPlan[], compIndex: number, rng: Random): EventPlan[] {
  const byStart = (a: EventPlan, b: EventPlan) => a.start - b.start || (a.uuid < b.uuid ? -1 : 1);
  const past = plans.filter((p) => p.category === 'past').sort(byStart);
  const future = plans.filter((p) => p.category === 'future').sort(byStart);
  for (const p of plans) {
    p.status =
      p.category === 'past'
        ? 'COMPLETED'
        : p.category === 'live'
          ? 'LIVE'
          : p.category === 'window'
            ? 'IN_WINDOW'
            : 'UPCOMING';
  }
  const cancelAt = compIndex % 3 === 0 && past.length >= 2 ? rng.int(0, past.length - 2) : -1;
  past.forEach((p, i) => {
    if (i === cancelAt || rng.chance(0.02)) p.status = 'CANCELLED';
  });
  const postponeAt = compIndex % 4 === 1 && future.length >= 3 ? rng.int(1, future.length - 1) : -1;
  future.forEach((p, i) => {
    if (i === 0) p.status = 'NEXT';
    else if (i === postponeAt || rng.chance(0.02)) p.status = 'POSTPONED';
    // An hour before its start: a future event starts an hour or more after `now`, so never before it.
    if (p.status !== 'POSTPONED' && hashSeed('call-off', p.uuid) % CALL_OFF_ONE_IN === 0) p.callOff = p.start - HOUR;
  });
  return plans.sort(byStart);
}

/**
 * The times a live event starting at `start` could have been laid out around: planEvents puts `now`
 * in the middle of its middle heat, whole minutes apart, so one minute's worth.
 */
export function layoutTimes(plan: EventPlan, start: number): { from: number; to: number } {
  const units = plan.rounds.flatMap((r) => r.units);
  const anchor = units[Math.floor(units.length / 2)] ?? { start: 0, end: HOUR };
  const from = start + (plan.actionStart - plan.start) + anchor.start + (anchor.end - anchor.start) / 2;
  return { from, to: from + MINUTE };
}
