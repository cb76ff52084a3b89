import type { Competition } from '../../domain/competitions.ts';
import type { EventStatus } from '../../domain/enumerations.ts';
import type { TeamMatchModel } from '../../domain/pricing/team-match-model.ts';
import { hashSeed, Random } from '../../domain/random.ts';
import type { PeriodScore } from '../../domain/results/match-score.ts';
import { demoMatchPath, type MatchState, tableTennisGame } from '../matches.ts';
import { NATIONALITIES } from '../names.ts';
import type { DemoChunk } from './chunk.ts';
import { type EventView, EXTRA_PERIOD_MS, provisional, unitStatus } from './event-status.ts';
import type { TeamPlan } from './participants.ts';
import type { DemoPricer, MatchToPrice, PricingContext } from './pricers.ts';
import type { EventPlan } from './schedule.ts';
import { iso } from './time.ts';

/**
 * A team match (curling, table tennis, lacrosse, 3-on-3 hockey, Jai Alai) played out by its score
 * model: periods in the schedule take the played scores (the one in play shows its score so far);
 * games and sets not needed once the match is decided are CANCELLED; overtime or extra ends follow
 * the schedule when the match needs them. Markets come from the same model.
 */

interface Teams {
  home: TeamPlan;
  away: TeamPlan;
}

/** The match's event item, its rounds and their scores, and its prices. */
export function materialiseMatchEvent(
  plan: EventPlan,
  view: EventView,
  ctx: PricingContext,
  model: TeamMatchModel,
  teams: Teams,
  scores: Random,
  anchor: number,
  pricer: DemoPricer,
  content: DemoChunk,
): void {
  const { clock, status, base } = view;
  const path = livePath(plan, model, anchor);
  // Overtime and extra ends of a match that needs them follow the schedule, ten minutes each.
  const extra =
    status === 'COMPLETED' || (status === 'LIVE' && clock >= plan.end)
      ? Math.max(0, path.length - plan.rounds.length) * EXTRA_PERIOD_MS
      : 0;
  const onServe =
    ctx.competition.resultsFormat === 'jai-alai' && status === 'LIVE'
      ? { onServe: scores.pick(['home', 'away'] as const) }
      : {};
  content.events.push({
    id: ctx.eventId,
    ...base,
    ...onServe,
    startDate: iso(plan.start),
    endDate: iso(plan.end + extra),
    eventStatus: status,
    ...provisional(status === 'COMPLETED', clock, view.finish),
  });
  materialiseMatch(plan, view, ctx.competition, model, path, teams, ctx.eventId, content, (match) =>
    pricer.match(ctx, match, content),
  );
}

function materialiseMatch(
  plan: EventPlan,
  view: EventView,
  competition: Competition,
  model: TeamMatchModel,
  path: readonly PeriodScore[],
  teams: Teams,
  eventId: string,
  content: DemoChunk,
  price: (match: MatchToPrice) => void,
): void {
  const { clock, status } = view;
  const rounds = matchRounds(plan, clock, competition, teams, eventId, content);
  let last = plan.actionStart;
  plan.rounds.forEach((laid, r) => {
    const unit = laid.units[0] ?? { name: laid.spec.name, start: 0, end: 0 };
    const [start, end] = [plan.actionStart + unit.start, plan.actionStart + unit.end];
    last = end;
    const roundStatus = unitStatus(status, plan, unit, clock);
    const played = path[r];
    if (!played) {
      // Not needed: the match was decided before this game or set.
      const notNeeded = roundStatus === 'UPCOMING' || roundStatus === 'POSTPONED' ? roundStatus : 'CANCELLED';
      rounds.add(r, laid.spec.name, notNeeded, start, end, undefined);
      return;
    }
    if (roundStatus === 'LIVE') rounds.inPlay(r, laid.spec.name, start, end, played);
    else rounds.add(r, laid.spec.name, roundStatus, start, end, roundStatus === 'COMPLETED' ? played : undefined);
  });
  if (status === 'COMPLETED' || status === 'LIVE') {
    const extraName = competition.resultsFormat === 'curling' ? 'Extra End' : 'Overtime';
    for (let r = plan.rounds.length; r < path.length; r++) {
      const played = path[r] as PeriodScore;
      const name = r === plan.rounds.length ? extraName : `${extraName} ${r - plan.rounds.length + 1}`;
      const end = last + EXTRA_PERIOD_MS;
      if (status === 'COMPLETED' || end <= clock) rounds.add(r, name, 'COMPLETED', last, end, played);
      else if (last <= clock) rounds.inPlay(r, name, last, end, played);
      else break;
      last = end;
    }
  }
  price({ model, roundIds: rounds.roundIds, state: rounds.state });
}

