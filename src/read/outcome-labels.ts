import { outcomeLabel } from '../domain/markets/outcome-label.ts';
import type { OutcomeSide } from '../domain/markets/selection.ts';
import type { Store } from '../store/database.ts';
import { oddsRepository } from '../store/repositories/odds-repository.ts';
import type { AthleteRow, HeatRow, MarketRow, OddRow, RoundRow, TeamRow } from '../store/schema.ts';
import { eventTeamFacts } from './team-match.ts';

/**
 * The names an outcome's label is written with (domain/markets/outcome-label.ts): one builder for route
 * 6, the team-match odds routes, the parlay's legs and the bet builder's options, so that a slip reads
 * the same wherever the outcome is shown.
 */
export interface LabelSources {
  athletes: ReadonlyMap<string, Pick<AthleteRow, 'firstName' | 'lastName'>>;
  heats: ReadonlyMap<string, Pick<HeatRow, 'heatName' | 'heatNo'>>;
  rounds: ReadonlyMap<string, Pick<RoundRow, 'roundName'>>;
  teams: ReadonlyMap<string, Pick<TeamRow, 'name'>>;
  /** The event's home and away team ids (a team market's HOME and AWAY), when it has teams. */
  sides: { home: string | null; away: string | null };
}

export function athleteName(athlete: Pick<AthleteRow, 'firstName' | 'lastName'>): string {
  return `${athlete.firstName} ${athlete.lastName}`.trim();
}

/** The home and away team ids of an event's stored teams (JSON). */
export function eventSides(teamsJson: string): LabelSources['sides'] {
  const facts = eventTeamFacts(teamsJson);
  const side = (home: boolean) => facts.find((f) => f.isHomeTeam === home)?.teamId ?? null;
  return { home: side(true), away: side(false) };
}

/** The heats and rounds of an event, by id, for the labels of its heat and period markets. */
export async function eventPlaces(
  store: Pick<Store, 'db'>,
  eventId: string,
): Promise<{ heats: Map<string, HeatRow & { round: RoundRow }>; rounds: Map<string, RoundRow> }> {
  const { heats, rounds } = await oddsRepository(store.db).placesOfEvent(eventId);
  return { heats: new Map(heats.map((h) => [h.id, h])), rounds: new Map(rounds.map((r) => [r.id, r])) };
}

const ids = (text: string | null): string[] => (text ? (JSON.parse(text) as string[]) : []);

/** The label of a stored outcome; `siblings` are its market's outcomes (a head-to-head's other side). */
export function labelOf(market: MarketRow, odd: OddRow, siblings: readonly OddRow[], sources: LabelSources): string {
  const nameOf = (id: string) => {
    const athlete = sources.athletes.get(id);
    return athlete ? athleteName(athlete) : id;
  };
  const heat = market.heatId ? sources.heats.get(market.heatId) : undefined;
  const side = (odd.side as OutcomeSide | null) ?? null;
  const sideTeam = side === 'HOME' ? sources.sides.home : side === 'AWAY' ? sources.sides.away : null;
  const teamId = odd.teamId ?? sideTeam;
  const opponent = siblings.find((s) => s.id !== odd.id)?.athleteId;
  return outcomeLabel(
    {
      oddType: market.oddType,
      heat: heat ? { heatName: heat.heatName, heatNo: heat.heatNo } : null,
      period: market.roundId ? (sources.rounds.get(market.roundId)?.roundName ?? null) : null,
      exactasType: market.exactasType,
      overUnderSubMarketType: market.overUnderSubMarketType,
      line: market.line,
      teamMarketType: market.teamMarketType,
      proposition: market.proposition,
      places: market.places,
      subjects: ids(market.athleteIds).map(nameOf),
    },
    {
      athlete: odd.athleteId ? nameOf(odd.athleteId) : null,
      athletes: ids(odd.athleteIds).map(nameOf),
      opponent: market.oddType === 'headToHead' && opponent ? nameOf(opponent) : null,
      side,
      name: odd.name,
      team: teamId ? (sources.teams.get(teamId)?.name ?? null) : null,
    },
  );
}
