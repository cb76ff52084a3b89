import { hashSeed, Random } from '../../domain/random.ts';
import type { DemoTeamGame } from '../markets.ts';
import type { DemoChunk } from './chunk.ts';
import type { EventView } from './event-status.ts';
import type { TeamPlan } from './participants.ts';
import type { DemoPricer, PricingContext } from './pricers.ts';
import type { Scorer } from './profile.ts';
import type { EventPlan, LaidRound } from './schedule.ts';

/**
 * A team game scored period by period by its sport's scorer (indoor soccer, indoor football), and
 * priced from the same scorer.
 */

interface Teams {
  home: TeamPlan;
  away: TeamPlan;
}

/**
 * The scores of a period completed or in play (the one in play shows its score so far); returns how
 * much of the period has been played, 0 to 1.
 */
export function scorePeriod(
  scorer: Scorer,
  scores: Random,
  plan: EventPlan,
  laid: LaidRound,
  roundId: string,
  live: boolean,
  { home, away }: Teams,
  clock: number,
  content: DemoChunk,
): number {
  const first = laid.units[0];
  let [homeGoals, awayGoals] = scorer(scores, home.strength, away.strength);
  let elapsed = 1;
  if (live && first) {
    elapsed = Math.min(1, Math.max(0, (clock - plan.actionStart - first.start) / (first.end - first.start)));
    homeGoals = Math.floor(homeGoals * elapsed);
    awayGoals = Math.floor(awayGoals * elapsed);
  }
  content.roundScores.push({ id: `${roundId}-${home.id}`, roundId, teamId: home.id, goals: homeGoals });
  content.roundScores.push({ id: `${roundId}-${away.id}`, roundId, teamId: away.id, goals: awayGoals });
  return elapsed;
}

/** Prices the game from the score so far and the share of it still to play. */
export function priceTeamGame(
  plan: EventPlan,
  view: EventView,
  ctx: PricingContext,
  scorer: Scorer,
  { home, away }: Teams,
  periodsPlayed: number,
  pricer: DemoPricer,
  content: DemoChunk,
): void {
  const goals = (teamId: string) =>
    content.roundScores
      .filter((s) => s.roundId.startsWith(`${plan.uuid}-r`) && s.teamId === teamId)
      .reduce((sum, s) => sum + s.goals, 0);
  // Its own draws, so that pricing leaves the rest of the demo data as it was.
  const pricingRng = new Random(hashSeed('team-markets', plan.uuid));
  const score = { home: goals(home.id), away: goals(away.id) };
  const game: DemoTeamGame = {
    uuid: plan.uuid,
    eventId: ctx.eventId,
    home: { id: home.id, name: home.feed.name },
    away: { id: away.id, name: away.feed.name },
    drawScore: () => {
      let [h, a] = [0, 0];
      for (let r = 0; r < plan.rounds.length; r++) {
        const [dh, da] = scorer(pricingRng, home.strength, away.strength);
        h += dh;
        a += da;
      }
      return [h, a];
    },
    final: view.status === 'COMPLETED' ? [score.home, score.away] : null,
  };
  const remaining = Math.max(0, 1 - periodsPlayed / Math.max(1, plan.rounds.length));
  pricer.teamGame(ctx, game, { ...score, remaining }, content);
}
