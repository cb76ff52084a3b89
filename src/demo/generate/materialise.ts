import { getCompetition } from '../../domain/competitions.ts';
import type { EventStatus } from '../../domain/enumerations.ts';
import type { Random } from '../../domain/random.ts';
import { demoFirstHammer, demoMatchModel } from '../matches.ts';
import type { EventMarketInput, EventResultsGenerator, ResultHeat, ResultRound } from '../results.ts';
import type { DemoChunk } from './chunk.ts';
import { combine, type EventView, provisional, unitStatus } from './event-status.ts';
import type { DemoPricer, PricingContext } from './pricers.ts';
import type { Profile } from './profile.ts';
import type { EventPlan, LaidRound } from './schedule.ts';
import { priceTeamGame, scorePeriod } from './team-game.ts';
import { materialiseMatchEvent } from './team-match.ts';
import { iso } from './time.ts';

/** The streams an event's scores and results are drawn from. */
export interface Streams {
  scores: Random;
  results: EventResultsGenerator | null;
}

/**
 * Writes event `seq` into the chunk as it stands in `view`: the event, its rounds with their heats or
 * period scores, its participants and results (results.ts), and its markets. A team match is played
 * out by its score model (team-match.ts); every other event goes round by round.
 */
export function materialise(
  plan: EventPlan,
  view: EventView,
  seq: number,
  profile: Profile,
  streams: Streams,
  anchor: number,
  pricer: DemoPricer,
  content: DemoChunk,
): void {
  const { clock, status, home, away, base } = view;
  const eventId = `${base.competition}:${plan.uuid}`;
  const competition = getCompetition(base.competition);
  const ctx: PricingContext = { competition, uuid: plan.uuid, eventId, status };
  const model =
    home && away ? demoMatchModel(competition, home.strength, away.strength, demoFirstHammer(plan.uuid)) : null;
  if (model && home && away) {
    materialiseMatchEvent(plan, view, ctx, model, { home, away }, streams.scores, anchor, pricer, content);
    return;
  }
  content.events.push({
    id: eventId,
    ...base,
    startDate: iso(plan.start),
    endDate: iso(plan.end),
    eventStatus: status,
    ...provisional(status === 'COMPLETED', clock, view.finish),
  });
  const { resultRounds, periodsPlayed } = materialiseRounds(plan, view, eventId, profile, streams.scores, content);
  if (profile.scorer && home && away)
    priceTeamGame(plan, view, ctx, profile.scorer, { home, away }, periodsPlayed, pricer, content);
  streams.results?.run(
    {
      id: eventId,
      uuid: plan.uuid,
      name: base.name,
      seq,
      rounds: resultRounds,
      price: (input: EventMarketInput) => pricer.athleteEvent(ctx, input, resultRounds, content),
    },
    content,
  );
}

/**
 * The event's rounds, with their heats (athlete events) or period scores (team games scored by their
 * sport's scorer). Returns the rounds of heats, for the results, and the periods played so far, the
 * one in play in part.
 */
function materialiseRounds(
  plan: EventPlan,
  view: EventView,
  eventId: string,
  profile: Profile,
  scores: Random,
  content: DemoChunk,
): { resultRounds: ResultRound[]; periodsPlayed: number } {
  const { clock, status, home, away } = view;
  const resultRounds: ResultRound[] = [];
  let periodsPlayed = 0;
  plan.rounds.forEach((laid, r) => {
    const roundId = `${plan.uuid}-r${r + 1}`;
    const statuses = laid.units.map((u) => unitStatus(status, plan, u, clock));
    const first = laid.units[0];
    const last = laid.units[laid.units.length - 1];
    const roundStatus = combine(statuses);
    content.rounds.push({
      id: roundId,
      eventId,
      roundName: laid.spec.name,
      roundNo: r + 1,
      roundStatus,
      startDate: first ? iso(plan.actionStart + first.start) : null,
      endDate: last ? iso(plan.actionStart + last.end) : null,
    });
    if (laid.spec.heats)
      resultRounds.push({
        name: laid.spec.name,
        heats: materialiseHeats(plan, laid, roundId, statuses, clock, content),
      });
    if (profile.scorer && home && away && (roundStatus === 'COMPLETED' || roundStatus === 'LIVE')) {
      const live = roundStatus === 'LIVE';
      periodsPlayed += scorePeriod(profile.scorer, scores, plan, laid, roundId, live, { home, away }, clock, content);
    }
  });
  return { resultRounds, periodsPlayed };
}

/** A round's heats as scheduled, and as the results see them: status, progress and result status. */
function materialiseHeats(
  plan: EventPlan,
  laid: LaidRound,
  roundId: string,
  statuses: readonly EventStatus[],
  clock: number,
  content: DemoChunk,
): ResultHeat[] {
  return laid.units.map((unit, h) => {
    const id = `${roundId}-h${h + 1}`;
    const heatStatus = statuses[h] ?? 'UPCOMING';
    const start = plan.actionStart + unit.start;
    const end = plan.actionStart + unit.end;
    content.heats.push({
      id,
      roundId,
      heatName: unit.name,
      heatNo: h + 1,
      heatStatus,
      startDate: iso(start),
      endDate: iso(end),
    });
    return {
      id,
      name: unit.name,
      status: heatStatus,
      progress: heatStatus === 'LIVE' ? Math.min(1, Math.max(0, (clock - start) / (end - start))) : 0,
      resultStatus: provisional(heatStatus === 'COMPLETED', clock, end).resultStatus ?? 'OFFICIAL',
    };
  });
}