/**
 * Writes a match's rounds and their scores into the chunk, and keeps what its prices need: the
 * rounds' ids and the state of play.
 */
function matchRounds(
  plan: EventPlan,
  clock: number,
  competition: Competition,
  teams: Teams,
  eventId: string,
  content: DemoChunk,
) {
  const roundIds: string[] = [];
  const state: { completed: PeriodScore[]; live: MatchState['live'] } = { completed: [], live: null };
  const rosters =
    competition.resultsFormat === 'table-tennis' ? { home: roster(teams.home), away: roster(teams.away) } : null;
  const add = (
    r: number,
    name: string,
    roundStatus: EventStatus,
    start: number,
    end: number,
    score: PeriodScore | undefined,
  ) => {
    const roundId = `${plan.uuid}-r${r + 1}`;
    roundIds.push(roundId);
    content.rounds.push({
      id: roundId,
      eventId,
      roundName: name,
      roundNo: r + 1,
      roundStatus,
      startDate: iso(start),
      endDate: iso(end),
      ...(rosters ? tableTennisGame(r, rosters.home, rosters.away) : {}),
    });
    if (!score) return;
    if (roundStatus === 'COMPLETED') state.completed.push(score);
    content.roundScores.push({ id: `${roundId}-${teams.home.id}`, roundId, teamId: teams.home.id, goals: score.home });
    content.roundScores.push({ id: `${roundId}-${teams.away.id}`, roundId, teamId: teams.away.id, goals: score.away });
  };
  // The period in play shows its score so far.
  const inPlay = (r: number, name: string, start: number, end: number, played: PeriodScore) => {
    const elapsed = Math.min(1, Math.max(0, (clock - start) / Math.max(1, end - start)));
    const score = { home: Math.floor(played.home * elapsed), away: Math.floor(played.away * elapsed) };
    state.live = { index: r, score, elapsed };
    add(r, name, 'LIVE', start, end, score);
  };
  return { roundIds, state, add, inPlay };
}

/**
 * The match as played. A match in play when the events were laid out (`now`) is still going then:
 * its draw is one that has not been decided before the period in play (redrawn, seeded, until so).
 */
export function livePath(plan: EventPlan, model: TeamMatchModel, now: number): PeriodScore[] {
  let path = demoMatchPath(model, plan.uuid);
  if (plan.status !== 'LIVE') return path;
  const inPlay = plan.rounds.findIndex(
    (laid) => laid.units[0] !== undefined && unitStatus(plan.status, plan, laid.units[0], now) === 'LIVE',
  );
  for (let attempt = 1; attempt < 50 && inPlay >= 0 && path.length <= inPlay; attempt++)
    path = demoMatchPath(model, `${plan.uuid}/${attempt}`);
  return path;
}

/** Four players per table tennis team, named from the team's id so that every match shows the same roster. */
function roster(team: TeamPlan): string[] {
  const rng = new Random(hashSeed('roster', team.id));
  return Array.from({ length: 4 }, (_, i) => {
    const nation = rng.pick(NATIONALITIES);
    return `${rng.pick(i % 2 === 0 ? nation.male : nation.female)} ${rng.pick(nation.last)}`;
  });
}
